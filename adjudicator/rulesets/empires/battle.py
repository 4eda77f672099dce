"""Battles of Empires of the Ancient World (EAW-8, EAW-9.2, EAW-12.4 to EAW-12.8, EAW-13.6 to EAW-13.16):
`fight(play, attacker, target, attack, crossing)` is called by actions (attack.py) once an attack reaches a
province or sea area held by another player; it decides the battle type, forms the stacks, compares the cards,
applies losses, capture, plunder and the rout payment, and tells the caller whether the attacker routed the
defender (the free action of EAW-8.11, played by actions).

The battle, step by step:
1. Type (EAW-8.1, EAW-8.15, EAW-8.20): a sea area is a naval battle; a province with a fort is a siege when its
   defender chooses one (decision `siege.<area>`, EAW-12.4: answer, standing DEFEND order, default open battle);
   otherwise an open battle.
2. Ambush (EAW-8.2, EAW-12.5; open battles only: the siege and naval rules apply only EAW-8.3 onwards): a defender
   with an `ambush` effect (military leader) may lay one (decision `ambush.<area>`, default no); with option
   `ambush_scope = mountain_crossing` only when the attack crossed a mountain. Option `leader_melee_bonus`:
   `ambush` (the ambushing defender's melee cards get the leader's `card_value` n) | `always` (every melee card of
   a player with that effect, in every battle); an effect with `if = "ambush"` counts only in an ambush.
3. Stacks (EAW-12.6): the attacker's `attack.stack`, else each seat's decision `stack.<area>` (answer, standing
   STACK plan for the battle type and side, default stack; both sealed: in ask mode both are pending before any
   card is shown). A stack that breaks the rules (battle_stacks.problem) is refused as a whole and the default
   stack is used (EAW-8.21, EAW-13.13). A stack is told only to its owner.
4. Comparisons (EAW-8.4 to EAW-8.6): top cards are revealed in pairs (public), each card's die rolled as it is
   revealed, the attacker's first (EAW-8.5, EAW-0.5); the higher value wins and its owner moves a marker
   (`marker.<area>.<n>` with `marker_choice = winner_chooses`, else the standing MARKERS plan, else the option's
   order; when only one move is possible it is made). An empty position loses to any card; two empty positions
   move nothing (EAW-8.1). All three markers on one side: a rout (EAW-8.10, EAW-13.6); unrevealed cards return
   to hand unseen.
5. Winner (EAW-8.7, EAW-13.7): more markers on one's side; equal: the defender.
6. Losses (EAW-8.8, EAW-13.8, EAW-13.16): each player loses one card per marker on the opponent's side, among its
   revealed cards: random by default (one draw per loss among the revealed cards not yet picked, the attacker's
   first; one candidate draws nothing), or `loss_selection = owner_chooses` (decision `losses.<area>`, standing
   LOSSES order, default EAW-12.8). An empire card picked absorbs the loss and stays in hand; an army card goes
   to the discards. Losses beyond the revealed cards are ignored.
7. Attacker wins (EAW-8.9, EAW-13.11): the defender's markers return to its stock, one attacker marker is placed;
   a fort stays when the attacker has a `capture_fort` effect (engineer), else it returns to its owner's stock.
   Plunder (EAW-8.13, EAW-13.15): every trade marker of another player in the area goes to the attacker's
   plunder (kept apart, by owner; whether it can be spent is option `plunder_spendable`, read where markers are
   spent, EAW-13.25).
8. Defender wins (EAW-8.12): nothing changes on the map; a defender who routed the attacker takes up to 2 of the
   attacker's own warehouse markers into its plunder (EAW-8.11, EAW-13.10).

Events (data keys; public unless marked private):
- `battle_begins` (seat: attacker): defender, area, battle (open|siege|naval), rule
- `siege_chosen` (seat: defender): area, siege (bool), rule EAW-12.4
- `ambush_laid` (seat: defender): area, bonus, rule EAW-8.2
- `stack_refused` (seat): area, rule EAW-8.21; private `stack_refused_reason` (seat): reason, rule
- `stacks_formed`: area, sizes {seat: n}, rule EAW-8.1; private `stack_formed` (seat): cards (ids, top first),
  source (orders|decision|default: refused, EAW-8.21), rule
- `card_revealed` (seat): card (id), n (the comparison), rule EAW-8.4
- `roll` (play.py): purpose "card <id>", value, rule EAW-8.5
- `comparison`: n, values {seat: value or None}, winner (seat or None), rule EAW-8.4
- `marker_moved` (seat: winner): n, move (push|pull), markers (attacker side -1, centre 0, defender side 1), rule
- `routed` (seat: the routed player): by, n, rule EAW-8.10
- `cards_returned` private (seat): cards; `stack_unrevealed` (seat): count, rule EAW-8.10
- `battle_won` (seat: winner): loser, area, markers {seat: n on its side}, rule EAW-8.7
- `card_lost` (seat): card, rule EAW-8.8; `loss_absorbed` (seat): card (an empire card), rule EAW-8.8;
  `losses_ignored` (seat): count, rule EAW-8.8
- `area_captured` (seat: attacker): area, defender, markers (removed), rule EAW-8.9
- `fort_captured` (seat: attacker) / `fort_destroyed` (seat: the fort's owner): area, rule EAW-8.9
- `plundered` (seat: attacker): area, taken {owner: n}, rule EAW-8.13
- `rout_payment` (seat: defender): payer, markers, rule EAW-8.11
- `defence_held` (seat: defender): area, rule EAW-8.12
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Final

from adjudicator.engine.decisions import BadAnswer
from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.empires import battle_stacks as stacks
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.battle_stacks import NAVAL, OPEN, RULE_OF, SIEGE
from adjudicator.rulesets.empires.data import (
    BATTLE_MARKERS,
    EMPIRE,
    MOUNTAIN,
    Card,
    Effect,
    GameData,
    Options,
    base_id,
)
from adjudicator.rulesets.empires.orders import Attack
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import Control

ATTACK, DEFEND = "attack", "defend"  # the sides of a standing STACK plan (orders.SIDES)
ATTACKER_SIDE, CENTRE, DEFENDER_SIDE = -1, 0, 1  # where a combat marker lies (EAW-8.3)
PUSH, PULL = "push", "pull"  # EAW-8.4, EAW-12.7
ROUT_PAYMENT: Final = 2  # EAW-8.11


@dataclass(frozen=True)
class BattleOutcome:
    """What a battle came to. `rout_by_attacker`: the attacker routed the defender, so the free action of EAW-8.11
    is due (actions plays it); `routed`: the seat routed, or None."""

    kind: str  # OPEN | SIEGE | NAVAL
    attacker: str
    defender: str
    area: str
    winner: str
    routed: str | None
    markers: tuple[int, ...]
    lost: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # cards discarded, by seat
    absorbed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # empire cards that took a loss
    captured: bool = False

    @property
    def rout_by_attacker(self) -> bool:
        return self.routed == self.defender

    @property
    def loser(self) -> str:
        return self.defender if self.winner == self.attacker else self.attacker


# -- the pure parts, shared with odds.py ------------------------------------------------------------------------
def card_value(kind: str, card: Card | None, opposing: Card | None, roll: int | None, bonus: int) -> int | None:
    """EAW-8.5: the value of `card` against `opposing` (None: an empty position); for artillery at sea every
    opposing card counts as a galley (EAW-8.20); `bonus` is added to a melee card (EAW-8.2)."""
    if card is None:
        return None
    category = None if opposing is None else opposing.category
    if kind == NAVAL and card.category == "artillery" and opposing is not None:
        category = "galley"
    return card.value_against(category, roll) + (bonus if card.melee else 0)


def beats(mine: int | None, theirs: int | None) -> bool:
    """EAW-8.4: the higher card wins; an empty position loses to any card (EAW-8.1)."""
    if mine is None:
        return False
    return theirs is None or mine > theirs


def move_marker(markers: tuple[int, ...], side: int, choice: str) -> tuple[tuple[int, ...], str]:
    """EAW-8.4: the winner on `side` pushes a centre marker to its side or pulls one of the opponent's back to the
    centre, as `choice` says when both can be done; the move made."""
    can_push, can_pull = CENTRE in markers, -side in markers
    move = PUSH if (choice == PUSH and can_push) or not can_pull else PULL
    found = list(markers)
    if move == PUSH:
        found[found.index(CENTRE)] = side
    else:
        found[found.index(-side)] = CENTRE
    return tuple(found), move


def preferred_move(options: Options, plan: str | None) -> str:
    """EAW-8.4, EAW-12.7: the standing MARKERS plan, else the option's order (winner_chooses defaults to push)."""
    if plan in (PUSH, PULL):
        return plan
    return PULL if options.marker_choice == "pull_first" else PUSH


