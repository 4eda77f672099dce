"""Exact battle odds for Conqueror: Empire Rises: `battle_odds(battle, plans)` runs the real
battle (battle.resolve_battle) down every branch of its chance, weighting each branch exactly.

Every draw the battle makes is a Conqueror die (ER-0.4: faces 1, 1, 2, 3, 4, 4), so a branch point has the
four values 1, 2, 3, 4 with weights 2, 1, 1, 2 in 6; volley dice, their re-rolls, the melee dice and the
re-rolls cards allow are all enumerated. Against an independent army the top automa card is unknown to the
players: each card of the deck (else of its discards, ER-8.36) is taken with its share. The plans are the
cards the asker knows (typically the attacker's own); the other side is assumed to play what `plans` says
(nothing if absent). A `manual` effect has no odds until the moderator rules (ER-13.6). `hand_odds` gives the
same odds for each set of tactic cards a defender could play (ER-8.13), at a fraction of a battle_odds each."""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any, Final, TypeVar

from adjudicator.engine.chance import Dice
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror.battle import armies, close_battle, melee_step, open_battle, volley_step
from adjudicator.rulesets.conqueror.battle_field import Field, Group
from adjudicator.rulesets.conqueror.battle_losses import BATTLE_OPS, complete
from adjudicator.rulesets.conqueror.battle_melee import Strengths, melee, melee_strengths
from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    INDEPENDENT_LOSSES,
    KINDS,
    LOSS_PRIORITY,
    NO_ORDERS,
    NO_PLAN,
    Army,
    Battle,
    BattleError,
    BattleOutcome,
    Plan,
    Standing,
)
from adjudicator.rulesets.conqueror.battle_volley import DEADLY_HIT, HIT
from adjudicator.rulesets.conqueror.data import Effects, GameData, Units
from adjudicator.rulesets.conqueror.loader import load_folder
from adjudicator.rulesets.conqueror.vocabulary import UPGRADES

T = TypeVar("T")


@dataclass(frozen=True)
class BattleOdds:
    """The exact chances of each result, and the expected units lost by each player."""

    attacker_wins: Fraction
    defender_wins: Fraction
    tie: Fraction
    expected_losses: Mapping[str, Fraction]
    branches: int


class _PathDice(Dice):
    """Dice that give the values of a fixed path, then take the first value of each further draw, noting the
    path of each other value with its weight as a branch still to play. A volley die only counts as hit or miss
    against the battle's hit numbers (`thresholds`), so its faces are grouped into those classes, each stood for
    by its lowest face (exact, and far fewer branches). The `known` faces (1-6) come first: dice already rolled
    where a question arose, which the odds from there take as they fell."""

    def __init__(
        self, path: list[Any], weight: Fraction, thresholds: frozenset[int], known: Sequence[int] = ()
    ) -> None:
        super().__init__()
        self.path, self.weight, self.thresholds, self.known = path, weight, thresholds, known
        self.position = self.known_used = 0
        self.branches: list[tuple[list[Any], Fraction]] = []

    def roll_face(self, purpose: str, table: Sequence[T], *, hidden: bool = False) -> T:
        if self.known_used < len(self.known):
            face = self.known[self.known_used]
            self.known_used += 1
            self.log.append((purpose, face))
            return table[face - 1]
        if self.position == len(self.path):
            counts = Counter(table)
            if purpose.startswith("volley"):
                counts = volley_classes(table, self.thresholds)  # type: ignore[arg-type]
            (value, n), *others = counts.items()
            self.branches += [([*self.path, v], self.weight * Fraction(k, len(table))) for v, k in others]
            self.path.append(value)
            self.weight *= Fraction(n, len(table))
        value = self.path[self.position]
        self.position += 1
        self.log.append((purpose, table.index(value) + 1))
        return value  # type: ignore[no-any-return]

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        raise BattleError(f"odds: the draw {purpose!r} is not a die of the battle")


