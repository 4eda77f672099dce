"""Conqueror: Empire Rises: the conventions, components and setup rules no test named before (tests.rule_coverage):
ER-0, ER-1, ER-3.1, ER-4.3, ER-5.1, ER-14.1, ER-15.12. Each test sets up a real position on our own example data
(games/conqueror-er/example-data, invented for pbem), resolves it through the engine and checks what the rule
demands, refusals included.

Left uncovered on purpose: ER-0.2 (the spec's own tags Gap/Ambiguity/Resolution/Data/Source: a way of writing
the spec, no behaviour to check) and ER-0.8 (Seas of Destiny as an optional module: the module is being built;
today its orders are refused as "not built yet")."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.loader import check_folder, load_folder
from adjudicator.rulesets.conqueror.politics import board_of, district_price
from adjudicator.rulesets.conqueror.setup import game_options
from adjudicator.rulesets.conqueror.state import INDEPENDENT, Army, GameState, fort_count, fort_of
from tests.conftest import Pbem
from tests.test_conqueror_battle import army, battle
from tests.test_conqueror_battle import run as run_battle
from tests.test_conqueror_campaign import campaign_of
from tests.test_conqueror_campaign import play as play_campaign
from tests.test_conqueror_data import broken, copy, found, replace
from tests.test_conqueror_new import data_copy, new_er, whole_snapshot
from tests.test_conqueror_politics import plans_position, play
from tests.test_conqueror_setup import run, to_phase
from tests.test_conqueror_state import dice, example, set_up

RULES = resource_dir("games") / "conqueror-er" / "rules.md"
RULE_ID = re.compile(r"ER-\d+(?:\.\d+)+")


def spec_ids() -> set[str]:
    """Every rule ID the spec defines (ER-0.1: `- ER-<section>.<n>` items, and the rows of its tables)."""
    text = RULES.read_text(encoding="utf-8")
    return set(re.findall(r"^- (ER-\d+\.\d+)", text, re.M)) | set(re.findall(r"^\| (ER-\d+\.\d+) ", text, re.M))


def refusals(result: StepResult) -> list[tuple[str, str, str]]:
    return [(seat, r.rule, r.reason) for seat, rs in result.order_results.items() for r in rs if not r.accepted]


# -- ER-0: conventions --------------------------------------------------------------------------------------------


def test_ER_0_1_every_refusal_cites_a_rule_id_of_the_spec() -> None:
    known = spec_ids()
    rules, state = plans_position()
    state.players["aurel"].coins = 2
    plans = "\n".join(
        (
            "AGENT UPGRADE CAVALRY SPACE 2",
            "RECRUIT 3 CAV AT AUR, HERO kesh-1, 1 INF AT MIR, ELITE",
            "FOOD USE",
            "PAY 99 TO kesh",
            "DYNASTY",
        )
    )
    seen = refusals(play(rules, state, {"aurel": plans}))
    rules, state = campaign_of("aurel")
    seen += refusals(play_campaign(rules, state, "aurel", [], "MOVE 9 CAV: AUR -> SOL", "MOVE 1 INF: AUR -> KES"))
    assert len(seen) >= 9
    for seat, rule, reason in seen:
        cited = RULE_ID.findall(rule) + RULE_ID.findall(reason)
        assert cited and set(cited) <= known, (seat, rule, reason)


def test_ER_0_3_a_built_fort_is_a_fort_for_the_count_and_the_defence() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    bare = next(a for a, x in sorted(side.areas.items()) if x.land and x.fort == "none" and a not in state.army)
    before = fort_count(state, side, "aurel")
    state.army[bare] = Army("aurel", {"infantry": 1})
    assert fort_count(state, side, "aurel") == before  # an area without a fort counts nothing
    state.fort_markers.append(bare)  # ER-5.14: a fort marker placed with the Fort district
    assert fort_of(state, side, bare) == "small" and fort_count(state, side, "aurel") == before + 1  # ER-2.8
    built = battle(army("a", "O", infantry=2), army("d", "X", infantry=2), fort="built")
    small = battle(army("a", "O", infantry=2), army("d", "X", infantry=2), fort="small")
    outcome_built, _ = run_battle(built, [1, 1])
    outcome_small, _ = run_battle(small, [1, 1])
    assert (
        outcome_built.strengths == outcome_small.strengths == {"attacker": 2 + 1, "defender": 2 + 1 + 1}
    )  # die 1 each; ER-8.16d +1


def test_ER_0_6_only_empire_rises_cards_the_check_refuses_other_card_kinds_and_extra_tactics(tmp_path: Path) -> None:
    extra = '[[tactic]]\nid = "base-game-card"\nname = "Base"\ncount = 1\nstrength = 1\neffects = []\n'
    problems = broken(
        tmp_path,
        ("cards.toml", "[[automa]]", '[[objective]]\nid = "base-1"\n\n[[automa]]'),
        ("cards.toml", "[[automa]]", extra + "\n[[automa]]"),
    )
    found(problems, "cards.toml", "objective", "ER-13.4", p.UNKNOWN_KEY)  # no such kind of card in Empire Rises
    assert found(problems, "cards.toml", "tactic", "ER-1.2", p.TACTIC_TOTAL).say.values["found"] == 39  # 38 only


def test_ER_0_9_ER_3_13_reports_say_emperor_mode_and_emperor_is_accepted(pbem: Pbem, tmp_path: Path) -> None:
    seats = {"kesh": "k@example.org", "aurel": "a@example.org", "thal": "t@example.org"}
    assert new_er(pbem, data_copy(tmp_path), "--mode", "emperor", seats=seats).startswith("0\n")
    assert whole_snapshot(pbem, 1)["public"]["mode"] == "imperator"  # the stable identifier
    report = (pbem.data / "games" / "er1" / "turn-0001" / "report.txt").read_text(encoding="utf-8")
    assert "game in Emperor mode" in report and "Round 1, Emperor mode" in report and "imperator" not in report
    assert new_er(pbem, data_copy(tmp_path / "c"), "--mode", "conquest", name="er2", seats=seats).startswith("0\n")
    report = (pbem.data / "games" / "er2" / "turn-0001" / "report.txt").read_text(encoding="utf-8")
    assert "game in Conquest mode" in report


# -- ER-1: components and limits ----------------------------------------------------------------------------------


def test_ER_1_3_coins_have_no_limit() -> None:
    earned = {}
    for start in (0, 1_000_000):
        rules, state = set_up(4)
        state.players["aurel"].coins = start
        state.phase = "taxation"
        state, _ = run(rules, state)
        earned[start] = state.players["aurel"].coins - start
    assert earned[1_000_000] == earned[0] > 0  # a fortune is taxed like an empty purse: nothing is capped
    rules, state = plans_position()
    state.players["aurel"].coins = 1_000_000
    result = play(rules, state, {"aurel": "PAY 9999 TO kesh"})  # the order language's largest number
    assert result.order_results["aurel"][0].accepted and result.state.players["kesh"].coins == 6 + 9_999


def test_ER_1_4_district_slots_come_from_the_board_data(tmp_path: Path) -> None:
    rules, state = plans_position()
    assert board_of(state, rules.data, "aurel").district_slots == 4  # the example's value, the Resolution's 4
    state.players["aurel"].coins = 30
    state.players["aurel"].districts = {"granary": 2, "academy": 2}  # 4 slots full
    result = play(rules, state, {"aurel": "AGENT BAZAAR"})
    refused = result.order_results["aurel"][0]
    assert not refused.accepted and "no free civil district slot on the player board (ER-5.13)" in refused.reason
    folder = copy(tmp_path)
    replace(folder, "factions.toml", "district_slots = 4", "district_slots = 5")  # the first board only
    data = load_folder(folder)
    five = next(f for f, x in data.factions.items() if x.standard.district_slots == 5)
    rules5 = load_ruleset("conqueror-er").with_data(data, game_options(data, "imperator", {}))  # type: ignore[attr-defined]
    assert isinstance(rules5, ConquerorGame)
    state = to_phase(rules5, set_up_with(rules5, 3), "plans")
    state.players[five].coins = 30
    state.players[five].districts = {"granary": 2, "academy": 2}
    result = play(rules5, state, {five: "AGENT BAZAAR"})
    assert result.order_results[five][0].accepted and result.state.players[five].districts["bazaar"] == 1


def set_up_with(rules: ConquerorGame, players: int) -> GameState:
    """A game of `players` on `rules`'s own data after its setup step."""
    state = rules.initial_state("g1", list(rules.data.setup.factions_by_players[players]))
    step = rules.due(state)
    assert step is not None
    return resolve_step(rules, state, step, {}, dice()).state


