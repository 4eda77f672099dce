"""The odds of the land battles a player-turn's orders would fight (a receipt prints them), as the mover can know
them: his orders' movement played on the position as it stands (C-5, deterministic), then the exact odds
(odds.py) of every contested province with his own standing orders, old and new, and none of the defender's
(C-15: a player's standing orders are his own secret, so the defender is taken to follow the defaults)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.vocabulary import AttackOdds
from adjudicator.rulesets.coe.capture import end_of_movement, others_with_units
from adjudicator.rulesets.coe.movement import movement_phase
from adjudicator.rulesets.coe.odds import land_odds
from adjudicator.rulesets.coe.odds_forces import is_1984
from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.rulesets.coe.state import Force, GameState
from adjudicator.rulesets.coe.turn import Turn

NO_DICE = KeyedDice(key=bytes(32))  # movement rolls nothing; a fixed key keeps the odds the same at every check


def attack_odds(rules: CoeRuleset, state: GameState, seat: str, number: int, orders: Any) -> list[AttackOdds]:
    """The odds of each land battle `seat`'s orders bring about in its player-turn `number`, by area code (C-15.4)."""
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
    after = turn.state
    found: list[AttackOdds] = []
    for code in sorted(after.areas):
        mine = after.areas[code].units.get(seat)
        defenders = others_with_units(after, code, seat) if mine and mine.units else []
        if not defenders or not rules.board.is_land(code):
            continue
        defender = defenders[0]
        area = after.areas[code]
        attacker_force = _pieces(mine) | _by_sea(rules, turn, code)
        defender_force = _pieces(area.units[defender]) | {
            "fortified": area.city == "fortified" and area.owner == defender
        }
        odds = land_odds(rules, attacker_force, defender_force, after.players[seat].standing, None, area=code)
        found.append(
            AttackOdds(
                code,
                odds.attacker,
                f"{defender} {odds.defender}",
                float(odds.attacker_wins),
                float(sum(odds.attacker_losses.values())),
                float(sum(odds.defender_losses.values())),
            )
        )
    return found


def _pieces(force: Force | None) -> dict[str, Any]:
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
    if not is_1984(rules):
        return {}
    return {"by_sea": dict(turn.scratch.get("by_sea", {}).get(code, {}))}