@dataclass
class _State:
    """One way a phase of the battle can end: the field then, what the phase returned, its probability, and how
    many paths of the dice lead to it."""

    field: Field
    result: Any
    weight: Fraction
    paths: int = 1
    known: tuple[int, ...] = ()  # the known faces the next phases still take (_PathDice)


def battle_odds(
    battle: Battle,
    plans: Mapping[str, Plan],
    orders: Mapping[str, Standing] | None = None,
    rulings: Mapping[str, Effects] | None = None,
    known: Sequence[int] = (),
) -> BattleOdds:
    """The exact odds of `battle` with the known `plans` (and standing orders); `known`: the faces (1-6) of the
    battle's first dice, already rolled, taken as they fell."""
    tally = _Tally()
    for outcome, weight, paths in outcomes(battle, plans, orders or {}, rulings or {}, tuple(known)):
        tally.count(outcome, weight, paths)
    return tally.odds()


class _Tally:
    """BattleOdds being summed up: each result's chance, each player's expected losses, the paths."""

    def __init__(self) -> None:
        self.wins: dict[str | None, Fraction] = dict.fromkeys((ATTACKER, DEFENDER, None), Fraction(0))
        self.losses: dict[str, Fraction] = {}
        self.branches = 0

    def count(self, outcome: BattleOutcome, weight: Fraction, paths: int) -> None:
        self.branches += paths
        self.wins[outcome.winner] += weight
        for player, kinds in outcome.losses.items():
            self.losses[player] = self.losses.get(player, Fraction(0)) + weight * sum(kinds.values())

    def add(self, other: _Tally) -> None:
        self.branches += other.branches
        for winner, weight in other.wins.items():
            self.wins[winner] += weight
        for player, lost in other.losses.items():
            self.losses[player] = self.losses.get(player, Fraction(0)) + lost

    def odds(self) -> BattleOdds:
        return BattleOdds(self.wins[ATTACKER], self.wins[DEFENDER], self.wins[None], self.losses, self.branches)


def outcomes(
    battle: Battle,
    plans: Mapping[str, Plan],
    orders: Mapping[str, Standing],
    rulings: Mapping[str, Effects],
    known: tuple[int, ...] = (),
) -> Iterator[tuple[BattleOutcome, Fraction, int]]:
    """Every way the battle can end, with its probability (the weights sum to 1) and the number of paths of the
    dice that lead to it. The battle is played phase by phase (battle.py): each phase goes on from a copy of the
    field each way the phase before can end, and ways that leave the same field are played on once, their
    weights added. Only the winner and the losses of an outcome are its own: its dice, strengths and report
    lines are those of one of the paths merged into it."""
    thresholds = hit_numbers(battle)
    for deck_battle, deck_weight in automa_cases(battle):
        opened = open_battle(deck_battle, plans, orders, rulings)
        if isinstance(opened, BattleOutcome):
            raise BattleError("ER-13.6: the odds need the moderator's ruling on the manual effects in play")
        for volleyed in _merged(_played(_State(opened, None, deck_weight, known=known), volley_step, thresholds)):
            yield from _closed(volleyed, thresholds)


def _closed(volleyed: _State, thresholds: frozenset[int]) -> Iterator[tuple[BattleOutcome, Fraction, int]]:
    """Every way the battle can end from a state at the end of the volley (step 3 held, unless it ended it)."""
    for meleed in _merged(_played(volleyed, _melee_of(volleyed.field), thresholds)):
        strengths, rolled, automa = meleed.result
        outcome = close_battle(meleed.field, strengths, rolled, automa)
        yield outcome, meleed.weight, volleyed.paths * meleed.paths


# The ops of a played card that melee_strengths sums up (its melee re-roll included), read nowhere else once the
# volley is over: the volley reads no card (ER-8.2, battle_volley.CARDS).
STRENGTH_OPS: Final = frozenset({"strength", "unit_strength", "defence_bonus", "reroll"})
# Conditions (ER-13.6 `if`) that read only the battle and the side and player of their card (Field.condition):
# the same from the first step of a battle to its last.
FIXED_CONDITIONS: Final = frozenset(
    {"attacking", "defending", "at_sea", "on_land", "from_sea", "area_fort", "own_capital", "region"}
)
CardsKey = tuple[tuple[str, ...], tuple[str, ...]]


