"""Exact battle odds for Empires of the Ancient World (`pbem odds --ruleset empires-aw`, engine/protocol.py
BattleOdds): who wins, how often a rout ends the battle, and how many cards each side loses on average.

How it is computed, exactly (fractions, no sampling):
- Known stacks: the comparisons of EAW-8.4 form a Markov chain over the three combat markers (EAW-8.3). At each
  position the two cards' values are independent: a card with a die (EAW-8.5) takes each face with 1/6, so the
  chance that the attacker's card wins, loses or ties is a sum over the faces of both dice. The marker moves are
  those of battle.py (push/pull by the MARKERS plan, else the option; `winner_chooses` counts as the plan or
  push); a rout ends the chain (EAW-8.10). Losses (EAW-8.8): with random selection the expected number of army
  cards among k cards drawn from r revealed cards holding m army cards is k * m / r (the empire cards drawn
  absorb theirs, EAW-13.16); with `owner_chooses` the owner's order (LOSSES plan, else EAW-12.8) decides.
- An unknown stack (`hand` in the force text): the owner could form any legal stack (battle_stacks.problem) of
  the largest size the rules give (EAW-8.1, EAW-8.15; at sea the size of the default stack, EAW-8.20) from the
  cards known to be his; every distinct such stack (cards and order, copies alike) is taken as equally likely, and
  the odds are the average over them (and over both sides' stacks when both are unknown).
The battle functions (battle.card_value, move_marker, losses_owed, loss_order) are the ones the real battle uses.

Force texts (`--attacker`, `--defender`): card ids or names, top first, separated by spaces or commas (a name of
several words between commas); a
personality (e.g. a military leader) joins the side's face-up cards; `hand` first: these are the cards the side
holds and its stack is unknown; on the defender's text `siege` (a fort defended in a siege, EAW-8.15) and
`ambush` (EAW-8.2). `--naval` makes it a naval battle (EAW-8.20)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from adjudicator.rulesets.empires import battle_stacks as stacks
from adjudicator.rulesets.empires import standing as plans
from adjudicator.rulesets.empires.battle import (
    ATTACKER_SIDE,
    CENTRE,
    DEFENDER_SIDE,
    PUSH,
    card_value,
    loss_order,
    losses_owed,
    melee_bonus,
    move_marker,
    preferred_move,
)
from adjudicator.rulesets.empires.battle_stacks import NAVAL, OPEN, SIEGE
from adjudicator.rulesets.empires.data import BATTLE_MARKERS, EMPIRE, PERSONALITY, Card, Effect, GameData, Options
from adjudicator.rulesets.empires.orders import STANDING_ORDERS
from adjudicator.rulesets.empires.state import Player

MAX_CASES: Final = 50_000  # pairs of stacks averaged over; beyond, `pbem odds` asks for fewer unknown cards
FACES: Final = 6


@dataclass(frozen=True)
class Side:
    """One side as the force text gives it: `cards` (ids) are its stack top first, or with `known` False the cards
    it holds (its stack unknown); `personalities` its face-up personality cards."""

    cards: tuple[str, ...]
    known: bool = True
    personalities: tuple[str, ...] = ()


@dataclass(frozen=True)
class Forces:
    """What `pbem odds` read: the game data, the battle type and both sides."""

    data: GameData
    options: Options
    kind: str
    attacker: Side
    defender: Side
    ambush: bool = False


@dataclass(frozen=True)
class Odds:
    """The exact chances and expectations of one battle (or the average over the stacks that could be formed)."""

    attacker_wins: Fraction
    defender_wins: Fraction
    attacker_routs: Fraction  # the defender routed: the attacker's free action (EAW-8.11)
    defender_routs: Fraction  # the attacker routed: it pays up to 2 markers (EAW-8.11)
    cards_lost: Mapping[str, Fraction]  # "attacker" / "defender": army cards discarded, on average
    absorbed: Mapping[str, Fraction]  # losses taken by empire cards, on average
    cases: int = 1  # the pairs of stacks averaged over


@dataclass(frozen=True)
class Plan:
    """What one side's standing orders say for the odds: markers (push/pull/None), loss priority, ambush, and the
    stack plans by `<battle type>.<side>` (standing.stack_plan)."""

    markers: str | None = None
    losses: tuple[str, ...] = ()
    ambush: bool | None = None
    stacks_by_kind: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


# -- the exact computation -----------------------------------------------------------------------------------------
def _values(kind: str, card: Card | None, opposing: Card | None, bonus: int) -> dict[int | None, Fraction]:
    """EAW-8.5: the distribution of a card's value against `opposing` (its die, if any, fair)."""
    if card is None:
        return {None: Fraction(1)}
    if not card.rolls:
        return {card_value(kind, card, opposing, None, bonus): Fraction(1)}
    found: dict[int | None, Fraction] = {}
    for face in range(1, FACES + 1):
        value = card_value(kind, card, opposing, face, bonus)
        found[value] = found.get(value, Fraction(0)) + Fraction(1, FACES)
    return found


