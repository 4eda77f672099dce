"""Reading and checking a game-data folder (ER-13): game-data.toml, board-3-4.toml, board-5-6.toml,
factions.toml, tracks.toml, cards.toml, and the moderator's private texts (ER-13.7) from `private/` or a folder
given. `check_folder` returns every problem at once; `load_folder` returns the GameData or raises naming them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adjudicator.engine.datafile import DataFileRefused, read_data_file
from adjudicator.errors import PbemError
from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.data import (
    CASUALTIES_MOST,
    COINS_MOST,
    DISTRICTS,
    FOOD_TRACK_MOST,
    MEGAPROJECT_CARDS,
    MEGAPROJECTS,
    MODES,
    OPTION_BOUNDS,
    PLAYER_COUNTS,
    PRICE_MOST,
    ROUNDS_MOST,
    RULESET,
    SIDE_OF,
    SIDES,
    SLOTS_MOST,
    STANDARD_UNITS_MOST,
    STRENGTH_MOST,
    TACTIC_CARDS,
    TRADE_SPACES,
    UPGRADE_TYPES,
    VP_MOST,
    Automa,
    Cards,
    Chronicle,
    Effects,
    Faction,
    GameData,
    Hero,
    MapSide,
    Megaproject,
    Options,
    Scoring,
    Setup,
    Tactic,
    Tracks,
    TradeSpace,
    frozen,
)
from adjudicator.rulesets.conqueror.effects import read_effects
from adjudicator.rulesets.conqueror.factions import faction_ids, read_factions, read_setup
from adjudicator.rulesets.conqueror.maps import board_file, read_map
from adjudicator.rulesets.conqueror.problems import _
from adjudicator.rulesets.conqueror.reader import Report, Table, open_toml

GAME_DATA = "game-data.toml"
FACTIONS = "factions.toml"
TRACKS = "tracks.toml"
CARDS = "cards.toml"
PRIVATE = "private"  # ER-13.7: the moderator's printed wording, beside the shared data, never committed
PRIVATE_KEY_DEPTH = 8  # ER-13.7: the deepest text key, faction.<id>.board.<board>.ability.<i>, has 6 parts
FILES = (GAME_DATA, *(board_file(side) for side in SIDES), FACTIONS, TRACKS, CARDS)

# ER-1.2 component counts
HEROES_PER_FACTION = 5
AUTOMA_CARDS = 5
CHRONICLES_PER_LEVEL = {1: 4, 2: 3, 3: 4}
MEGAPROJECTS_PER_TYPE = 6  # ER-12.1: N of each type, N up to 6 (18 cards)


LENGTH = _("%(found)s entries; %(low)s to %(high)s are needed")


class GameDataError(PbemError, ValueError):
    """A data folder that does not pass the check: the message lists every problem."""


def check_folder(folder: Path, private: Path | None = None) -> Report:
    """Every problem of the data folder (and its private texts); empty problems: the data is complete."""
    return _read(folder, private)[1]


def load_folder(folder: Path, private: Path | None = None) -> GameData:
    """The game data of `folder`; GameDataError listing every problem when the check fails."""
    data, report = _read(folder, private)
    if data is None or report.problems:
        listed = "\n".join(problem.text() for problem in report.problems)
        raise GameDataError(f"{folder}: the game data has {len(report.problems)} problems:\n{listed}")
    return data


def read_files(folder: Path) -> dict[str, str]:
    """The data files a game stores (file name -> text), each within the size and nesting limits
    (engine/datafile.py): GameDataError naming the folder and the file otherwise."""
    files = {}
    for name in FILES:
        try:
            files[name] = read_data_file(folder / name)
        except DataFileRefused as refused:
            raise GameDataError(f"{folder}: {name} (ER-13): {refused}") from None
    return files


def _read(folder: Path, private: Path | None) -> tuple[GameData | None, Report]:
    report = Report()
    tables = {file: _open(folder, file, report, "ER-13") for file in FILES}
    header = tables[GAME_DATA]
    edition, example, options = _game_data(header) if header else ("", False, Options())
    ids = faction_ids(tables[FACTIONS]) if tables[FACTIONS] else frozenset()
    maps = {side: read_map(tables[board_file(side)], side, ids) for side in SIDES if tables[board_file(side)]}
    areas = frozenset(code for side in maps.values() if side for code in side.areas)
    setup, factions = Setup(frozen({}), (), ""), {}
    if tables[FACTIONS]:
        tables[FACTIONS].only(("setup", "faction"), "ER-13.2")
        setup = read_setup(tables[FACTIONS], ids)
        factions = read_factions(tables[FACTIONS], setup, {s: m for s, m in maps.items() if m}, areas)
    tracks = _tracks(tables[TRACKS], areas) if tables[TRACKS] else None
    cards = _cards(tables[CARDS], areas, ids) if tables[CARDS] else None
    ready = {side: m for side, m in maps.items() if m is not None}
    _check_capitals(report, setup, ready)
    _check_occupied(report, setup, factions, ready)
    texts = _private(private or folder / PRIVATE, report, given=private is not None)
    if report.problems or tracks is None or cards is None or len(ready) != len(SIDES):
        return None, report
    return GameData(
        edition, example, frozen(ready), frozen(factions), setup, tracks, cards, options, frozen(texts)
    ), report


def _open(folder: Path, file: str, report: Report, rule: str, *, label: str | None = None) -> Table | None:
    """The top table of `folder/file`, or None with a problem: a file beyond the size or nesting limit
    (engine/datafile.py) is refused before the TOML parser sees it, whose recursion a deep file would exhaust."""
    path = folder / file
    if path.is_file():
        try:
            read_data_file(path)
        except DataFileRefused as refused:
            report.add(label or file, p.WHOLE_FILE, rule, refused.msgid, **refused.values)
            return None
        except (OSError, UnicodeDecodeError):
            pass  # open_toml names it
    return open_toml(folder, file, report, rule, label=label)


# -- game-data.toml ----------------------------------------------------------------------------------------------
def _game_data(table: Table) -> tuple[str, bool, Options]:
    table.only(("ruleset", "edition", "example", "options"), "ER-13")
    ruleset = table.text("ruleset", "ER-13")
    if ruleset and ruleset != RULESET:
        table.problem("ruleset", "ER-13", p.RULESET, found=repr(ruleset), expected=RULESET)
    edition = table.text("edition", "ER-13")
    example = table.flag("example", "ER-13.7")
    options = table.table("options", "ER-13.5", {})
    return edition, example, _options(options) if options else Options()


def _options(table: Table) -> Options:
    """ER-13.5: each option absent keeps the spec's Resolution (Options' defaults)."""
    base = Options()
    table.only(
        ("mode", "chronicle_round1", "dynasty_first_round", "long_spears_cap", "hand_limit", "amphibious_assault")
        + ("temple_coins", "temple_vp", "port_coins"),
        "ER-13.5",
    )
    first = table.table("dynasty_first_round", "ER-11.5", {})
    dynasty = dict(base.dynasty_first_round)
    if first:
        first.only(MODES, "ER-11.5")
        low, high = OPTION_BOUNDS["dynasty_first_round"]
        dynasty |= {mode: first.number(mode, "ER-11.5", dynasty[mode], low=low, high=high) for mode in MODES}
    chronicle = table.choice("chronicle_round1", "ER-4.5", ("by_mode", "on", "off"), "by_mode")
    return Options(
        mode=table.choice("mode", "ER-3.1", MODES, base.mode) or base.mode,
        chronicle_round1={"on": True, "off": False}.get(chronicle),
        dynasty_first_round=frozen(dynasty),
        long_spears_cap=table.choice("long_spears_cap", "ER-9.4", ("per_unit", "per_side"), base.long_spears_cap),
        hand_limit=_option(table, "hand_limit", "ER-1.2", base.hand_limit),
        amphibious_assault=_option(table, "amphibious_assault", "ER-9.4", base.amphibious_assault),
        temple_coins=_option(table, "temple_coins", "ER-12.8", base.temple_coins),
        temple_vp=_option(table, "temple_vp", "ER-12.8", base.temple_vp),
        port_coins=_option(table, "port_coins", "ER-12.10", base.port_coins),
    )


def _option(table: Table, name: str, rule: str, default: int) -> int:
    low, high = OPTION_BOUNDS[name]
    return table.number(name, rule, default, low=low, high=high)


# -- tracks.toml -------------------------------------------------------------------------------------------------
def _tracks(table: Table, areas: frozenset[str]) -> Tracks:
    table.only(("rounds", "trade", "food", "districts", "upgrades", "megaprojects", "scoring"), "ER-13.3")
    return Tracks(
        trade=frozen(_trade(table, areas)),
        food=_food(table),
        rounds=frozen(
            _per_name(table, "rounds", "ER-3.1", MODES, lambda t, n, r: t.number(n, r, low=1, high=ROUNDS_MOST))
        ),
        districts=frozen(_per_name(table, "districts", "ER-5.16", DISTRICTS, _prices)),
        upgrades=frozen(_per_name(table, "upgrades", "ER-5.22", UPGRADE_TYPES, _prices)),
        megaprojects=frozen(_per_name(table, "megaprojects", "ER-12.6", MEGAPROJECTS, _prices)),
        scoring=_scoring(table),
    )


def _per_name(table: Table, name: str, rule: str, names: tuple[str, ...], read: Any) -> dict[str, Any]:
    inner = table.table(name, rule)
    if inner is None:
        return {}
    inner.only(names, rule)
    return {item: read(inner, item, rule) for item in names}


def _prices(table: Table, name: str, rule: str) -> tuple[int, ...]:
    """ER-5.16, ER-5.22, ER-12.6: 1 to 3 prices by build count, leftmost first."""
    prices = table.numbers(name, rule)
    if table.has(name) and table.data[name] != "" and not 1 <= len(prices) <= 3:
        table.problem(name, rule, p.PRICES)
    _within(table, name, rule, prices, 0, PRICE_MOST)
    return prices


def _within(table: Table, name: str, rule: str, values: tuple[int, ...], low: int, high: int) -> None:
    """Each item of the list `name` lies within low to high (data.py's bounds)."""
    for index, value in enumerate(values):
        if not low <= value <= high:
            table.problem(f"{name}[{index}]", rule, p.OUT_OF_RANGE, value=value, low=low, high=high)


def _trade(table: Table, areas: frozenset[str]) -> dict[str, tuple[TradeSpace, ...]]:
    """ER-5.8, ER-5.9: the trade track of each mode, space 1 first; the last space redeploys (ER-5.6)."""
    trade = table.table("trade", "ER-5.8")
    if trade is None:
        return {}
    trade.only(MODES, "ER-5.8")
    found = {}
    for mode in MODES:
        spaces = []
        for index, space in enumerate(trade.tables(mode, "ER-5.8")):
            space.only(("coins", "vp", "discount", "look", "redeploy", "effects", "text"), "ER-5.9")
            key = f"trade.{mode}.{index}"
            table.report.text_keys.add(key)
            spaces.append(
                TradeSpace(
                    coins=space.number("coins", "ER-5.9", low=0, high=COINS_MOST),
                    vp=space.number("vp", "ER-5.9", low=0, high=VP_MOST),
                    discount=space.flag("discount", "ER-5.9"),
                    look=space.flag("look", "ER-5.9"),
                    redeploy=space.flag("redeploy", "ER-5.9"),
                    effects=read_effects(space, "effects", areas, key, []),
                )
            )
        last = trade.data.get(mode)
        if spaces and isinstance(last, list) and isinstance(last[-1], dict) and last[-1].get("redeploy") is False:
            trade.problem(f"{mode}[{len(spaces) - 1}].redeploy", "ER-5.6", p.LAST_TRADE_SPACE)
        low, high = TRADE_SPACES
        if trade.has(mode) and isinstance(last, list) and not low <= len(last) <= high:
            trade.problem(mode, "ER-5.8", LENGTH, found=len(last), low=low, high=high)
        found[mode] = tuple(spaces)
    return found


def _food(table: Table) -> tuple[int, ...]:
    """ER-5.31: food supply 0, 1, 2 ... -> the most standard units allowed; never decreasing."""
    food = table.table("food", "ER-5.31")
    if food is None:
        return ()
    food.only(("max_units",), "ER-5.31")
    units = food.numbers("max_units", "ER-5.31")
    if list(units) != sorted(units):
        food.problem("max_units", "ER-5.31", p.NOT_INCREASING, values=list(units))
    if food.has("max_units") and food.data["max_units"] != "" and not units:
        food.problem("max_units", "ER-5.31", p.MISSING)
    if len(units) > FOOD_TRACK_MOST:
        food.problem("max_units", "ER-5.31", LENGTH, found=len(units), low=1, high=FOOD_TRACK_MOST)
    _within(food, "max_units", "ER-5.31", units, 0, STANDARD_UNITS_MOST)
    return units


def _scoring(table: Table) -> Scoring:
    """ER-10.3's values the source lost."""
    scoring = table.table("scoring", "ER-10.3")
    names = ("vp_per_district", "vp_per_upgrade", "upgrade_bonus_count", "upgrade_bonus_vp", "temporary_capital_vp")
    if scoring is None:
        return Scoring(0, 0, 0, 0, 0)
    scoring.only(names, "ER-10.3")
    highs = {"upgrade_bonus_count": SLOTS_MOST}  # a count of upgrades; the others are VP
    return Scoring(*(scoring.number(name, "ER-10.3", low=0, high=highs.get(name, VP_MOST)) for name in names))


# -- cards.toml --------------------------------------------------------------------------------------------------
def _cards(table: Table, areas: frozenset[str], factions: frozenset[str]) -> Cards:
    table.only(("hero", "tactic", "automa", "chronicle", "megaproject"), "ER-13.4")
    cards = Cards(
        heroes=tuple(_heroes(table, areas, factions)),
        tactics=tuple(_tactics(table, areas)),
        automa=tuple(_automa(table)),
        chronicles=tuple(_chronicles(table, areas)),
        megaprojects=tuple(_megaprojects(table, areas)),
    )
    _check_counts(table, cards, factions)
    return cards


def _card_items(table: Table, kind: str, rule: str, keys: tuple[str, ...]) -> list[tuple[Table, str, str]]:
    """The [[kind]] tables with their ids (unique) and text keys."""
    found, seen = [], set()
    for item in table.tables(kind, rule):
        item.only(("id", "text", *keys), rule)
        ident = item.ident("id", rule)
        if ident in seen:
            item.problem("id", rule, p.TWICE, value=repr(ident))
        seen.add(ident)
        key = f"{kind}.{ident}"
        table.report.text_keys.add(key)
        found.append((item, ident, key))
    return found


def _heroes(table: Table, areas: frozenset[str], factions: frozenset[str]) -> list[Hero]:
    found = []
    for item, ident, key in _card_items(table, "hero", "ER-6.10", ("faction", "name", "cost", "strength", "effects")):
        faction = item.text("faction", "ER-6.10")
        if faction and factions and faction not in factions:
            item.problem("faction", "ER-6.10", p.UNKNOWN_FACTION, value=repr(faction))
        found.append(
            Hero(
                id=ident,
                faction=faction,
                name=item.text("name", "ER-6.10"),
                cost=item.number("cost", "ER-6.10", low=0, high=PRICE_MOST),
                strength=item.number("strength", "ER-8.16", low=-STRENGTH_MOST, high=STRENGTH_MOST),
                effects=card_effects(item, areas, key),
                text=item.text("text", "ER-13.7", ""),
                key=key,
            )
        )
    return found


def card_effects(item: Table, areas: frozenset[str], key: str) -> Effects:
    """A hero's or tactic card's effects. ER-8.2: cards are played in the council of war (step 3), after the
    archer volley (step 2): an effect with the trigger `battle.volley` could never act, so it is a problem."""
    effects = read_effects(item, "effects", areas, key)
    for index, effect in enumerate(effects):
        if effect.when.name == "battle.volley":
            item.problem(f"effects[{index}].when", "ER-8.2", p.CARD_VOLLEY)
    return effects


def _tactics(table: Table, areas: frozenset[str]) -> list[Tactic]:
    return [
        Tactic(
            id=ident,
            name=item.text("name", "ER-8.13"),
            count=item.number("count", "ER-1.2", low=1, high=TACTIC_CARDS),
            strength=item.number("strength", "ER-8.16", low=-STRENGTH_MOST, high=STRENGTH_MOST),
            effects=card_effects(item, areas, key),
            text=item.text("text", "ER-13.7", ""),
            key=key,
        )
        for item, ident, key in _card_items(table, "tactic", "ER-8.13", ("name", "count", "strength", "effects"))
    ]


def _automa(table: Table) -> list[Automa]:
    return [
        Automa(
            id=ident,
            strength=item.number("strength", "ER-8.31", low=1, high=3),
            casualties=item.number("casualties", "ER-8.32", low=0, high=CASUALTIES_MOST),
            unblockable=item.flag("unblockable", "ER-8.32", False),
            text=item.text("text", "ER-13.7", ""),
            key=key,
        )
        for item, ident, key in _card_items(table, "automa", "ER-8.31", ("strength", "casualties", "unblockable"))
    ]


def _chronicles(table: Table, areas: frozenset[str]) -> list[Chronicle]:
    return [
        Chronicle(
            id=ident,
            name=item.text("name", "ER-4.4"),
            level=item.number("level", "ER-3.6", low=1, high=3),
            effects=read_effects(item, "effects", areas, key),
            text=item.text("text", "ER-13.7", ""),
            key=key,
        )
        for item, ident, key in _card_items(table, "chronicle", "ER-4.4", ("name", "level", "effects"))
    ]


def _megaprojects(table: Table, areas: frozenset[str]) -> list[Megaproject]:
    return [
        Megaproject(
            id=ident,
            type=item.choice("type", "ER-12.6", MEGAPROJECT_CARDS),
            vp=item.number("vp", "ER-12.7", low=0, high=VP_MOST),
            effects=read_effects(item, "effects", areas, key),
            text=item.text("text", "ER-13.7", ""),
            key=key,
        )
        for item, ident, key in _card_items(table, "megaproject", "ER-12.6", ("type", "vp", "effects"))
    ]


def _check_counts(table: Table, cards: Cards, factions: frozenset[str]) -> None:
    """ER-1.2 and ER-12.1: the component counts."""
    for faction in sorted(factions):
        found = sum(hero.faction == faction for hero in cards.heroes)
        if found != HEROES_PER_FACTION:
            table.problem("hero", "ER-1.2", p.HEROES_PER_FACTION, faction=faction, found=found)
    if all(isinstance(t.get("count"), int) for t in table.data.get("tactic", []) if isinstance(t, dict)):
        total = sum(tactic.count for tactic in cards.tactics)
        if total != TACTIC_CARDS:
            table.problem("tactic", "ER-1.2", p.TACTIC_TOTAL, found=total)
    if len(cards.automa) != AUTOMA_CARDS:
        table.problem("automa", "ER-1.2", p.COUNT, expected=AUTOMA_CARDS, found=len(cards.automa))
    for level, expected in CHRONICLES_PER_LEVEL.items():
        found = sum(card.level == level for card in cards.chronicles)
        if found != expected:
            table.problem("chronicle", "ER-1.2", p.CHRONICLE_LEVELS, level=level, found=found, expected=expected)
    for kind in MEGAPROJECT_CARDS:
        found = sum(card.type == kind for card in cards.megaprojects)
        if found != MEGAPROJECTS_PER_TYPE:
            table.problem("megaproject", "ER-12.1", p.MEGAPROJECT_TYPES, found=found, type=kind, expected=6)


# -- cross-checks --------------------------------------------------------------------------------------------------
def _check_capitals(report: Report, setup: Setup, maps: Mapping[str, MapSide]) -> None:
    """ER-2.6: every faction in play at a player count has one capital on that count's board side."""
    for side, map_side in maps.items():
        playing = sorted({f for n in PLAYER_COUNTS if SIDE_OF[n] == side for f in setup.factions_by_players.get(n, ())})
        for faction in playing:
            capitals = [a.code for a in map_side.areas.values() if a.capital == faction]
            counts = [
                n for n in PLAYER_COUNTS if SIDE_OF[n] == side and faction in setup.factions_by_players.get(n, ())
            ]
            if not capitals:
                report.add(board_file(side), "area", "ER-2.6", p.NO_CAPITAL, faction=faction, players=counts[0])
            elif len(capitals) > 1:
                report.add(
                    board_file(side), "area", "ER-2.6", p.TWO_CAPITALS, faction=faction, areas=", ".join(capitals)
                )


def _check_occupied(report: Report, setup: Setup, factions: Mapping[str, Faction], maps: Mapping[str, MapSide]) -> None:
    """ER-2.4: at setup no area holds two factions' units, or a faction's and an independent army (ER-3.7, ER-3.8).
    Checked with each faction's standard board."""
    for count in PLAYER_COUNTS:
        side = maps.get(SIDE_OF[count])
        for mode in MODES:
            holder = {army.area: "independents" for army in side.independents.get(count, ())} if side else {}
            for faction_id in setup.factions_by_players.get(count, ()) if side else ():
                _place_start(report, list(factions), factions.get(faction_id), (mode, count), holder)


def _place_start(
    report: Report, order: list[str], faction: Faction | None, when: tuple[str, int], holder: dict[str, str]
) -> None:
    """Mark the areas of `faction`'s standard start as held, naming an area already held by another."""
    if faction is None or not any(board.kind == "standard" for board in faction.boards):
        return
    key = f"faction[{order.index(faction.id)}].board[{faction.boards.index(faction.standard)}].start"
    for start in faction.standard.start.get(when, ()):
        other = holder.setdefault(start.area, faction.id)
        if other != faction.id:
            report.add(FACTIONS, key, "ER-2.4", p.START_AREA_TAKEN, area=start.area, players=when[1], other=other)


# -- the private overlay (ER-13.7) -------------------------------------------------------------------------------
def _private(folder: Path, report: Report, *, given: bool) -> dict[str, str]:
    """Texts keyed like the shared data (`[hero.<id>] text = ...`, `[hero.<id>.effects.0] text = ...`) in any
    .toml file of the folder; a key that matches nothing, or a value that is no text, is a problem."""
    if not folder.is_dir():
        if given:
            report.add(str(folder), p.WHOLE_FILE, "ER-13.7", p.NO_FILE)
        return {}
    texts: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        table = _open(folder, path.name, report, "ER-13.7", label=f"{PRIVATE}/{path.name}")
        if table is not None:
            _private_texts(table, table.data, (), texts)
    return texts


def _private_texts(table: Table, data: Mapping[str, Any], path: tuple[str, ...], texts: dict[str, str]) -> None:
    for name, value in data.items():
        if isinstance(value, dict) and len(path) >= PRIVATE_KEY_DEPTH:  # dotted keys nest without brackets
            table.report.add(table.file, ".".join((*path, name)), "ER-13.7", p.PRIVATE_UNKNOWN)
        elif isinstance(value, dict):
            _private_texts(table, value, (*path, name), texts)
        elif name == "text" and isinstance(value, str) and path:
            key = ".".join(path)
            if key in table.report.text_keys:
                texts[key] = value
            else:
                table.report.add(table.file, f"{key}.text", "ER-13.7", p.PRIVATE_UNKNOWN)
        else:
            table.report.add(table.file, ".".join((*path, name)), "ER-13.7", p.PRIVATE_NOT_TEXT)
