"""The battle of Conqueror: Empire Rises (ER-8), as a pure function of its typed inputs (battle_types.py):
`resolve_battle(battle, plans, orders, dice)` runs the five steps of ER-8.2 and returns a BattleOutcome.

Steps: 0 the plans are checked and every `manual` effect in play is found (a pending decision; nothing is
rolled until the moderator rules); 1 reinforcement (ER-8.4 to ER-8.8); 2 archer volley (ER-8.9 to ER-8.11,
battle_volley.py); 3 council of war (ER-8.12 to ER-8.15); 4 melee (ER-8.16 to ER-8.19, battle_melee.py);
5 casualties and conquest (ER-8.20 to ER-8.29, battle_losses.py). Dice are drawn in the order of ER-0.5."""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.engine.chance import Dice
from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.conqueror import battle_losses, battle_melee, battle_volley
from adjudicator.rulesets.conqueror.battle_field import Field, Group, Source, check_upgrades, group_of
from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    INDEPENDENT,
    KINDS,
    UPGRADES,
    Army,
    Battle,
    BattleError,
    BattleOutcome,
    Pending,
    Plan,
    Standing,
)
from adjudicator.rulesets.conqueror.data import Automa, Effect, Effects
from adjudicator.rulesets.conqueror.vocabulary import Trigger

AFTER_WIN = "battle.after_win"


def resolve_battle(
    battle: Battle,
    plans: Mapping[str, Plan],
    orders: Mapping[str, Standing],
    dice: Dice,
    rulings: Mapping[str, Effects] | None = None,
) -> BattleOutcome:
    """Resolve one battle (ER-8.2). `plans` by principal, `orders` by player (absent: the defaults of ER-14);
    `rulings` replace `manual` effects by the effects the moderator decided (by effect key)."""
    field = open_battle(battle, plans, orders, rulings or {})
    if isinstance(field, BattleOutcome):
        return field
    volley_step(field, dice)
    return close_battle(field, *melee_step(field, dice))


# The phases of resolve_battle, apart so that the exact odds (odds.py) can go on from a copy of the field at the
# end of each phase instead of playing the battle again from its start for every branch of the dice. Dice are
# drawn only in volley_step and melee_step.
def open_battle(
    battle: Battle, plans: Mapping[str, Plan], orders: Mapping[str, Standing], rulings: Mapping[str, Effects]
) -> Field | BattleOutcome:
    """Step 0 and 1: the checks, the armies, the sources of effects; a pending outcome while a `manual` effect
    waits for the moderator (ER-13.6: never guess; nothing is rolled before the moderator rules)."""
    check_battle(battle)
    check_plans(battle, plans)
    field = Field(battle, dict(plans), dict(orders), groups=reinforcement(battle))
    field.sources = sources(field, rulings)
    blocking = [p for p in pending(field) if p.blocking]
    if blocking:
        return BattleOutcome(finished=False, pending=tuple(blocking))
    return field


def volley_step(field: Field, dice: Dice) -> None:
    """Step 2, and step 3 unless the volley ended the battle (then no card was played, ER-8.26)."""
    battle_volley.volley(field, dice)
    field.ended = ended_by_volley(field)
    if field.ended is None:
        council(field)
    else:
        field.sources = [s for s in field.sources if s.kind not in ("hero", "tactic")]


def melee_step(field: Field, dice: Dice) -> tuple[dict[str, int], dict[str, int], Automa | None]:
    """Step 4, unless the volley ended the battle."""
    if field.ended is None:
        return battle_melee.melee(field, dice)
    return {}, {}, None


def close_battle(
    field: Field, strengths: dict[str, int], rolled: dict[str, int], automa: Automa | None
) -> BattleOutcome:
    """Step 5 and the outcome."""
    if field.ended is None:
        battle_losses.casualties(field, automa)
    held = field.ended is None
    return battle_losses.conclude(field, strengths, rolled, automa, council_held=held, pending=pending(field))