def _comparison(
    kind: str, mine: Card | None, theirs: Card | None, bonus: tuple[int, int]
) -> tuple[Fraction, Fraction, Fraction]:
    a_values = _values(kind, mine, theirs, bonus[0])
    d_values = _values(kind, theirs, mine, bonus[1])
    a_wins = d_wins = Fraction(0)
    for a, pa in a_values.items():
        for d, pd in d_values.items():
            if a is not None and (d is None or a > d):
                a_wins += pa * pd
            elif d is not None and (a is None or d > a):
                d_wins += pa * pd
    return a_wins, d_wins, 1 - a_wins - d_wins


Ended = list[tuple[tuple[int, ...], int, Fraction, str | None]]  # markers, positions shown, weight, side routed
Comparison = tuple[Fraction, Fraction, Fraction]  # the attacker wins, the defender wins, equal


def stack_odds(
    data: GameData,
    kind: str,
    stacks_: tuple[Sequence[str], Sequence[str]],
    bonus: tuple[int, int] = (0, 0),
    moves: tuple[str, str] = (PUSH, PUSH),
    losses: tuple[Sequence[str], Sequence[str]] | None = None,
    compared: dict[tuple[str | None, str | None], Comparison] | None = None,
    after: tuple[tuple[int, ...], int] | None = None,
) -> Odds:
    """The exact odds of two known stacks (instances, top first). `moves`: each side's push or pull (EAW-8.4);
    `losses`: each side's loss priority when the owner chooses (None: random selection, EAW-8.8); `after`: the
    battle goes on from these markers after that many comparisons (a rout already ends it, EAW-8.10)."""
    attack, defend = (tuple(s) for s in stacks_)
    rounds = max(len(attack), len(defend))
    markers, done = after or ((CENTRE,) * BATTLE_MARKERS, 0)
    live: dict[tuple[int, ...], Fraction] = {markers: Fraction(1)}
    ended: Ended = []
    for side, routed in ((ATTACKER_SIDE, "defender"), (DEFENDER_SIDE, "attacker")):
        if all(m == side for m in markers):
            ended, live = [(markers, done, Fraction(1), routed)], {}
    for n in range(done + 1, rounds + 1):
        mine = data.card(attack[n - 1]) if n <= len(attack) else None
        theirs = data.card(defend[n - 1]) if n <= len(defend) else None
        pair = (mine and mine.id, theirs and theirs.id)
        found = None if compared is None else compared.get(pair)
        if found is None:
            found = _comparison(kind, mine, theirs, bonus)
            if compared is not None:  # one battle's pairs: the same data, type and bonuses
                compared[pair] = found
        live = _next_position(live, found, moves, n, ended)
    ended += [(markers, rounds, weight, None) for markers, weight in live.items()]
    return _tally(data, ended, (attack, defend), losses)


def _next_position(
    live: dict[tuple[int, ...], Fraction], found: Comparison, moves: tuple[str, str], n: int, ended: Ended
) -> dict[tuple[int, ...], Fraction]:
    """The combat markers after comparison `n` (EAW-8.4), each with its chance; a battle a side has routed (all
    markers on one side, EAW-8.10) goes to `ended`."""
    a_wins, d_wins, equal = found
    after: dict[tuple[int, ...], Fraction] = {}
    for markers, weight in live.items():
        if equal:
            after[markers] = after.get(markers, Fraction(0)) + weight * equal
        for side, chance, move in ((ATTACKER_SIDE, a_wins, moves[0]), (DEFENDER_SIDE, d_wins, moves[1])):
            if not chance:
                continue
            moved, _ = move_marker(markers, side, move)
            if all(m == side for m in moved):  # EAW-8.10
                ended.append((moved, n, weight * chance, "defender" if side == ATTACKER_SIDE else "attacker"))
            else:
                after[moved] = after.get(moved, Fraction(0)) + weight * chance
    return after


