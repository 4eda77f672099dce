"""The odds of each answer to a question asked in the middle of a battle (a decision notice prints them), reckoned
on the battle as it stands at the question (the engine's Pending.position: the Point it keeps), as the asked seat
can know it: his own standing orders; the enemy's are his secret (C-15), so the enemy is taken to follow
the defaults, and so is his part of the round that the asked seat has not seen (his battle legion where he had a
choice of it, C-15.5, and the units he lost where he had a choice of them, C-15.6).

- Continue or retreat (C-15.7, O-14.6): to continue is to fight on from the forces left; to retreat is to leave the
  province to the enemy, in Classic after his pursuit (C-6.16), or losing every unit where no province takes the
  retreat (C-6.20); in 1984 without pursuit (O-6.19).
- Classic battle legions (C-15.5): each legion the seat could form, for the round about to be fought.
- Classic losses (C-15.6): each way to take the round's hits from his legion (C-6.9), for the round's rest.
- 1984 targets (O-14.4, O-14.5; at sea O-6.24): each target his shot could aim at, for the cycle's rest.
- Classic naval losses (C-15.10): each set of galleys that could sink, for the round's rest and the rounds left.

A Classic round is played out over what is not yet rolled or chosen (Round), a 1984 cycle shot by shot; then the
battle goes on from each state they leave (odds.land_odds after_round): the retreat first (C-6.13, O-6.8 step 9),
the exact odds after; a Classic naval round is played out likewise, then the rounds left (odds.naval_odds rounds),
and a 1984 cycle at sea shot by shot, then the battle on (odds.naval_odds after_round)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import AttackOdds
from adjudicator.rulesets.coe.attack_odds import NO_DICE, defence_pieces, fleet_of, land_battle_odds, odds_line, pieces
from adjudicator.rulesets.coe.capture import others_with_units
from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.rulesets.coe.state import Cargo, Force, GameState
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.battle import Units
    from adjudicator.rulesets.coe.battle1984 import Combat, Target
    from adjudicator.rulesets.coe.decisions import Pick, Point
    from adjudicator.rulesets.coe.odds_forces import Comp

FIGURES = ("wins", "attacker_losses", "defender_losses")  # an odds line's figures, weighed over the ways to get there


def decision_odds(
    rules: CoeRuleset, state: GameState, seat: str, key: str, point: Point | None
) -> list[tuple[str, AttackOdds]]:
    """The odds of each answer to `seat`'s battle question `key` (the module's docstring says which), as the
    question's default writes the answer; none for other decisions, or without the point the question kept."""
    from adjudicator.rulesets.coe.odds_forces import is_1984

    if key.startswith("naval."):
        return _naval_odds(rules, seat, key, point)
    what, code = battle_question(key)
    sides = _sides(point, code) if point is not None else None
    if point is None or sides is None or seat not in sides:
        return []
    if what == "retreat":
        return _retreat_odds(rules, seat, code, point, sides)
    if is_1984(rules):
        return _target_odds(rules, seat, code, point, sides) if what == "target" else []
    if what == "legion":
        return _legion_odds(rules, seat, code, point, sides)
    if what == "losses" and point.legion:
        return _losses_odds(rules, seat, code, point, sides)
    return []


def _naval_odds(rules: CoeRuleset, seat: str, key: str, point: Point | None) -> list[tuple[str, AttackOdds]]:
    """A naval battle's question, naval.<zone>.<round or cycle>.<what>: its attacker is the seat whose turn it is, its
    defender the one the point names."""
    from adjudicator.rulesets.coe.odds_forces import is_1984

    parts = key.split(".")
    if point is None or len(parts) != 4 or not point.defender or point.state.active is None:
        return []
    _, zone, number, what = parts
    sides = (point.state.active, point.defender)
    if seat not in sides or zone not in point.state.areas:
        return []
    if is_1984(rules):
        return _target_odds(rules, seat, zone, point, sides) if what == "target" else []
    return _naval_losses_odds(rules, seat, zone, int(number), point) if what == "losses" else []


