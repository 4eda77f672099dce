"""The odds of the battles a plan's attacks would fight (a receipt prints them), as the attacker can know them, on
the position as it stands when the orders are checked (a plan's line is taken later in the round, EAW-12.2: the
map may differ by then). Each attack on a province or sea area another player holds (EAW-7.1, EAW-8) that the
actions' checks would let through is a battle; its exact odds are odds.battle_odds', each distinct battle once.

What the attacker knows: his own hand and stack (the attack's STACK, else his standing STACK plan, else the default
stack, as the battle forms it, EAW-12.6, EAW-8.21), his standing orders (those of this mail too: they are kept
before the plan is played) and everything public. What he cannot know never shapes the figure:
- the defender's decisions and standing orders are his secret (EAW-12): the figure takes their defaults, an open
  battle for a fort (EAW-12.4), no ambush (EAW-12.5), the option's marker moves and loss order (EAW-12.7,
  EAW-12.8);
- the defender's stack is any legal stack of the largest size he could form (odds.py) from what he could hold: the
  cards of his hand everybody knows (taken face up from the display, or revealed in a battle) and the home army he
  drew unseen (EAW-3.8), which is one of the groups of his half (EAW-1.4) that fits what is public (the number of
  cards in his hand, the empire cards revealed, the groups seen in others' hands) and is not the attacker's own;
  each such group is taken as equally likely, each stack of a group too.
The rolls before a battle (a mountain or strait crossing, a sea move, EAW-7.2, EAW-7.3) are not in the figure: it
is the battle's, once fought. A battle whose stacks could be paired more than odds.MAX_CASES ways for one hand has
no line."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.vocabulary import N_, AttackOdds
from adjudicator.rulesets.empires import battle_stacks as stacks
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.data import EMPIRE, HOME_GROUPS, SEA, GameData, base_id
from adjudicator.rulesets.empires.orders import Attack, PlanLine
from adjudicator.rulesets.empires.state import GameState

if TYPE_CHECKING:
    from adjudicator.rulesets.empires.battle import MarkerPoint, StackPoint
    from adjudicator.rulesets.empires.game import EmpiresGame
    from adjudicator.rulesets.empires.odds import Plan, Side
    from adjudicator.rulesets.empires.play import Play

STACKS_LISTED = 6  # a stack question's answers given a line: the default, then the seat's best other stacks
MOST_STACK_PAIRS = 5_000  # pairs of stacks (the seat's answers by the enemy's) a stack notice ranks at most: about
# 1 s at the 0.2 ms a pair of most battles (bench/stack_questions.py)
NO_DICE = KeyedDice(key=bytes(32))  # the checks roll nothing; a fixed key keeps the figure the same at every check


def attack_odds(rules: EmpiresGame, state: GameState, seat: str, orders: Any) -> list[AttackOdds]:
    """The odds of each battle the plan's attacks (every alternative of every line) would fight, in the order
    written."""
    attacks = [
        action
        for order in getattr(orders, "orders", ())
        if isinstance(order, PlanLine)
        for action in order.alternatives
        if isinstance(action, Attack)
    ]
    if not attacks:
        return []
    from adjudicator.rulesets.empires.attack import attack_refusal
    from adjudicator.rulesets.empires.play import Play
    from adjudicator.rulesets.empires.rounds import store_orders

    position = state.copy()
    store_orders(position, seat, orders)  # the mail's own standing orders count for its sender
    play = Play(position, rules.data, rules.options_of(state), NO_DICE)
    found: dict[tuple[str, tuple[str, ...]], AttackOdds] = {}
    for attack in attacks:
        defender = position.controller(attack.target)
        if defender is None or defender == seat or attack_refusal(play, seat, attack) is not None:
            continue  # no battle (a neutral area is taken by a roll, EAW-7.4), or refused: its verdict says why
        kind = _kind(play, attack.target)
        mine, refused = chosen_stack(play, seat, kind, attack.stack)
        key = (attack.target, mine)
        if key not in found:
            line = _line(play, seat, defender, attack.target, kind, mine, refused)
            if line is not None:
                found[key] = line
    return list(found.values())


def _kind(play: Play, target: str) -> str:
    """EAW-8.20: a sea area is a naval battle; a province an open battle, its fort's siege being the defender's
    secret choice (EAW-12.4: its default, open)."""
    from adjudicator.rulesets.empires.battle_stacks import NAVAL, OPEN

    return NAVAL if play.data.map.areas[target].kind == SEA else OPEN


def own_stack(play: Play, seat: str, kind: str, given: Sequence[str], side: str = "attack") -> tuple[str, ...]:
    """EAW-12.6, EAW-8.21: the seat's stack (card ids, top first) as the battle forms it without an answer: the
    attack's stack (`given`), else the standing STACK plan of its `side`, else the default; a stack the battle
    refuses is the default."""
    return chosen_stack(play, seat, kind, given, side)[0]


def chosen_stack(
    play: Play, seat: str, kind: str, given: Sequence[str], side: str = "attack"
) -> tuple[tuple[str, ...], bool]:
    """`own_stack`, and whether a stack written (the attack's or a standing plan) is refused for the default."""
    player = play.state.players[seat]
    free = bool(play.effects_of(seat, "stack_order_free"))
    ids = tuple(base_id(c) for c in given) or standing.stack_plan(player, kind, side) or ()
    chosen = stacks.instances(player.hand, ids) if ids else None
    refused = bool(ids) and stacks.refusal(play.data, player.hand, kind, ids, free) is not None
    if chosen is None or refused:
        chosen = stacks.default(play.data, player.hand, kind, free)
    return tuple(base_id(i) for i in chosen), refused


def could_hold(data: GameData, state: GameState, seat: str, defender: str) -> list[tuple[str, ...]]:
    """The hands (card ids) `defender` could hold as `seat` can know it: his known cards and each home army of his
    half that fits what is public (EAW-1.4, EAW-3.8), never `seat`'s own."""
    from adjudicator.rulesets.empires.snapshot import known_cards

    player = state.players[defender]
    known = known_cards(player, data)
    seen = {base_id(c) for other in state.players.values() if other is not player for c in known_cards(other, data)}
    taken = {data.card(c).home_group for c in seen if data.card(c).kind == EMPIRE}
    taken.add(state.players[seat].home_group)
    hands = []
    for group in HOME_GROUPS.get(player.half or "", ()):
        army = data.home_army(group)
        shown = [c for c in known if data.card(c).kind == EMPIRE]
        if group in taken or any(c not in army for c in shown):
            continue
        hand = [*known, *(c for c in army if c not in known)]
        if len(hand) == len(player.hand):  # the number of cards in a hand is public
            hands.append(tuple(base_id(c) for c in hand))
    return hands


def _line(
    play: Play, seat: str, defender: str, target: str, kind: str, mine: tuple[str, ...], refused: bool = False
) -> AttackOdds | None:
    """The battle's receipt line: the average of the odds over the hands the defender could hold; `refused`: the
    stack written is refused, so the line names the default stack it is for (EAW-8.21)."""
    from adjudicator.rulesets.empires.odds import Plan, Side

    data, state = play.data, play.state
    own, theirs = state.players[seat], state.players[defender]
    attacker = Side(mine, True, tuple(own.personalities))
    plans = (Plan(standing.marker_plan(own), standing.loss_priority(own)), None)
    sides = [Side(hand, False, tuple(theirs.personalities)) for hand in could_hold(data, state, seat, defender)]
    figure = averaged(play, kind, [(attacker, side) for side in sides], plans)
    text = ", ".join(mine) + (" (" + N_("the default stack, EAW-8.21") + ")" if refused else "")
    return None if figure is None else AttackOdds(target, text, f"{defender} " + _held(sides), *figure)


def averaged(
    play: Play, kind: str, pairs: list[tuple[Side, Side]], plans: tuple[Plan | None, Plan | None], ambush: bool = False
) -> tuple[float, float, float] | None:
    """The attacker's chance to win and each side's army cards lost (EAW-8.7, EAW-8.8), averaged over the pairs of
    sides, each equally likely; None without a pair, or with more than odds.MAX_CASES pairs of stacks for one."""
    from adjudicator.rulesets.empires.odds import Forces, battle_odds

    try:
        each = [battle_odds(Forces(play.data, play.options, kind, *pair, ambush=ambush), plans) for pair in pairs]
    except ValueError:
        return None
    if not each:
        return None
    return (
        float(_mean([o.attacker_wins for o in each])),
        float(_mean([o.cards_lost["attacker"] for o in each])),
        float(_mean([o.cards_lost["defender"] for o in each])),
    )


def _held(sides: list[Side]) -> str:
    """What a side could stack from, as another seat knows it: one hand, or how many home armies the figure averages
    over."""
    if len(sides) == 1:  # engine texts: a reader's language translates them (render/i18n.py engine_text)
        return "(" + N_("%(cards)s cards", cards=len(sides[0].cards)) + ")"
    return (
        "(" + N_("%(cards)s cards, %(armies)s possible home armies", cards=len(sides[0].cards), armies=len(sides)) + ")"
    )


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


DECISION_CHOICES = {  # the defender's decisions before a battle, each choice as (its answer, battle type, ambush)
    "siege": (("siege", "siege", False), ("open", "open", False)),  # EAW-12.4
    "ambush": (("yes", "open", True), ("no", "open", False)),  # EAW-12.5
}


def decision_odds(rules: EmpiresGame, state: GameState, seat: str, key: str) -> list[tuple[str, AttackOdds]]:
    """The odds of the battle for each choice of a defender's siege (EAW-12.4) or ambush (EAW-12.5) decision, on
    the position before the attacker's action step, as the defender can know them: his own hand and standing orders
    (his stack: his standing STACK plan, else the default), against any stack of any hand the attacker could hold
    (could_hold: the attack's own stack is the attacker's secret), the attacker following the defaults of EAW-12."""
    from adjudicator.rulesets.empires.state import ACTION

    what, _, area = key.partition(".")
    if what not in DECISION_CHOICES or state.phase != ACTION or state.controller(area) != seat:
        return []
    from adjudicator.rulesets.empires.odds import Plan, Side
    from adjudicator.rulesets.empires.play import Play
    from adjudicator.rulesets.empires.rounds import acting

    attacker = acting(state)
    if attacker == seat:
        return []
    play = Play(state.copy(), rules.data, rules.options_of(state), NO_DICE)
    own, theirs = state.players[seat], state.players[attacker]
    plans = (None, Plan(standing.marker_plan(own), standing.loss_priority(own)))
    hands = [Side(hand, False, tuple(theirs.personalities)) for hand in could_hold(rules.data, state, seat, attacker)]
    found = []
    for answer, kind, ambush in DECISION_CHOICES[what]:
        mine = own_stack(play, seat, kind, (), "defend")
        defender = Side(mine, True, tuple(own.personalities))
        figure = averaged(play, kind, [(hand, defender) for hand in hands], plans, ambush)
        if figure is not None:
            found.append((answer, AttackOdds(area, f"{attacker} " + _held(hands), ", ".join(mine), *figure)))
    return found


def marker_odds(rules: EmpiresGame, state: GameState, seat: str, point: MarkerPoint) -> list[tuple[str, AttackOdds]]:
    """The odds of each answer to a marker question (EAW-12.7: push or pull, asked of the winner of a comparison in
    the middle of a battle): the marker moved so, then the comparisons left, with the seat's own stack and standing
    orders, against every stack the enemy could have formed (his possible hands, could_hold) that begins with the
    cards he revealed, each equally likely; the enemy's moves and losses by the defaults (EAW-12.7, EAW-12.8)."""
    from adjudicator.rulesets.empires.battle import ATTACKER_SIDE, DEFENDER_SIDE, PULL, PUSH, move_marker
    from adjudicator.rulesets.empires.battle import preferred_move as move_of
    from adjudicator.rulesets.empires.odds import Plan, Side, side_stacks, stack_odds

    data, options = rules.data, rules.options_of(state)
    enemy = point.defender if seat == point.attacker else point.attacker
    mine = point.stacks[seat]
    shown = [data.card(card).id for card in point.stacks[enemy][: point.n]]
    theirs = state.players[enemy]
    hands = could_hold(data, state, seat, enemy)
    role = "attack" if enemy == point.attacker else "defend"
    try:
        found = [
            side_stacks(data, point.kind, Side(hand, False, tuple(theirs.personalities)), Plan(), role)
            for hand in hands
        ]
    except ValueError:
        return []  # more stacks than odds.MAX_CASES
    stacks_ = [s for each in found for s in each if [data.card(c).id for c in s[: point.n]] == shown]
    if not stacks_:
        return []
    own = state.players[seat]
    moves = {seat: move_of(options, standing.marker_plan(own)), enemy: move_of(options, None)}
    losses = None
    if options.loss_selection == "owner_chooses":
        losses_of = {seat: standing.loss_priority(own), enemy: ()}
        losses = (losses_of[point.attacker], losses_of[point.defender])
    side = ATTACKER_SIDE if seat == point.attacker else DEFENDER_SIDE
    cards = len(theirs.hand)  # public (EAW-1.4), as is every card he revealed
    if len(stacks_) > 1:
        held = N_("%(cards)s cards, %(stacks)s possible stacks", cards=cards, stacks=len(stacks_))
    else:
        held = N_("%(cards)s cards", cards=cards)
    texts = {seat: ", ".join(data.card(c).id for c in mine), enemy: f"{enemy} ({held})"}
    lines = []
    for choice in (PUSH, PULL):
        moved, _ = move_marker(point.markers, side, choice)
        each = []
        for other in stacks_:
            pair = {seat: mine, enemy: other}
            each.append(
                stack_odds(
                    data,
                    point.kind,
                    (pair[point.attacker], pair[point.defender]),
                    point.bonus,
                    (moves[point.attacker], moves[point.defender]),
                    losses,
                    after=(moved, point.n),
                )
            )
        figure = (
            _mean([o.attacker_wins for o in each]),
            *(_mean([o.cards_lost[s] for o in each]) for s in ("attacker", "defender")),
        )
        lines.append(
            (choice, AttackOdds(point.target, texts[point.attacker], texts[point.defender], *map(float, figure)))
        )
    return lines


def stack_choice_odds(
    rules: EmpiresGame, state: GameState, seat: str, point: StackPoint
) -> list[tuple[str, AttackOdds]]:
    """The odds of the answers to a stack question (EAW-12.6: both seats form their stacks secretly, at once): each
    legal stack of the largest size the seat could form (odds.candidate_stacks), with its standing orders, against
    every stack of that size the enemy could form from every hand he could hold (could_hold), each equally likely,
    the enemy's marker moves and losses by the defaults (EAW-12.7, EAW-12.8). Listed: the default answer, then the
    seat's best other stacks (STACKS_LISTED in all), each named with its rank among them; the default's alone when
    ranking them all would weigh more than MOST_STACK_PAIRS pairs of stacks."""
    from adjudicator.rulesets.empires.odds import Plan, Side, candidate_stacks, side_stacks
    from adjudicator.rulesets.empires.play import Play

    data = rules.data
    attacking = seat == point.attacker
    enemy = point.defender if attacking else point.attacker
    role, enemy_role = ("attack", "defend") if attacking else ("defend", "attack")
    play = Play(state.copy(), data, rules.options_of(state), NO_DICE)
    own = state.players[seat]
    default = own_stack(play, seat, point.kind, (), role)
    free = bool(play.effects_of(seat, "stack_order_free"))
    personalities = tuple(state.players[enemy].personalities)
    hands = [Side(hand, False, personalities) for hand in could_hold(data, state, seat, enemy)]
    try:
        largest = candidate_stacks(data, own.hand, point.kind, free)
        theirs = sum(len(side_stacks(data, point.kind, hand, Plan(), enemy_role)) for hand in hands)
    except ValueError:
        return []  # more stacks than odds.MAX_CASES
    answers = list(dict.fromkeys([default, *(tuple(base_id(i) for i in stack) for stack in largest)]))
    if len(answers) * theirs > MOST_STACK_PAIRS:
        answers = [default]  # too many to rank in a notice's time: the default's figure alone
    mine = Plan(standing.marker_plan(own), standing.loss_priority(own))
    plans = (mine, None) if attacking else (None, mine)
    figures: dict[tuple[str, ...], tuple[float, float, float]] = {}
    for stack in answers:
        side = Side(stack, True, tuple(own.personalities))
        pairs = [(side, hand) if attacking else (hand, side) for hand in hands]
        figure = averaged(play, point.kind, pairs, plans, point.ambush)
        if figure is not None:
            figures[stack] = figure
    ranked = sorted(figures, key=lambda stack: _seat_rank(figures[stack], attacking, stack))
    listed = [stack for stack in ranked if stack == default] + [s for s in ranked if s != default]
    held = f"{enemy} " + _held(hands)
    lines = []
    for stack in listed[:STACKS_LISTED]:
        text = ", ".join(stack)
        if len(ranked) > 1:
            text += (
                " (" + N_("rank %(rank)s of %(stacks)s stacks", rank=ranked.index(stack) + 1, stacks=len(ranked)) + ")"
            )
        attacker_text, defender_text = (text, held) if attacking else (held, text)
        lines.append((", ".join(stack), AttackOdds(point.target, attacker_text, defender_text, *figures[stack])))
    return lines


def _seat_rank(figure: tuple[float, float, float], attacking: bool, stack: tuple[str, ...]) -> tuple[Any, ...]:
    """How good a stack's figure is for the seat, best first: its side's chance to win, then its own cards lost."""
    wins, attacker_lost, defender_lost = figure
    return (-wins, attacker_lost, stack) if attacking else (wins, defender_lost, stack)