def melee_bonus(options: Options, effects: Sequence[Effect], is_defender: bool, ambush: bool) -> int:
    """EAW-8.2, EAW-11.6: what a player's melee cards get from its `card_value` effects (a military leader's): by
    the option `leader_melee_bonus` (`ambush`: the ambushing defender's; `always`: in every battle); an effect with
    `if = "ambush"` only in the defender's ambush, whatever the option."""
    in_ambush = is_defender and ambush
    total = 0
    for effect in effects:
        if effect.args.get("if") == "ambush":
            total += effect.number() if in_ambush else 0
        elif options.leader_melee_bonus == "always" or in_ambush:
            total += effect.number()
    return total


def losses_owed(markers: Sequence[int]) -> tuple[int, int]:
    """EAW-8.8: (attacker's losses, defender's losses): the markers on the opponent's side."""
    return markers.count(DEFENDER_SIDE), markers.count(ATTACKER_SIDE)


def loss_order(data: GameData, cards: Sequence[str], priority: Sequence[str] = ()) -> list[str]:
    """EAW-12.8: the order `cards` (revealed instances) are given up in: the ids of `priority` first, then empire
    cards (they are kept), then army cards of lowest value."""
    left = list(cards)
    chosen: list[str] = []
    for card_id in priority:
        match = next((i for i in left if base_id(i) == base_id(card_id)), None)
        if match is not None:
            left.remove(match)
            chosen.append(match)
    rest = sorted(left, key=lambda i: (data.card(i).kind != EMPIRE, data.card(i).value, base_id(i), i))
    return chosen + rest


