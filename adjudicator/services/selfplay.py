"""Self-play (`pbem selfplay`): a ruleset's bot (the Ruleset protocol's optional member `bot`, engine/protocol.py
Bot) plays a new game through the moderator's operations, as players' mails would: new_game, then at each step
every ordering seat's orders are submitted with its password and the step is adjudicated, in one transaction
(reports and snapshot written after it); a step that waits for decisions gets the bot's answers. The ruleset's
invariants are checked after every step, and the archive is verified by replay at the end. Any ruleset with a bot
plays, sealed steps included.

The dice are the game's own secret stream; only the bot's orders depend on the seed. Self-play games are never
ticked or mailed."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.decisions import Question
from adjudicator.engine.protocol import Bot
from adjudicator.errors import PbemError
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.adjudication import Adjudication, adjudicate
from adjudicator.services.frozen import objects_made_frozen
from adjudicator.services.game_reads import due_turns
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import answer
from adjudicator.services.positions import stored_state
from adjudicator.services.verification import verify

if TYPE_CHECKING:
    from adjudicator.archive import Archive
    from adjudicator.archive.models import DecisionRow, TurnRow

ANSWER_ROUNDS = 50  # answers given to one step before self-play gives up on it (each round asks new decisions)


@dataclass
class SelfPlayStep:
    """One step of a self-play game as the archive stored it."""

    number: int
    seat: str  # the seat that ordered; the seats of a sealed step joined by ", "; "" when nobody orders
    orders: str
    accepted: int
    rejected: int
    battles: int  # the events of the kinds the bot counts as battles
    state: Any  # the position after the step
    events: tuple[str, ...] = ()  # the kinds of the step's events, in order


def bot_of(ruleset: Ruleset) -> Bot:
    """The ruleset's bot, or a clear refusal."""
    bot: Bot | None = ruleset.bot
    if bot is None:
        raise PbemError(f"{ruleset.name} has no bot: `pbem selfplay` plays only rulesets that have one")
    return bot


def playable(
    ruleset: Ruleset, game_data: Path | None = None, mode: str | None = None, options: dict[str, str] | None = None
) -> tuple[Ruleset, Path | None]:
    """A ruleset that plays with a game's data (`takes_game_data`, e.g. conqueror-er) bound to the folder
    `game_data`, or to its example data when none is given, with the game `options`; with that folder. Other
    rulesets as they are."""
    member, folder = ruleset.game_data, game_data or ruleset.example_data
    if member is None or folder is None:
        return ruleset, None
    return ruleset.with_game_data(member.files(folder), mode, options), folder


def selfplay_seats(ruleset: Ruleset, count: int) -> list[str]:
    """The seats of a self-play game of `count` players (a ValueError naming the counts the ruleset takes)."""
    return bot_of(ruleset).seats(ruleset, count)


def step_rng(seed: int, number: int) -> random.Random:
    """The bot's random stream for step `number` (independent of the dice); the seats of a sealed step draw from
    it one after the other, in the step's seat order. Conquest of the Empire's in-memory self-play
    (rulesets/coe/bot.py turn_rng) uses the same stream, so both play the same orders."""
    return random.Random(f"pbem-selfplay:{seed}:{number}")


def header(game: str, number: int, seat: str, password: str) -> str:
    """The first line of an order set (grammar/common.lark)."""
    return f"GAME {game} TURN {number} PLAYER {seat} PASSWORD {password}"


