"""Conqueror: Empire Rises for players by mail: the orders template at the end of each private report and welcome
(per step kind: Conquest mode's purchases, ER-3.11; the sealed plans step; the campaign turns), the effect of each
card in words made from its effect codes (ER-13.6), HELP per ruleset, and `pbem rulesets` naming the seats."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Pbem

# -- pbem rulesets ---------------------------------------------------------------------------------------------------


def test_ER_3_3_pbem_rulesets_says_conqueror_is_playable_and_lists_the_seats_of_its_example_data(pbem: Pbem) -> None:
    result = pbem("rulesets", data=False)
    assert result.exit_code == 0, result.output
    assert "being built" not in result.output
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("conqueror-er"))
    block = "\n".join(lines[start : start + 9])
    assert "example data" in block and "--game-data" in block
    assert "kesh (Keshite Thalassocracy)" in block and "3 players: aurel, kesh, thal" in block
    classic = next(i for i, line in enumerate(lines) if line.startswith("coe-classic"))
    assert "seats: Macedonia" in lines[classic + 1]  # a ruleset whose seats ship with it


def test_ER_13_pbem_rulesets_game_data_lists_the_moderators_seats(pbem: Pbem, tmp_path: Path) -> None:
    from tests.test_conqueror_new import data_copy

    folder = data_copy(tmp_path)
    text = (folder / "factions.toml").read_text(encoding="utf-8")
    (folder / "factions.toml").write_text(text.replace('"Keshite Thalassocracy"', '"Sea Kings"'), encoding="utf-8")
    result = pbem("rulesets", "--game-data", str(folder), data=False)
    assert result.exit_code == 0, result.output
    assert "kesh (Sea Kings)" in result.output and str(folder) in result.output
    assert "example data" not in result.output
