"""Conquest of the Empire: one player-turn as the six phases of C-4.2, each a named step (CoeRuleset.play_step)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.coe.capture import end_of_movement, others_with_units
from adjudicator.rulesets.coe.decisions import record_standing_order
from adjudicator.rulesets.coe.economy import buy, collect_tribute, destroy_city, refresh_tribute, start_inflation
from adjudicator.rulesets.coe.invariants import broken_invariants
from adjudicator.rulesets.coe.movement import movement_phase
from adjudicator.rulesets.coe.orders import (
    Answer,
    BattleOrder,
    Buy,
    Captives,
    Concede,
    DestroyCity,
    FreedTo,
    Homes,
    Language,
    NavalBattle,
    Order,
    Press,
    Priority,
    RansomAccept,
    RansomOffer,
    RetreatRule,
)
from adjudicator.rulesets.coe.parse import GRAMMAR_FILES, order_builder  # the order language (orders/parser.py)
from adjudicator.rulesets.coe.state import Force
from adjudicator.rulesets.coe.turn import Turn, next_seat
from adjudicator.rulesets.coe.vocabulary import add_event

__all__ = ["GRAMMAR_FILES", "broken_invariants", "initial_state", "map_layers", "order_builder", "play_turn"]  # noqa: F822 (initial_state, map_layers: __getattr__ below)

STANDING = (Priority, RetreatRule, Captives, FreedTo)
AFTER_COMBAT: tuple[type[Order], ...] = (DestroyCity, Buy, RansomOffer, RansomAccept, Concede)


def __getattr__(name: str) -> Any:
    """`map_layers`, the map's layers (render/svgmap.py), loaded when a map is drawn: checking or storing orders
    draws none and need not load the map's drawing code. `initial_state` (setup.py), loaded when a game starts."""
    if name == "map_layers":
        from adjudicator.rulesets.coe.mapping import map_layers

        return map_layers
    if name == "initial_state":
        from adjudicator.rulesets.coe.setup import initial_state

        return initial_state
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def play_turn(turn: Turn) -> None:
    """One player-turn (C-4.2): the phases in order, every phase gone through even if empty (C-4.4)."""
    record_standing_orders(turn)
    start_inflation(turn)
    movement_phase(turn)
    end_of_movement(turn)
    combat_phase(turn)
    if still_playing(turn):
        collect_tribute(turn)
        destroy_cities_phase(turn)
        buy_and_place_phase(turn)
        agreements_phase(turn)
    relay_press(turn)
    end_turn(turn)


def still_playing(turn: Turn) -> bool:
    """Phases 3 to 6 are skipped when the active player was eliminated in his own turn (C-8.10)."""
    if not turn.state.players[turn.seat].eliminated and turn.state.winner is None:
        return True
    if turn.state.winner is not None and not turn.state.players[turn.seat].eliminated:
        rule, reason = turn.rules.rule("14.1"), N_("the game is over: %(seat)s wins", seat=turn.state.winner)
    else:
        rule, reason = turn.rules.rule("8.10"), N_("you were eliminated in your combat phase")
    for order in turn.of_kind(*AFTER_COMBAT):
        turn.reject(order, rule, reason)
    return False


def record_standing_orders(turn: Turn) -> None:
    """Standing orders are kept until replaced and answer decisions outside one's turn (C-15)."""
    standing = turn.state.players[turn.seat].standing
    for order in turn.of_kind(*STANDING):
        record_standing_order(standing, order)
        turn.accept(order, N_("standing order recorded"))
        add_event(turn, "standing_order", turn.seat, text=order.text)
    for order in turn.of_kind(Answer):  # the mover may answer his own turn's decisions in advance
        assert isinstance(order, Answer)
        turn.answers = {**turn.answers, turn.seat: {**turn.answers.get(turn.seat, {}), order.key: order.value}}
        turn.accept(order, N_("answer recorded for this turn"))
    for order in turn.of_kind(Homes):
        turn.reject(order, turn.rules.rule("15.1"), N_("home provinces are assigned when the game is created"))


def combat_phase(turn: Turn) -> None:
    """Phase 2 (C-6.1, C-6.2, C-7.1): every contested province, and the declared naval battles, one by one
    in the order the mover gives (C-15.4: BATTLES order first, then land battles by area code, then
    naval battles as written)."""
    ruleset = turn.rules
    turn.event("phase", turn.seat, number=2, name="combat")
    naval: dict[str, list[str]] = {}
    if turn.rules.edition("naval_battles") == "compulsory":
        compulsory_naval_battles(turn, naval)
    for order in turn.of_kind(NavalBattle):
        assert isinstance(order, NavalBattle)
        turn.attempt(order, lambda order=order: _declare(turn, order, naval))
    land = [  # the areas where the mover has combat units first: is_land of each area costs more
        code
        for code in sorted(turn.state.areas)
        if turn.seat in turn.state.areas[code].units
        and turn.state.areas[code].units[turn.seat].units
        and ruleset.board.is_land(code)
        and others_with_units(turn.state, code, turn.seat)
    ]
    sequence: list[str] = []
    for order in turn.of_kind(BattleOrder):
        assert isinstance(order, BattleOrder)
        unknown = [c for c in order.areas if c not in land and c not in naval]
        if unknown:
            turn.reject(order, ruleset.rule("6.2"), N_("no battle of yours in %(areas)s", areas=", ".join(unknown)))
        else:
            turn.accept(order)
            sequence += [c for c in order.areas if c not in sequence]
    sequence += [c for c in land if c not in sequence] + [c for c in naval if c not in sequence]
    for code in sequence:
        attacker = controller(turn, turn.seat)  # C-8.10: the captor fights on
        if code in naval:
            for defender in naval[code]:
                if defender != attacker and not turn.state.players[defender].eliminated:
                    fight_naval(turn, code, attacker, defender)
                else:
                    turn.event(
                        "battle_skipped",
                        attacker,
                        area=code,
                        defender=defender,
                        reason=N_("both fleets now belong to the same player"),
                        rule=ruleset.rule("8.10"),
                    )
        else:
            defenders = others_with_units(turn.state, code, attacker)
            if defenders and turn.state.area(code).units.get(attacker):
                fight_land(turn, code, attacker, defenders[0])
        if turn.state.winner is not None:
            break


