"""Scoring (EAW-10): after rounds II to IV (EAW-4.4, EAW-10.2; upkeep also after round I with upkeep_timing =
every_round), in the order of EAW-10.7: control, trade, plunder, upkeep; the end after round IV (EAW-10.8).

Each scoring appends a sheet to Player.scores (public: no card is named) and adds its total to Player.vp:
    {"round": r, "control": {"vp": n, "areas": {area: vp}}, "trade": {"vp": n, "areas": {area: vp}},
     "plunder": {"markers": n, "rate": plunder_vp or None, "vp": n}, "upkeep": {"vp": -n}, "total": n}

Events (data keys; `rule` in each):
- `scoring`: round, sheets (seat -> the sheet), plunder_vp_unset (True: plunder scored 0, EAW-10.6) (EAW-10.7)
- `upkeep` seat, private: cards (card -> VP cost), vp (EAW-10.5)
- `game_ended`: winners, vp and scores (both seat -> total), tie_break (EAW-10.8)
"""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.empires.data import SCORED_ROUNDS
from adjudicator.rulesets.empires.play import Play


def control_points(play: Play, seat: str) -> dict[str, int]:
    """EAW-10.3: the full value of every area the seat controls (extra markers and forts add nothing)."""
    areas = play.data.map.areas
    return {area: areas[area].value for area in play.state.controlled(seat)}


def trade_points(play: Play, seat: str) -> dict[str, int]:
    """EAW-10.4: half the value, rounded down, of each area where the seat has more trade markers than anyone else;
    equal highest counts score nothing (EAW-13.21)."""
    found: dict[str, int] = {}
    for area, by_seat in sorted(play.state.trade.items()):
        mine = by_seat.get(seat, 0)
        if mine > 0 and all(mine > n for other, n in by_seat.items() if other != seat):
            found[area] = play.data.map.areas[area].value // 2
    return found


def upkeep(play: Play, seat: str) -> dict[str, int]:
    """EAW-10.5: the VP cost of every card the seat holds now (hand and face-up personalities; a card disbanded
    before the scoring costs nothing, EAW-13.26)."""
    player = play.state.players[seat]
    costs: dict[str, int] = {}
    for card in [*player.hand, *player.personalities]:
        cost = play.data.card(card).vp_cost
        if cost:
            costs[card] = cost
    return costs


def sheet(play: Play, seat: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The seat's sheet for this scoring (EAW-10.7) and its upkeep by card (private)."""
    full = play.state.round in SCORED_ROUNDS  # round I scores upkeep only (every_round, EAW-10.5)
    control = control_points(play, seat) if full else {}
    trade = trade_points(play, seat) if full else {}
    markers = sum(play.state.players[seat].plunder.values()) if full else 0
    rate = play.options.plunder_vp
    costs = upkeep(play, seat)
    items: dict[str, Any] = {
        "round": play.state.round,
        "control": {"vp": sum(control.values()), "areas": control},
        "trade": {"vp": sum(trade.values()), "areas": trade},
        "plunder": {"markers": markers, "rate": rate, "vp": markers * (rate or 0)},
        "upkeep": {"vp": -sum(costs.values())},
    }
    items["total"] = sum(items[k]["vp"] for k in ("control", "trade", "plunder", "upkeep"))
    return items, costs


def play_scoring(play: Play) -> None:
    """One scoring for every seat: its sheet kept and its total added (VP may fall below zero, EAW-10.5)."""
    state = play.state
    sheets = {}
    for seat in state.seats:
        found, costs = sheet(play, seat)
        player = state.players[seat]
        player.scores.append(found)
        player.vp += found["total"]
        sheets[seat] = found
        if costs:
            play.tell(seat, "upkeep", seat, cards=costs, vp=-sum(costs.values()), rule="EAW-10.5")
    unset = play.options.plunder_vp is None
    play.say("scoring", None, round=state.round, sheets=sheets, plunder_vp_unset=unset, rule="EAW-10.7")


def winners(play: Play) -> list[str]:
    """EAW-10.8: the most VP; tied players share the win unless tie_break names a moderator's rule (most control or
    most trade VP over all scorings; still tied, shared)."""
    state = play.state
    best = max(p.vp for p in state.players.values())
    tied = [seat for seat in state.seats if state.players[seat].vp == best]
    if len(tied) > 1 and play.options.tie_break in ("most_control", "most_trade"):
        item = play.options.tie_break.removeprefix("most_")
        points = {seat: sum(s[item]["vp"] for s in state.players[seat].scores) for seat in tied}
        tied = [seat for seat in tied if points[seat] == max(points.values())]
    return tied


def finish(play: Play) -> None:
    """The end of the game after round IV's scoring (EAW-10.8)."""
    state = play.state
    state.winners = winners(play)
    totals = {seat: state.players[seat].vp for seat in state.seats}
    rule = play.options.tie_break
    # `scores` as the demo's final score reads it (services/bot_demo.py), as Conqueror's game_won carries it
    play.say("game_ended", None, winners=list(state.winners), vp=totals, scores=totals, tie_break=rule, rule="EAW-10.8")
