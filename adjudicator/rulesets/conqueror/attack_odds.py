"""The odds of the battles a campaign turn's orders would start (a receipt prints them), as the attacker can know
them: his orders carried out as the receipt's check carries them out (campaign.check_campaign: moves into empty or
own areas made, each attack assumed to fail, so that a later order finds its units back home), and the exact odds
(odds.battle_odds) of each battle as it would start.

What the attacker cannot know never shapes the figure. The other players' standing orders are their secret
(ER-14): the defender's defence plan (ER-14.14), loss priority, casualty order and retreats, and every other
player's reinforcement (ER-14.12), so the defender is taken to follow the defaults of ER-14: he plays no card, uses
no Free Men, joins no reinforcement, and nobody else reinforces a side. The attacker's own plan (heroes, tactic
cards, Free Men, his reinforcement) and standing orders count, and so does everything on the map. An independent
army's top automa card is unknown to all: each card of the deck counts by its share (ER-8.31).

His hand is hidden but its size is not (ER-6.10), so a second figure says what his tactic cards could do if he
played them (ER-8.13: any number): his hand is any `size` of the tactic cards the attacker has not seen (the
game's cards less the attacker's hand and the discards), each hand as likely as any other; he is taken to play
each card of it that, played alone, changes the battle without raising the attacker's chance. Each set of cards
so played is weighed by its chance, exactly. His heroes count in the same figure (ER-8.12): how many he holds
face down is known (ER-6.10), which is not, so they are any that many of his faction's heroes not lying face up
or discarded, each set as likely. He chose them, nobody drew them: that they are equally likely is an assumption,
the same as for an Empires stack (the attacker knows nothing better). His face-up heroes are known; he is taken to
play each hero, face up or down, that helps him as a card does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, islice
from math import comb
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import AttackOdds, HandOdds
from adjudicator.orders.keywords import written
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror import campaign
from adjudicator.rulesets.conqueror.battle_setup import leave_kind, standing_of
from adjudicator.rulesets.conqueror.data import RULESET, Units
from adjudicator.rulesets.conqueror.orders import KIND_KEYWORDS, UNIT_KINDS, Move, Transport
from adjudicator.rulesets.conqueror.state import GameState

if TYPE_CHECKING:
    from adjudicator.rulesets.conqueror.game import ConquerorGame
    from adjudicator.rulesets.conqueror.odds import BattleOdds

MOST_PLAYED_SETS = 1000  # the sets of cards a defender could play that one battle's line weighs at most (a hand of
# 3 of 12 kinds of card is at most 455 sets; of 4 of 10 kinds, 975 sets, some 0.4 s with odds.hand_odds)


def attack_odds(rules: ConquerorGame, state: GameState, seat: str, orders: Any) -> list[AttackOdds]:
    """The odds of each battle `seat`'s campaign orders would start, in the order written, each distinct battle
    once."""
    from adjudicator.rulesets.conqueror import rounds, setup

    given = campaign.orders_of(orders)
    step = rounds.due(state)
    if step is None or step.phase != rounds.CAMPAIGN or seat not in step.seats:
        return []  # attacks are orders of the seat's own campaign turn (ER-7.1)
    if not any(isinstance(order, (Move, Transport)) for order in given):
        return []  # no move, no battle: no position is played
    seen = as_seen_by(state, seat)
    turn = campaign.Turn(fought=[])
    options = setup.options_from_json(state.options)
    for order in given:
        campaign.carry_out(seen, rules.data, options, seat, order, turn)
    found: dict[str, AttackOdds] = {}
    hands = _Hands(state, rules, seat)
    for attack, battle in turn.fought or []:
        key = repr((replace(battle, cards=None), attack.plan))  # the cards are the game's: the same in each
        if key not in found:
            line = _line(seen, rules, attack, battle, hands)
            if line is not None:
                found[key] = line
    return list(found.values())


def as_seen_by(state: GameState, seat: str) -> GameState:
    """A copy of the position with nothing `seat` cannot see: the others' hands, face-down heroes and standing
    orders taken away (ER-14), the automa deck in a fixed order (only its cards are known, ER-8.31)."""
    seen = state.copy()
    for other, player in seen.players.items():
        if other != seat:
            player.hand, player.heroes_down, player.standing = [], [], {}
    seen.decks.automa = sorted(seen.decks.automa)
    seen.decks.tactics, seen.decks.chronicles = [], []
    return seen


class _Hands:
    """What the attacker knows of the other players' hands: their sizes (ER-6.10) and the tactic cards he has not
    seen (ER-1.2: every tactic card is in the deck, a hand or the discards), by id; of their heroes, how many each
    holds face down, which of his faction's he could so hold (those not face up nor discarded) and his face-up
    ones (ER-6.10, ER-6.11)."""

    def __init__(self, state: GameState, rules: ConquerorGame, seat: str) -> None:
        self.sizes = {player: len(p.hand) for player, p in state.players.items()}
        unseen = Counter({card.id: card.count for card in rules.data.cards.tactics})
        unseen.subtract([*state.players[seat].hand, *state.decks.tactic_discards])
        self.unseen = +unseen
        self.face_down = {player: len(p.heroes_down) for player, p in state.players.items()}
        self.face_up = {player: tuple(sorted(p.heroes_up)) for player, p in state.players.items()}
        seen = {player: {*p.heroes_up, *p.heroes_discarded} for player, p in state.players.items()}
        self.could_hold = {
            player: tuple(sorted(h.id for h in rules.data.cards.heroes if h.faction == player and h.id not in known))
            for player, known in seen.items()
        }


def _line(
    seen: GameState, rules: ConquerorGame, attack: campaign.Attack, battle: bt.Battle, hands: _Hands
) -> AttackOdds | None:
    """One battle's receipt line; None for a battle whose odds cannot be computed before it is fought (a plan the
    battle refuses, or a `manual` effect awaiting the moderator's ruling, ER-13.6): its verdict or the battle
    says why."""
    from adjudicator.rulesets.conqueror.odds import battle_odds

    plan = attack.plan
    plans = {attack.seat: bt.Plan(plan.heroes, plan.tactics, free_men=plan.free_men, leave_behind=leave_kind(plan))}
    standing = standing_of(seen, rules.data, battle)
    try:
        odds = battle_odds(battle, plans, standing)
        if_played = _if_played(battle, plans, standing, odds, hands)
    except bt.BattleError:
        return None
    return AttackOdds(
        battle.area,
        *battle_texts(battle, {attack.seat: attack.plan}),
        *_figures(odds, attack.seat, battle.defender_id),
        if_played=if_played,
    )


def _figures(odds: BattleOdds, attacker: str, defender: str) -> tuple[float, float, float]:
    """The attacker's chance to win and each principal's expected losses."""
    lost = odds.expected_losses
    return float(odds.attacker_wins), float(lost.get(attacker, 0)), float(lost.get(defender, 0))


def _if_played(
    battle: bt.Battle,
    plans: Mapping[str, bt.Plan],
    standing: Mapping[str, bt.Standing],
    plain: BattleOdds,
    hands: _Hands,
) -> HandOdds | None:
    """The battle's odds if its defender plays the tactic cards (ER-8.13) and heroes (ER-8.12) he may hold,
    averaged over his possible hands and face-down heroes (the module's docstring says how); None against an
    independent army, or a defender with neither cards nor heroes."""
    from adjudicator.rulesets.conqueror.odds import hand_odds

    if battle.defender is None:
        return None
    defender, attacker = battle.defender_id, battle.attacker.player
    size, down, could_hold = hands.sizes.get(defender, 0), hands.face_down.get(defender, 0), hands.could_hold[defender]
    heroes = sorted({*could_hold, *hands.face_up[defender]}) if down else list(hands.face_up[defender])
    if size > sum(hands.unseen.values()) or down > len(could_hold) or not (size or heroes):
        return None  # cards or heroes that do not add up (a checked position's always do), or nothing to weigh

    def helps(alone: BattleOdds) -> bool:  # changes the battle, and not for the attacker's good
        return alone.attacker_wins <= plain.attacker_wins and _figures(alone, attacker, defender) != unchanged

    unchanged = _figures(plain, attacker, defender)
    kinds = sorted(hands.unseen) if size else []
    singles = hand_odds(battle, plans, standing, [(card,) for card in kinds])  # each card played alone
    useful = {card: hands.unseen[card] for card, alone in zip(kinds, singles, strict=True) if helps(alone)}
    useful_heroes = _useful_heroes(battle, plans, standing, heroes, helps)
    others = sum(hands.unseen.values()) - sum(useful.values())
    hero_plays = _hero_plays(useful_heroes, could_hold, down, hands.face_up[defender])
    no_card = Fraction(comb(others, size), comb(others + sum(useful.values()), size))
    helps_chance = 1 - no_card * sum((share for played, share in hero_plays if not played), Fraction(0))
    weighed = down if heroes else None
    card_sets = _played_sets(useful, others, size)
    sets = list(islice(((c, h, a * b) for c, a in card_sets for h, b in hero_plays), MOST_PLAYED_SETS + 1))
    if len(sets) > MOST_PLAYED_SETS:
        return HandOdds(size, float(helps_chance), MOST_PLAYED_SETS, heroes=weighed)
    total = [Fraction(0)] * 3
    played_odds = hand_odds(battle, plans, standing, [c for c, _, _ in sets], [h for _, h, _ in sets])
    for (_cards, _heroes, share), odds in zip(sets, played_odds, strict=True):
        lost = odds.expected_losses
        for n, figure in enumerate((odds.attacker_wins, lost.get(attacker, 0), lost.get(defender, 0))):
            total[n] += share * figure
    return HandOdds(size, float(helps_chance), len(sets), *(float(figure) for figure in total), heroes=weighed)


def _useful_heroes(
    battle: bt.Battle,
    plans: Mapping[str, bt.Plan],
    standing: Mapping[str, bt.Standing],
    heroes: list[str],
    helps: Callable[[BattleOdds], bool],
) -> set[str]:
    """The defender's heroes that, each played alone, would help him; not a hero whose effect awaits the
    moderator's ruling (ER-13.6): nobody can tell what it does before he rules. All in one hand_odds, unless one
    of them awaits a ruling: then each alone."""
    from adjudicator.rulesets.conqueror.odds import hand_odds

    if not heroes:
        return set()
    try:
        alone = hand_odds(battle, plans, standing, [()] * len(heroes), [(hero,) for hero in heroes])
    except bt.BattleError:
        if len(heroes) == 1:
            return set()
        return set().union(*(_useful_heroes(battle, plans, standing, [hero], helps) for hero in heroes))
    return {hero for hero, odds in zip(heroes, alone, strict=True) if helps(odds)}


def _hero_plays(
    useful: set[str], could_hold: tuple[str, ...], down: int, face_up: tuple[str, ...]
) -> list[tuple[tuple[str, ...], Fraction]]:
    """Each set of heroes the defender would play, with its chance: the useful ones among his face-up heroes and
    the `down` he holds face down (ER-8.12), those being any `down` of `could_hold`, each set as likely. He chose
    them (ER-6.10), so this is an assumption, as a hand of cards drawn is not; nobody sees which."""
    holdings = list(combinations(could_hold, down))
    played = Counter(tuple(sorted(h for h in {*held, *face_up} if h in useful)) for held in holdings)
    return [(heroes, Fraction(count, len(holdings))) for heroes, count in sorted(played.items())]


def _played_sets(useful: Mapping[str, int], others: int, size: int) -> Iterator[tuple[tuple[str, ...], Fraction]]:
    """Each set of useful cards a hand of `size` could hold, with its chance: the hand is any `size` of the unseen
    cards (`useful` by id, and `others` that he is not taken to play), each as likely (hypergeometric)."""
    hands = comb(sum(useful.values()) + others, size)
    kinds = list(useful.items())

    def sets(start: int, left: int, chosen: tuple[str, ...], ways: int) -> Iterator[tuple[tuple[str, ...], Fraction]]:
        if start == len(kinds):
            if ways * comb(others, left):
                yield chosen, Fraction(ways * comb(others, left), hands)
            return
        card, count = kinds[start]
        for n in range(min(count, left) + 1):
            yield from sets(start + 1, left - n, chosen + (card,) * n, ways * comb(count, n))

    yield from sets(0, size, (), 1)


def _units(counts: dict[str, int], elite: bool = False) -> str:
    """Units as the order language writes them (English keywords: the CoE receipt's forces read alike)."""
    parts = [f"{counts[k]} {written('en', KIND_KEYWORDS[k], RULESET)}" for k in UNIT_KINDS if counts.get(k)]
    return " ".join([*parts, written("en", "ELITE", RULESET)] if elite else parts)


def _army(army: bt.Army) -> str:
    return _units({k: army.count(k) for k in UNIT_KINDS}, army.elite is not None)


def battle_texts(battle: bt.Battle, plans: Mapping[str, Any]) -> tuple[str, str]:
    """The two sides of an odds line: the attacking army; who defends with what, a faction's army or an independent
    army (ER-8.31), and the fort (ER-2.6); each side's reinforcements (ER-8.4) and the cards its principal plays as
    `plans` (his heroes and tactics) say (ER-8.12, ER-8.13)."""
    if battle.defender is not None:
        defender = f"{battle.defender.player} {_army(battle.defender)}".rstrip()
    else:
        units = battle.independent or Units()
        defender = f"{bt.INDEPENDENT} {_units({k: units.of(k) for k in ('cavalry', 'infantry', 'archer')})}"
    texts = []
    for side, text, army in (
        (bt.ATTACKER, _army(battle.attacker), battle.attacker),
        (bt.DEFENDER, defender, battle.defender),
    ):
        for joined in battle.reinforcements:
            if joined.side == side:
                text += f" + {_army(joined.army)} {written('en', 'FROM', RULESET)} {joined.army.area}"
        plan = plans.get(army.player) if army is not None else None
        cards = [*plan.heroes, *plan.tactics] if plan is not None else []
        texts.append(text + (f" ({', '.join(cards)})" if cards else ""))
    fort = f", {battle.fort} fort" if battle.fort not in ("none", "blanked") else ""
    return texts[0], texts[1] + fort
