"""The odds of the land and naval battles a player-turn's orders would fight (a receipt prints them), as the mover
can know them: his orders' movement played on the position as it stands (C-5), then the exact odds (odds.py) of
every contested province and every naval battle, with his own standing orders, old and new, and none of the
defender's (C-15: a player's standing orders are his own secret, so the defender is taken to follow the defaults),
and whether each side has a province to retreat into as the board shows it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.vocabulary import AttackOdds, Rejected
from adjudicator.rulesets.coe.capture import end_of_movement, others_with_units
from adjudicator.rulesets.coe.movement import movement_phase
from adjudicator.rulesets.coe.orders import NavalBattle
from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.rulesets.coe.state import Cargo, Force, GameState
from adjudicator.rulesets.coe.turn import Turn

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.odds_chain import Odds
    from adjudicator.rulesets.coe.odds_forces import Comp

NO_DICE = KeyedDice(key=bytes(32))  # movement rolls nothing; a fixed key keeps the odds the same at every check


def attack_odds(rules: CoeRuleset, state: GameState, seat: str, number: int, orders: Any) -> list[AttackOdds]:
    """The odds of each battle `seat`'s orders bring about in its player-turn `number`: the land battles by area
    code (C-15.4), then the naval ones."""
    from adjudicator.rulesets.coe.play import record_standing_orders

    position = state.copy()
    position.active, position.turn = seat, number - 1
    for other, player in position.players.items():
        if other != seat:
            player.standing = {}  # hidden from the mover: they never shape his figure
    turn = Turn(rules, position, seat, tuple(orders.orders), NO_DICE, {})
    record_standing_orders(turn)  # the mover's new standing orders fight this turn's battles
    movement_phase(turn)
    end_of_movement(turn)
    return [*_land_battles(rules, turn), *_naval_battles(rules, turn)]


def _land_battles(rules: CoeRuleset, turn: Turn) -> list[AttackOdds]:
    """Every contested province after movement, by area code (C-6.1, C-15.4); the defender with no standing orders."""
    after, seat = turn.state, turn.seat
    found: list[AttackOdds] = []
    for code in sorted(after.areas):
        mine = after.areas[code].units.get(seat)
        defenders = others_with_units(after, code, seat) if mine and mine.units else []
        if not defenders or not rules.board.is_land(code):
            continue
        defender = defenders[0]
        attacker_force = pieces(mine) | _by_sea(rules, turn, code)
        defence = defence_pieces(after, code, defender, after.areas[code].units[defender])
        odds = land_battle_odds(
            rules, after, code, (seat, defender), attacker_force, defence, after.players[seat].standing
        )
        found.append(odds_line(code, defender, odds))
    return found


def land_battle_odds(
    rules: CoeRuleset,
    state: GameState,
    code: str,
    sides: tuple[str, str],
    attack: dict[str, Any],
    defence: dict[str, Any],
    attacker_standing: Mapping[str, Any] | None = None,
    defender_standing: Mapping[str, Any] | None = None,
    after_round: Mapping[tuple[Comp, Comp], float] | None = None,
) -> Odds:
    """The exact odds (odds.py) of the land battle in `code` between `sides` (attacker, defender) with these pieces
    and standing orders, whether each side has a province to retreat into read off the board as `state` stands;
    after_round: from the states a round already fought left (odds.land_odds)."""
    from adjudicator.rulesets.coe.odds import land_odds  # loaded where a battle is found: most orders fight none

    attacker, defender = sides
    return land_odds(
        rules,
        attack,
        defence,
        attacker_standing,
        defender_standing,
        area=code,
        attacker_can_retreat=_can_retreat(rules, state, code, attacker),
        defender_can_retreat=_can_retreat(rules, state, code, defender),
        after_round=after_round,
    )


def defence_pieces(state: GameState, code: str, defender: str, force: Force) -> dict[str, Any]:
    """The defender's pieces as the odds take them, with his fortified city there (C-6.7, O-6.5)."""
    area = state.areas[code]
    return pieces(force) | {"fortified": area.city == "fortified" and area.owner == defender}


def _can_retreat(rules: CoeRuleset, state: GameState, code: str, seat: str) -> bool:
    """Whether `seat` has a province to retreat into from `code` (public facts): Classic, an adjacent land province
    without other players' combat units (C-6.17); 1984, one he controls besides (O-6.16)."""
    from adjudicator.rulesets.coe.odds_forces import is_1984

    controlled = is_1984(rules)
    return any(
        not others_with_units(state, near, seat) and (not controlled or state.area(near).owner == seat)
        for near in rules.board.land_neighbours(code)
    )


def _naval_battles(rules: CoeRuleset, turn: Turn) -> list[AttackOdds]:
    """The naval battles the orders declare (C-7.1) or that 1984 makes compulsory (O-6.2), the fleets as they lie
    after movement with what their galleys carry (public pieces)."""
    from adjudicator.rulesets.coe.naval import naval_opponent
    from adjudicator.rulesets.coe.play import compulsory_naval_battles

    naval: dict[str, list[str]] = {}
    if rules.edition("naval_battles") == "compulsory":
        compulsory_naval_battles(turn, naval)
    for order in turn.of_kind(NavalBattle):
        assert isinstance(order, NavalBattle)
        try:
            opponent = naval_opponent(turn, order)
        except Rejected:
            continue  # the receipt's verdict says why: no battle, no odds
        if opponent not in naval.setdefault(order.zone, []):
            naval[order.zone].append(opponent)
    found: list[AttackOdds] = []
    if naval:
        from adjudicator.rulesets.coe.odds import naval_odds
    for zone, defenders in naval.items():
        units = turn.state.areas[zone].units
        for defender in defenders:
            fleets = (fleet_of(units[turn.seat]), fleet_of(units[defender]))
            odds = naval_odds(rules, *fleets, turn.state.players[turn.seat].standing, None)
            found.append(odds_line(zone, defender, odds))
    return found


def odds_line(area: str, defender: str, odds: Odds) -> AttackOdds:
    return AttackOdds(
        area,
        odds.attacker,
        f"{defender} {odds.defender}",
        float(odds.attacker_wins),
        float(sum(odds.attacker_losses.values())),
        float(sum(odds.defender_losses.values())),
    )


def fleet_of(force: Force) -> list[dict[str, Any]]:
    """A side's galleys, each with what it carries (C-5.22)."""
    fleet = []
    for galley in force.galleys:
        cargo = force.aboard.get(galley) or Cargo()
        fleet.append(
            {
                "infantry": cargo.infantry,
                "cavalry": cargo.cavalry,
                "catapult": cargo.catapult,
                "generals": len(cargo.generals),
                "caesar": bool(cargo.caesar),
            }
        )
    return fleet


def pieces(force: Force | None) -> dict[str, Any]:
    """A side's combat units and leaders as the odds take them."""
    force = force or Force()
    return {
        "infantry": force.infantry,
        "cavalry": force.cavalry,
        "catapult": force.catapult,
        "leaders": len(force.leaders),
        "caesar": bool(force.caesar),
    }


def _by_sea(rules: CoeRuleset, turn: Turn, code: str) -> dict[str, Any]:
    """1984 (O-6.17): the units that came by sea this turn, as movement counted them."""
    from adjudicator.rulesets.coe.odds_forces import is_1984

    if not is_1984(rules):
        return {}
    return {"by_sea": dict(turn.scratch.get("by_sea", {}).get(code, {}))}