# -- the battle -------------------------------------------------------------------------------------------------
def fight(play: Play, attacker: str, target: str, attack: Attack, crossing: frozenset[str]) -> BattleOutcome:
    """EAW-8: the battle for `target` between `attacker` and the seat that controls it."""
    state = play.state
    defender = state.controller(target)
    if defender is None or defender == attacker:
        raise ValueError(f"no battle for {target}: it is not held by another player (EAW-7.4)")
    kind = _kind(play, defender, target)
    play.say("battle_begins", attacker, defender=defender, area=target, battle=kind, rule=RULE_OF[kind])
    ambush = kind == OPEN and _ambush(play, defender, target, crossing)
    bonus = {
        attacker: melee_bonus(play.options, play.effects_of(attacker, "card_value"), False, ambush),
        defender: melee_bonus(play.options, play.effects_of(defender, "card_value"), True, ambush),
    }
    if ambush:
        play.say("ambush_laid", defender, area=target, bonus=bonus[defender], rule="EAW-8.2")
    point = partial(StackPoint, target, kind, attacker, defender, ambush)
    formed = {
        attacker: _stack(play, attacker, ATTACK, kind, target, attack.stack, point),
        defender: _stack(play, defender, DEFEND, kind, target, (), point),
    }
    play.say("stacks_formed", None, area=target, sizes={s: len(c) for s, c in formed.items()}, rule=RULE_OF[kind])
    markers, revealed, routed = _comparisons(play, attacker, defender, target, kind, formed, bonus)
    for seat in (attacker, defender):
        rest = formed[seat][len(revealed[seat]) :]
        if rest:  # EAW-8.10: back to hand, never shown
            play.tell(seat, "cards_returned", seat, cards=[base_id(i) for i in rest], rule="EAW-8.10")
            play.say("stack_unrevealed", seat, count=len(rest), rule="EAW-8.10")
    on_side = {attacker: markers.count(ATTACKER_SIDE), defender: markers.count(DEFENDER_SIDE)}
    winner = attacker if on_side[attacker] > on_side[defender] else defender  # EAW-8.7: equal, the defender
    loser = defender if winner == attacker else attacker
    play.say("battle_won", winner, loser=loser, area=target, markers=on_side, rule="EAW-8.7")
    owed = dict(zip((attacker, defender), losses_owed(markers), strict=True))
    lost, absorbed = _losses(play, target, owed, revealed)
    captured = False
    if winner == attacker:
        _capture(play, attacker, defender, target)
        captured = True
    else:
        play.say("defence_held", defender, area=target, rule="EAW-8.12")
        if routed == attacker:
            _rout_payment(play, attacker, defender)
    return BattleOutcome(kind, attacker, defender, target, winner, routed, markers, lost, absorbed, captured)


