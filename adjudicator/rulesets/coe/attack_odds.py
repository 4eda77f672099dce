"""The odds of the land and naval battles a player-turn's orders would fight (a receipt prints them), as the mover
can know them: his orders' movement played on the position as it stands (C-5), then the exact odds (odds.py) of
every contested province and every naval battle, with his own standing orders, old and new, and none of the
defender's (C-15: a player's standing orders are his own secret, so the defender is taken to follow the defaults),
and whether each side has a province to retreat into as the board shows it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.vocabulary import AttackOdds, Rejected
from adjudicator.rulesets.coe.capture import end_of_movement, others_with_units
from adjudicator.rulesets.coe.movement import movement_phase
from adjudicator.rulesets.coe.orders import NavalBattle
from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.rulesets.coe.state import Cargo, Force, GameState
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.decisions import Point
    from adjudicator.rulesets.coe.odds_chain import Odds

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
        attacker_force = _pieces(mine) | _by_sea(rules, turn, code)
        defence = _defence(after, code, defender, after.areas[code].units[defender])
        odds = _land_odds(rules, after, code, (seat, defender), attacker_force, defence, after.players[seat].standing)
        found.append(_line(code, defender, odds))
    return found


def _land_odds(
    rules: CoeRuleset,
    state: GameState,
    code: str,
    sides: tuple[str, str],
    attack: dict[str, Any],
    defence: dict[str, Any],
    attacker_standing: Mapping[str, Any] | None = None,
    defender_standing: Mapping[str, Any] | None = None,
) -> Odds:
    """The exact odds (odds.py) of the land battle in `code` between `sides` (attacker, defender) with these pieces
    and standing orders, whether each side has a province to retreat into read off the board as `state` stands."""
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
    )


def _defence(state: GameState, code: str, defender: str, force: Force) -> dict[str, Any]:
    """The defender's pieces as the odds take them, with his fortified city there (C-6.7, O-6.5)."""
    area = state.areas[code]
    return _pieces(force) | {"fortified": area.city == "fortified" and area.owner == defender}


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
            fleets = (_fleet(units[turn.seat]), _fleet(units[defender]))
            odds = naval_odds(rules, *fleets, turn.state.players[turn.seat].standing, None)
            found.append(_line(zone, defender, odds))
    return found


def _line(area: str, defender: str, odds: Odds) -> AttackOdds:
    return AttackOdds(
        area,
        odds.attacker,
        f"{defender} {odds.defender}",
        float(odds.attacker_wins),
        float(sum(odds.attacker_losses.values())),
        float(sum(odds.defender_losses.values())),
    )


def _fleet(force: Force) -> list[dict[str, Any]]:
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
    from adjudicator.rulesets.coe.odds_forces import is_1984

    if not is_1984(rules):
        return {}
    return {"by_sea": dict(turn.scratch.get("by_sea", {}).get(code, {}))}


def decision_odds(
    rules: CoeRuleset, state: GameState, seat: str, key: str, point: Point | None
) -> list[tuple[str, AttackOdds]]:
    """The odds of each choice of a retreat decision (C-15.7, O-14.6: continue the battle or retreat), reckoned on the
    battle as it stands when the question arose (`point`: the forces left after the round or shot), as the asked seat
    can know them: his own standing orders, the enemy following the defaults (C-15). To continue is to fight on from
    there (the next round or shot first, then the standing orders and defaults); to retreat is to leave the province
    to the enemy: in Classic after his pursuit (C-6.16), or losing every unit where no province takes the retreat
    (C-6.20); in 1984 without pursuit (O-6.19). A Classic attacker's losses question: _losses_odds. Other decisions
    (legions, the defender's losses, targets) get none yet."""
    what, code, _ = _battle_key(key)
    if what == "losses" and point is not None:
        return _losses_odds(rules, seat, code, point)
    if what != "retreat" or point is None:
        return []
    sides = _sides(point, code)
    if sides is None or seat not in sides:
        return []
    from adjudicator.rulesets.coe.odds_forces import is_1984

    at, (attacker, defender) = point.state, sides
    mine, theirs = at.areas[code].units[attacker], at.areas[code].units[defender]
    edition_1984 = is_1984(rules)
    standing = at.players[seat].standing  # his own; the enemy's are his secret (C-15)
    odds = _land_odds(
        rules,
        at,
        code,
        sides,
        _pieces(mine) | ({"by_sea": dict(point.by_sea)} if edition_1984 else {}),
        _defence(at, code, defender, theirs),
        standing if seat == attacker else None,
        standing if seat == defender else None,
    )
    fight_on = _line(code, defender, odds)
    if edition_1984:  # only the attacker retreats, and nobody pursues him (O-6.15, O-6.19)
        place, lost = point.retreat_to, 0.0
    else:
        places = _destinations(rules, at, code, sides, seat)
        fleeing, pursuer = (mine, theirs) if seat == attacker else (theirs, mine)
        place = places[0] if places else None
        lost = expected_pursuit_losses(pursuer, fleeing) if places else float(fleeing.units)  # C-6.16, else C-6.20
    retreat = AttackOdds(
        code,
        fight_on.attacker,
        fight_on.defender,
        0.0 if seat == attacker else 1.0,
        lost if seat == attacker else 0.0,
        lost if seat == defender else 0.0,
    )
    # the choices as the question's default writes them (battle.py, battle1984.py), in the reader's keywords
    return [("continue", fight_on), (f"retreat to {place}" if place else "retreat", retreat)]