def _retreat_odds(
    rules: CoeRuleset, seat: str, code: str, point: Point, sides: tuple[str, str]
) -> list[tuple[str, AttackOdds]]:
    """Continue or retreat (C-15.7, O-14.6): to continue is to fight on from the forces left (the next round or shot
    first, then the standing orders and defaults); to retreat is to leave the province to the enemy."""
    from adjudicator.rulesets.coe.odds_forces import is_1984

    at, (attacker, defender) = point.state, sides
    mine, theirs = at.areas[code].units[attacker], at.areas[code].units[defender]
    edition_1984 = is_1984(rules)
    standing = at.players[seat].standing  # his own; the enemy's are his secret (C-15)
    odds = land_battle_odds(
        rules,
        at,
        code,
        sides,
        pieces(mine) | ({"by_sea": dict(point.by_sea)} if edition_1984 else {}),
        defence_pieces(at, code, defender, theirs),
        standing if seat == attacker else None,
        standing if seat == defender else None,
    )
    fight_on = odds_line(code, defender, odds)
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


def _target_odds(
    rules: CoeRuleset, seat: str, area: str, point: Point, sides: tuple[str, str]
) -> list[tuple[str, AttackOdds]]:
    """A 1984 target question (O-14.4, O-14.5; at sea O-6.24): each target `seat`'s shot could aim at, in the default
    order, the shot hitting with its chance (O-6.7); the attacker's shot is followed by the defender's reply at the
    target his defaults name (his standing TARGETS are his secret); then the battle on, on land the attacker's retreat
    first."""
    from adjudicator.rulesets.coe.battle1984 import LandBattle1984, NavalBattle1984

    attacker, defender = sides
    turn = Turn(rules, point.state.copy(), attacker, (), NO_DICE, {})
    if rules.board.is_land(area):
        turn.scratch["by_sea"] = {area: dict(point.by_sea)}
    at = (LandBattle1984 if rules.board.is_land(area) else NavalBattle1984)(turn, area, attacker, defender)
    standing = point.state.players[seat].standing
    own = (standing if seat == attacker else None, standing if seat == defender else None)
    found = []
    for target in at.ranked_targets(seat):
        lines = []  # (chance, the odds line of the battle on from there) of each way the cycle's shots can fall
        for chance, battle in _shot(at, seat, target):
            if seat == attacker and _fighting(battle):
                branches = _shot(battle, defender, battle.ranked_targets(defender)[0])
            else:
                branches = [(1.0, battle)]
            lines += [(chance * further, _battle_on(rules, at, after, own)) for further, after in branches]
        figure = [sum(p * getattr(line, name) for p, line in lines) for name in FIGURES]
        found.append((target.show(), AttackOdds(area, lines[0][1].attacker, lines[0][1].defender, *figure)))
    return found


def _shot(battle: Combat, seat: str, target: Target) -> list[tuple[float, Combat]]:
    """`seat`'s shot at `target` (O-6.7): the battle after a hit and after a miss, each with its chance (a shot
    needing 1 or less hits without a die, O-15.1)."""
    needed = battle.base_number(target) - battle.advantage(seat)
    chance = 1.0 if needed <= 1 else max(0, 7 - needed) / 6
    hit = battle.copy()
    hit.remove(battle.enemy(seat), target, seat)
    return [(p, after) for p, after in ((chance, hit), (1 - chance, battle)) if p]


def _fighting(battle: Combat) -> bool:
    """Whether both sides fight on: combat units on land (O-6.14), galleys and the Caesar at sea (O-6.26, O-7.5)."""
    sides = (battle.attacker, battle.defender)
    if not battle.at_sea:
        return all(battle.force(side).units for side in sides)
    players = battle.turn.state.players
    return all(battle.force(side).galleys and not players[side].eliminated for side in sides)


