"""Tiny builders for rule tests: a Classic position, orders without the parser, one resolved turn."""

from __future__ import annotations

from adjudicator.engine.chance import GivenDice
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.invariants import broken_invariants
from adjudicator.rulesets.coe.orders import Buy, Header, Move, Order, OrderSet, Purchase, Step, Troops
from adjudicator.rulesets.coe.state import Force, GameState
from adjudicator.rulesets.coe.turn import TurnResult, resolve

THREE = ["Macedonia", "Egyptus", "Hispania"]


def classic() -> Ruleset:
    return load_ruleset("coe-classic")


def start(seats: list[str] | None = None, ruleset: str = "coe-classic") -> GameState:
    """Turn 0 of a game (Classic and 3 seats unless named)."""
    return load_ruleset(ruleset).initial_state("test", seats or THREE)


def place(state: GameState, area: str, seat: str, owner: bool = True, **pieces: object) -> GameState:
    """Put pieces of `seat` in `area` (and give him control unless owner=False)."""
    force = state.force(area, seat)
    for kind, value in pieces.items():
        setattr(force, kind, value)
    if owner:
        state.area(area).owner = seat
    return state


def march(
    leaders: tuple[int, ...], start: str, *path: str, inf: int = 0, cav: int = 0, cat: int = 0, line: int = 1
) -> Move:
    """MOVE <leaders> WITH <units>: start -> path..."""
    steps = tuple(Step("road", p[1:]) if p.startswith("=") else Step("land", p) for p in path)
    return Move(Troops(leaders, inf, cav, cat), start, steps, line=line, text=f"move {start} {path}")


def buy(*items: Purchase, line: int = 1) -> Buy:
    return Buy(items, line=line, text="buy")


def play(
    state: GameState, *orders: Order, dice: list[int] | None = None, answers: dict[str, dict[str, str]] | None = None
) -> TurnResult:
    """Resolve the active seat's turn (tribute markers first set to match the board); the invariants must
    hold afterwards."""
    seat = state.active
    assert seat is not None
    ruleset = load_ruleset(state.ruleset)
    for name, player in state.players.items():
        player.tribute = tribute_value(ruleset, state, name)
    order_set = OrderSet(Header("test", state.turn + 1, seat, "x"), orders)
    result = resolve(ruleset, state, order_set, GivenDice(values=dice or []), answers or {})
    assert not broken_invariants(ruleset, result.state)
    return result


def verdicts(result: TurnResult) -> list[tuple[bool, str]]:
    return [(r.accepted, r.rule) for r in result.order_results]


def force(result: TurnResult, area: str, seat: str) -> Force:
    return result.state.areas[area].units.get(seat, Force()) if area in result.state.areas else Force()


def sail(
    galleys: tuple[int, ...],
    start: str,
    *route: str,
    leaders: tuple[int, ...] | None = None,
    inf: int = 0,
    cav: int = 0,
    cat: int = 0,
    line: int = 1,
) -> Order:
    """SAIL GALLEYS <galleys>: start -> route... [CARRYING <leaders> WITH <units>] (cargo only when named)."""
    from adjudicator.rulesets.coe.orders import Sail

    named = leaders is not None or inf or cav or cat
    cargo = Troops(leaders or (), inf, cav, cat) if named else None
    return Sail(galleys, start, route, cargo, line=line, text=f"sail {galleys} {start} {route}")


def road(state: GameState, *cities: str) -> GameState:
    """Roads along a chain of provinces, each end getting a city if it has none (owners are not changed)."""
    for code in cities:
        state.area(code).city = state.area(code).city or "city"
    for a, b in zip(cities, cities[1:], strict=False):
        state.area(a).roads.append(b)
        state.area(b).roads.append(a)
    return state


def own(state: GameState, *codes: str, seat: str = "Macedonia", city: str | None = None) -> GameState:
    """Give `seat` control of provinces (and a city there if `city` is named)."""
    for code in codes:
        state.area(code).owner = seat
        if city:
            state.area(code).city = city
    return state


def legion(
    state: GameState,
    area: str,
    *leaders: int,
    inf: int = 0,
    cav: int = 0,
    cat: int = 0,
    seat: str = "Macedonia",
    owner: bool = True,
) -> GameState:
    """Move `leaders` of `seat` from his home into `area` and put new combat units with them there."""
    home = state.force(state.players[seat].home, seat)
    for leader in leaders:
        if leader == 0:
            home.caesar = 0
        else:
            home.generals.remove(leader)
    here = state.force(area, seat)
    here.caesar = here.caesar or int(0 in leaders)
    here.generals += [n for n in leaders if n]
    here.infantry += inf
    here.cavalry += cav
    here.catapult += cat
    if owner:
        state.area(area).owner = seat
    return state
