"""Step 2 of a battle, the archer volley (ER-8.9 to ER-8.11, with Rapid Aim and Deadly Aim of ER-9.4): the
defender's side fires first, its hits are removed at once, then the attacker's side fires with what is left.
Heroes and tactic cards are played only in step 3 (ER-8.2, ER-8.12 to ER-8.14), after the volley: their volley
effects have nothing to act on in that battle (as ER-8.11 keeps their shields off volley hits, and ER-8.26 ends
a battle in the volley before any card is played)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from adjudicator.engine.chance import Dice
from adjudicator.rulesets.conqueror import battle_losses
from adjudicator.rulesets.conqueror.battle_field import VOLLEY_WHEN, Field, Source, other
from adjudicator.rulesets.conqueror.battle_types import ATTACKER, DEFENDER, INDEPENDENT
from adjudicator.rulesets.conqueror.data import Effect

DIE: Final = (1, 1, 2, 3, 4, 4)  # ER-0.4
MAX_DICE: Final = 2  # ER-8.10
HIT: Final = 4
DEADLY_HIT: Final = 3  # ER-9.4 Deadly Aim
CARDS: Final = frozenset({"hero", "tactic"})  # played in the council of war, step 3 (ER-8.12, ER-8.13)


def volley_effects(field: Field, side: str, op: str) -> Iterator[tuple[Source, Effect]]:
    """The `op` effects in force during the volley on `side`: elites, abilities and standing effects; not the
    cards, which are played after it (ER-8.2, ER-8.11)."""
    for source, effect in field.effects(side, frozenset({op}), VOLLEY_WHEN):
        if source.kind not in CARDS:
            yield source, effect


@dataclass(frozen=True)
class VolleyDie:
    """One volley die and the archer it stands for: its owner's hit number and Rapid Aim (ER-8.10)."""

    player: str
    hit_on: int
    rapid: bool


def volley_dice(field: Field, side: str) -> list[VolleyDie]:
    """ER-8.10: one die per archer, the principal's archers first, then allies' in turn order, at most 2;
    archer_dice effects count as archers; each die uses its owner's upgrades and hit-number effects."""
    found: list[VolleyDie] = []
    for player in field.players(side):
        groups = [g for g in field.own(player) if g.side == side]
        if not groups:
            continue
        upgrades = groups[0].army.upgrades
        extra = sum(
            e.number("n")
            for source, e in volley_effects(field, side, "archer_dice")
            if source.player == player and not archer_already(source)
        )
        hit_on = DEADLY_HIT if "deadly_aim" in upgrades else HIT
        for s, e in volley_effects(field, side, "archer_hit_on"):
            if s.player == player or e.who == "side":
                hit_on = min(hit_on, e.number("k"))
        count = field.count(groups, "archer") + extra
        found += [VolleyDie(player, hit_on, "rapid_aim" in upgrades)] * count
    return found[:MAX_DICE]


def archer_already(source: Source) -> bool:
    """An elite that is an archer by type already has its die (ER-9.2 "also an archer: adds one volley die"):
    its own archer_dice effect describes the same die, not a second one."""
    return source.kind == "elite" and source.group is not None and "archer" in source.group.types_of_elite()


def volley(field: Field, dice: Dice) -> None:
    """ER-8.9: skipped when neither side has an archer; else defender's side, then attacker's (ER-0.5)."""
    if not volley_dice(field, ATTACKER) and not volley_dice(field, DEFENDER):
        return
    for side in (DEFENDER, ATTACKER):
        hits = fire(field, side, dice)
        field.volley_hits[other(side)] = hits
        if hits:
            battle_losses.assign(field, other(side), hits, "ER-8.11")


def fire(field: Field, side: str, dice: Dice) -> int:
    """One side's volley: its dice, then its re-rolls of missed dice (card re-rolls, then one Rapid Aim)."""
    own = volley_dice(field, side)
    if not own:
        return 0
    faces = [dice.roll_face(f"volley {side} {i + 1}/{len(own)}", DIE) for i in range(len(own))]
    hits = [face >= die.hit_on for face, die in zip(faces, own, strict=True)]
    rerolled = [False] * len(own)
    budget = sum(e.number("n") for _s, e in volley_effects(field, side, "reroll") if e.args["what"] == "volley_miss")
    rapid_left = True
    for i, die in enumerate(own):
        if hits[i]:
            continue
        if budget > 0:
            budget -= 1
        elif rapid_left and die.rapid:
            rapid_left = False  # ER-9.4 Rapid Aim: at most one re-roll per volley
        else:
            continue
        rerolled[i] = True
        faces[i] = dice.roll_face(f"volley {side} re-roll {i + 1}", DIE)
        hits[i] = faces[i] >= die.hit_on
    field.say("ER-8.10", "volley", side=side, faces=tuple(faces), rerolled=tuple(rerolled), hits=sum(hits))
    if field.principal(side) == INDEPENDENT:
        field.say("ER-8.33", "independent_volley", hits=sum(hits))
    return sum(hits)
