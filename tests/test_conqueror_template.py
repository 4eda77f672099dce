"""Conqueror: Empire Rises for players by mail: the orders template at the end of each private report and welcome
(per step kind: Conquest mode's purchases, ER-3.11; the sealed plans step; the campaign turns), the effect of each
card in words made from its effect codes (ER-13.6), HELP per ruleset, and `pbem rulesets` naming the seats."""

from __future__ import annotations

from pathlib import Path

from adjudicator.rulesets.conqueror.card_text import card_words
from adjudicator.rulesets.conqueror.data import GameData
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


# -- cards in words (ER-13.6) ----------------------------------------------------------------------------------------


def example_data() -> GameData:
    from adjudicator.rulesets.conqueror.loader import load_folder
    from tests.test_conqueror_new import EXAMPLE

    return load_folder(EXAMPLE)


def test_ER_13_6_each_card_is_described_from_its_effect_codes() -> None:
    data = example_data()
    assert card_words("en", data, "kesh-3") == (
        "kesh-3 Harro Coinmaster (hero, strength 1, cost 3): coins +2 (after a battle won; if the battle is won)"
    )
    assert card_words("en", data, "last-stand") == (
        "last-stand Last Stand (tactic card, strength 1): defence +1 (in battle, at the melee; when defending; on land)"
    )
    assert card_words("en", data, "forced-march") == (
        "forced-march Forced March (tactic card, strength 0): own units may move twice (at the start of each of its "
        "campaign turns; until the end of the campaign turn)"
    )
    assert card_words("en", data, "good-harvest") == (
        "good-harvest Good Harvest (chronicle, level 1): food supply +1 (at each New Year; for every player; until "
        "the end of the round)"
    )
    assert card_words("en", data, "automa-5") == "automa-5 (automa card, strength 3, unblockable casualties 1)"
    assert card_words("de", data, "last-stand") == (
        "last-stand Last Stand (Taktikkarte, Stärke 1): Verteidigung +1 (in der Schlacht, beim Nahkampf; als "
        "Verteidiger; an Land)"
    )
    # every card of the example data, which uses every op, trigger and condition, reads in each language
    cards = data.cards
    ids = [c.id for c in (*cards.heroes, *cards.tactics, *cards.chronicles, *cards.megaprojects, *cards.automa)]
    for language in ("de", "it", "nl"):
        for card in ids:
            english, spoken = card_words("en", data, card), card_words(language, data, card)
            assert spoken != english or ":" not in english, (language, card, spoken)


def test_ER_8_14_a_card_played_in_battle_is_described_in_the_public_report() -> None:
    from adjudicator.render import render
    from tests.test_conqueror_campaign import FOUR, ONE, campaign_of, kesh_in, play

    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=1)
    result = play(rules, state, "aurel", [FOUR, FOUR, FOUR, ONE], "ATTACK 1 CAV 1 INF 1 ARC: AUR -> MIR TACTICS rally")
    public = [e for e in rules.report_events(result.events, None) if e.visible_to is None]

    def told(language: str) -> str:
        return "\n".join(
            render("_sentence.txt.j2", language, event=e, ruleset_templates="conqueror").strip() for e in public
        )

    assert "tactic cards rally (ER-8.14).\n    rally Rally (tactic card, strength 1): melee die re-rolls: up to 1" in (
        told("en")
    )
    assert card_words("it", rules.data, "rally") in told("it")


def test_ER_3_5_the_private_report_describes_each_card_in_hand(pbem: Pbem, tmp_path: Path) -> None:
    import json

    from tests.test_conqueror_new import data_copy, new_er
    from tests.test_conqueror_plans_cli import SEATS3

    created = new_er(pbem, data_copy(tmp_path), "--language", "kesh=nl", seats=SEATS3)
    assert created.startswith("0\n"), created
    turn = pbem.data / "games" / "er1" / "turn-0001"
    data = example_data()
    for seat, language in (("kesh", "nl"), ("aurel", "en")):
        hand = json.loads((turn / f"snapshot-{seat}.json").read_text())["private"][seat]["hand"]
        report = (turn / f"report-{seat}.txt").read_text()
        assert hand and all(card_words(language, data, card) in report for card in hand), report