def _battle_on(
    rules: CoeRuleset,
    before: Combat,
    after: Combat,
    standings: tuple[Mapping[str, Any] | None, Mapping[str, Any] | None],
) -> AttackOdds:
    """The odds line of a 1984 battle gone from `before` to `after` by the shots of a cycle: the battle on from there
    (odds.py after_round), its losses counted from `before`."""
    from adjudicator.rulesets.coe.battle import units_of
    from adjudicator.rulesets.coe.odds import naval_odds
    from adjudicator.rulesets.coe.odds_forces import comp_of, describe_fleet

    area, sides, state = before.area, (before.attacker, before.defender), before.turn.state
    if not before.at_sea:
        left = tuple(comp_of(units_of(after.force(side))) for side in sides)
        attack = pieces(before.force(sides[0])) | {"by_sea": dict(after.sea_borne)}  # type: ignore[attr-defined]
        defence = defence_pieces(state, area, sides[1], before.force(sides[1]))
        odds = land_battle_odds(rules, state, area, sides, attack, defence, *standings, after_round={left: 1.0})
        return odds_line(area, sides[1], odds)
    fleets = [fleet_of(before.force(side)) for side in sides]
    if not _fighting(after):  # a fleet gone or a Caesar sunk: the battle is over (O-6.26, O-7.5)
        winner = (
            sides[0] if after.force(sides[0]).galleys and not after.turn.state.players[sides[0]].eliminated else None
        )
        lost = [_afloat(before.force(side)) - _afloat(after.force(side)) for side in sides]
        texts = [describe_fleet(fleet) for fleet in fleets]
        return AttackOdds(area, texts[0], f"{sides[1]} {texts[1]}", float(winner == sides[0]), *map(float, lost))
    galleys = [before.force(side).galleys for side in sides]
    left = tuple(
        tuple(
            comp_of(units_of(after.force(side).aboard.get(g) or Cargo())) if g in after.force(side).galleys else None
            for g in own
        )
        for side, own in zip(sides, galleys, strict=True)
    )
    odds = naval_odds(rules, fleets[0], fleets[1], *standings, after_round={left: 1.0})
    return odds_line(area, sides[1], odds)


def _afloat(force: Force) -> int:
    """A fleet's pieces as a naval battle's losses count them: galleys and the combat units aboard."""
    return len(force.galleys) + sum((force.aboard.get(g) or Cargo()).units for g in force.galleys)


@dataclass(frozen=True)
class Round:
    """One Classic round (C-6.5 to C-6.12) as the asked seat knows it, each pair (attacker's, defender's): the battle
    legions, the hits each side takes where the roll is made (None: to roll), and the units each loses where they
    are chosen (None: by the side's loss priority, C-15.6)."""

    legions: tuple[Units, Units]
    hits: tuple[int | None, int | None] = (None, None)
    losses: tuple[Units | None, Units | None] = (None, None)


def _naval_losses_odds(
    rules: CoeRuleset, seat: str, zone: str, number: int, point: Point
) -> list[tuple[str, AttackOdds]]:
    """A Classic naval losses question (C-15.10): each set of `point.hits` of `seat`'s galleys that could sink (equal
    figures once, by the first set), then the round's rest: the defender, asked after the attacker's roll, rolls his
    two dice a galley (C-7.3) and the attacker loses galleys by his default order (his standing NAVAL LOSSES is his
    secret); the attacker, asked after both rolls, sees the defender lose his by the default order. The attacker's
    losses come first (C-8.13); then the rounds left (C-7.5)."""
    from itertools import combinations

    from adjudicator.rulesets.coe.naval import ROUNDS, first_to_sink
    from adjudicator.rulesets.coe.odds_chain import binomial, capped
    from adjudicator.rulesets.coe.odds_forces import describe_fleet

    state, attacker, defender = point.state, point.state.active, point.defender
    enemy = defender if seat == attacker else attacker
    fleets = {side: state.areas[zone].units[side] for side in (attacker, defender)}
    mine, theirs = fleets[seat], fleets[enemy]

    if seat == defender:  # his roll to come: two dice a galley, one in six a galley face (C-7.3)
        rolled = capped(binomial(2 * len(mine.galleys), False), len(theirs.galleys))
        enemy_sinks = [(first_to_sink(theirs, hits), float(p)) for hits, p in enumerate(rolled) if p]
    else:
        enemy_sinks = [(first_to_sink(theirs, point.enemy_hits), 1.0)]
    standing = state.players[seat].standing
    own = (standing if seat == attacker else None, standing if seat == defender else None)
    texts = (describe_fleet(fleet_of(fleets[attacker])), f"{defender} {describe_fleet(fleet_of(fleets[defender]))}")
    found: dict[tuple[float, ...], tuple[str, AttackOdds]] = {}
    for sunk in combinations(sorted(mine.galleys), point.hits):
        figure = [0.0, 0.0, 0.0]
        for enemy_sunk, p in enemy_sinks:
            lost = {seat: list(sunk), enemy: enemy_sunk}
            forces = (fleets[attacker], fleets[defender])
            end = _after_naval_round(rules, forces, (lost[attacker], lost[defender]), ROUNDS - number, own)
            figure = [f + p * x for f, x in zip(figure, end, strict=True)]
        answer = ", ".join(str(g) for g in sunk)
        found.setdefault(tuple(figure), (answer, AttackOdds(zone, *texts, *figure)))
    return list(found.values())