def hand_odds(
    battle: Battle,
    plans: Mapping[str, Plan],
    orders: Mapping[str, Standing],
    card_sets: Sequence[tuple[str, ...]],
    hero_sets: Sequence[tuple[str, ...]] | None = None,
) -> list[BattleOdds]:
    """battle_odds of `battle` for each set of tactic cards its defending player could hold and play (ER-8.13)
    beside `plans`, with the heroes of `hero_sets` (the same length; none if not given) played too (ER-8.12):
    the same figures, at a fraction of the cost. Cards and heroes are played after the volley (ER-8.2,
    ER-8.12), so the volley is played once for all the sets. The winner and the losses from a field at the end
    of the volley depend on the cards only through the melee strengths and re-rolls they give (melee_strengths)
    and their other battle effects (_cards_key): sets of cards alike in those are played on as one; each melee is
    played once for all sets giving its strengths, and the casualties (step 5) once for each field it can end in
    and the cards' other effects."""
    if battle.defender is None:
        raise BattleError("ER-8.31: an independent army plays no card")
    thresholds = hit_numbers(battle)
    opened: dict[CardsKey, Field] = {}  # one field opened with each kind of set of cards
    keys = []
    for cards, heroes in zip(card_sets, hero_sets or [()] * len(card_sets), strict=True):
        field = _holding(battle, plans, orders, cards, heroes)
        keys.append(_cards_key(field))
        opened.setdefault(keys[-1], field)
    tallies = {key: _Tally() for key in opened}
    bare = _State(_holding(battle, plans, orders, ()), None, Fraction(1))
    for volleyed in _merged(_played(bare, volley_step, thresholds)):
        if volleyed.field.ended is not None:  # ER-8.26: no card was played
            ended = _Tally()
            for outcome, weight, paths in _closed(volleyed, thresholds):
                ended.count(outcome, weight, paths)
            for tally in tallies.values():
                tally.add(ended)
            continue
        probe = copied(volleyed.field)
        melees: dict[str, list[_State]] = {}
        closes: dict[tuple[object, ...], BattleOutcome] = {}
        played: dict[tuple[str, tuple[str, ...]], _Tally] = {}
        for (strength, others), field in opened.items():
            _take_cards(probe, field)
            made: Strengths = melee_strengths(probe)
            key = (repr(made), others)
            if key not in played:
                if key[0] not in melees:  # the melee reads its strengths, not the cards (battle_melee.melee)
                    phase = functools.partial(melee, strengths=made)
                    melees[key[0]] = _merged(_played(volleyed, phase, thresholds))
                played[key] = _Tally()
                for meleed in melees[key[0]]:
                    done = (field_key(meleed.field), others)  # step 5 reads no strength op (battle_losses)
                    if done not in closes:
                        closing = copied(meleed.field)
                        _take_cards(closing, field)
                        closes[done] = close_battle(closing, *meleed.result)
                    played[key].count(closes[done], meleed.weight, volleyed.paths * meleed.paths)
            tallies[(strength, others)].add(played[key])
    return [tallies[key].odds() for key in keys]


def _holding(
    battle: Battle,
    plans: Mapping[str, Plan],
    orders: Mapping[str, Standing],
    cards: tuple[str, ...],
    heroes: tuple[str, ...] = (),
) -> Field:
    """The battle opened with its defender holding and playing `cards` (ER-8.13) and `heroes` (ER-8.12: those not
    used before held face down)."""
    assert battle.defender is not None
    army, player = battle.defender, battle.defender.player
    holding = replace(battle, defender=replace(army, hand=cards, heroes=dict.fromkeys(heroes, 0) | dict(army.heroes)))
    plan = replace(plans.get(player, NO_PLAN), tactics=cards, heroes=heroes)
    opened = open_battle(holding, {**plans, player: plan}, orders, {})
    if isinstance(opened, BattleOutcome):
        raise BattleError("ER-13.6: the odds need the moderator's ruling on the manual effects in play")
    return opened


