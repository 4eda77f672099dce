"""Phase 1 of a game round: the revolt check (EAW-5).

Dice (EAW-0.5): the table die (north or south, EAW-5.1), then the column die.

Events (data keys; `rule` in each):
- `revolt_roll`: table (north | south), column, provinces (the provinces listed, in the table's order) (EAW-5.1)
- `revolt` seat: area, markers (left there; 0: the province is neutral) (EAW-5.2, EAW-13.3)
- `revolt_held` seat: area, reason ("fort" EAW-13.4 | "last_province" EAW-2.8, EAW-13.5)
- `revolt_neutral`: area (nobody holds it: nothing happens) (EAW-5.2)
"""

from __future__ import annotations

from adjudicator.rulesets.empires.play import Play


def last_province(play: Play, seat: str, area: str) -> bool:
    """EAW-2.8: `area` is the only province `seat` controls (sea areas are not provinces)."""
    provinces = [a for a in play.state.controlled(seat) if play.data.map.areas[a].is_province]
    return provinces == [area]


def remove_marker(play: Play, area: str) -> int:
    """One control marker leaves `area` for its owner's stock; the markers left (0: the area is neutral)."""
    state = play.state
    held = state.control[area]
    player = state.players[held.seat]
    if player.stock_control is not None:
        player.stock_control += 1
    held.markers -= 1
    if held.markers <= 0:
        del state.control[area]
        return 0
    return held.markers


def play_revolts(play: Play) -> None:
    """EAW-5.1: roll the table, then the column; EAW-5.2: each listed province in the table's order loses one control
    marker unless it has a fort (EAW-13.4) or is its holder's last province (EAW-2.8 with last_province = all,
    EAW-13.5); judged one province at a time."""
    state, tables = play.state, play.data.revolts
    table = tables.table_of[play.roll("revolt table", "EAW-5.1")]
    column = play.roll("revolt column", "EAW-5.1")
    provinces = list(tables.tables[table].get(column, ()))
    play.say("revolt_roll", None, table=table, column=column, provinces=provinces, rule="EAW-5.1")
    for area in provinces:
        seat = state.controller(area)
        if seat is None:
            play.say("revolt_neutral", None, area=area, rule="EAW-5.2")
        elif area in state.forts:
            play.say("revolt_held", seat, area=area, reason="fort", rule="EAW-13.4")
        elif play.options.last_province == "all" and last_province(play, seat, area):
            play.say("revolt_held", seat, area=area, reason="last_province", rule="EAW-2.8")
        else:
            left = remove_marker(play, area)
            play.say("revolt", seat, area=area, markers=left, rule="EAW-13.3" if left else "EAW-5.2")