def _kind(play: Play, defender: str, target: str) -> str:
    """EAW-8.1, EAW-8.15, EAW-8.20, EAW-12.4: the battle type; the defender of a fort chooses."""
    area = play.data.map.areas[target]
    if area.is_sea:
        return NAVAL
    if target not in play.state.forts:
        return OPEN
    plan = standing.defends_with_siege(play.state.players[defender], target)
    choice = play.decide(
        defender,
        f"siege.{target}",
        N_("%(area)s is attacked: defend its fort in a siege, or fight an open battle?", area=area.name),
        "EAW-12.4",
        default="open",
        standing=None if plan is None else ("siege" if plan else "open"),
        choices=("siege", "open"),
    )
    siege = choice == "siege"
    play.say("siege_chosen", defender, area=target, siege=siege, rule="EAW-12.4")
    return SIEGE if siege else OPEN


def _ambush(play: Play, defender: str, target: str, crossing: frozenset[str]) -> bool:
    """EAW-8.2, EAW-12.5: whether the defender lays an ambush (it needs an `ambush` effect: a military leader)."""
    if not play.effects_of(defender, "ambush"):
        return False
    if play.options.ambush_scope == "mountain_crossing" and MOUNTAIN not in crossing:
        return False
    plan = standing.lays_ambush(play.state.players[defender], target)
    choice = play.decide(
        defender,
        f"ambush.{target}",
        N_("%(area)s is attacked: lay an ambush with your military leader?", area=play.data.map.areas[target].name),
        "EAW-12.5",
        default="no",
        standing=None if plan is None else ("yes" if plan else "no"),
        choices=("yes", "no"),
    )
    return choice == "yes"


@dataclass(frozen=True)
class StackPoint:
    """Where a stack question arose (EAW-12.6: asked of both seats at once, before any card is shown), for the odds
    of its answers (attack_odds.stack_choice_odds): the battle, its type and whether the defender lies in ambush."""

    target: str
    kind: str
    attacker: str
    defender: str
    ambush: bool


def _stack(
    play: Play,
    seat: str,
    side: str,
    kind: str,
    target: str,
    given: tuple[str, ...],
    point: Callable[[], StackPoint] | None = None,
) -> tuple[str, ...]:
    """EAW-12.6, EAW-8.21: the seat's stack (instances, top first): its order, else its decision; refused as a whole
    when it breaks the battle's restrictions, the default stack taking its place. `point`: makes what a question
    keeps (made only for one asked)."""
    data = play.data
    player = play.state.players[seat]
    free = bool(play.effects_of(seat, "stack_order_free"))
    fallback = stacks.default(data, player.hand, kind, free)
    source = "orders"
    ids: tuple[str, ...] = tuple(base_id(c) for c in given)
    if not ids:
        source = "decision"

        def read(text: str) -> tuple[str, ...]:
            try:
                return stacks.read_cards(data, text)
            except ValueError as bad:
                raise BadAnswer(str(bad)) from bad

        ids = play.decide(
            seat,
            f"stack.{target}",
            stack_question(kind, data.map.areas[target].name),
            "EAW-12.6",
            default=tuple(base_id(i) for i in fallback),
            standing=standing.stack_plan(player, kind, side),
            read=read,
            show=", ".join,
            position=point,
        )
    chosen = stacks.instances(player.hand, ids)
    reason = stacks.refusal(data, player.hand, kind, ids, free)
    if chosen is None or reason is not None:
        play.say("stack_refused", seat, area=target, rule="EAW-8.21")
        play.tell(seat, "stack_refused_reason", seat, reason=reason, rule="EAW-8.21")
        chosen = fallback
        source = "default"
    play.tell(seat, "stack_formed", seat, cards=[base_id(i) for i in chosen], source=source, rule="EAW-12.6")
    return chosen


