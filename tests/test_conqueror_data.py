"""Conqueror: Empire Rises, the moderator's game data (ER-13): the example data set loads into typed values, and
the checker names every problem of a broken copy at once, each with its file, key and rule ID. Broken copies are
the example folder with one text replaced (`broken`)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from adjudicator.engine.board import BRIDGE, LAND_BORDER, RIVER
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror import vocabulary as vocab
from adjudicator.rulesets.conqueror.data import Effect, GameData, Options
from adjudicator.rulesets.conqueror.loader import FILES, GameDataError, check_folder, load_folder
from adjudicator.rulesets.conqueror.problems import Problem
from adjudicator.rulesets.conqueror.template import write_template
from adjudicator.rulesets.conqueror.vocabulary import Counter, FortLimit, Place, Trigger, UnitCount, UnitSelector

EXAMPLE = resource_dir("games") / "conqueror-er" / "example-data"


def example() -> GameData:
    return load_folder(EXAMPLE)


def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(EXAMPLE, folder)
    return folder


def replace(folder: Path, file: str, old: str, new: str) -> None:
    """Replace the first `old` of `file` (which must hold it) by `new`."""
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {file}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def broken(tmp_path: Path, *edits: tuple[str, str, str]) -> list[Problem]:
    """The problems of a copy of the example with the edits (file, old, new) made."""
    folder = copy(tmp_path)
    for file, old, new in edits:
        replace(folder, file, old, new)
    return check_folder(folder).problems


def found(problems: list[Problem], file: str, key: str, rule: str, msgid: str) -> Problem:
    """The one problem of `problems` at file/key/rule with that message."""
    matches = [x for x in problems if (x.file, x.key, x.rule, x.say.msgid) == (file, key, rule, msgid)]
    assert len(matches) == 1, "\n".join(x.text() for x in problems)
    return matches[0]


def all_effects(data: GameData) -> list[Effect]:
    effects: list[Effect] = []
    for faction in data.factions.values():
        effects += faction.dynasty + faction.dynasty_back
        for board in faction.boards:
            effects += board.ability + board.elite.effects
    for spaces in data.tracks.trade.values():
        for space in spaces:
            effects += space.effects
    cards = data.cards
    for group in (cards.heroes, cards.tactics, cards.chronicles, cards.megaprojects):
        for card in group:
            effects += card.effects
    return effects


# -- the example data set (our own invented data) ------------------------------------------------------------------


def test_ER_13_the_example_data_is_complete_and_plainly_named_an_invention() -> None:
    report = check_folder(EXAMPLE)
    assert report.problems == [] and report.notes == []
    data = example()
    assert data.example is True and "invented for pbem; not the printed game" in data.edition
    for file in FILES:
        assert "NOT the printed game" in (EXAMPLE / file).read_text(encoding="utf-8")


def test_ER_1_2_ER_13_4_the_example_has_the_component_counts() -> None:
    cards = example().cards
    assert len(cards.heroes) == 30 and sum(t.count for t in cards.tactics) == 38 and len(cards.automa) == 5
    assert [sum(c.level == level for c in cards.chronicles) for level in (1, 2, 3)] == [4, 3, 4]
    assert [sum(m.type == kind for m in cards.megaprojects) for kind in ("wonder", "temple", "port")] == [6, 6, 6]
    assert all(1 <= automa.strength <= 3 for automa in cards.automa)  # ER-8.31


def test_ER_13_6_the_example_covers_every_op_trigger_condition_who_and_duration() -> None:
    effects = all_effects(example())
    assert {e.op for e in effects} == set(vocab.OPS)
    assert {e.when.name for e in effects} == set(vocab.TRIGGERS)
    assert {c.name for e in effects for c in e.conditions} == set(vocab.CONDITIONS)
    assert {e.who for e in effects} == set(vocab.WHO)
    assert {e.duration for e in effects} == set(vocab.DURATIONS)
    places = {e.place("where").kind for e in effects if e.place("where")}  # type: ignore[union-attr]
    assert places == set(vocab.PLACES)
    assert {s.side for e in effects for s in (e.selector("per"), e.selector("units")) if s} == set(vocab.SELECTOR_SIDES)


def test_ER_13_6_effects_are_read_into_typed_values() -> None:
    data = example()
    hero = next(h for h in data.cards.heroes if h.id == "thal-1")
    (effect,) = hero.effects
    assert effect.op == "strength" and effect.when == Trigger("battle.melee") and effect.duration == "battle"
    assert (
        effect.number("n") == 1
        and effect.args["cap"] == 3
        and effect.selector("per") == UnitSelector("own", "infantry")
    )
    persia_like = data.factions["varun"].standard.ability[0]
    assert persia_like.counter("per") == Counter("income", 5) and persia_like.when == Trigger("taxation")
    dynasty = data.factions["kesh"].dynasty
    assert dynasty[0].conditions[0].value == FortLimit(1, 2) and dynasty[2].place("where") == Place("area", "KES")
    assert data.factions["kesh"].dynasty_back[0].when == Trigger("on_food_le", 2)
    elite = data.factions["sunmar"].standard.elite
    assert elite.types == {"cavalry"} and elite.effects[0].conditions[0].value == UnitCount("infantry", 1)
    assert next(h for h in data.cards.heroes if h.id == "kesh-5").effects[0].args["unblockable"] is True
    assert next(h for h in data.cards.heroes if h.id == "aurel-2").effects[0].args == {"n": 1}


def test_ER_13_1_each_board_side_is_an_engine_board_with_the_river_and_bridges_as_typed_links() -> None:
    data = example()
    small, large = data.map_for(3), data.map_for(6)
    assert (len(small.areas), len(large.areas)) == (20, 23) and data.map_for(4) is small and data.map_for(5) is large
    assert small.river() == {"DUN", "ORO", "ESE"}  # ER-2.2: mutually adjacent by the river
    assert small.board.link_kind("DUN", "ESE") == RIVER and "ESE" not in small.board.adjacency["DUN"]
    assert small.board.link_kind("ILS", "GAR") == BRIDGE and large.bridges() == (("ILS", "GAR"), ("SOL", "ILS"))
    assert small.board.link_kind("AUR", "MIR") == LAND_BORDER
    aurelia = small.areas["AUR"]
    assert (aurelia.capital, aurelia.fort, aurelia.food, aurelia.coins, aurelia.europe) == (
        "aurel",
        "large",
        2,
        2,
        True,
    )
    assert (
        small.capital_of("thal") == "THA" and large.capital_of("ostra") == "OST" and small.capital_of("ostra") is None
    )
    assert not small.areas["PEL"].wharf_site and small.areas["THA"].wharf_site  # ER-12.9
    assert small.fort_at("BRE", 3) == "none" and small.fort_at("BRE", 4) == "large"  # ER-3.4, ER-2.7
    assert [a.area for a in small.independents[4]] == ["MIR", "VAL", "TEM"]  # ER-3.8
    assert small.independents[3][0].units.cavalry == 2


def test_ER_13_2_factions_boards_and_setup() -> None:
    data = example()
    assert data.setup.factions_by_players[3] == ("aurel", "kesh", "thal") and data.setup.start_player == "kesh"
    kesh = data.factions["kesh"]
    assert [b.kind for b in kesh.boards] == ["standard", "alternative", "alternative"]
    assert (
        kesh.standard.base_income == 3 and kesh.standard.district_slots == 4 and kesh.standard.barracks.infantry == 10
    )
    assert kesh.board("alternative-1").barracks == kesh.standard.barracks  # inherited from the standard board
    assert kesh.board("alternative-1").elite.name == "Reef Archers"
    (start,) = kesh.standard.start[("imperator", 3)]
    assert start.area == "KES" and (start.units.cavalry, start.units.infantry, start.units.archer) == (1, 2, 1)
    assert ("imperator", 3) not in data.factions["ostra"].standard.start  # ER-3.3: the 6th faction plays at 6


def test_ER_13_3_tracks_and_prices() -> None:
    tracks = example().tracks
    assert tracks.rounds == {"imperator": 10, "conquest": 5}
    assert tracks.trade["imperator"][-1].redeploy and tracks.trade["imperator"][-1].vp == 5
    assert tracks.districts["bazaar"][0] == 3 and tracks.districts["academy"] == (4, 6)
    assert tracks.max_units(1) == 4 and tracks.max_units(99) == 20
    assert tracks.scoring.upgrade_bonus_count == 4


def test_ER_13_5_options_default_to_the_resolutions_and_a_wrong_one_is_named(tmp_path: Path) -> None:
    options = example().options
    assert (
        options == Options()
        and options.chronicle_in_round1("conquest")
        and not options.chronicle_in_round1("imperator")
    )
    problems = broken(tmp_path, ("game-data.toml", 'long_spears_cap = "per_unit"', 'long_spears_cap = "per_army"'))
    found(problems, "game-data.toml", "options.long_spears_cap", "ER-9.4", p.NOT_ONE_OF)


# -- every class of problem, named by file, key and rule ----------------------------------------------------------


def test_ER_2_1_ER_13_1_adjacency_must_be_symmetric(tmp_path: Path) -> None:
    problems = broken(
        tmp_path, ("board-3-4.toml", 'adjacent = ["MIR", "NSE", "SOL", "WSE"]', 'adjacent = ["NSE", "SOL", "WSE"]')
    )
    problem = found(problems, "board-3-4.toml", "area[1].adjacent[0]", "ER-2.1", p.NOT_SYMMETRIC)
    assert problem.text() == (
        "board-3-4.toml: area[1].adjacent[0] (ER-2.1): MIR lists AUR as adjacent, but AUR does not list MIR"
    )


def test_ER_13_1_an_unknown_area_a_missing_value_and_a_wrong_type(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("board-3-4.toml", 'adjacent = ["AUR", "BRE", "SOL"]', 'adjacent = ["AUR", "BRE", "SOL", "XYZ"]'),
        ("board-3-4.toml", 'fort = "small"\n', ""),
        ("board-5-6.toml", "food = 2\ncoins = 0", 'food = "two"\ncoins = 0'),
    )
    found(problems, "board-3-4.toml", "area[1].adjacent[3]", "ER-2.1", p.NO_AREA)
    found(problems, "board-3-4.toml", "area[2].fort", "ER-2.6", p.MISSING)
    wrong = found(problems, "board-5-6.toml", "area[1].food", "ER-5.30", p.WRONG_TYPE)
    assert wrong.say.text() == "expected an integer, found 'two'"


def test_ER_2_6_a_capital_of_no_faction_and_a_faction_without_a_capital(tmp_path: Path) -> None:
    problems = broken(tmp_path, ("board-3-4.toml", 'capital = "thal"', 'capital = "thalia"'))
    found(problems, "board-3-4.toml", "area[9].capital", "ER-2.6", p.UNKNOWN_FACTION)
    missing = found(problems, "board-3-4.toml", "area", "ER-2.6", p.NO_CAPITAL)
    assert "faction thal plays at 3 players" in missing.say.text()


def test_ER_2_6_a_capital_is_a_large_fort_on_land(tmp_path: Path) -> None:
    problems = broken(
        tmp_path, ("board-5-6.toml", 'fort = "large"\ncapital = "kesh"', 'fort = "small"\ncapital = "kesh"')
    )
    assert found(problems, "board-5-6.toml", "area[7].capital", "ER-2.6", p.CAPITAL_NOT_LARGE).say.values == {
        "kind": "land",
        "fort": "small",
    }


def test_ER_2_2_the_river_joins_all_its_areas_and_a_bridge_joins_land(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("board-3-4.toml", 'between = ["ORO", "ESE"]\nkind = "river"', 'between = ["ORO", "PEL"]\nkind = "river"'),
        ("board-5-6.toml", 'between = ["SOL", "ILS"]', 'between = ["SOL", "WSE"]'),
        ("board-5-6.toml", 'between = ["ILS", "GAR"]\nkind = "bridge"', 'between = ["ILS", "GAR"]\nkind = "ford"'),
    )
    river = [x.say.values for x in problems if x.say.msgid == p.RIVER_NOT_MUTUAL]
    assert river == [{"a": "DUN", "b": "PEL"}, {"a": "ESE", "b": "ORO"}, {"a": "ESE", "b": "PEL"}]
    found(problems, "board-5-6.toml", "link[4].between[1]", "ER-2.2", p.BRIDGE_NOT_LAND)
    found(problems, "board-5-6.toml", "link[3].kind", "ER-2.2", p.LINK_KIND)


def test_ER_3_4_a_blank_marker_covers_a_printed_fort(tmp_path: Path) -> None:
    problems = broken(tmp_path, ("board-3-4.toml", '"3" = ["BRE", "GAR"]', '"3" = ["BRE", "MIR"]'))
    found(problems, "board-3-4.toml", "blanked.3[1]", "ER-2.7", p.BLANK_WITHOUT_FORT)


def test_ER_12_9_a_wharf_site_borders_a_sea_area(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("board-3-4.toml", "coins = 0\neurope = true\nwharf = false", "coins = 0\neurope = true\nwharf = true"),
    )
    found(problems, "board-3-4.toml", "area[1].wharf", "ER-12.9", p.WHARF_NOT_COASTAL)


def test_ER_3_8_an_independent_army_stands_on_an_area_of_its_side(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("board-3-4.toml", 'players = 3\narea = "MIR"', 'players = 5\narea = "FEN"'),
        ("board-5-6.toml", 'players = 5\narea = "MIR"', 'players = 5\narea = "OST"'),
    )
    found(problems, "board-3-4.toml", "independent[0].players", "ER-3.8", p.WRONG_SIDE_COUNT)
    found(problems, "board-3-4.toml", "independent[0].area", "ER-3.8", p.NO_AREA)
    found(problems, "board-5-6.toml", "independent[0].area", "ER-3.8", p.INDEPENDENT_ON_CAPITAL)


def test_ER_3_3_ER_3_9_the_setup_table(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("factions.toml", '"3" = ["aurel", "kesh", "thal"]', '"3" = ["aurel", "kesh", "rome"]'),
        ("factions.toml", '"4" = ["aurel", "kesh", "thal", "sunmar"]', '"4" = ["aurel", "kesh", "thal"]'),
        ("factions.toml", 'start_player = "kesh"', 'start_player = "carthage"'),
        ("factions.toml", '"ostra", "aurel", "thal"', '"aurel", "thal"'),
    )
    found(problems, "factions.toml", "setup.players.3[2]", "ER-3.3", p.UNKNOWN_FACTION)
    found(problems, "factions.toml", "setup.players.4", "ER-3.3", p.PLAYERS_SET)
    found(problems, "factions.toml", "setup.players.4", "ER-3.3", p.PLAYERS_NESTED)
    found(problems, "factions.toml", "setup.start_player", "ER-3.9", p.UNKNOWN_FACTION)
    found(problems, "factions.toml", "setup.turn_order", "ER-3.9", p.TURN_ORDER)


def test_ER_3_7_starting_units_per_mode_and_count_within_the_barracks_on_free_land(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("factions.toml", 'mode = "conquest"', 'mode = "imperator"'),
        ("factions.toml", '[{ area = "KES", cavalry = 1, infantry = 2', '[{ area = "KES", cavalry = 5, infantry = 2'),
        ("factions.toml", '[{ area = "THA", cavalry = 1, infantry = 2', '[{ area = "SSE", cavalry = 1, infantry = 2'),
        ("factions.toml", '{ area = "ORO", cavalry = 0', '{ area = "MIR", cavalry = 0'),
    )  # fmt: skip
    twice = [(x.key, x.say.values) for x in problems if x.say.msgid == p.START_TWICE]
    assert twice == [
        (f"faction[0].board[0].start[1].players[{i}]", {"mode": "imperator", "players": n})
        for i, n in enumerate((3, 4, 5, 6))
    ]
    missing = [(x.key, x.rule, x.say.values) for x in problems if x.say.msgid == p.START_MISSING]
    assert missing == [
        ("faction[0].board[0].start", "ER-3.7", {"mode": "conquest", "players": n}) for n in (3, 4, 5, 6)
    ]
    over = found(problems, "factions.toml", "faction[1].board[0].start", "ER-1.1", p.START_OVER_BARRACKS)
    assert over.say.text() == "starting cavalry (5) exceed the barracks (4)"
    found(problems, "factions.toml", "faction[2].board[0].start", "ER-3.7", p.START_AREA_SEA)
    taken = [x for x in problems if x.rule == "ER-2.4" and x.say.msgid == p.START_AREA_TAKEN]
    assert {(x.file, x.key) for x in taken} == {("factions.toml", "faction[2].board[0].start")}
    assert {x.say.text() for x in taken} == {
        f"MIR is already held at {n} players by independents" for n in (3, 4, 5, 6)
    }  # conquest mode only: the imperator start holds the capital alone


def test_ER_1_2_ER_12_3_a_faction_has_a_standard_and_two_alternative_boards(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("factions.toml", 'id = "alternative-2"\nkind = "alternative"', 'id = "alternative-2"\nkind = "standard"'),
    )
    found(problems, "factions.toml", "faction[0].board", "ER-1.2", p.BOARDS)


def test_ER_13_6_unknown_op_trigger_selector_condition_and_place_are_all_named(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("cards.toml", 'op = "shields"', 'op = "shield"'),
        ("cards.toml", 'cap = 2, when = "battle.melee"', 'cap = 2, when = "battle.arrows"'),
        ("cards.toml", 'per = "own.infantry"', 'per = "own.hoplite"'),
        ("cards.toml", 'if = ["defending", "own_capital"]', 'if = ["defending", "own_capital(2)", "margin_ge(x)"]'),
        ("factions.toml", 'where = "area(KES)"', 'where = "area(ATL)"'),
        ("factions.toml", 'when = "on_food_le(2)"', 'when = "on_food_le"'),
        ("cards.toml", 'per = "casualties_inflicted"', 'per = "casualties_inflicted/0"'),
    )  # fmt: skip
    unknown = found(problems, "cards.toml", "hero[1].effects[0].op", "ER-13.6", p.UNKNOWN_OP)
    assert unknown.say.text().startswith("unknown op 'shield' (known ops: strength, unit_strength, casualties, shields")
    found(problems, "cards.toml", "hero[2].effects[0].when", "ER-13.6", p.NOT_ONE_OF)
    found(problems, "cards.toml", "hero[10].effects[0].per", "ER-13.6", p.NO_SELECTOR)
    found(problems, "cards.toml", "hero[3].effects[0].if[1]", "ER-13.6", p.NO_BRACKETS)
    found(problems, "cards.toml", "hero[3].effects[0].if[2]", "ER-13.6", p.NOT_A_NUMBER)
    found(problems, "factions.toml", "faction[1].dynasty[2].where", "ER-13.6", p.NO_AREA)
    found(problems, "factions.toml", "faction[0].dynasty_back[0].when", "ER-13.6", p.NEEDS_NUMBER)
    found(problems, "cards.toml", "tactic[9].effects[0].per", "ER-13.6", p.BAD_COUNTER)


def test_ER_13_6_an_op_argument_missing_unknown_or_of_the_wrong_kind(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("cards.toml", 'op = "shields", n = 1,', 'op = "shields",'),
        ("cards.toml", 'n = 1, per = "own.archer",', 'n = 1, k = 3, per = "own.archer",'),
        ("cards.toml", 'what = "melee_die"', 'what = "any_die"'),
        ("cards.toml", 'unblockable = true', 'unblockable = "yes"'),
        ("cards.toml", 'if = ["won"], when = "battle.casualties"', 'who = "foe", duration = "ever", when = "battle.x"'),
    )  # fmt: skip
    found(problems, "cards.toml", "hero[1].effects[0].n", "ER-13.6", p.OP_ARGUMENT_MISSING)
    found(problems, "cards.toml", "hero[2].effects[0].k", "ER-13.6", p.UNKNOWN_KEY)
    found(problems, "cards.toml", "hero[8].effects[0].what", "ER-13.6", p.NOT_ONE_OF)
    found(problems, "cards.toml", "hero[9].effects[0].unblockable", "ER-13.6", p.WRONG_TYPE)
    found(problems, "cards.toml", "hero[0].effects[0].who", "ER-13.6", p.NOT_ONE_OF)
    found(problems, "cards.toml", "hero[0].effects[0].duration", "ER-13.6", p.NOT_ONE_OF)
    found(problems, "cards.toml", "hero[0].effects[0].when", "ER-13.6", p.NOT_ONE_OF)


def test_ER_1_2_ER_12_1_component_counts(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("cards.toml", 'faction = "sunmar"', 'faction = "thal"'),
        ("cards.toml", 'name = "Charge"\ncount = 4', 'name = "Charge"\ncount = 3'),
        ("cards.toml", '[[automa]]\nid = "automa-5"\nstrength = 3\ncasualties = 1\nunblockable = true\n', ""),
        ("cards.toml", 'name = "Truce"\nlevel = 2', 'name = "Truce"\nlevel = 3'),
        ("cards.toml", 'type = "port"', 'type = "temple"'),
        ("cards.toml", 'faction = "ostra"', 'faction = "ostrogoths"'),
    )  # fmt: skip
    heroes = [
        x.say.values
        for x in problems
        if (x.file, x.key, x.rule, x.say.msgid) == ("cards.toml", "hero", "ER-1.2", p.HEROES_PER_FACTION)
    ]
    assert heroes == [{"faction": f, "found": n} for f, n in (("ostra", 4), ("sunmar", 4), ("thal", 6))]
    found(problems, "cards.toml", "hero[25].faction", "ER-6.10", p.UNKNOWN_FACTION)
    assert found(problems, "cards.toml", "tactic", "ER-1.2", p.TACTIC_TOTAL).say.text() == (
        "the tactic cards' counts add up to 37; the deck has 38 (ER-1.2)"
    )
    assert found(problems, "cards.toml", "automa", "ER-1.2", p.COUNT).say.values == {"expected": 5, "found": 4}
    levels = [x.say.values for x in problems if x.say.msgid == p.CHRONICLE_LEVELS]
    assert levels == [{"level": 2, "found": 2, "expected": 3}, {"level": 3, "found": 5, "expected": 4}]
    kinds = [x.say.values for x in problems if x.say.msgid == p.MEGAPROJECT_TYPES]
    assert kinds == [{"found": 7, "type": "temple", "expected": 6}, {"found": 5, "type": "port", "expected": 6}]
    assert len(problems) == 10


@pytest.mark.parametrize(
    ("file", "old", "new", "key", "rule", "msgid"),
    [
        ("cards.toml", 'if = ["won"]', 'if = ["margin_ge"]', "hero[0].effects[0].if[0]", "ER-13.6", p.NEEDS_VALUE),
        ("factions.toml", '"area(KES)"', '"area()"', "faction[1].dynasty[2].where", "ER-13.6", p.NEEDS_AREA),
        ("factions.toml", '"own_units(infantry>=2)"', '"own_units(infantry)"', "faction[2].board[0].ability[0].if[0]",
         "ER-13.6", p.BAD_UNIT_COUNT),
        ("factions.toml", '"forts_le(large=1, small=2)"', '"forts_le(large=1)"', "faction[0].dynasty[0].if[0]",
         "ER-13.6", p.BAD_FORT_LIMIT),
        ("board-3-4.toml", '["AUR", "BRE", "SOL"]', '["AUR", "BRE", "SOL", "MIR"]', "area[1].adjacent[3]", "ER-2.1",
         p.SELF_ADJACENT),
        ("cards.toml", 'id = "aurel-2"', 'id = "aurel-1"', "hero[1].id", "ER-6.10", p.TWICE),
        ("cards.toml", 'id = "charge"', 'id = "charge card"', "tactic[1].id", "ER-8.13", p.BAD_ID),
        ("factions.toml", '[{ area = "THA"', '[{ area = "OST"', "faction[2].board[0].start", "ER-3.7", p.NOT_ON_SIDE),
        ("board-3-4.toml", 'capital = "thal"', 'capital = "kesh"', "area", "ER-2.6", p.TWO_CAPITALS),
        ("board-3-4.toml", '"3" = ["BRE", "GAR"]', '"3" = ["BRE"]', "blanked.3", "ER-3.4", p.BLANKS),
    ],
)  # fmt: skip
def test_ER_13_each_kind_of_problem_is_named_by_file_key_and_rule(
    tmp_path: Path, file: str, old: str, new: str, key: str, rule: str, msgid: str
) -> None:
    found(broken(tmp_path, (file, old, new)), file, key, rule, msgid)


def test_ER_8_31_ER_5_6_ER_5_31_values_out_of_range_on_cards_and_tracks(tmp_path: Path) -> None:
    problems = broken(
        tmp_path,
        ("cards.toml", 'id = "automa-1"\nstrength = 1', 'id = "automa-1"\nstrength = 4'),
        ("tracks.toml", "look = false, redeploy = true }", "look = false, redeploy = false }"),
        ("tracks.toml", "max_units = [0, 4, 6, 8", "max_units = [0, 4, 3, 8"),
        ("tracks.toml", "academy = [4, 6]", "academy = [4, 6, 8, 10]"),
    )  # fmt: skip
    found(problems, "cards.toml", "automa[0].strength", "ER-8.31", p.OUT_OF_RANGE)
    found(problems, "tracks.toml", "trade.imperator[7].redeploy", "ER-5.6", p.LAST_TRADE_SPACE)
    found(problems, "tracks.toml", "food.max_units", "ER-5.31", p.NOT_INCREASING)
    found(problems, "tracks.toml", "districts.academy", "ER-5.16", p.PRICES)


def test_ER_13_a_misspelt_key_a_missing_file_and_broken_toml_are_named(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    replace(folder, "tracks.toml", "[scoring]", "[scoring]\nvp_per_distrct = 2")
    replace(folder, "game-data.toml", 'ruleset = "conqueror-er"', 'ruleset = "coe-classic"')
    replace(folder, "game-data.toml", 'mode = "imperator"', 'mode = ""')
    (folder / "board-5-6.toml").unlink()
    (folder / "factions.toml").write_text("[setup\n", encoding="utf-8")
    problems = check_folder(folder).problems
    found(problems, "tracks.toml", "scoring.vp_per_distrct", "ER-10.3", p.UNKNOWN_KEY)
    found(problems, "game-data.toml", "ruleset", "ER-13", p.RULESET)
    found(problems, "game-data.toml", "options.mode", "ER-3.1", p.EMPTY)  # an option left empty is not its default
    found(problems, "board-5-6.toml", p.WHOLE_FILE, "ER-13", p.NO_FILE)
    assert "line 1" in found(problems, "factions.toml", p.WHOLE_FILE, "ER-13", p.NOT_TOML).say.text()


def test_ER_13_the_check_returns_every_problem_at_once_and_load_refuses_naming_them(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    replace(folder, "board-3-4.toml", 'kind = "land"', 'kind = "mountain"')
    replace(folder, "factions.toml", "base_income = 3", 'base_income = "3"')
    replace(folder, "tracks.toml", "vp_per_upgrade = 2", "vp_per_upgrade = -1")
    replace(folder, "cards.toml", 'name = "Rally"', 'name = ""')
    problems = check_folder(folder).problems
    assert [(x.file, x.key, x.rule) for x in problems] == [
        ("board-3-4.toml", "area[0].kind", "ER-2.1"),
        ("factions.toml", "faction[0].board[0].base_income", "ER-5.2"),
        ("tracks.toml", "scoring.vp_per_upgrade", "ER-10.3"),
        ("cards.toml", "tactic[5].name", "ER-8.13"),
    ]
    with pytest.raises(GameDataError) as refused:
        load_folder(folder)
    message = str(refused.value)
    assert "has 4 problems" in message and all(problem.text() in message for problem in problems)


def test_ER_6_13_an_elite_cost_still_to_confirm_is_a_note_and_the_data_stays_usable(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    replace(folder, "factions.toml", 'name = "Tide Behemoth"', 'name = "Tide Behemoth"\ncost_confirmed = false')
    report = check_folder(folder)
    assert report.problems == [] and [note.text() for note in report.notes] == [
        "factions.toml: faction[1].board[0].elite.cost (ER-6.13): elite cost 4 is the pre-release default of "
        "ER-6.13: confirm it against the printed board"
    ]
    assert load_folder(folder).unconfirmed_defaults() == ["kesh/standard"]


# -- ER-13.7: the moderator's private texts ----------------------------------------------------------------------


def test_ER_13_7_private_texts_overlay_the_shared_ones_by_key(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    (folder / "private").mkdir()
    (folder / "private" / "cards.toml").write_text(
        '[hero.aurel-1]\ntext = "PRINTED HERO WORDING"\n[hero.aurel-1.effects.0]\ntext = "PRINTED EFFECT"\n'
        '[faction.kesh.board.standard.elite]\ntext = "PRINTED ELITE"\n',
        encoding="utf-8",
    )
    data = load_folder(folder)
    hero = next(h for h in data.cards.heroes if h.id == "aurel-1")
    assert hero.text.startswith("Invented hero") and data.wording(hero.key, hero.text) == "PRINTED HERO WORDING"
    assert data.wording(hero.effects[0].key, hero.effects[0].text) == "PRINTED EFFECT"
    elite = data.factions["kesh"].standard.elite
    assert data.wording(elite.key, elite.text) == "PRINTED ELITE"
    assert data.wording("hero.aurel-2", "ours") == "ours" and example().wording(hero.key, hero.text) == hero.text


def test_ER_13_7_a_private_text_keyed_to_nothing_or_a_private_value_that_is_no_text(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    private = tmp_path / "elsewhere"
    private.mkdir()
    (private / "mine.toml").write_text(
        '[hero.nobody]\ntext = "x"\n[hero.aurel-1.effects.7]\ntext = "y"\n[hero.aurel-2]\ncost = 9\n', encoding="utf-8"
    )
    problems = check_folder(folder, private).problems
    found(problems, "private/mine.toml", "hero.nobody.text", "ER-13.7", p.PRIVATE_UNKNOWN)
    found(problems, "private/mine.toml", "hero.aurel-1.effects.7.text", "ER-13.7", p.PRIVATE_UNKNOWN)
    found(problems, "private/mine.toml", "hero.aurel-2.cost", "ER-13.7", p.PRIVATE_NOT_TEXT)
    assert check_folder(folder).problems == []  # without the private folder the data is complete
    missing = check_folder(folder, tmp_path / "none").problems
    assert [x.say.msgid for x in missing] == [p.NO_FILE]


def test_ER_13_7_the_shared_example_holds_no_printed_wording() -> None:
    """Our own descriptions only: every text of the example is short and says it is invented or describes our
    own numbers; no text is longer than one sentence."""
    data = example()
    texts = [e.text for e in all_effects(data) if e.text] + [h.text for h in data.cards.heroes if h.text]
    assert texts and all(len(text) <= 120 and text.count(".") <= 1 for text in texts)


# -- the template --------------------------------------------------------------------------------------------------


def test_ER_13_ER_6_13_the_template_check_names_every_value_left_empty(tmp_path: Path) -> None:
    folder = tmp_path / "new"
    write_template(folder)
    report = check_folder(folder)
    empty = [x for x in report.problems if x.say.msgid == p.EMPTY]
    left = sum(
        len(re.findall(r'^\s*(?!capital\b)[\w"]+ = ""', (folder / file).read_text(encoding="utf-8"), re.M))
        for file in FILES
    )
    assert len(empty) == left > 350  # every "" of the template but the optional capital ("" = none)
    keys = {(x.file, x.key, x.rule) for x in empty}
    for expected in [
        ("game-data.toml", "edition", "ER-13"),
        ("board-3-4.toml", "area[0].adjacent", "ER-2.1"),
        ("board-5-6.toml", "blanked.5", "ER-3.4"),
        ("factions.toml", "faction[0].board[0].elite.cost", "ER-6.13"),  # Rome's cost: no public value
        ("factions.toml", "faction[5].board[0].barracks.archer", "ER-1.1"),
        ("tracks.toml", "scoring.temporary_capital_vp", "ER-10.3"),
        ("tracks.toml", "upgrades.cavalry", "ER-5.22"),
        ("cards.toml", "hero[29].cost", "ER-6.10"),
        ("cards.toml", "chronicle[10].effects", "ER-13.6"),
    ]:
        assert expected in keys, expected
    notes = [(x.key, x.say.values["cost"]) for x in report.notes]  # ER-6.13: the five public costs to confirm
    assert notes == [(f"faction[{i}].board[0].elite.cost", cost) for i, cost in enumerate((4, 3, 3, 4, 2), 1)]


def test_ER_13_the_template_is_commented_with_rule_ids_and_names_the_ruleset(tmp_path: Path) -> None:
    written = write_template(tmp_path / "new")
    assert [path.name for path in written] == list(FILES)
    board = (tmp_path / "new" / "board-3-4.toml").read_text(encoding="utf-8")
    assert 'fort = ""                       # ER-2.6' in board and "# ER-2.2" in board and "Alexandria" in board
    factions = (tmp_path / "new" / "factions.toml").read_text(encoding="utf-8")
    assert 'name = "Free Men"' in factions and "cost = 2" in factions and "cost_confirmed = false" in factions
    assert 'ruleset = "conqueror-er"' in (tmp_path / "new" / "game-data.toml").read_text(encoding="utf-8")


def test_the_template_never_overwrites_a_file(tmp_path: Path) -> None:
    (tmp_path / "cards.toml").write_text("# mine\n", encoding="utf-8")
    with pytest.raises(Exception, match="cards.toml already exist"):
        write_template(tmp_path)
    assert (tmp_path / "cards.toml").read_text(encoding="utf-8") == "# mine\n"
    assert not (tmp_path / "factions.toml").exists()


def test_ER_8_2_a_cards_volley_effect_is_a_problem_naming_file_key_and_rule(tmp_path: Path) -> None:
    volley = 'when = "battle.volley"'
    problems = broken(
        tmp_path,
        ("cards.toml", 'cap = 2, when = "battle.melee"', f"cap = 2, {volley}"),  # aurel-3, a hero
        ("cards.toml", '"side.archer", cap = 2, when = "battle.melee"', f'"side.archer", cap = 2, {volley}'),
    )  # fmt: skip
    hero = found(problems, "cards.toml", "hero[2].effects[0].when", "ER-8.2", p.CARD_VOLLEY)
    assert "volley effect can never act" in hero.text() and hero.text().startswith("cards.toml: hero[2]")
    found(problems, "cards.toml", "tactic[2].effects[0].when", "ER-8.2", p.CARD_VOLLEY)
    assert not [x for x in check_folder(EXAMPLE).problems if x.rule == "ER-8.2"]  # elites and abilities may