# -- checks ------------------------------------------------------------------------------------------------------
def check_battle(battle: Battle) -> None:
    """Refuse a battle the rules do not allow, naming the rule."""
    if (battle.defender is None) == (battle.independent is None):
        raise BattleError("ER-8.1: a battle has either a defending player or an independent army")
    if battle.fort not in ("none", "small", "large", "built", "blanked"):
        raise BattleError(f"ER-2.6: unknown fort {battle.fort!r}")
    players = [battle.attacker.player] + ([battle.defender.player] if battle.defender else [])
    for army in armies(battle):
        check_upgrades(army, UPGRADES)
        if battle.land and army.ship:
            raise BattleError(
                N_(
                    "ER-12.13: %(player)s's ships cannot fight in the land battle at %(area)s",
                    player=army.player,
                    area=battle.area,
                )
            )
    joined: set[str] = set()
    for r in battle.reinforcements:
        who = r.army.player
        if who in joined:
            raise BattleError(
                N_("ER-8.5: %(who)s may add only one army to the battle at %(area)s", who=who, area=battle.area)
            )
        joined.add(who)
        if r.side == DEFENDER and battle.defender is None:
            raise BattleError("ER-8.8: an independent army is never reinforced")
        if who in players and r.side != (ATTACKER if who == battle.attacker.player else DEFENDER):
            raise BattleError(N_("ER-8.4: %(who)s can only reinforce their own side", who=who))


def check_plans(battle: Battle, plans: Mapping[str, Plan]) -> None:
    """Only the principals play cards (ER-8.14, ER-8.40); a leave-behind names a unit kind (ER-8.24)."""
    principals = {battle.attacker.player, battle.defender_id}
    for player, plan in plans.items():
        if player not in principals and (plan.heroes or plan.tactics or plan.free_men):
            raise BattleError(
                f"ER-8.40: {player} is not a principal of the battle at {battle.area}: allies play no cards"
            )
        if plan.leave_behind is not None and plan.leave_behind not in KINDS:
            raise BattleError(f"ER-8.24: {plan.leave_behind!r} is not a unit kind ({', '.join(KINDS)})")


def armies(battle: Battle) -> list[Army]:
    return [battle.attacker, *([battle.defender] if battle.defender else []), *(r.army for r in battle.reinforcements)]


# -- step 1: reinforcement (ER-8.4 to ER-8.8) ------------------------------------------------------------------
def reinforcement(battle: Battle) -> list[Group]:
    """The armies in the battle: attacking, defending (or the independent army), then the reinforcements as
    given (ER-8.4: the game state checked adjacency, activity and trade bans; ER-8.6 they stay in place)."""
    groups = [group_of(battle.attacker, ATTACKER, True)]
    if battle.defender is not None:
        groups.append(group_of(battle.defender, DEFENDER, True))
    else:
        units = battle.independent
        assert units is not None
        army = Army(INDEPENDENT, battle.area, units.cavalry, units.infantry, units.archer)
        groups.append(group_of(army, DEFENDER, True))
    groups += [group_of(r.army, r.side, False) for r in battle.reinforcements]
    return groups


# -- the cards and abilities in play ----------------------------------------------------------------------------
def sources(field: Field, rulings: Mapping[str, Effects]) -> list[Source]:
    """Principals' played cards and faction abilities (ER-8.16b,c,e; allies' abilities are ignored, ER-8.17),
    and every elite in the battle (ER-9.2: allies' elites count). Checks the plans against hands (ER-8.12)."""
    found: list[Source] = []
    for side in (ATTACKER, DEFENDER):
        main = field.main(side)
        assert main is not None
        if main.player != INDEPENDENT:
            found += played(field, side, main, rulings)
            found.append(Source(main.player, side, "ability", "ability", ruled(main.army.effects, rulings), None))
    for group in field.groups:
        elite = group.army.elite
        if elite is not None:
            effects = ruled(elite.effects, rulings)
            optional = group.main and any(e.op == "self_removal" for e in effects)  # ER-8.18 Free Men style
            found.append(Source(group.player, group.side, elite.name, "elite", effects, group, optional))
    return found