def play_archived_game(
    archive: Archive,
    data: Path,
    name: str,
    ruleset_name: str,
    seats: list[str],
    seed: int,
    max_turns: int,
    on_turn: Callable[[SelfPlayStep], None] | None = None,
    pace: str = "turn",
    *,
    decisions: str = "default",
    check_archive: bool = True,
    game_data: Path | None = None,
    mode: str | None = None,
    options: dict[str, str] | None = None,
) -> list[SelfPlayStep]:
    """Play a new game `name` of `seats` with the ruleset's bot until it ends or `max_turns` steps are played (a
    round is played to its end in round pace, where every seat orders its coming step from the position at the
    start of the round). `on_turn` sees each step as it is stored. With decisions "ask" the steps wait for the
    bot's answers. A broken invariant, a step that does not resolve or (with `check_archive`) an archive that does
    not verify is a PbemError naming the game and the step. A ruleset that needs a game's data plays with
    `game_data` (its example data when None) in `mode`, with the game `options` (`pbem new --option`)."""
    ruleset, folder = playable(load_ruleset(ruleset_name), game_data, mode, options)
    bot = bot_of(ruleset)
    made = new_game(
        archive,
        data,
        NewGameOptions(
            name,
            ruleset.name,
            {s: f"{s.casefold()}@selfplay.invalid" for s in seats},
            pace=pace,
            decisions=decisions,
            mail={"selfplay": True},
            game_data=folder,
            mode=mode,
            ruleset_options=options,
        ),
    )
    state = ruleset.initial_state(name, list(seats))
    steps: list[SelfPlayStep] = []
    with objects_made_frozen():  # the game's steps
        while ruleset.due(state) is not None and len(steps) < max_turns:
            rngs: dict[int, random.Random] = {}
            ordered: dict[str, str] = {}  # seat -> its order set
            for number, seat in due_turns(ruleset, state, pace):
                if seat in ordered:  # an order set is taken for a seat's first open step alone (games.expected_turn)
                    continue
                rng = rngs.setdefault(number, step_rng(seed, number))
                ordered[seat] = bot.orders(ruleset, state, seat, header(name, number, seat, made.passwords[seat]), rng)
            # the seats' order sets stored as `submit` takes them, and the step resolved, in one transaction; this
            # process made the game and writes every turn's files (a failed write stops it): nothing to repair
            done = adjudicate(archive, data, name, repair=False, order_sets=list(ordered.values()))
            for _ in range(ANSWER_ROUNDS):
                state = _take(ruleset, bot, name, done.turns, state, steps, on_turn)
                if not done.waiting:
                    break
                _answer(archive, ruleset, bot, name, state, done, made.passwords, seed)
                done = adjudicate(archive, data, name, repair=False)
            else:
                raise PbemError(
                    f"game {name}: step {ruleset.steps_done(state) + 1} still asks after {ANSWER_ROUNDS} answers"
                )
            if not done.turns and not done.waiting:
                raise PbemError(f"game {name}: step {ruleset.steps_done(state) + 1} was not resolved")
    if check_archive:
        _, problems = verify(archive, name)
        if problems:
            raise PbemError(f"game {name}: the archive does not verify: {'; '.join(problems)}")
    return steps


def _take(
    ruleset: Ruleset,
    bot: Bot,
    name: str,
    rows: list[TurnRow],
    state: Any,
    steps: list[SelfPlayStep],
    on_turn: Callable[[SelfPlayStep], None] | None,
) -> Any:
    """Record the stored steps `rows`, checking the invariants after each; the position after the last."""
    for row in rows:
        state = stored_state(ruleset, row.state_json)
        broken = ruleset.broken_invariants(state)
        if broken:
            raise PbemError(f"game {name}, step {row.number}: invariant broken: {'; '.join(broken)}")
        verdicts = _verdicts(json.loads(row.results_json))
        kinds = tuple(e["kind"] for e in json.loads(row.events_json))
        step = SelfPlayStep(
            row.number,
            row.seat or "",
            row.orders_text,
            sum(v["accepted"] for v in verdicts),
            sum(not v["accepted"] for v in verdicts),
            sum(kind in bot.battle_events for kind in kinds),
            state,
            kinds,
        )
        steps.append(step)
        if on_turn is not None:
            on_turn(step)
    return state


def _verdicts(stored: list[dict[str, Any]] | dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """A stored step's verdicts: one seat's list, or each seat's under its name (services/turn.py verdicts)."""
    return [v for found in stored.values() for v in found] if isinstance(stored, dict) else stored


def _answer(
    archive: Archive,
    ruleset: Ruleset,
    bot: Bot,
    name: str,
    state: Any,
    done: Adjudication,
    passwords: dict[str, str],
    seed: int,
) -> None:
    """Each seat asked answers the decisions the waiting step asks of it, as `pbem answer` takes them."""
    assert done.waiting_on is not None
    number = done.waiting_on[0]
    asked: dict[str, list[DecisionRow]] = {}
    for decision in done.waiting:
        asked.setdefault(decision.seat, []).append(decision)
    rng = random.Random(f"pbem-selfplay-answers:{seed}:{number}:{len(done.waiting)}")
    for seat, found in asked.items():
        questions = [Question(d.seat, d.key, d.question, d.default, d.rule) for d in found]
        text = bot.answers(ruleset, state, seat, header(name, number, seat, passwords[seat]), questions, rng)
        answer(archive, name, text)