def _comparisons(
    play: Play,
    attacker: str,
    defender: str,
    target: str,
    kind: str,
    formed: Mapping[str, tuple[str, ...]],
    bonus: Mapping[str, int],
) -> tuple[tuple[int, ...], dict[str, list[str]], str | None]:
    """EAW-8.4 to EAW-8.6, EAW-8.10: the cards compared pair by pair; the markers, the revealed cards, the routed."""
    data = play.data
    markers: tuple[int, ...] = (CENTRE,) * BATTLE_MARKERS
    revealed: dict[str, list[str]] = {attacker: [], defender: []}
    sides = {attacker: ATTACKER_SIDE, defender: DEFENDER_SIDE}
    rounds = max(len(formed[attacker]), len(formed[defender]))
    for n in range(1, rounds + 1):
        shown: dict[str, Card | None] = {}
        for seat in (attacker, defender):
            stack = formed[seat]
            instance = stack[n - 1] if n <= len(stack) else None
            shown[seat] = None if instance is None else data.card(instance)
            if instance is not None:
                revealed[seat].append(instance)
                seen = play.state.players[seat].revealed  # public from now on: everybody saw it (EAW-8.4)
                if instance not in seen:
                    seen.append(instance)
                play.say("card_revealed", seat, card=base_id(instance), instance=instance, n=n, rule="EAW-8.4")
        rolls: dict[str, int | None] = {}
        for seat in (attacker, defender):  # EAW-0.5: the attacker's die first
            card = shown[seat]
            rolls[seat] = play.roll(f"card {card.id}", "EAW-8.5", seat) if card is not None and card.rolls else None
        values = {
            seat: card_value(kind, shown[seat], shown[other], rolls[seat], bonus[seat])
            for seat, other in ((attacker, defender), (defender, attacker))
        }
        winner = next((s for s, o in ((attacker, defender), (defender, attacker)) if beats(values[s], values[o])), None)
        play.say("comparison", None, n=n, values=values, winner=winner, rule="EAW-8.4")
        if winner is None:
            continue
        side = sides[winner]
        point = partial(
            MarkerPoint, target, kind, attacker, defender, formed, n, markers, (bonus[attacker], bonus[defender])
        )
        choice = _marker_choice(play, winner, target, n, markers, side, point)
        markers, move = move_marker(markers, side, choice)
        play.say("marker_moved", winner, n=n, move=move, markers=list(markers), rule="EAW-8.4")
        if all(m == side for m in markers):
            routed = defender if winner == attacker else attacker
            play.say("routed", routed, by=winner, n=n, rule="EAW-8.10")
            return markers, revealed, routed
    return markers, revealed, None


@dataclass(frozen=True)
class MarkerPoint:
    """Where a marker question arose (EAW-12.7), for the odds of its answers (attack_odds.marker_odds): the battle,
    both stacks as formed (the figure reads of the enemy's only the cards revealed), the comparison won, the markers
    before its move, and each side's melee bonus (EAW-8.2)."""

    target: str
    kind: str
    attacker: str
    defender: str
    stacks: Mapping[str, tuple[str, ...]]
    n: int
    markers: tuple[int, ...]
    bonus: tuple[int, int]


def _marker_choice(
    play: Play, winner: str, target: str, n: int, markers: tuple[int, ...], side: int, point: Callable[[], MarkerPoint]
) -> str:
    """EAW-8.4, EAW-12.7: push or pull; asked only when both can be done and the option lets the winner choose.
    `point`: makes what a question keeps (made only for one asked)."""
    plan = standing.marker_plan(play.state.players[winner])
    if not (CENTRE in markers and -side in markers):
        return preferred_move(play.options, plan)
    if play.options.marker_choice != "winner_chooses":
        return preferred_move(play.options, plan)
    return play.decide(
        winner,
        f"marker.{target}.{n}",
        N_("You won comparison %(n)s: push a centre marker to your side, or pull one back from the other side?", n=n),
        "EAW-12.7",
        default=PUSH,
        standing=plan if plan in (PUSH, PULL) else None,
        choices=(PUSH, PULL),
        position=point,
    )


def _losses(
    play: Play, target: str, owed: Mapping[str, int], revealed: Mapping[str, list[str]]
) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """EAW-8.8, EAW-13.8, EAW-13.16: each player's losses among its revealed cards, the attacker's first."""
    data, state = play.data, play.state
    lost: dict[str, tuple[str, ...]] = {}
    absorbed: dict[str, tuple[str, ...]] = {}
    for seat, count in owed.items():
        cards = revealed[seat]
        taken = min(count, len(cards))
        if count > taken:
            play.say("losses_ignored", seat, count=count - taken, rule="EAW-8.8")
        picked = _picks(play, seat, target, cards, taken)
        player = state.players[seat]
        for instance in picked:
            if data.card(instance).kind == EMPIRE:  # EAW-8.8: it counts as a loss and stays
                play.say("loss_absorbed", seat, card=base_id(instance), rule="EAW-8.8")
                continue
            player.hand.remove(instance)
            state.discards.append(instance)
            play.say("card_lost", seat, card=base_id(instance), rule="EAW-8.8")
        lost[seat] = tuple(i for i in picked if data.card(i).kind != EMPIRE)
        absorbed[seat] = tuple(i for i in picked if data.card(i).kind == EMPIRE)
    return lost, absorbed