def test_ER_1_5_the_unidentified_component_group_has_no_place_in_the_data(tmp_path: Path) -> None:
    """ER-1.5: the group has no known rule effect, so the data format holds no key for it; a moderator who writes
    one is told the key is unknown (file and key named) rather than having it silently ignored."""
    problems = broken(tmp_path, ("game-data.toml", "[options]", "[components]\nblack = 2\n\n[options]"))
    found(problems, "game-data.toml", "components", "ER-13", p.UNKNOWN_KEY)
    assert check_folder(resource_dir("games") / "conqueror-er" / "example-data").problems == []


# -- ER-3.1: the two modes ----------------------------------------------------------------------------------------


def holding_forts(mode: str, forts: int) -> tuple[ConquerorGame, GameState]:
    """A 4-player game at the end of round 1 in which aurel controls exactly `forts` forts."""
    rules, state = set_up(4, mode)
    side = example().map_for(4)
    spare = [a for a, x in sorted(side.areas.items()) if x.land and x.fort != "none" and x.capital is None]
    for area in spare:
        if fort_count(state, side, "aurel") >= forts:
            break
        if state.army.get(area, Army("aurel")).owner in ("aurel", INDEPENDENT):
            state.army[area] = Army("aurel", {"infantry": 1})
    assert fort_count(state, side, "aurel") == forts
    state.phase = "end_of_round"
    return rules, state