def _take_cards(field: Field, opened: Field) -> None:
    """`field`, the battle after its volley, with the plans and the cards in play of `opened` (the same battle
    opened with other cards: its groups are `field`'s, in the same order)."""
    index = {id(g): i for i, g in enumerate(opened.groups)}
    field.battle, field.plans = opened.battle, opened.plans
    field.sources = [
        replace(s, group=field.groups[index[id(s.group)]]) if s.group is not None else s for s in opened.sources
    ]


def _cards_key(opened: Field) -> CardsKey:
    """What the defender's played cards and heroes do in this battle, their ids and texts aside: the effects
    melee_strengths sums up, in any order; the other battle effects, in order (a self-removal's may matter); not
    those a fixed condition keeps out of the battle (ER-13.6)."""
    strength: list[str] = []
    others: list[str] = []
    for source in opened.sources:
        if source.kind not in ("tactic", "hero") or source.side != DEFENDER:
            continue
        for effect in source.effects:
            fixed = [c for c in effect.conditions if c.name in FIXED_CONDITIONS]
            if effect.op in BATTLE_OPS and all(opened.condition(source, c) for c in fixed):
                found = strength if effect.op in STRENGTH_OPS else others
                found.append(repr(replace(effect, text="", key="")))
    return tuple(sorted(strength)), tuple(others)


def _melee_of(field: Field) -> Callable[[Field, Dice], Any]:
    """melee_step from `field`, its strengths made once: they roll no die, and every path of the melee's dice
    plays the phase again from a copy of the field."""
    if field.ended is not None:
        return melee_step
    strengths = melee_strengths(copied(field))
    return lambda path_field, dice: melee(path_field, dice, strengths)


def _played(start: _State, phase: Callable[[Field, Dice], Any], thresholds: frozenset[int]) -> Iterator[_State]:
    """Every way `phase` can end from `start`, each path of its dice once, on its own copy of the field."""
    stack: list[tuple[list[Any], Fraction]] = [([], start.weight)]
    while stack:
        path, weight = stack.pop()
        dice = _PathDice(path, weight, thresholds, start.known)
        field = copied(start.field)
        result = phase(field, dice)
        stack += dice.branches
        yield _State(field, result, dice.weight, known=start.known[dice.known_used :])


def _merged(states: Iterable[_State]) -> list[_State]:
    """The states with the same field and result taken as one (the report lines aside: they name the faces
    rolled, which change nothing after), their weights and paths added. An automa card drawn counts by its id;
    melee_step's strengths and dice are only shown in the outcome."""
    found: dict[tuple[object, ...], _State] = {}
    for state in states:
        result = state.result
        if isinstance(result, tuple):
            result = result[2].id if result[2] is not None else None
        key = (field_key(state.field), result)
        if key in found:
            found[key].weight += state.weight
            found[key].paths += state.paths
        else:
            found[key] = state
    return list(found.values())


FIXED: Final = frozenset({"battle", "plans", "orders"})  # the same in every branch of one battle
OWN: Final = tuple(item.name for item in fields(Field) if item.name not in FIXED | {"groups", "sources"})


def copied(field: Field) -> Field:
    """A copy of `field` that the next phase may change without changing it: its groups' units and every list
    and dict of its own; sources point at the copied groups."""
    new = copy.copy(field)
    groups = {id(g): Group(g.army, g.side, g.main, dict(g.units), dict(g.lost)) for g in field.groups}
    new.groups = list(groups.values())
    new.sources = [replace(s, group=groups[id(s.group)]) if s.group is not None else s for s in field.sources]
    for name in OWN:
        value = getattr(field, name)
        if isinstance(value, (list, dict)):
            setattr(new, name, value.copy())
    return new