def compulsory_naval_battles(turn: Turn, naval: dict[str, list[str]]) -> None:
    """1984 (O-6.2): a battle against every other player with galleys in each sea zone the mover entered
    with a galley this turn (movement records the zones in turn.scratch["entered_zones"])."""
    for zone in sorted(turn.scratch.get("entered_zones", ())):
        area = turn.state.areas.get(zone)
        if area is None or not area.units.get(turn.seat, Force()).galleys:
            continue
        naval[zone] = sorted(s for s, f in area.units.items() if s != turn.seat and f.galleys)
        if not naval[zone]:
            del naval[zone]


def fight_land(turn: Turn, code: str, attacker: str, defender: str) -> None:
    """The edition's land battle: symbol dice (C-6) or target numbers (1984, O-6.4 to O-6.22)."""
    # the battle modules are loaded where a battle is fought: a check of orders or a quiet turn needs none
    if turn.rules.edition("combat") == "target_number":
        from adjudicator.rulesets.coe import battle1984

        battle1984.fight_land_battle(turn, code, attacker, defender)
    else:
        from adjudicator.rulesets.coe.battle import LandBattle

        LandBattle(turn, code, attacker, defender).fight()


def fight_naval(turn: Turn, zone: str, attacker: str, defender: str) -> None:
    """The edition's naval battle: galley dice (C-7) or target numbers (1984, O-6.23 to O-6.27)."""
    if turn.rules.edition("combat") == "target_number":
        from adjudicator.rulesets.coe import battle1984

        battle1984.fight_naval_battle(turn, zone, attacker, defender)
    else:
        from adjudicator.rulesets.coe.naval import fight_naval_battle

        fight_naval_battle(turn, zone, attacker, defender)


def _declare(turn: Turn, order: NavalBattle, naval: dict[str, list[str]]) -> str:
    from adjudicator.rulesets.coe.naval import naval_opponent

    opponent = naval_opponent(turn, order)
    if opponent in naval.get(order.zone, []):
        raise Rejected(
            turn.rules.rule("7.1"),
            N_("a naval battle against %(seat)s in %(area)s is declared already", seat=opponent, area=order.zone),
        )
    naval.setdefault(order.zone, []).append(opponent)
    return N_("naval battle against %(seat)s", seat=opponent)


def controller(turn: Turn, seat: str) -> str:
    """Who now plays a seat's pieces: the seat, or whoever took it over (C-8.8)."""
    player = turn.state.players[seat]
    while player.eliminated and player.captor:
        seat = player.captor
        player = turn.state.players[seat]
    return seat


def destroy_cities_phase(turn: Turn) -> None:
    """Phase 4 (C-10)."""
    turn.event("phase", turn.seat, number=4, name="destroy cities")
    for order in turn.of_kind(DestroyCity):
        turn.attempt(order, lambda order=order: destroy_city(turn, order))


def buy_and_place_phase(turn: Turn) -> None:
    """Phases 5 and 6 (C-11, C-12): each item is bought and placed at once, in the order written."""
    turn.event("phase", turn.seat, number=5, name="buy and place")
    for order in turn.of_kind(Buy):
        buy(turn, order)


def relay_press(turn: Turn) -> None:
    """Press goes into the reports: broadcasts publicly, the rest to the addressee only (C-15.19). A LANGUAGE
    order is no game order: the moderator records it when the orders arrive; here it is only confirmed."""
    for order in turn.of_kind(Press):
        add_event(turn, "press", turn.seat, to=order.to, message=order.message)
        turn.accept(order, N_("relayed") if order.to is None else N_("relayed to %(seat)s", seat=order.to))
    for order in turn.of_kind(Language):
        assert isinstance(order, Language)
        turn.accept(order, N_("your reports and receipts come in language '%(code)s'", code=order.code))


def agreements_phase(turn: Turn) -> None:
    """Phase 6 agreements (C-13.1): ransom offers, acceptances and concession."""
    if not turn.of_kind(RansomAccept, RansomOffer, Concede):
        return  # agreements.py is loaded only for a turn that makes one
    from adjudicator.rulesets.coe.agreements import concede, ransom, record_acceptance

    for order in turn.of_kind(RansomAccept):
        assert isinstance(order, RansomAccept)
        turn.attempt(order, lambda order=order: record_acceptance(turn, order))
    for order in turn.of_kind(RansomOffer):
        assert isinstance(order, RansomOffer)
        turn.attempt(order, lambda order=order: ransom(turn, order))
    for order in turn.of_kind(Concede):
        assert isinstance(order, Concede)
        turn.attempt(order, lambda order=order: concede(turn, order))


def end_turn(turn: Turn) -> None:
    """Hand the turn to the next seat in turn order (C-4.1)."""
    state = turn.state
    refresh_tribute(turn)
    state.turn += 1
    following, new_round = next_seat(state)
    state.active = None if state.winner else following
    if new_round:
        state.round += 1
    turn.event("turn_end", turn.seat, next=following, round=state.round)
