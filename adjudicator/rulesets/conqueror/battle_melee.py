"""Step 4 of a battle, the melee (ER-8.16 to ER-8.19, ER-8.31 against an independent army): each side's
strength from units, upgrades, elites, cards, fort and abilities, plus one Conqueror die per principal (or
the top automa card for an independent army); the higher total wins, equal totals tie."""

from __future__ import annotations

from typing import Final

from adjudicator.engine.chance import Dice
from adjudicator.rulesets.conqueror.battle_field import (
    BASE_STRENGTH,
    MELEE_WHEN,
    SIEGE_VS_FORT,
    Field,
    Group,
    other,
)
from adjudicator.rulesets.conqueror.battle_types import ATTACKER, DEFENDER, INDEPENDENT, BattleError
from adjudicator.rulesets.conqueror.data import Automa, Effect

DIE: Final = (1, 1, 2, 3, 4, 4)  # ER-0.4
LONG_SPEARS_CAP: Final = 4  # ER-9.4
FORT_BONUS: Final = {"none": 0, "small": 1, "large": 2}  # ER-8.16d, ER-8.31
CAPITAL_BONUS: Final = 4


def unit_strength(field: Field, group: Group) -> int:
    """ER-8.16a: the group's units with its owner's per-unit upgrades (ER-9.3, ER-9.4) and the elite's printed
    strength; siege engines +4 attacking a fort (ER-12.17); independents: no upgrades (ER-8.31)."""
    units, upgrades = group.units, group.army.upgrades
    total = sum(BASE_STRENGTH[k] * units[k] for k in ("cavalry", "infantry", "archer", "ship"))
    if group.side == ATTACKER and field.fort() != "none":
        total += SIEGE_VS_FORT * units["siege"]
    elite_types = group.types_of_elite()
    if units["elite"] and group.army.elite is not None:
        total += group.army.elite.strength
    cavalry = units["cavalry"] + (units["elite"] if "cavalry" in elite_types else 0)
    infantry = units["infantry"] + (units["elite"] if "infantry" in elite_types else 0)
    if "heavy_cavalry" in upgrades:
        total += cavalry
    if "elite_armor" in upgrades:
        total += infantry
    if "long_spears" in upgrades:
        total += long_spears(field, group.side, infantry)
    return total


def long_spears(field: Field, side: str, infantry: int) -> int:
    """ER-9.4 Long Spears: +1 per enemy cavalry per infantry unit, capped per unit or per side (option)."""
    enemy = field.count(field.side(other(side)), "cavalry")
    if field.battle.options.long_spears_cap == "per_side":
        return min(enemy * infantry, LONG_SPEARS_CAP)
    return min(enemy, LONG_SPEARS_CAP) * infantry


def effect_strength(field: Field, side: str) -> int:
    """ER-8.16a-c,e: strength and unit_strength effects of cards, elites and the principal's ability on `side`,
    and the opponent's effects aimed at it (`who = opponent`)."""
    total = 0
    for mine in (side, other(side)):
        for source, effect in field.effects(mine, frozenset({"strength", "unit_strength"}), MELEE_WHEN):
            if (effect.who == "opponent") == (mine != side):
                total += amount(field, mine, source.player, effect, side)
    return total


def amount(field: Field, mine: str, player: str, effect: Effect, side: str) -> int:
    """One strength effect's value for `side`: `strength` n (per counted unit, capped); `unit_strength` n per
    matching unit of the player (of the side with `who = side`)."""
    n = effect.number("n")
    if effect.op == "unit_strength":
        everyone = effect.who in ("side", "opponent")
        groups = field.side(side) if everyone else [g for g in field.own(player) if g.side == side]
        return n * field.count(groups, str(effect.args["type"]))
    per = effect.selector("per")
    if per is None:
        return n
    counted = {
        "own": [g for g in field.own(player) if g.side == mine],
        "enemy": field.side(other(mine)),
        "side": field.side(mine),
    }
    bonus = n * field.count(counted[per.side], per.type)
    cap = effect.args.get("cap")
    return min(bonus, cap) if isinstance(cap, int) else bonus


def fort_bonus(field: Field) -> int:
    """ER-8.16d: the defender's one fort bonus: +4 in its own capital or temporary capital, else +2 large
    (another player's capital included), +1 small or built; ER-8.31: an independent army gets no capital bonus."""
    defender = field.principal(DEFENDER)
    if defender != INDEPENDENT and field.own_capital(defender):
        return CAPITAL_BONUS
    return FORT_BONUS[field.fort()]