def field_key(field: Field) -> tuple[object, ...]:
    """What of `field` the rest of the battle reads, as a hashable value: all but its fixed inputs and its
    report lines. A field of a kind not known here is refused, so that a new one cannot be merged unseen."""
    index = {id(g): i for i, g in enumerate(field.groups)}
    parts: list[object] = [
        tuple((g.side, g.main, tuple(g.units.items()), tuple(g.lost.items())) for g in field.groups),
        tuple((s.player, s.side, s.name, s.kind, index.get(id(s.group), -1)) for s in field.sources),
    ]
    for name in OWN:
        value = getattr(field, name)
        if name == "events":
            continue
        if isinstance(value, dict):
            value = tuple(sorted(value.items()))
        elif not isinstance(value, (str, int, tuple, type(None))):
            raise BattleError(f"odds: the battle's {name} has no key")
        parts.append(value)
    return tuple(parts)


def volley_classes(table: Sequence[int], thresholds: frozenset[int]) -> Counter[int]:
    """The faces grouped by which hit numbers they reach, each group under its lowest face."""
    groups: dict[tuple[bool, ...], list[int]] = {}
    for face in table:
        groups.setdefault(tuple(face >= k for k in sorted(thresholds)), []).append(face)
    return Counter({min(faces): len(faces) for faces in groups.values()})


def hit_numbers(battle: Battle) -> frozenset[int]:
    """Every number a volley die may need (ER-8.10, ER-9.4 Deadly Aim, archer_hit_on effects of abilities and
    elites; cards are played after the volley, ER-8.2)."""
    found = {HIT} | ({DEADLY_HIT} if any("deadly_aim" in army.upgrades for army in armies(battle)) else set())
    effects = [e for army in armies(battle) for e in (*army.effects, *(army.elite.effects if army.elite else ()))]
    found |= {e.number("k") for e in effects if e.op == "archer_hit_on"}
    return frozenset(found)


def automa_cases(battle: Battle) -> Iterator[tuple[Battle, Fraction]]:
    """ER-8.31, ER-8.36: the unknown top automa card, each card of the deck (else the discards) by its share."""
    if battle.defender is not None:
        yield battle, Fraction(1)
        return
    cards = battle.automa_deck or battle.automa_discards
    if not cards:
        raise BattleError("ER-8.31: the automa deck and its discards are empty")
    for card, n in Counter(cards).items():
        yield replace(battle, automa_deck=(card,), automa_discards=()), Fraction(n, len(cards))


def odds_text(odds: BattleOdds) -> str:
    """The odds as report lines (percentages rounded to one decimal)."""

    def pct(value: Fraction) -> str:
        return f"{float(value) * 100:.1f}%"

    lines = [
        f"attacker wins {pct(odds.attacker_wins)}, defender wins {pct(odds.defender_wins)}, tie {pct(odds.tie)}",
        *(f"{player}: {float(n):.2f} units lost on average" for player, n in sorted(odds.expected_losses.items())),
    ]
    return "\n".join(lines)


# -- `pbem odds --ruleset conqueror-er` (engine/protocol.py BattleOdds) -----------------------------------------

KIND_WORDS: Mapping[str, str] = {
    "cav": "cavalry",
    "cavalry": "cavalry",
    "inf": "infantry",
    "infantry": "infantry",
    "arch": "archer",
    "archer": "archer",
    "archers": "archer",
    "ship": "ship",
    "ships": "ship",
    "siege": "siege",
    "sieges": "siege",
}
FORT_WORDS: Mapping[str, str] = {"small": "small", "large": "large"}
FORCES_FORM = (
    "'N CAV N INF N ARCHER N SIEGE N SHIP' and upgrade names (e.g. DEADLY_AIM); the defender may add "
    "'SMALL FORT' or 'LARGE FORT', or be 'INDEPENDENT N INF ...' (an independent army, ER-8.31)"
)


@dataclass(frozen=True)
class Forces:
    """What `pbem odds` read: the battle, before each side's standing orders."""

    battle: Battle