def _tally(
    data: GameData,
    ended: Ended,
    stacks_: tuple[tuple[str, ...], tuple[str, ...]],
    losses: tuple[Sequence[str], Sequence[str]] | None,
) -> Odds:
    """The odds of the ended battles: the winner (EAW-8.7), the routs and the cards each side loses (EAW-8.8)."""
    wins = {"attacker": Fraction(0), "defender": Fraction(0)}
    routs = {"attacker": Fraction(0), "defender": Fraction(0)}
    lost = {"attacker": Fraction(0), "defender": Fraction(0)}
    absorbed = {"attacker": Fraction(0), "defender": Fraction(0)}
    for markers, shown, weight, routed in ended:
        sides = markers.count(ATTACKER_SIDE), markers.count(DEFENDER_SIDE)
        wins["attacker" if sides[0] > sides[1] else "defender"] += weight  # EAW-8.7
        if routed is not None:
            routs[routed] += weight
        for who, stack, owed, priority in zip(
            ("attacker", "defender"), stacks_, losses_owed(markers), losses or (None, None), strict=True
        ):
            army, others = _lost_cards(data, list(stack[:shown]), owed, priority)
            lost[who] += weight * army
            absorbed[who] += weight * others
    return Odds(wins["attacker"], wins["defender"], routs["defender"], routs["attacker"], lost, absorbed)


def _lost_cards(
    data: GameData, cards: list[str], owed: int, priority: Sequence[str] | None
) -> tuple[Fraction, Fraction]:
    """EAW-8.8: the army cards lost and the home-army cards that absorb a loss, of `owed` losses among `cards`."""
    k = min(owed, len(cards))
    if not k:
        return Fraction(0), Fraction(0)
    if priority is None:  # random: the mean of a draw without replacement
        army = sum(data.card(i).kind != EMPIRE for i in cards)
        return Fraction(k * army, len(cards)), Fraction(k * (len(cards) - army), len(cards))
    chosen = loss_order(data, cards, priority)[:k]
    army = sum(data.card(i).kind != EMPIRE for i in chosen)
    return Fraction(army), Fraction(k - army)


# Stacks formed in this process: (data id, hand, battle type, free order) -> (the data, kept so that its id is not
# reused while the entry lives; the stacks). A notice ranking a seat's stacks weighs each of them against the same
# hands of the enemy, whose stacks were otherwise formed again for each (some tenth of its time). Oldest first.
_FORMED: dict[tuple[int, tuple[str, ...], str, bool], tuple[GameData, tuple[tuple[str, ...], ...]]] = {}
FORMED_KEPT = 64


def candidate_stacks(data: GameData, hand: Sequence[str], kind: str, free_order: bool) -> list[tuple[str, ...]]:
    """Every distinct legal stack (instances, top first) of the largest size an owner of `hand` could form."""
    key = (id(data), tuple(hand), kind, free_order)
    found = _FORMED.get(key)
    if found is not None and found[0] is data:
        return list(found[1])
    formed = _form_stacks(data, hand, kind, free_order)
    _FORMED[key] = (data, tuple(formed))
    if len(_FORMED) > FORMED_KEPT:
        del _FORMED[next(iter(_FORMED))]
    return formed


def _form_stacks(data: GameData, hand: Sequence[str], kind: str, free_order: bool) -> list[tuple[str, ...]]:
    size = len(stacks.default(data, hand, kind, free_order))
    found: dict[tuple[str, ...], tuple[str, ...]] = {}
    can = stacks.eligible(data, hand, kind)
    ids = {i: data.card(i).id for i in can}  # copies of a card are alike: a stack is its ids
    for chosen in itertools.permutations(can, size):
        key = tuple(ids[i] for i in chosen)
        if key not in found and stacks.problem(data, hand, kind, chosen, free_order, can) is None:
            found[key] = chosen
        if len(found) > MAX_CASES:
            raise ValueError(f"more than {MAX_CASES} stacks can be formed from these cards: name the stack")
    return list(found.values())


