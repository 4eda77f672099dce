"""Reading factions.toml (ER-13.2): the setup table of ER-3.3 and ER-3.9, and per faction its dynasty card and
its player boards (standard and two alternative ones) with barracks, elite, ability and starting units."""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.rulesets.conqueror import problems as p
from adjudicator.rulesets.conqueror.data import (
    BOARD_KINDS,
    COINS_MOST,
    MODES,
    PLAYER_COUNTS,
    PRICE_MOST,
    SIDE_OF,
    SLOTS_MOST,
    STRENGTH_MOST,
    Elite,
    Faction,
    MapSide,
    PlayerBoard,
    Setup,
    Start,
    Units,
    frozen,
)
from adjudicator.rulesets.conqueror.effects import read_effects
from adjudicator.rulesets.conqueror.maps import read_units
from adjudicator.rulesets.conqueror.problems import Problem, Say
from adjudicator.rulesets.conqueror.reader import Table
from adjudicator.rulesets.conqueror.vocabulary import STANDARD_UNITS

FACTION_KEYS = ("id", "name", "text", "dynasty", "dynasty_back", "board")
BOARD_KEYS = ("id", "kind", "text", "base_income", "district_slots", "upgrade_slots", "barracks", "ability")
BOARD_KEYS += ("elite", "start")
ELITE_KEYS = ("name", "types", "strength", "cost", "cost_confirmed", "effects", "text")


def faction_ids(table: Table) -> frozenset[str]:
    """The ids of the factions, read without checks (the map's capitals are checked against them)."""
    items = table.data.get("faction", [])
    return frozenset(f["id"] for f in items if isinstance(f, dict) and isinstance(f.get("id"), str) and f["id"])


def read_setup(table: Table, ids: frozenset[str]) -> Setup:
    setup = table.table("setup", "ER-3.3")
    if setup is None:
        return Setup(frozen({}), (), "")
    setup.only(("players", "turn_order", "start_player"), "ER-3.3")
    by_players: dict[int, tuple[str, ...]] = {}
    players = setup.table("players", "ER-3.3")
    if players is not None:
        players.only([str(n) for n in PLAYER_COUNTS], "ER-3.3")
        for count in PLAYER_COUNTS:
            by_players[count] = _faction_list(players, str(count), ids, "ER-3.3")
            if players.has(str(count)) and len(by_players[count]) != count:
                players.problem(str(count), "ER-3.3", p.PLAYERS_SET, players=count, found=len(by_players[count]))
        for smaller, larger in zip(PLAYER_COUNTS, PLAYER_COUNTS[1:], strict=False):
            if not set(by_players[smaller]) <= set(by_players[larger]):
                players.problem(str(larger), "ER-3.3", p.PLAYERS_NESTED, smaller=smaller, larger=larger)
    order = _faction_list(setup, "turn_order", ids, "ER-3.9")
    if setup.has("turn_order") and ids and (sorted(order) != sorted(ids) or len(set(order)) != len(order)):
        setup.problem("turn_order", "ER-3.9", p.TURN_ORDER, problem=f"found {', '.join(order)}")
    start = setup.text("start_player", "ER-3.9")
    if start and ids and start not in ids:
        setup.problem("start_player", "ER-3.9", p.UNKNOWN_FACTION, value=repr(start))
    return Setup(frozen(by_players), order, start)


def _faction_list(table: Table, name: str, ids: frozenset[str], rule: str) -> tuple[str, ...]:
    found = table.strings(name, rule)
    for index, faction in enumerate(found):
        if ids and faction not in ids:
            table.problem(f"{name}[{index}]", rule, p.UNKNOWN_FACTION, value=repr(faction))
    return found


def read_factions(table: Table, setup: Setup, maps: Mapping[str, MapSide], areas: frozenset[str]) -> dict[str, Faction]:
    found: dict[str, Faction] = {}
    for item in table.tables("faction", "ER-13.2"):
        item.only(FACTION_KEYS, "ER-13.2")
        ident = item.ident("id", "ER-13.2")
        if ident in found:
            item.problem("id", "ER-13.2", p.TWICE, value=repr(ident))
        key = f"faction.{ident}"
        item.report.text_keys.add(key)
        faction = Faction(
            id=ident,
            name=item.text("name", "ER-13.2"),
            boards=_boards(item, key, areas),
            dynasty=read_effects(item, "dynasty", areas, key),
            dynasty_back=read_effects(item, "dynasty_back", areas, key),
            text=item.text("text", "ER-13.7", ""),
            key=key,
        )
        _check_starts(item, faction, setup, maps)
        found.setdefault(ident, faction)
    return found


def _boards(item: Table, key: str, areas: frozenset[str]) -> tuple[PlayerBoard, ...]:
    """ER-1.2, ER-12.3: one standard board and two alternative ones; an alternative board that does not give
    barracks, slots, income or starting units has the standard board's."""
    tables = item.tables("board", "ER-13.2")
    kinds = [board.data.get("kind") for board in tables]
    if tables and (kinds.count("standard") != 1 or kinds.count("alternative") != 2):
        item.problem("board", "ER-1.2", p.BOARDS, found=", ".join(map(str, kinds)))
    standard = next((board for board in tables if board.data.get("kind") == "standard"), None)
    boards, ids = [], set()
    for board in tables:
        ident = board.ident("id", "ER-13.2")
        if ident in ids:
            board.problem("id", "ER-13.2", p.TWICE, value=repr(ident))
        ids.add(ident)
        inherited = standard if board is not standard else None
        boards.append(_board(board, inherited, f"{key}.board.{ident}", areas))
    return tuple(boards)