def side_bonus(field: Field, side: str) -> int:
    """ER-8.16d,e: the fort (defender) and the principal's side-level upgrades (Naval Mastery, Amphibious
    Assault; ER-8.17: allies' are ignored); defence_bonus effects (ER-13.6) count like a fort."""
    battle, main = field.battle, field.main(side)
    assert main is not None
    upgrades = main.army.upgrades if main.player != INDEPENDENT else frozenset()
    total = fort_bonus(field) if side == DEFENDER else 0
    if side == DEFENDER:
        total += sum(e.number("n") for _s, e in field.effects(side, frozenset({"defence_bonus"}), MELEE_WHEN))
    if "naval_mastery" in upgrades and not battle.land:
        total += 3
    if "amphibious_assault" in upgrades and side == ATTACKER and battle.land and battle.from_sea:
        total += battle.options.amphibious_assault
    return total


def strength(field: Field, side: str) -> int:
    """ER-8.16 a to e (the die comes apart)."""
    return (
        sum(unit_strength(field, g) for g in field.side(side)) + effect_strength(field, side) + side_bonus(field, side)
    )


def draw_automa(field: Field, dice: Dice) -> Automa:
    """ER-8.31: the top automa card; ER-8.36: an empty deck is reshuffled from its discards (secret order)."""
    battle = field.battle
    deck, discards = list(field.automa_deck), list(field.automa_discards)
    if not deck:
        deck = dice.shuffle(discards, "automa deck", hidden=True)
        discards = []
        field.say("ER-8.36", "automa_reshuffled", cards=len(deck))
    if not deck or battle.cards is None:
        raise BattleError("ER-8.31: the automa deck and its discards are empty")
    card_id = deck.pop(0)
    card = next((a for a in battle.cards.automa if a.id == card_id), None)
    if card is None:
        raise BattleError(f"ER-8.31: unknown automa card {card_id!r}")
    field.automa_deck, field.automa_discards = tuple(deck), (*discards, card_id)
    return card


# each side's units' strength (ER-8.16a), its whole but the die, and whether a revealed card lets it re-roll
Strengths = tuple[dict[str, int], dict[str, int], dict[str, bool]]


def melee_strengths(field: Field) -> Strengths:
    """ER-8.16 a to e for both sides, the dice apart; the units' strength first, which a condition reads
    (`enemy_strength_ge`); the re-rolls the sides' cards allow. No die is rolled: the same for every roll of the
    melee's dice."""
    for side in (ATTACKER, DEFENDER):
        field.base[side] = sum(unit_strength(field, g) for g in field.side(side))
    totals = {side: strength(field, side) for side in (ATTACKER, DEFENDER)}
    return dict(field.base), totals, {side: may_reroll(field, side) for side in (ATTACKER, DEFENDER)}


def melee(
    field: Field, dice: Dice, strengths: Strengths | None = None
) -> tuple[dict[str, int], dict[str, int], Automa | None]:
    """ER-8.16 to ER-8.19, ER-0.5: attacker's die, defender's die (or the automa card), then re-rolls
    granted by revealed cards, attacker's first; sets the winner (None on a tie) and the margin. `strengths`:
    melee_strengths of this field, made once where the odds play its dice every way (odds.py)."""
    base, totals, rerolls = strengths if strengths is not None else melee_strengths(field)
    field.base.update(base)
    totals = dict(totals)
    rolled = {ATTACKER: dice.roll_face("melee attacker", DIE)}
    automa = None
    if field.principal(DEFENDER) == INDEPENDENT:
        automa = draw_automa(field, dice)
        rolled[DEFENDER] = automa.strength
    else:
        rolled[DEFENDER] = dice.roll_face("melee defender", DIE)
    for side in (ATTACKER, DEFENDER):
        if rerolls[side]:
            reroll(field, side, totals, rolled, dice)
    final = {side: totals[side] + rolled[side] for side in (ATTACKER, DEFENDER)}
    diff = final[ATTACKER] - final[DEFENDER]
    field.winner = ATTACKER if diff > 0 else DEFENDER if diff < 0 else None
    field.margin = abs(diff)
    field.say("ER-8.19", "melee", strengths=dict(totals), dice=dict(rolled), totals=final, winner=field.winner)
    return final, rolled, automa


def may_reroll(field: Field, side: str) -> bool:
    """Whether a revealed card gives `side` a melee re-roll (ER-13.6 `reroll melee_die`) that its plan takes."""
    if field.principal(side) == INDEPENDENT or not field.plan(side).melee_reroll:
        return False
    return any(e.args["what"] == "melee_die" for _s, e in field.effects(side, frozenset({"reroll"}), MELEE_WHEN))


def reroll(field: Field, side: str, totals: dict[str, int], rolled: dict[str, int], dice: Dice) -> None:
    """The re-roll `side` may take (may_reroll), rolled in the order of ER-0.5: used once when the side is not
    ahead. The spec is silent on when a player takes it; our reading: behind or level (a tie wins nothing for
    either side, ER-8.19)."""
    if totals[side] + rolled[side] <= totals[other(side)] + rolled[other(side)]:
        rolled[side] = dice.roll_face(f"melee {side} re-roll", DIE)
        field.say("ER-0.5", "melee_reroll", side=side, face=rolled[side])