def _after_naval_round(
    rules: CoeRuleset,
    forces: tuple[Force, Force],
    sunk: tuple[list[int], list[int]],
    rounds_left: int,
    standings: tuple[Mapping[str, Any] | None, Mapping[str, Any] | None],
) -> tuple[float, float, float]:
    """The attacker's chance to win and each side's expected losses (galleys and the units they carry) once the
    galleys `sunk` of a round have gone: the attacker's first, his Caesar aboard ending his battle (C-8.13), a fleet
    gone ending it (C-7.5), then the rounds left."""
    from adjudicator.rulesets.coe.odds import naval_odds

    lost: list[float] = []
    rest: list[list[dict[str, Any]]] = []
    caesar: list[bool] = []
    for force, galleys in zip(forces, sunk, strict=True):
        aboard = [force.aboard.get(g) or Cargo() for g in galleys]
        lost.append(float(len(galleys) + sum(cargo.units for cargo in aboard)))
        rest.append(fleet_of(replace(force, galleys=[g for g in force.galleys if g not in galleys])))
        caesar.append(any(cargo.caesar for cargo in aboard))
    # as the odds' chain ends a round (odds_classic.classic_naval): both fleets gone, a draw; the attacker's Caesar
    # first (C-8.13), then the defender's; then a fleet gone (C-7.5); the third round over, no winner
    if not rest[0] and not rest[1]:
        return 0.0, lost[0], lost[1]
    if caesar[0] or caesar[1] or not rest[0] or not rest[1] or not rounds_left:
        wins = not caesar[0] and (caesar[1] or (bool(rest[0]) and not rest[1]))
        return float(wins), lost[0], lost[1]
    odds = naval_odds(rules, rest[0], rest[1], *standings, rounds=rounds_left)
    more = [float(sum(odds.attacker_losses.values())), float(sum(odds.defender_losses.values()))]
    return float(odds.attacker_wins), lost[0] + more[0], lost[1] + more[1]


def _legion_odds(
    rules: CoeRuleset, seat: str, code: str, point: Point, sides: tuple[str, str]
) -> list[tuple[str, AttackOdds]]:
    """A battle legion question (C-15.5, C-6.5): each legion `seat` could form, the round fought with it against the
    enemy's legion as the defaults form it (he may have a choice, and his standing order is his secret)."""
    from adjudicator.rulesets.coe.battle import default_legion, legion_size, units_of, units_text

    forces = _forces(point, code, sides)
    own = sides.index(seat)
    enemy = forces[1 - own]
    theirs = default_legion(units_of(enemy), legion_size(enemy))
    found = []
    for legion in ways_to_take(units_of(forces[own]), legion_size(forces[own])):
        plan = Round(legions=(legion, theirs) if own == 0 else (theirs, legion))
        found.append((units_text(legion), _round_figure(rules, seat, code, point, sides, plan)))
    return found


def _losses_odds(
    rules: CoeRuleset, seat: str, code: str, point: Point, sides: tuple[str, str]
) -> list[tuple[str, AttackOdds]]:
    """A losses question (C-15.6): each way to take the round's hits from `seat`'s legion (C-6.9). The defender is
    asked after the attacker's roll, before his own; the attacker after both rolls, and he knows the defender's
    losses of the round only where the defender had no choice of legion or losses (the point keeps them then)."""
    from adjudicator.rulesets.coe.battle import default_legion, fill, legion_size, units_of, units_text

    enemy = _forces(point, code, sides)[1 - sides.index(seat)]
    theirs = default_legion(units_of(enemy), legion_size(enemy))
    found = []
    for lost in ways_to_take(dict(point.legion), point.hits):
        if seat == sides[1]:
            plan = Round(legions=(theirs, dict(point.legion)), hits=(None, point.hits), losses=(None, lost))
        else:
            enemy_lost = point.enemy_losses or fill(theirs, point.enemy_hits, list(UNIT_KINDS))
            plan = Round(
                legions=(dict(point.legion), theirs),
                hits=(point.hits, point.enemy_hits),
                losses=(lost, dict(enemy_lost)),
            )
        found.append((units_text(lost), _round_figure(rules, seat, code, point, sides, plan)))
    return found