def battle_odds(forces: Forces, sides: tuple[Plan | None, Plan | None] = (None, None)) -> Odds:
    """The odds of `forces` with each side's standing orders, averaged over the unknown stacks."""
    data, options, kind = forces.data, forces.options, forces.kind
    chosen_plans = tuple(p or Plan() for p in sides)
    candidates = [
        side_stacks(data, kind, side, plan, role)
        for side, plan, role in zip((forces.attacker, forces.defender), chosen_plans, ("attack", "defend"), strict=True)
    ]
    if len(candidates[0]) * len(candidates[1]) > MAX_CASES:
        raise ValueError(f"more than {MAX_CASES} pairs of stacks: name one side's stack")
    if not candidates[0] or not candidates[1]:
        raise ValueError("a side has no card it could stack in this battle")
    ambush = forces.ambush or bool(chosen_plans[1].ambush)
    if kind != OPEN or not _has(data, forces.defender, "ambush"):
        ambush = False  # EAW-8.2: a military leader's, in open battles
    bonus = (
        melee_bonus(options, _effects(data, forces.attacker, "card_value"), False, ambush),
        melee_bonus(options, _effects(data, forces.defender, "card_value"), True, ambush),
    )
    moves = tuple(preferred_move(options, p.markers) for p in chosen_plans)
    losses = None
    if options.loss_selection == "owner_chooses":
        losses = (chosen_plans[0].losses, chosen_plans[1].losses)
    total: Odds | None = None
    count = 0
    compared: dict[tuple[str | None, str | None], tuple[Fraction, Fraction, Fraction]] = {}
    for attack in candidates[0]:
        for defend in candidates[1]:
            one = stack_odds(data, kind, (attack, defend), bonus, (moves[0], moves[1]), losses, compared)
            total = one if total is None else _add(total, one)
            count += 1
    assert total is not None
    return _scale(total, count)


def side_stacks(data: GameData, kind: str, side: Side, plan: Plan, role: str) -> list[tuple[str, ...]]:
    """The stacks one side may fight with: its known stack (EAW-8.21: refused if the battle would), else its
    standing stack where legal (EAW-12.6), else every legal stack of its hand."""
    hand = stacks.numbered(side.cards)
    free = _has(data, side, "stack_order_free")
    if side.known:
        wrong = stacks.problem(data, hand, kind, hand, free)
        if wrong is not None:
            raise ValueError(f"--{role}er: {wrong}")
        return [tuple(hand)]
    planned = plan.stacks_by_kind.get(f"{kind}.{role}") if plan.stacks_by_kind else None
    if planned is not None:
        taken = stacks.instances(hand, planned)
        if taken is not None and stacks.problem(data, hand, kind, taken, free) is None:
            return [tuple(taken)]
    return candidate_stacks(data, hand, kind, free)


def _effects(data: GameData, side: Side, code: str) -> list[Effect]:
    return [e for p in side.personalities for e in data.card(p).effects if e.code == code]


def _has(data: GameData, side: Side, code: str) -> bool:
    return bool(_effects(data, side, code))


def _add(a: Odds, b: Odds) -> Odds:
    return Odds(
        a.attacker_wins + b.attacker_wins,
        a.defender_wins + b.defender_wins,
        a.attacker_routs + b.attacker_routs,
        a.defender_routs + b.defender_routs,
        {k: a.cards_lost[k] + b.cards_lost[k] for k in a.cards_lost},
        {k: a.absorbed[k] + b.absorbed[k] for k in a.absorbed},
        a.cases + b.cases,
    )


def _scale(a: Odds, count: int) -> Odds:
    return Odds(
        a.attacker_wins / count,
        a.defender_wins / count,
        a.attacker_routs / count,
        a.defender_routs / count,
        {k: v / count for k, v in a.cards_lost.items()},
        {k: v / count for k, v in a.absorbed.items()},
        count,
    )


def odds_text(forces: Forces, odds: Odds) -> str:
    """The odds as `pbem odds` prints them (percentages to one decimal, expectations to two)."""

    def pct(value: Fraction) -> str:
        return f"{float(value) * 100:.1f}%"

    def side_text(side: Side) -> str:
        cards = ", ".join(side.cards) or "-"
        return f"stack {cards}" if side.known else f"any legal stack from {cards}"

    lines = [
        f"{forces.kind} battle: attacker {side_text(forces.attacker)}; defender {side_text(forces.defender)}"
        + (f" ({odds.cases} pairs of stacks, each equally likely)" if odds.cases > 1 else ""),
        f"attacker wins {pct(odds.attacker_wins)}, defender wins {pct(odds.defender_wins)} (EAW-8.7)",
        f"the attacker routs the defender {pct(odds.attacker_routs)} (a free action), "
        f"the defender routs the attacker {pct(odds.defender_routs)} (EAW-8.10, EAW-8.11)",
        *(
            f"{who}: {float(odds.cards_lost[who]):.2f} army cards lost on average, "
            f"{float(odds.absorbed[who]):.2f} losses taken by empire cards (EAW-8.8)"
            for who in ("attacker", "defender")
        ),
    ]
    return "\n".join(lines)