def test_ER_3_1_emperor_mode_ten_rounds_six_forts_conquest_five_rounds_five_forts() -> None:
    assert example().tracks.rounds == {"imperator": 10, "conquest": 5}
    rules, state = holding_forts("imperator", 5)
    state, _ = run(rules, state)
    assert not state.ended and state.round == 2  # 5 forts are not enough in Emperor mode
    rules, state = holding_forts("imperator", 6)
    state, _ = run(rules, state)
    assert state.ended and state.winners == ["aurel"]
    rules, state = holding_forts("conquest", 5)
    state, _ = run(rules, state)
    assert state.ended and state.winners == ["aurel"]
    for mode, last in (("imperator", 10), ("conquest", 5)):
        rules, state = set_up(4, mode)
        state.round, state.phase = last - 1, "end_of_round"
        state, _ = run(rules, state)
        assert not state.ended and state.round == last
        state.phase = "end_of_round"
        state, _ = run(rules, state)
        assert state.ended  # the last round of the mode ends the game (ER-10.2)


# -- ER-4.3: Preparation resolved in turn order ---------------------------------------------------------------------


def test_ER_4_3_preparation_in_any_turn_order_gives_the_same_result() -> None:
    texts = {
        "kesh": "RECRUIT 1 CAV AT KES, ELITE",
        "aurel": "RECRUIT 2 INF AT AUR, HERO aurel-2",
        "thal": "RECRUIT 1 ARC 1 INF AT THA",
    }
    results = []
    for order in (["kesh", "aurel", "thal"], ["thal", "aurel", "kesh"]):
        rules, state = plans_position()
        for player in state.players.values():
            player.coins, player.food_bonus = 12, 3
        state.turn_order = order
        after = play(rules, state, texts).state
        results.append(
            (
                {a: (x.owner, dict(x.units)) for a, x in after.army.items()},
                {f: (x.coins, sorted(x.heroes_down), x.elite) for f, x in after.players.items()},
            )
        )
    assert results[0] == results[1]
    assert results[0][1]["aurel"][1] == ["aurel-2"] and results[0][1]["kesh"][2] == "recruited"


# -- ER-5.1: what coins buy -----------------------------------------------------------------------------------------


def test_ER_5_1_the_elite_a_hero_a_district_an_upgrade_and_a_transfer_each_spend_coins() -> None:
    rules, state = plans_position()
    data = rules.data
    aurel = state.players["aurel"]
    aurel.coins = 40
    elite = board_of(state, data, "aurel").elite.cost
    hero = next(h.cost for h in data.cards.heroes if h.id == "aurel-2")
    bazaar = district_price(aurel, data, "bazaar", "district:bazaar:1")
    text = "AGENT BAZAAR\nRECRUIT ELITE, HERO aurel-2\nPAY 3 TO kesh"
    result = play(rules, state, {"aurel": text})
    assert all(r.accepted for r in result.order_results["aurel"])
    assert result.state.players["aurel"].coins == 40 - bazaar - elite - hero - 3
    assert result.state.players["kesh"].coins == 6 + 3
    rules, state = plans_position()
    state.players["aurel"].coins = 40
    upgrade = rules.data.tracks.upgrades["cavalry"][0]
    result = play(rules, state, {"aurel": "AGENT UPGRADE heavy-cavalry"})
    assert result.order_results["aurel"][0].accepted and result.state.players["aurel"].coins == 40 - upgrade


# -- ER-14.1: factions and boards -----------------------------------------------------------------------------------


def test_ER_14_1_the_moderator_assigns_each_seat_its_faction_on_the_standard_board(pbem: Pbem, tmp_path: Path) -> None:
    seats = {"thal": "t@example.org", "kesh": "k@example.org", "aurel": "a@example.org"}
    assert new_er(pbem, data_copy(tmp_path), seats=seats).startswith("0\n")
    snapshot = whole_snapshot(pbem, 1)
    assert set(snapshot["public"]["factions"]) == set(seats)
    assert all(f["board"] == "standard" for f in snapshot["public"]["factions"].values())  # ER-3.7
    assert set(snapshot["private"]) == set(seats)  # each seat plays the faction it was given


# -- ER-15.12: district cards run out -------------------------------------------------------------------------------


def test_ER_15_12_when_a_districts_cards_run_out_nobody_can_build_it() -> None:
    rules, state = plans_position()
    assert state.supply.districts["bazaar"] == 3  # N copies at N players (ER-1.2)
    state.supply.districts["bazaar"] = 1  # two were built in earlier rounds
    for player in state.players.values():
        player.coins = 20
    result = play(rules, state, {"kesh": "AGENT BAZAAR", "aurel": "AGENT BAZAAR ELSE GRANARY"})
    assert result.state.players["kesh"].districts == {"bazaar": 1} and result.state.supply.districts["bazaar"] == 0
    aurel = result.order_results["aurel"][0]
    assert aurel.accepted and "no bazaar card is left in the supply (ER-15.12)" in aurel.reason
    assert result.state.players["aurel"].districts == {"granary": 1}