def _round_figure(
    rules: CoeRuleset, seat: str, code: str, point: Point, sides: tuple[str, str], plan: Round
) -> AttackOdds:
    """The odds of the battle from the round `plan` describes on: the round played out over what is not yet rolled or
    chosen (`seat` losing by his own standing LOSSES, the enemy by the default), then the battle from each state it
    leaves, step 3 first (C-6.13), `seat`'s standing orders and the enemy's defaults."""
    from adjudicator.rulesets.coe.odds_classic import loss_priority

    at, (attacker, defender) = point.state, sides
    attack, defence = _forces(point, code, sides)
    standing = at.players[seat].standing
    own = (standing if seat == attacker else {}, standing if seat == defender else {})
    area = at.areas[code]
    fortified = area.city == "fortified" and area.owner == defender
    after = after_round((attack, defence), fortified, plan, (loss_priority(own[0]), loss_priority(own[1])))
    odds = land_battle_odds(
        rules, at, code, sides, pieces(attack), defence_pieces(at, code, defender, defence), *own, after_round=after
    )
    return odds_line(code, defender, odds)


def after_round(
    forces: tuple[Force, Force],
    fortified: bool,
    plan: Round,
    priorities: tuple[Sequence[str | Pick], Sequence[str | Pick]],
) -> dict[tuple[Comp, Comp], float]:
    """The units each side is left with after the round, with their chances: a roll not yet made counted over its
    faces (C-6.8: symbols matched with the legion's own units, catapults in reserve too; the defender's fortress dice
    with his, C-6.7; the hits capped at the legion hit, C-6.9), losses not yet chosen taken by `priorities`."""
    from adjudicator.rulesets.coe.battle import fill, fortress_dice, units_of
    from adjudicator.rulesets.coe.odds_chain import capped, symbol_hits
    from adjudicator.rulesets.coe.odds_forces import comp_of, minus

    attack, defence = forces
    fortress = fortress_dice(fortified, attack.catapult)

    def hits(known: int | None, side: int, extra_dice: int) -> list[tuple[int, float]]:
        """The hits side `side` takes: known, or the enemy's roll of his legion (and `extra_dice`)."""
        if known is not None:
            return [(known, 1.0)]
        legion, force = plan.legions[1 - side], forces[1 - side]
        dice = sum(legion.values()) + extra_dice
        counted = symbol_hits(dice, legion["infantry"], legion["cavalry"], min(force.catapult, dice), False)
        return [(h, float(p)) for h, p in enumerate(capped(counted, sum(plan.legions[side].values()))) if p]

    def left(side: int, taken: int) -> Comp:
        lost = plan.losses[side] or fill(plan.legions[side], taken, priorities[side])
        return minus(comp_of(units_of(forces[side])), comp_of(lost))

    found: dict[tuple[Comp, Comp], float] = {}
    for to_attacker, p in hits(plan.hits[0], 0, fortress):
        for to_defender, q in hits(plan.hits[1], 1, 0):
            state = (left(0, to_attacker), left(1, to_defender))
            found[state] = found.get(state, 0.0) + p * q
    return found


def _forces(point: Point, code: str, sides: tuple[str, str]) -> tuple[Force, Force]:
    units = point.state.areas[code].units
    return units[sides[0]], units[sides[1]]


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


def ways_to_take(pool: Mapping[str, int], count: int) -> list[Units]:
    """Every way to take `count` units from `pool` (C-6.9: any mix; a battle legion, C-6.5), infantry first."""
    kinds = [kind for kind in UNIT_KINDS if pool.get(kind)]
    found: list[Units] = []

    def take(index: int, left: int, chosen: Units) -> None:
        if index == len(kinds):
            if not left:
                found.append({kind: chosen.get(kind, 0) for kind in UNIT_KINDS})
            return
        kind = kinds[index]
        for n in range(min(pool[kind], left), -1, -1):
            take(index + 1, left - n, {**chosen, kind: n})

    take(0, count, {})
    return found


def battle_question(key: str) -> tuple[str, str]:
    """battle.<area>.<round>.<what> -> (what, area); anything else -> ("", "")."""
    parts = key.split(".")
    if len(parts) == 4 and parts[0] == "battle":
        return parts[3], parts[1]
    return "", ""


def expected_pursuit_losses(pursuer: Force, fleeing: Force) -> float:
    """The expected units a retreat loses to the pursuit (C-6.16): a die per pursuing combat unit, each cavalry face
    (one face in six, C-1.8) eliminating one retreating unit, at most as many as the pursuer has cavalry."""
    from math import comb

    dice, most = pursuer.units, min(pursuer.cavalry, fleeing.units)
    return sum(min(hits, most) * comb(dice, hits) * 5 ** (dice - hits) / 6**dice for hits in range(dice + 1))