def _losses_odds(rules: CoeRuleset, seat: str, code: str, point: Point) -> list[tuple[str, AttackOdds]]:
    """The odds of each answer to a Classic attacker's losses question (C-15.6), asked after both rolls of a round:
    each way to take the hits from his battle legion (C-6.9), the defender's losses of the round removed too (the
    question keeps them only where he had no choice of legion or losses, so that the attacker saw them), then the
    battle on from there: his own standing RETREAT first (C-6.13, C-15.7; the defender's is his secret, so he stays),
    then the exact odds. The losses of the round are counted in the expected losses."""
    from adjudicator.rulesets.coe.battle import standing_retreat, units_text
    from adjudicator.rulesets.coe.odds_forces import describe

    sides = _sides(point, code)
    if point.enemy_losses is None or sides is None or seat != sides[0]:
        return []
    at, (attacker, defender) = point.state, sides
    mine, theirs = at.areas[code].units[attacker], at.areas[code].units[defender]
    standing = at.players[attacker].standing
    theirs_left = _less(theirs, point.enemy_losses)
    enemy_lost = float(sum(point.enemy_losses.values()))
    places = _destinations(rules, at, code, sides, attacker)
    found = []
    for lost in _ways_to_lose(point.legion, point.hits):
        mine_left = _less(mine, lost)
        own_lost = float(sum(lost.values()))
        kept = standing_retreat(standing.get("retreat"), code, mine_left, theirs_left, places)
        if not mine_left.units or not theirs_left.units:  # C-6.14: the battle ends by elimination
            wins, more_own, more_enemy = (1.0 if mine_left.units else 0.0), 0.0, 0.0
        elif kept is not None and kept[0]:  # he leaves at once, pursued (C-6.16)
            wins, more_own, more_enemy = 0.0, expected_pursuit_losses(theirs_left, mine_left), 0.0
        else:
            odds = _land_odds(
                rules, at, code, sides, _pieces(mine_left), _defence(at, code, defender, theirs_left), standing
            )
            wins = float(odds.attacker_wins)
            more_own = float(sum(odds.attacker_losses.values()))
            more_enemy = float(sum(odds.defender_losses.values()))
        line = AttackOdds(
            code, describe(_pieces(mine)), f"{defender} {describe(_defence(at, code, defender, theirs))}", wins,
            own_lost + more_own, enemy_lost + more_enemy,
        )  # fmt: skip
        found.append((units_text(lost), line))
    return found


def _sides(point: Point, code: str) -> tuple[str, str] | None:
    """The battle in `code` at a question's point: (attacker, defender), the attacker the seat whose turn it is, both
    with combat units there; None when there is no such battle."""
    attacker, area = point.state.active, point.state.areas.get(code)
    if attacker is None or area is None:
        return None
    mine = area.units.get(attacker)
    defenders = others_with_units(point.state, code, attacker) if mine and mine.units else []
    return (attacker, defenders[0]) if defenders and area.units[defenders[0]].units else None


def _destinations(rules: CoeRuleset, state: GameState, code: str, sides: tuple[str, str], seat: str) -> list[str]:
    """Where `seat` could retreat from the battle in `code`, in the default order (C-6.17, C-15.8)."""
    from adjudicator.rulesets.coe.battle import LandBattle

    return LandBattle(Turn(rules, state.copy(), sides[0], (), NO_DICE, {}), code, *sides).destinations(seat)


def _ways_to_lose(legion: Mapping[str, int], hits: int) -> list[dict[str, int]]:
    """Every way to take `hits` units from `legion` (C-6.9), infantry first in the count."""
    kinds = [kind for kind in UNIT_KINDS if legion.get(kind)]
    found: list[dict[str, int]] = []

    def take(index: int, left: int, chosen: dict[str, int]) -> None:
        if index == len(kinds):
            if not left:
                found.append({kind: chosen.get(kind, 0) for kind in UNIT_KINDS})
            return
        kind = kinds[index]
        for n in range(min(legion[kind], left), -1, -1):
            take(index + 1, left - n, {**chosen, kind: n})

    take(0, hits, {})
    return found


def _less(force: Force, lost: Mapping[str, int]) -> Force:
    """A copy of `force` without the units `lost` (its leaders as they are)."""
    return replace(force, **{kind: getattr(force, kind) - count for kind, count in lost.items()})


def _battle_key(key: str) -> tuple[str, str, str]:
    """battle.<area>.<round>.<what> -> (what, area, round); anything else -> ("", "", "")."""
    parts = key.split(".")
    if len(parts) == 4 and parts[0] == "battle":
        return parts[3], parts[1], parts[2]
    return "", "", ""


def expected_pursuit_losses(pursuer: Force, fleeing: Force) -> float:
    """The expected units a retreat loses to the pursuit (C-6.16): a die per pursuing combat unit, each cavalry face
    (one face in six, C-1.8) eliminating one retreating unit, at most as many as the pursuer has cavalry."""
    from math import comb

    dice, most = pursuer.units, min(pursuer.cavalry, fleeing.units)
    return sum(min(hits, most) * comb(dice, hits) * 5 ** (dice - hits) / 6**dice for hits in range(dice + 1))
