"""The game round (EAW-4): which step is due, the steps to the end of the round, the sealed plans step and the
action steps.

Steps: the deal (setup, no seats), the sealed placement; then per game round: revolt (no seats: EAW-5, EAW-6), the
sealed plans step, one action step per (action round, seat in action order from the start player, EAW-4.2), and
after rounds II to IV (and round I with upkeep_timing = every_round) the scoring (no seats, EAW-4.4, EAW-10). An
action step has no seats when the seat's plan has a line left, or when it sent no orders in the plans step (it
takes the EAW-12.2 default); otherwise the game waits for that seat's mail (its first line is this action, the rest
its new plan).

Events (data keys; `rule` in each):
- `plans_received`: seats (those that sent orders to the plans step) (EAW-4.2)
- `plan_kept` seat, private: lines (how many actions the plan holds)
- `action_turn` seat: round, action_round, source ("plan" | "orders" | "default") (EAW-4.2)
- `plan_ran_out` seat, private: actions_left (the seat's actions left in the round; its next mail is awaited)
- `round_begins`: round, action_rounds (EAW-4.1, EAW-4.3)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from adjudicator.engine.steps import Step
from adjudicator.engine.vocabulary import N_, OrderResult
from adjudicator.errors import PbemError
from adjudicator.orders.sets import Answer, Language, OrderSet, Press
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.data import GAME_ROUNDS, SCORED_ROUNDS, Options
from adjudicator.rulesets.empires.orders import STANDING_ORDERS, PlanLine, StackOrder
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import (
    ACTION,
    DEAL,
    ENDED,
    PLACEMENT,
    PLANS,
    REVOLT,
    SCORING,
    GameState,
)


def scored(game_round: int, options: Options) -> bool:
    """EAW-4.4, EAW-10.2: a scoring after rounds II to IV; after round I only for upkeep (EAW-10.5 every_round)."""
    return game_round in SCORED_ROUNDS or (game_round == 1 and options.upkeep_timing == "every_round")


def due(state: GameState) -> Step | None:
    """The step due in `state` (None when the game has ended, EAW-10.8)."""
    number = state.steps_done + 1
    if state.phase == ENDED:
        return None
    if state.phase in (PLACEMENT, PLANS):
        return Step(number, state.phase, tuple(state.seats), sealed=True)
    if state.phase == ACTION:
        seat = acting(state)
        return Step(number, ACTION, (seat,) if state.waits_for(seat) else ())
    return Step(number, state.phase, ())


def acting(state: GameState) -> str:
    """The seat whose action is due (EAW-4.2)."""
    return state.action_order()[state.turn]


def steps_of_round(state: GameState, options: Options) -> list[Step]:
    """The steps from the one due to the end of the game round (or of the setup). Action steps are foreseen from the
    plans as they stand: a seat waits where its plan runs out, once (its next mail is taken to last the round); in
    the plans phase, before any plan is in, no action step is foreseen to wait."""
    step = due(state)
    if step is None:
        return []
    if state.phase in (DEAL, PLACEMENT):
        return (
            [step] if state.phase == PLACEMENT else [step, Step(step.number + 1, PLACEMENT, tuple(state.seats), True)]
        )
    steps = [step]
    number = step.number
    if state.phase == REVOLT:
        number += 1
        steps.append(Step(number, PLANS, tuple(state.seats), sealed=True))
    if state.phase in (REVOLT, PLANS):
        left = {seat: None for seat in state.seats}  # unknown plans: taken to last
        first = (1, 0)
    elif state.phase == ACTION:
        left = {seat: len(p.plan) if p.planned else None for seat, p in state.players.items()}
        seat, current = acting(state), left[acting(state)]
        left[seat] = None if step.seats or current is None else max(current - 1, 0)
        first = _next_turn(state, state.action_round, state.turn)
    else:
        first = None
    if state.phase != SCORING and first is not None:
        action_round, turn = first
        order = state.action_order()
        while action_round <= options.action_rounds(state.round):
            seat = order[turn]
            remaining = left[seat]
            number += 1
            if remaining == 0:
                steps.append(Step(number, ACTION, (seat,)))
                left[seat] = None
            else:
                steps.append(Step(number, ACTION, ()))
                left[seat] = None if remaining is None else remaining - 1
            action_round, turn = _next_turn(state, action_round, turn)
        if scored(state.round, options):
            steps.append(Step(number + 1, SCORING, ()))
    return steps


def _next_turn(state: GameState, action_round: int, turn: int) -> tuple[int, int]:
    return (action_round, turn + 1) if turn + 1 < len(state.seats) else (action_round + 1, 0)


def next_steps(state: GameState, options: Options) -> dict[str, int]:
    """Each seat -> the next step it orders in: its step left in this round, else the plans step of the next round
    (after revolt), unless the game ends with this round (EAW-10.8)."""
    steps = steps_of_round(state, options)
    found: dict[str, int] = {}
    for step in steps:
        for seat in step.seats:
            found.setdefault(seat, step.number)
    if steps and state.round < GAME_ROUNDS:
        for seat in state.seats:
            found.setdefault(seat, steps[-1].number + 2)  # the next round's revolt, then its plans
    return found


# -- the plans step ---------------------------------------------------------------------------------------------


def check_lines(play: Play, seat: str, orders: OrderSet | None) -> list[OrderResult]:
    """The receipt of a plans mail: each plan line checked as the position stands (checks.py of the actions), each
    standing battle plan kept."""
    results: list[OrderResult] = []
    for order in orders.orders if orders is not None else ():
        if isinstance(order, PlanLine):
            results.append(check_line(play, seat, order))
        elif isinstance(order, STANDING_ORDERS):
            results.append(OrderResult(order.line, order.text, True, kept_note(play, seat, order), "EAW-12"))
        elif isinstance(order, (Answer, Press, Language)):
            continue
        else:
            reason = N_("not an order of this step: send one action a line (EAW-7) or standing battle plans")
            results.append(OrderResult(order.line, order.text, False, reason, "EAW-12.2"))
    return results


def kept_note(play: Play, seat: str, order: object) -> str:
    """A standing order's verdict: kept; for a STACK plan a battle would refuse with the hand as it stands, why, and
    that the default stack would fight (EAW-8.21)."""
    kept = N_("kept as a standing order")
    if not isinstance(order, StackOrder):
        return kept
    player = copy.deepcopy(play.state.players[seat])
    standing.store(player, order)  # as it will stand once kept
    why = standing.stack_refusal(play.data, player, order, bool(play.effects_of(seat, "stack_order_free")))
    if why is None:
        return kept
    return N_(
        "%(kept)s; as your hand stands now a battle would refuse it: %(why)s; the default stack would fight (EAW-8.21)",
        kept=kept,
        why=why,
    )


def check_line(play: Play, seat: str, line: PlanLine) -> OrderResult:
    """checks.check_plan_line of the actions; a line that reads is accepted until that module is built."""
    try:
        from adjudicator.rulesets.empires import checks
    except ImportError:
        note = N_("kept in your plan; it is judged when its turn comes (EAW-12.2)")
        return OrderResult(line.line, line.text, True, note, "EAW-12.2")
    result: OrderResult = checks.check_plan_line(play, seat, line)
    return result


def store_orders(state: GameState, seat: str, orders: OrderSet | None) -> list[PlanLine]:
    """Keep the standing battle plans of a mail (standing.store) and return its plan lines in order."""
    lines: list[PlanLine] = []
    for order in orders.orders if orders is not None else ():
        if isinstance(order, PlanLine):
            lines.append(order)
        else:
            standing.store(state.players[seat], order)
    return lines


def play_plans(play: Play, orders: Mapping[str, OrderSet | None]) -> dict[str, list[OrderResult]]:
    """The sealed plans step: each seat's plan replaces its plan (PlanLine JSON), its standing plans are kept; a
    seat that sent nothing takes the EAW-12.2 default for each action. The action rounds begin (EAW-4.2)."""
    state = play.state
    verdicts = {seat: check_lines(play, seat, orders.get(seat)) for seat in state.seats}
    sent = [seat for seat in state.seats if orders.get(seat) is not None]
    for seat in state.seats:
        player = state.players[seat]
        lines = store_orders(state, seat, orders.get(seat))
        player.plan = [line.to_json() for line in lines]
        player.planned = seat in sent
        if player.planned:
            play.tell(seat, "plan_kept", seat, lines=len(lines), rule="EAW-12.2")
    play.say("plans_received", None, seats=sent, rule="EAW-4.2")
    state.phase, state.action_round, state.turn = ACTION, 1, 0
    if play.options.action_rounds(state.round) < 1:  # an option leaving a round without actions (EAW-4.3)
        end_of_actions(state, play.options)
    return verdicts


# -- an action step ---------------------------------------------------------------------------------------------


def take_action(play: Play, seat: str, line: PlanLine | None) -> None:
    """actions.take_action of the actions engineer: one action (None: the EAW-12.2 default)."""
    try:
        from adjudicator.rulesets.empires import actions
    except ImportError:
        raise PbemError("empires-aw: the actions (EAW-7) are not built yet") from None
    actions.take_action(play, seat, line)


def play_action(play: Play, step: Step, orders: Mapping[str, OrderSet | None]) -> dict[str, list[OrderResult]]:
    """One seat's action (EAW-4.2): the next line of its plan; in a step that waited for it, the first line of its
    mail (the rest become its plan); none: the EAW-12.2 default. Then the next turn."""
    state = play.state
    seat = acting(state)
    player = state.players[seat]
    verdicts: dict[str, list[OrderResult]] = {}
    line: PlanLine | None = None
    source = "default"
    if step.seats:
        sent = orders.get(seat)
        verdicts[seat] = check_lines(play, seat, sent)
        lines = store_orders(state, seat, sent)
        if lines:
            line, source = lines[0], "orders"
            player.plan = [later.to_json() for later in lines[1:]]
    elif player.plan:
        line, source = PlanLine.from_json(player.plan.pop(0)), "plan"
    play.say("action_turn", seat, round=state.round, action_round=state.action_round, source=source, rule="EAW-4.2")
    take_action(play, seat, line)
    player.actions_taken += 1
    left = play.options.action_rounds(state.round) - player.actions_taken
    if player.planned and not player.plan and left > 0 and source != "default":
        play.tell(seat, "plan_ran_out", seat, actions_left=left, rule="EAW-12.2")
    advance(state, play.options)
    return verdicts


def advance(state: GameState, options: Options) -> None:
    """The next seat's turn; after the last action round, the scoring (EAW-4.4) or the next game round."""
    state.turn += 1
    if state.turn < len(state.seats):
        return
    state.turn, state.action_round = 0, state.action_round + 1
    if state.action_round > options.action_rounds(state.round):
        end_of_actions(state, options)


def end_of_actions(state: GameState, options: Options) -> None:
    """After the round's last action: the scoring (EAW-4.4) or the next game round."""
    for player in state.players.values():  # a plan holds for its round only
        player.plan, player.planned = [], False
    if scored(state.round, options):
        state.phase = SCORING
    else:
        next_round(state)


def next_round(state: GameState) -> None:
    """After round IV's scoring the game has ended (EAW-10.8); else the next round begins with its revolt check."""
    if state.round >= GAME_ROUNDS:
        state.phase = ENDED
        return
    state.round += 1
    state.phase, state.action_round, state.turn = REVOLT, 0, 0
    for player in state.players.values():
        player.actions_taken = 0


def round_begins(play: Play) -> None:
    """EAW-4.1, EAW-4.3: the round's number and its action rounds, as its revolt step begins."""
    play.say(
        "round_begins",
        None,
        round=play.state.round,
        action_rounds=play.options.action_rounds(play.state.round),
        rule="EAW-4.3",
    )
