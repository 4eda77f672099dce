"""Conqueror: Empire Rises through the CLI: `pbem data template|check` with their exit
codes and output, the ruleset listed as playable with its data, and `pbem new` refusing a game without its data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.engine.protocol import Ruleset, game_data_of
from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.services.game_data import check_data
from tests.conftest import Pbem

EXAMPLE = resource_dir("games") / "conqueror-er" / "example-data"
NEEDS_DATA = "conqueror-er: a game is played with its data: `pbem new --ruleset conqueror-er --game-data DIR`"


def test_ER_13_pbem_data_check_says_the_example_is_complete_and_exits_0(pbem: Pbem) -> None:
    result = pbem("data", "check", str(EXAMPLE), data=False)
    assert result.exit_code == 0, result.output
    assert result.output == f"{EXAMPLE}: the data is complete (conqueror-er)\n"


def test_ER_13_a_fresh_template_fails_the_check_naming_file_key_and_rule_of_each_value(
    pbem: Pbem, tmp_path: Path
) -> None:
    folder = tmp_path / "mine"
    written = pbem("data", "template", "conqueror", str(folder), data=False)  # found by its alias
    assert written.exit_code == 0, written.output
    assert "Wrote 6 files into" in written.output and "cards.toml" in written.output
    checked = pbem("data", "check", str(folder), data=False)
    assert checked.exit_code == 1
    lines = checked.output.splitlines()
    assert "game-data.toml: edition (ER-13): still empty: fill it in" in lines
    assert "cards.toml: hero[0].cost (ER-6.10): still empty: fill it in" in lines
    note = "note: factions.toml: faction[5].board[0].elite.cost (ER-6.13): elite cost 2 is the pre-release default"
    assert f"{note} of ER-6.13: confirm it against the printed board" in lines
    problems = [line for line in lines if "(ER-" in line and not line.startswith("note: ")]
    assert lines[-1] == f"{folder}: problems found: {len(problems)}" and len(problems) > 350


def test_ER_13_the_check_of_a_filled_in_folder_passes_once_every_value_is_given(pbem: Pbem, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    shutil.copytree(EXAMPLE, folder)
    text = (folder / "tracks.toml").read_text(encoding="utf-8")
    (folder / "tracks.toml").write_text(text.replace("vp_per_district = 2", 'vp_per_district = ""'), encoding="utf-8")
    assert pbem("data", "check", str(folder), data=False).output.splitlines() == [
        "tracks.toml: scoring.vp_per_district (ER-10.3): still empty: fill it in",
        f"{folder}: problems found: 1",
    ]
    (folder / "tracks.toml").write_text(text, encoding="utf-8")
    assert pbem("data", "check", str(folder), data=False).exit_code == 0


def test_ER_13_7_pbem_data_check_private_names_a_text_keyed_to_nothing(pbem: Pbem, tmp_path: Path) -> None:
    private = tmp_path / "private-texts"
    private.mkdir()
    texts = '[tactic.charge]\ntext = "ok"\n[tactic.chrage]\ntext = "typo"\n'
    (private / "cards.toml").write_text(texts, encoding="utf-8")
    result = pbem("data", "check", str(EXAMPLE), "--private", str(private), data=False)
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        "private/cards.toml: tactic.chrage.text (ER-13.7): this private text is keyed to nothing in the shared data"
    )


def test_pbem_data_template_refuses_an_existing_file_and_a_ruleset_without_game_data(
    pbem: Pbem, tmp_path: Path
) -> None:
    (tmp_path / "game-data.toml").write_text("# mine\n", encoding="utf-8")
    refused = pbem("data", "template", "conqueror-er", str(tmp_path), data=False)
    assert refused.exit_code == 1 and "game-data.toml already exist; choose an empty folder" in refused.output
    assert (tmp_path / "game-data.toml").read_text(encoding="utf-8") == "# mine\n"
    classic = pbem("data", "template", "coe-classic", str(tmp_path / "coe"), data=False)
    assert classic.exit_code == 1
    assert "ruleset coe-classic has no game data to fill in: its data ships with it" in classic.output
    assert not (tmp_path / "coe").exists()


def test_pbem_data_check_needs_a_folder_naming_its_ruleset(pbem: Pbem, tmp_path: Path) -> None:
    unnamed = pbem("data", "check", str(tmp_path), data=False)
    assert unnamed.exit_code == 1 and "game-data.toml does not name its ruleset" in unnamed.output
    given = pbem("data", "check", str(tmp_path), "--ruleset", "er", data=False)  # the ruleset given instead
    assert given.exit_code == 1 and "game-data.toml (ER-13): the file is missing" in given.output
    missing = pbem("data", "check", str(tmp_path / "nowhere"), data=False)
    assert missing.exit_code == 1 and "nowhere is no folder" in missing.output


def test_the_service_checks_through_the_registry_in_the_readers_language() -> None:
    result = check_data(EXAMPLE, language="de")
    assert result.complete and result.ruleset == "conqueror-er" and result.notes == []


# -- a ruleset whose play needs the moderator's data -----------------------------------------------------------


def test_pbem_rulesets_lists_conqueror(pbem: Pbem) -> None:
    result = pbem("rulesets", data=False)
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.output.splitlines() if line.startswith("conqueror-er")]
    assert "Conqueror: Empire Rises" in line


def test_conqueror_is_a_ruleset_with_the_optional_game_data_member_and_plays_only_with_data() -> None:
    ruleset = load_ruleset("er")
    assert isinstance(ruleset, Ruleset) and load_ruleset("conqueror") is ruleset and ruleset.name == "conqueror-er"
    assert game_data_of(ruleset) is not None and ruleset.example_data == EXAMPLE  # type: ignore[attr-defined]
    assert game_data_of(load_ruleset("coe-classic")) is None
    for call in (
        lambda: ruleset.initial_state("g", ["aurel", "kesh", "thal"]),
        lambda: ruleset.lookup_seat("aurel"),
        lambda: ruleset.due(None),
        lambda: ruleset.read_snapshot({}),
        lambda: ruleset.snapshot(None),
    ):
        with pytest.raises(PbemError) as refused:
            call()
        assert str(refused.value) == NEEDS_DATA


def test_pbem_new_with_conqueror_without_its_data_refuses_with_one_message_and_stores_nothing(pbem: Pbem) -> None:
    result = pbem("new", "er1", "--ruleset", "conqueror-er", "--seat", "aurel=a@example.org", "--seat", "kesh=k@x.org")
    assert result.exit_code == 1
    assert result.output == (
        "error: conqueror-er: name the game's data with --game-data DIR (`pbem data template conqueror-er DIR` "
        "writes one to fill in, `pbem data check DIR` checks it)\n"
    )
    assert not (pbem.data / "games").exists()
    with Archive.open(pbem.data, pbem.db).session() as session:
        assert db.game_named(session, "er1") is None