def _board(board: Table, standard: Table | None, key: str, areas: frozenset[str]) -> PlayerBoard:
    board.only(BOARD_KEYS, "ER-13.2")
    source = {name: (board if board.has(name) or standard is None else standard) for name in BOARD_KEYS}
    barracks_table = source["barracks"].table("barracks", "ER-1.1")
    board.report.text_keys.add(key)
    return PlayerBoard(
        id=board.data.get("id", ""),
        kind=board.choice("kind", "ER-12.3", BOARD_KINDS),
        base_income=source["base_income"].number("base_income", "ER-5.2", low=0, high=COINS_MOST),
        district_slots=source["district_slots"].number("district_slots", "ER-1.4", low=0, high=SLOTS_MOST),
        upgrade_slots=source["upgrade_slots"].number("upgrade_slots", "ER-5.20", low=0, high=SLOTS_MOST),
        barracks=read_units(barracks_table, "ER-1.1") if barracks_table else Units(),
        ability=read_effects(board, "ability", areas, key),
        elite=_elite(board, key, areas),
        start=frozen(_starts(source["start"])),
        text=board.text("text", "ER-13.7", ""),
        key=key,
    )


def _elite(board: Table, key: str, areas: frozenset[str]) -> Elite:
    """ER-6.7, ER-6.13, ER-9.2; a cost still marked unconfirmed is a note, not a problem (ER-6.13)."""
    elite = board.table("elite", "ER-9.2")
    if elite is None:
        return Elite("", frozenset(), 0, 0)
    elite.only(ELITE_KEYS, "ER-9.2")
    types = elite.strings("types", "ER-6.8")
    for index, kind in enumerate(types):
        if kind not in STANDARD_UNITS:
            elite.problem(
                f"types[{index}]", "ER-6.8", p.NOT_ONE_OF, value=repr(kind), choices=", ".join(STANDARD_UNITS)
            )
    if elite.has("types") and elite.data["types"] != "" and not types:
        elite.problem("types", "ER-6.8", p.MISSING)
    cost = elite.number("cost", "ER-6.13", low=0, high=PRICE_MOST)
    confirmed = elite.flag("cost_confirmed", "ER-6.13", True)
    if not confirmed and elite.has("cost") and elite.data["cost"] != "":
        elite.report.notes.append(
            Problem(elite.file, elite.key("cost"), "ER-6.13", Say(p.ELITE_DEFAULT, {"cost": cost}))
        )
    elite_key = f"{key}.elite"
    board.report.text_keys.add(elite_key)
    return Elite(
        name=elite.text("name", "ER-9.2"),
        types=frozenset(types),
        strength=elite.number("strength", "ER-9.2", low=0, high=STRENGTH_MOST),
        cost=cost,
        cost_confirmed=confirmed,
        effects=read_effects(elite, "effects", areas, elite_key),
        text=elite.text("text", "ER-13.7", ""),
        key=elite_key,
    )


def _starts(board: Table) -> dict[tuple[str, int], tuple[Start, ...]]:
    """ER-3.7: [[start]] entries, each for a mode and a list of player counts."""
    found: dict[tuple[str, int], tuple[Start, ...]] = {}
    for entry in board.tables("start", "ER-3.7"):
        entry.only(("mode", "players", "units"), "ER-3.7")
        mode = entry.choice("mode", "ER-3.7", MODES)
        placed = []
        for units in entry.tables("units", "ER-3.7"):
            area = units.text("area", "ER-3.7")
            placed.append(Start(area, read_units(units, "ER-3.7", ("area",))))
        for index, count in enumerate(entry.numbers("players", "ER-3.7")):
            if count not in PLAYER_COUNTS:
                entry.problem(f"players[{index}]", "ER-3.2", p.OUT_OF_RANGE, value=count, low=3, high=6)
            elif (mode, count) in found:
                entry.problem(f"players[{index}]", "ER-3.7", p.START_TWICE, mode=mode, players=count)
            elif mode:
                found[(mode, count)] = tuple(placed)
    return found


def _check_starts(item: Table, faction: Faction, setup: Setup, maps: Mapping[str, MapSide]) -> None:
    """Each board gives starting units for every mode and player count the faction plays at (ER-3.3, ER-3.7),
    on land areas of the board side of that count, within its barracks (ER-1.1)."""
    standard = next((board for board in faction.boards if board.kind == "standard"), None)
    for position, board in enumerate(faction.boards):
        if standard and board is not standard and (board.start, board.barracks) == (standard.start, standard.barracks):
            continue  # an alternative board with the standard board's units: checked once, with the standard one
        where = item.key(f"board[{position}].start")
        for count in PLAYER_COUNTS:
            if faction.id not in setup.factions_by_players.get(count, ()):
                continue
            for mode in MODES:
                starts = board.start.get((mode, count))
                if starts is None:
                    item.report.add(item.file, where, "ER-3.7", p.START_MISSING, mode=mode, players=count)
                    continue
                _check_start(item, where, board, starts, maps.get(SIDE_OF[count]), count)


def _check_start(
    item: Table, where: str, board: PlayerBoard, starts: tuple[Start, ...], side: MapSide | None, count: int
) -> None:
    for kind in STANDARD_UNITS:
        total = sum(start.units.of(kind) for start in starts)
        if total > board.barracks.of(kind):
            item.report.add(
                item.file,
                where,
                "ER-1.1",
                p.START_OVER_BARRACKS,
                unit=kind,
                found=total,
                barracks=board.barracks.of(kind),
            )
    if side is None:
        return
    for start in starts:
        if start.area not in side.areas:
            item.report.add(
                item.file,
                where,
                "ER-3.7",
                p.NOT_ON_SIDE,
                value=repr(start.area),
                file=f"board-{side.side}.toml",
            )
        elif not side.areas[start.area].land:
            item.report.add(item.file, where, "ER-3.7", p.START_AREA_SEA, area=start.area)