def _picks(play: Play, seat: str, target: str, cards: list[str], count: int) -> list[str]:
    """EAW-8.8: which revealed cards take the losses: random draws, or the owner's choice (EAW-12.8)."""
    if count == 0:
        return []
    if play.options.loss_selection != "owner_chooses":
        left, picked = list(cards), []
        for k in range(1, count + 1):
            chosen = play.pick(f"loss {seat} {k}/{count}", left)
            left.remove(chosen)
            picked.append(chosen)
        return picked
    data = play.data
    plan = standing.loss_priority(play.state.players[seat])

    def read(text: str) -> tuple[str, ...]:
        try:
            return stacks.read_cards(data, text)
        except ValueError as bad:
            raise BadAnswer(str(bad)) from bad

    default = tuple(base_id(i) for i in loss_order(data, cards))
    order = play.decide(
        seat,
        f"losses.{target}",
        # the text is stored in English: its own msgid for one card, so that every language says it in the singular
        N_("You lose one card of your revealed stack: which?")
        if count == 1
        else N_("You lose %(n)s cards of your revealed stack: which, in order?", n=count),
        "EAW-12.8",
        default=default,
        standing=plan or None,
        read=read,
        show=", ".join,
    )
    return loss_order(data, cards, order)[:count]


def _capture(play: Play, attacker: str, defender: str, target: str) -> None:
    """EAW-8.9, EAW-13.11, EAW-8.13, EAW-13.15: the attacker takes the area, the fort and the plunder."""
    state = play.state
    removed = state.control.pop(target)
    loser = state.players[defender]
    if loser.stock_control is not None:
        loser.stock_control += removed.markers
    state.control[target] = Control(attacker, 1)
    winner = state.players[attacker]
    if winner.stock_control is not None:
        winner.stock_control = max(0, winner.stock_control - 1)
    play.say("area_captured", attacker, area=target, defender=defender, markers=removed.markers, rule="EAW-8.9")
    if target in state.forts:
        if play.effects_of(attacker, "capture_fort"):
            play.say("fort_captured", attacker, area=target, rule="EAW-8.9")
        else:
            owner = state.forts.pop(target)
            builder = state.players.get(owner)
            if builder is not None and builder.stock_forts is not None:
                builder.stock_forts += 1
            play.say("fort_destroyed", owner, area=target, rule="EAW-8.9")
    here = state.trade.get(target, {})
    taken = {seat: n for seat, n in sorted(here.items()) if seat != attacker and n > 0}
    for seat, n in taken.items():
        winner.plunder[seat] = winner.plunder.get(seat, 0) + n
        del here[seat]
    if target in state.trade and not state.trade[target]:
        del state.trade[target]
    if taken:
        play.say("plundered", attacker, area=target, taken=taken, rule="EAW-8.13")


def _rout_payment(play: Play, attacker: str, defender: str) -> None:
    """EAW-8.11, EAW-13.10: the routed attacker pays up to 2 of its own warehouse markers to the defender."""
    payer, taker = play.state.players[attacker], play.state.players[defender]
    paid = min(ROUT_PAYMENT, payer.warehouse)
    payer.warehouse -= paid
    if paid:
        taker.plunder[attacker] = taker.plunder.get(attacker, 0) + paid
    play.say("rout_payment", defender, payer=attacker, markers=paid, rule="EAW-8.11")


def stack_question(kind: str, area: str) -> str:
    """EAW-12.6: the question of a battle's stack, one text per battle type (EAW-9.2) so that each translates whole."""
    if kind == SIEGE:
        return N_("Your stack for the siege of %(area)s: cards top first", area=area)
    if kind == NAVAL:
        return N_("Your stack for the naval battle for %(area)s: cards top first", area=area)
    return N_("Your stack for the open battle for %(area)s: cards top first", area=area)
