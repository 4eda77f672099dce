"""Phase 2, naval battles (C-7): optional for the mover, two dice per galley, galley faces hit, three rounds.

Dice order: in each round the attacker's dice (two per galley, by galley number), then the defender's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.orders.keywords import in_english
from adjudicator.rulesets.coe.capture import capture_leaders, remove_galleys, remove_units
from adjudicator.rulesets.coe.decisions import Point, bad_answer, decide, standing
from adjudicator.rulesets.coe.orders import NavalBattle
from adjudicator.rulesets.coe.state import Cargo, Force
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

if TYPE_CHECKING:
    pass

GALLEY_FACE = 5
ROUNDS = 3
CATEGORIES = ("empty", "loaded", "generals", "caesar")  # C-15.10 default order of losses


def naval_opponent(turn: Turn, order: NavalBattle) -> str:
    """The player fought in a declared naval battle (C-7.1, C-16.15, C-16.30)."""
    ruleset = turn.rules
    area = turn.state.areas.get(order.zone)
    if ruleset.board.is_land(order.zone):
        raise Rejected(ruleset.rule("7.1"), N_("%(area)s is not a sea zone", area=order.zone))
    mine = area.units.get(turn.seat) if area else None
    if area is None or mine is None or not mine.galleys:
        raise Rejected(
            ruleset.rule("7.1"), N_("you have no galley in %(area)s at the end of movement", area=order.zone)
        )
    others = sorted(s for s, f in area.units.items() if s != turn.seat and f.galleys)
    if order.against is not None:
        if order.against not in others:
            raise Rejected(
                ruleset.rule("7.1"), N_("%(seat)s has no galley in %(area)s", seat=order.against, area=order.zone)
            )
        return order.against
    if not others:
        raise Rejected(ruleset.rule("7.1"), N_("no other player has a galley in %(area)s", area=order.zone))
    if len(others) > 1:
        raise Rejected(
            ruleset.rule("7.1"),
            N_(
                "several players have galleys in %(area)s (%(seats)s): name one, "
                "%(kw_naval)s %(area)s %(kw_vs)s <seat>",
                area=order.zone,
                seats=", ".join(others),
                **in_english("naval", "vs"),
            ),
        )
    return others[0]


def category(cargo: Cargo | None) -> str:
    if cargo is None or cargo.is_empty():
        return "empty"
    if cargo.caesar:
        return "caesar"
    return "generals" if cargo.generals else "loaded"


def first_to_sink(force: Force, hits: int, priority: Sequence[str] = CATEGORIES) -> list[int]:
    """The `hits` galleys of `force` that sink first by a priority of categories (C-15.10: by default empty, loaded,
    generals, the Caesar), the fewest units aboard first within one, then the lowest number."""
    aboard = force.aboard
    return sorted(
        force.galleys, key=lambda g: (priority.index(category(aboard.get(g))), (aboard.get(g) or Cargo()).units, g)
    )[:hits]


def galleys_to_sink(
    turn: Turn, seat: str, force: Force, hits: int, key: str, at: Callable[[], Point] | None = None
) -> list[int]:
    """Which own galleys sink (C-7.4, C-15.10): by answer (galley numbers), standing order or default. `at`: the Point
    a question keeps (decisions.decide)."""
    ruleset = turn.rules
    preset = standing(turn, seat, "naval_losses")
    order = list(dict.fromkeys([*(preset or []), *CATEGORIES]))

    if hits == 0 or hits >= len(force.galleys):  # C-15.10: nothing to choose, so no decision (and no question)
        return first_to_sink(force, hits)

    def parse(text: str) -> list[int]:
        numbers = [int(w) for w in text.replace(",", " ").split() if w.isdigit()]
        if len(set(numbers)) != min(hits, len(force.galleys)) or not set(numbers) <= set(force.galleys):
            raise bad_answer(
                N_(
                    "name %(count)s of your galleys there: %(galleys)s",
                    count=hits,
                    galleys=", ".join(map(str, sorted(force.galleys))),
                )
            )
        return numbers

    return decide(
        turn,
        seat,
        key,
        N_("which %(count)s of your galleys sink?", count=hits),
        first_to_sink(force, hits),
        first_to_sink(force, hits, order) if preset else None,
        parse,
        ruleset.rule("15.10"),
        lambda v: ", ".join(N_("galley %(number)s", number=g) for g in v) or N_("none"),
        at,
    )


def fight_naval_battle(turn: Turn, zone: str, attacker: str, defender: str) -> None:
    """Up to three rounds, no retreat; sunk galleys take their cargo with them (C-7.2 to C-7.7, C-8.13)."""
    ruleset = turn.rules
    state = turn.state
    turn.event("naval_battle", attacker, area=zone, defender=defender, rule=ruleset.rule("7.1"))
    for number in range(1, ROUNDS + 1):
        area = state.area(zone)
        attack, defence = area.units.get(attacker), area.units.get(defender)
        if attack is None or defence is None or not attack.galleys or not defence.galleys:
            break
        key = f"naval.{zone}.{number}.losses"
        a_faces = [turn.dice.roll(f"{zone} naval round {number}: attacker") for _ in range(2 * len(attack.galleys))]
        d_hits = a_faces.count(GALLEY_FACE)
        d_sunk = galleys_to_sink(turn, defender, defence, d_hits, key, naval_point(turn, defender, d_hits))
        d_faces = [turn.dice.roll(f"{zone} naval round {number}: defender") for _ in range(2 * len(defence.galleys))]
        a_hits = d_faces.count(GALLEY_FACE)
        a_sunk = galleys_to_sink(turn, attacker, attack, a_hits, key, naval_point(turn, defender, a_hits, d_hits))
        turn.event(
            "naval_round",
            attacker,
            area=zone,
            round=number,
            defender=defender,
            attacker_dice=a_faces,
            defender_dice=d_faces,
            attacker_sunk=a_sunk,
            defender_sunk=d_sunk,
        )
        # C-8.13: the attacker's losses are applied first.
        sink(turn, zone, attacker, attack, a_sunk, defender)
        if state.players[attacker].eliminated:
            defence = state.area(zone).units.get(defender)  # the captor's galleys (merged) still sink
            if defence is not None:
                sink(turn, zone, defender, defence, d_sunk, None)
            break
        sink(turn, zone, defender, defence, d_sunk, attacker)
    turn.event("naval_end", attacker, area=zone, defender=defender)


def naval_point(turn: Turn, defender: str, hits: int, enemy_hits: int = 0) -> Callable[[], Point]:
    """The Point a naval losses question keeps: the position, the battle's defender, the asked seat's hits; the
    attacker's also the hits the defender took (decision_odds.py)."""
    state = turn.state
    return lambda: Point(state.copy(), hits=hits, enemy_hits=enemy_hits, defender=defender)