def played(field: Field, side: str, main: Group, rulings: Mapping[str, Effects]) -> list[Source]:
    """The cards a principal plays, checked: recruited heroes not yet used twice, tactic cards in hand."""
    plan, cards, army = field.plan(side), field.battle.cards, main.army
    if not plan.heroes and not plan.tactics:
        return []
    if cards is None:
        raise BattleError("ER-8.12: cards are played but the battle has no card data")
    heroes = {h.id: h for h in cards.heroes}
    tactics = {t.id: t for t in cards.tactics}
    found: list[Source] = []
    for hero_id in plan.heroes:
        if hero_id not in heroes or hero_id not in army.heroes or plan.heroes.count(hero_id) > 1:
            raise BattleError(
                N_("ER-8.12: %(player)s has no recruited hero %(hero)s to play", player=army.player, hero=repr(hero_id))
            )
        if army.heroes[hero_id] >= 2:
            raise BattleError(
                N_(
                    "ER-8.27: %(player)s's hero %(hero)s was used twice and is discarded",
                    player=army.player,
                    hero=repr(hero_id),
                )
            )
        hero = heroes[hero_id]
        effects = ruled(hero.effects, rulings) + strength_of(hero.strength)
        found.append(Source(army.player, side, hero_id, "hero", effects))
    for tactic_id in set(plan.tactics):
        if tactic_id not in tactics or plan.tactics.count(tactic_id) > army.hand.count(tactic_id):
            raise BattleError(
                N_(
                    "ER-8.13: %(player)s holds no tactic card %(tactic)s to play",
                    player=army.player,
                    tactic=repr(tactic_id),
                )
            )
    for tactic_id in plan.tactics:
        tactic = tactics[tactic_id]
        effects = ruled(tactic.effects, rulings) + strength_of(tactic.strength)
        found.append(Source(army.player, side, tactic_id, "tactic", effects))
    return found


def strength_of(n: int) -> Effects:
    """A card's printed strength (ER-8.16b,c) as one more strength effect."""
    return (Effect("strength", {"n": n}, Trigger("battle.melee"), key="printed"),) if n else ()


def ruled(effects: Effects, rulings: Mapping[str, Effects]) -> Effects:
    """Effects with each `manual` one the moderator ruled on replaced by the ruling (ER-13.6)."""
    out: list[Effect] = []
    for effect in effects:
        out += rulings[effect.key] if effect.op == "manual" and effect.key in rulings else [effect]
    return tuple(out)


def pending(field: Field) -> list[Pending]:
    """ER-13.6: every `manual` battle effect in play; before the result it blocks the battle."""
    found: list[Pending] = []
    for source in field.sources:
        for effect in source.effects:
            if effect.op == "manual" and effect.when.name.startswith("battle."):
                text = str(effect.args.get("text", effect.text))
                blocking = effect.when.name != AFTER_WIN
                if blocking or field.winner == source.side:
                    found.append(Pending(source.player, source.name, effect.key, text, effect.when.name, blocking))
    return found


# -- after the volley (ER-8.26) ---------------------------------------------------------------------------------
def ended_by_volley(field: Field) -> str | None:
    """ER-8.26, ER-15.14: the battle ends if the volley wiped out the attacking army, or the defending army
    outside the defender's own capital; returns the winner then."""
    attacking, defending = field.main(ATTACKER), field.main(DEFENDER)
    assert attacking is not None and defending is not None
    if attacking.total == 0:
        field.winner = DEFENDER
        field.say("ER-8.26", "attack_wiped_out")
        return DEFENDER
    was_there = sum(defending.army.count(kind) for kind in KINDS) > 0
    if defending.total == 0 and was_there and not field.own_capital(defending.player):
        field.winner = ATTACKER
        field.say("ER-8.26", "defence_wiped_out")
        return ATTACKER
    return None


# -- step 3: council of war (ER-8.12 to ER-8.15, ER-8.18) -------------------------------------------------------
def council(field: Field) -> None:
    """Both plans are revealed (ER-8.14); Free Men is used if the plan says so and Gaul still has a standard
    infantry unit on its side beside the elite (ER-8.18, ER-15.18)."""
    for side in (ATTACKER, DEFENDER):
        player = field.principal(side)
        plan = field.plan(side)
        if player == INDEPENDENT:
            continue
        field.say("ER-8.14", "council", side=side, heroes=plan.heroes, tactics=plan.tactics)
        optional = [s for s in field.sources if s.optional and s.player == player and s.side == side]
        if plan.free_men and optional:
            may = any(g.units["infantry"] > 0 for g in field.own(player) if g.side == side)
            alive = any(s.group is not None and s.group.units["elite"] > 0 for s in optional)
            field.free_men[player] = may and alive
            field.say("ER-8.18" if may and alive else "ER-15.18", "free_men", player=player, used=may and alive)


def publication(army: Army, plan: Plan) -> tuple[tuple[str, ...], int]:
    """ER-8.15: what the defender learns of the attacker's sealed plan: its face-up heroes (used once before)
    and the number of face-down heroes."""
    face_up = tuple(h for h in plan.heroes if army.heroes.get(h, 0) >= 1)
    return face_up, len(plan.heroes) - len(face_up)