# -- `pbem odds --ruleset empires-aw` (engine/protocol.py BattleOdds) ---------------------------------------------
FORCES_FORM: Final = (
    "card ids, or names between commas, top first (e.g. 'pike pike archer'); a personality joins the side; "
    "'hand ...' for the cards a side holds when its stack is unknown; the defender may add 'siege' and 'ambush'"
)


class EmpiresOdds:
    """The ruleset's `odds` member: on a bound game's data, else on the example data."""

    def read_forces(self, ruleset: Any, attacker: str, defender: str, naval: bool) -> Forces:
        data, options = _data_of(ruleset)
        a_side, a_flags = read_side(data, "--attacker", attacker, defender=False)
        d_side, d_flags = read_side(data, "--defender", defender, defender=True)
        if naval and "siege" in d_flags:
            raise ValueError("--defender: a naval battle is no siege (EAW-8.15, EAW-8.20)")
        kind = NAVAL if naval else SIEGE if "siege" in d_flags else OPEN
        return Forces(data, options, kind, a_side, d_side, ambush="ambush" in d_flags)

    def read_standing(self, ruleset: Any, name: str, text: str) -> Plan:
        data, _ = _data_of(ruleset)
        return read_plan(data, name, text)

    def battle_text(self, ruleset: Any, forces: Forces, standing: tuple[Any, Any], area: str | None) -> str:
        return odds_text(forces, battle_odds(forces, (standing[0], standing[1])))


def _data_of(ruleset: Any) -> tuple[GameData, Options]:
    """The data of a bound game (`--game-data`), else the example data the ruleset names."""
    data = getattr(ruleset, "data", None)
    if isinstance(data, GameData):
        options = getattr(ruleset, "options", None)
        return data, options if isinstance(options, Options) else data.options
    folder = getattr(ruleset, "example_data", None)
    if folder is None:
        raise ValueError("empires-aw computes odds on game data: give --game-data DIR")
    loaded = ruleset.game_data.load(folder)
    return loaded, loaded.options


def read_side(data: GameData, option: str, text: str, defender: bool) -> tuple[Side, set[str]]:
    """One force text: the side and its flags (siege, ambush); a ValueError names the option and the word. Words
    are separated by spaces or commas; a card name of several words is written between commas."""
    words: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if part:
            words += [part] if stacks.card_named(data, part) is not None else part.split()
    flags: set[str] = set()
    known = True
    cards: list[str] = []
    personalities: list[str] = []
    for position, word in enumerate(words):
        key = word.casefold()
        if key == "hand" and position == 0:
            known = False
        elif defender and key in ("siege", "ambush"):
            flags.add(key)
        else:
            card = stacks.card_named(data, word)
            if card is None:
                raise ValueError(f"{option}: {word!r} is no card of this game; the form: {FORCES_FORM}")
            (personalities if card.kind == PERSONALITY else cards).append(card.id)
    return Side(tuple(cards), known, tuple(personalities)), flags


def read_plan(data: GameData, name: str, text: str) -> Plan:
    """A side's standing battle orders for the odds, one a line, read by the game's order language (any of its
    keyword languages): STACK, MARKERS, LOSSES and AMBUSH count (EAW-12.5 to EAW-12.8); a ValueError names the
    file, the line and the problem."""
    from adjudicator.orders import parse_orders
    from adjudicator.rulesets.empires.parse import OrderLanguage

    parsed = parse_orders(f"GAME odds TURN 1 PLAYER red PASSWORD x\n{text}", OrderLanguage(data))
    problems = [e for e in parsed.errors if e.line > 1]
    if problems:
        first = problems[0]
        raise ValueError(f"{name} line {first.line - 1}: column {first.column}: {first.message}")
    player = Player("odds")
    for order in parsed.orders:
        if not isinstance(order, STANDING_ORDERS) or not plans.store(player, order):
            raise ValueError(f"{name} line {order.line - 1}: {order.text!r} is no standing battle order (EAW-12)")
    by_kind = {
        f"{kind}.{side}": found
        for kind in (OPEN, SIEGE, NAVAL)
        for side in ("attack", "defend")
        if (found := plans.stack_plan(player, kind, side)) is not None
    }
    return Plan(plans.marker_plan(player), plans.loss_priority(player), plans.lays_ambush(player, "*"), by_kind)