def sink(turn: Turn, zone: str, seat: str, force: Force, galleys: list[int], captor: str | None) -> None:
    """Galleys sink: carried units are lost, carried leaders captured by `captor` (or freed, C-8.13)."""
    from adjudicator.rulesets.coe.capture import place_freed_general

    ruleset = turn.rules
    leaders: list[int] = []
    for number in galleys:
        if number not in force.galleys:
            continue
        cargo = force.aboard.get(number) or Cargo()
        for kind in UNIT_KINDS:
            remove_units(turn.state, seat, force, kind, getattr(cargo, kind))
        leaders += ([0] if cargo.caesar else []) + cargo.generals
        remove_galleys(turn.state, seat, force, [number])
    if galleys:
        turn.event("galleys_sunk", seat, area=zone, galleys=galleys, rule=ruleset.rule("7.6"))
    if not leaders:
        turn.state.area(zone).prune()
        return
    if captor is None:  # C-8.13: the would-be captor was eliminated in the same instant
        # C-8.9, C-16.13: the Caesar is placed like the generals (home if controlled, else by C-15.12), not
        # always at home, which may be another player's province.
        for leader in sorted(leaders, reverse=True):
            if leader:
                force.generals.remove(leader)
            else:
                force.caesar = 0
            place_freed_general(turn, seat, leader)
        turn.state.area(zone).prune()
        return
    capture_leaders(turn, captor, zone, seat, leaders, ruleset.rule("7.6"), force=force)
