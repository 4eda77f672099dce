"""Setup of a Conquest of the Empire game (C-1.6, C-3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.state import Area, Force, GameState, Player

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset


class SetupError(ValueError):
    pass


def check_seats(ruleset: CoeRuleset, seats: list[str]) -> None:
    """The seats must be exactly the home provinces in play for their number (C-1.6, C-3.1, C-3.2)."""
    homes_by_count: dict[str, list[str]] = ruleset.data["setup"]["homes"]
    if len(set(seats)) != len(seats):
        raise SetupError(f"a seat is named twice: each player gets one home province ({ruleset.rule('3.2')})")
    if str(len(seats)) not in homes_by_count:
        counts = sorted(int(n) for n in homes_by_count)
        raise SetupError(
            f"{len(seats)} seats: {ruleset.title} is for {counts[0]} to {counts[-1]} players ({ruleset.rule('1.6')})"
        )
    homes = homes_by_count[str(len(seats))]
    wanted = sorted(ruleset.seat_of_home(h) or h for h in homes)
    if sorted(seats) != wanted:
        raise SetupError(
            f"with {len(seats)} players the seats are {', '.join(wanted)} "
            f"({ruleset.rule('3.1')}); got {', '.join(seats)}"
        )


def initial_state(ruleset: CoeRuleset, game: str, seats: list[str]) -> GameState:
    """Turn 0: each seat's Caesar, generals, 5 infantry and fortified city at home (C-3.4 to C-3.7)."""
    check_seats(ruleset, seats)
    start = ruleset.data["setup"]["start"]
    in_turn_order = [s.name for s in ruleset.seats if s.name in seats]  # C-4.1
    players = {s: Player(home=ruleset.seat(s).home, treasury=start["treasury"]) for s in in_turn_order}
    areas: dict[str, Area] = {}
    for seat, player in players.items():
        force = Force(
            caesar=start["caesar"],
            generals=list(start["generals"]),
            infantry=start["infantry"],
            cavalry=start["cavalry"],
            catapult=start["catapult"],
        )
        areas[player.home] = Area(owner=seat, city=start["city"], units={seat: force})
    state = GameState(
        game=game,
        ruleset=ruleset.name,
        turn=0,
        round=1,
        active=in_turn_order[0],
        inflation=0,
        players=players,
        areas=areas,
    )
    for seat, player in players.items():
        player.tribute = tribute_value(ruleset, state, seat)  # C-3.5: 15
    return state