def read_side(option: str, text: str, defender: bool) -> tuple[dict[str, int], set[str], str, bool]:
    """Units by kind, upgrades, fort and 'independent' from one force text; a ValueError names the word."""
    units: dict[str, int] = {}
    upgrades: set[str] = set()
    fort, independent = "none", False
    words = text.lower().replace(",", " ").split()
    i = 0
    while i < len(words):
        word = words[i]
        if word.isdigit() and i + 1 < len(words) and words[i + 1] in KIND_WORDS:
            kind = KIND_WORDS[words[i + 1]]
            units[kind] = units.get(kind, 0) + int(word)
            i += 2
            continue
        if defender and word in FORT_WORDS and i + 1 < len(words) and words[i + 1] == "fort":
            fort = FORT_WORDS[word]  # ER-2.6
            i += 2
            continue
        if defender and word == "independent":
            independent = True
        elif word.replace("-", "_") in UPGRADES:
            upgrades.add(word.replace("-", "_"))
        else:
            unknown = words[i + 1] if word.isdigit() and i + 1 < len(words) else word
            raise ValueError(f"--{option}: cannot read {unknown!r} in {text!r}; the form: {FORCES_FORM}")
        i += 1
    if not any(units.values()):
        raise ValueError(f"--{option}: no units in {text!r}; the form: {FORCES_FORM}")
    return units, upgrades, fort, independent


def game_data(ruleset: Any) -> GameData:
    """The ruleset's game data, else the example data (our own invented data set)."""
    data = getattr(ruleset, "data", None)
    if isinstance(data, GameData):
        return data
    return load_folder(resource_dir("games") / "conqueror-er" / "example-data")


class ConquerorOdds:
    """The `odds` member of conqueror-er: forces as texts, standing loss priorities (ER-14.13), exact odds."""

    def read_forces(self, ruleset: Any, attacker: str, defender: str, naval: bool) -> Forces:
        data = game_data(ruleset)
        a_units, a_upgrades, _, _ = read_side("attacker", attacker, defender=False)
        d_units, d_upgrades, fort, independent = read_side("defender", defender, defender=True)
        attacking = Army("attacker", "A", upgrades=frozenset(a_upgrades), **a_units)
        battle = Battle("X", not naval, attacking, fort=fort, cards=data.cards, options=data.options)
        if independent:
            if d_upgrades or set(d_units) - set(INDEPENDENT_LOSSES):
                raise ValueError("--defender: an independent army has only standard units, no upgrades (ER-8.31)")
            deck = tuple(card.id for card in data.cards.automa)
            return Forces(replace(battle, independent=Units(**d_units), automa_deck=deck))
        defending = Army("defender", "X", upgrades=frozenset(d_upgrades), **d_units)
        return Forces(replace(battle, defender=defending))

    def read_standing(self, ruleset: Any, name: str, text: str) -> Standing:
        """One order a line: LOSSES <kind>, <kind>, ... (ER-14.13: the order units are removed in)."""
        priority: tuple[str, ...] = LOSS_PRIORITY
        for number, line in enumerate(text.splitlines(), 1):
            words = line.lower().replace(",", " ").split()
            if not words:
                continue
            kinds = [KIND_WORDS.get(w, w) for w in words[1:]]
            if words[0] != "losses" or not kinds or any(k not in KINDS for k in kinds):
                raise ValueError(
                    f"{name} line {number}: cannot read {line.strip()!r}; the form: LOSSES <kind>, <kind>, ... "
                    f"(kinds: {', '.join(KINDS)})"
                )
            priority = complete(tuple(dict.fromkeys(kinds)))
        return replace(NO_ORDERS, loss_priority=priority)

    def battle_text(self, ruleset: Any, forces: Forces, standing: tuple[Any, Any], area: str | None) -> str:
        battle = forces.battle
        orders = {
            player: order
            for player, order in ((ATTACKER, standing[0]), (battle.defender_id, standing[1]))
            if order is not None
        }
        return odds_text(battle_odds(battle, {}, orders))
