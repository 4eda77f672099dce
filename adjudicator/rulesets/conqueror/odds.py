"""Exact battle odds for Conqueror: Empire Rises: `battle_odds(battle, plans)` runs the real
battle (battle.resolve_battle) down every branch of its chance, weighting each branch exactly.

Every draw the battle makes is a Conqueror die (ER-0.4: faces 1, 1, 2, 3, 4, 4), so a branch point has the
four values 1, 2, 3, 4 with weights 2, 1, 1, 2 in 6; volley dice, their re-rolls, the melee dice and the
re-rolls cards allow are all enumerated. Against an independent army the top automa card is unknown to the
players: each card of the deck (else of its discards, ER-8.36) is taken with its share. The plans are the
cards the asker knows (typically the attacker's own); the other side is assumed to play what `plans` says
(nothing if absent). A `manual` effect has no odds until the moderator rules (ER-13.6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypeVar

from adjudicator.engine.chance import Dice
from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror.battle import armies, resolve_battle
from adjudicator.rulesets.conqueror.battle_losses import complete
from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    INDEPENDENT_LOSSES,
    KINDS,
    LOSS_PRIORITY,
    NO_ORDERS,
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


class _Branch(Exception):
    """The path so far is exhausted: the draw that comes next has these values and weights."""

    def __init__(self, options: list[tuple[Any, int, int]]) -> None:
        super().__init__("branch")
        self.options = options


class _PathDice(Dice):
    """Dice that give the values of a fixed path, then stop at the first draw beyond it. A volley die only
    counts as hit or miss against the battle's hit numbers (`thresholds`), so its faces are grouped into those
    classes, each stood for by its lowest face (exact, and far fewer branches)."""

    def __init__(self, path: Sequence[Any], thresholds: frozenset[int]) -> None:
        super().__init__()
        self.path = path
        self.position = 0
        self.thresholds = thresholds

    def roll_face(self, purpose: str, table: Sequence[T], *, hidden: bool = False) -> T:
        if self.position < len(self.path):
            value = self.path[self.position]
            self.position += 1
            self.log.append((purpose, table.index(value) + 1))
            return value  # type: ignore[no-any-return]
        counts = Counter(table)
        if purpose.startswith("volley"):
            counts = volley_classes(table, self.thresholds)  # type: ignore[arg-type]
        raise _Branch([(value, n, len(table)) for value, n in counts.items()])

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        raise BattleError(f"odds: the draw {purpose!r} is not a die of the battle")


def battle_odds(
    battle: Battle,
    plans: Mapping[str, Plan],
    orders: Mapping[str, Standing] | None = None,
    rulings: Mapping[str, Effects] | None = None,
) -> BattleOdds:
    """The exact odds of `battle` with the known `plans` (and standing orders)."""
    wins = {ATTACKER: Fraction(0), DEFENDER: Fraction(0), None: Fraction(0)}
    losses: dict[str, Fraction] = {}
    branches = 0
    for outcome, weight in outcomes(battle, plans, orders or {}, rulings or {}):
        branches += 1
        wins[outcome.winner] += weight
        for player, kinds in outcome.losses.items():
            losses[player] = losses.get(player, Fraction(0)) + weight * sum(kinds.values())
    return BattleOdds(wins[ATTACKER], wins[DEFENDER], wins[None], losses, branches)


def outcomes(
    battle: Battle, plans: Mapping[str, Plan], orders: Mapping[str, Standing], rulings: Mapping[str, Effects]
) -> Iterator[tuple[BattleOutcome, Fraction]]:
    """Every way the battle can end, with its probability (the weights sum to 1)."""
    thresholds = hit_numbers(battle)
    for deck_battle, deck_weight in automa_cases(battle):
        stack: list[tuple[tuple[Any, ...], Fraction]] = [((), deck_weight)]
        while stack:
            path, weight = stack.pop()
            try:
                outcome = resolve_battle(deck_battle, plans, orders, _PathDice(path, thresholds), rulings)
            except _Branch as branch:
                stack += [((*path, value), weight * Fraction(n, total)) for value, n, total in branch.options]
                continue
            if not outcome.finished:
                raise BattleError("ER-13.6: the odds need the moderator's ruling on the manual effects in play")
            yield outcome, weight


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
