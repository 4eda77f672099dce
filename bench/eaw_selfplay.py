"""Seeded self-play of Empires of the Ancient World (rulesets/empires/bot.py): N games of 3 to 5 seats, each with a mix
of the game options of EAW-11.7 (every non-default value of every option appears within the first few games), some in
round pace and some with decisions asked (answered by the bot). Each game is played through the moderator's
operations (services/selfplay.py: orders submitted with the seat's password, adjudicated, reports written), the
invariants are checked after every step and the archive is verified by replay at the end. A game that breaks an
invariant, does not end, or whose archive does not verify is a problem; the run goes on and counts it. Every new
game draws its own dice secret, so an archived game plays other dice when run again: its problem line names the
secret, with which a test replays it (tests/test_eaw_selfplay.py fixes one so).

`--memory` plays the games in memory instead (the bot's texts parsed and every step resolved with keyed dice, the
invariants checked): much faster, no archive.

Run from the repository root:
    python -m bench.eaw_selfplay [--games 100] [--seed 1] [--data /tmp/eaw-bench] [--memory]
Prints a line per game and the figures: games, steps, battles, seconds (the whole run, and the median a game with
the spread of the middle half), problems, and the load. Games differ in seats and options, so the median a game
says more than the mean; a figure is compared between trees only when both play the same --games and --seed."""

from __future__ import annotations

import argparse
import multiprocessing
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.engine.chance import turn_dice
from adjudicator.engine.decisions import Question
from adjudicator.engine.steps import resolve_step
from adjudicator.errors import PbemError
from adjudicator.mail.inbound import read_message
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import OPTION_CHOICES
from adjudicator.services.deadlines import tick
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.selfplay import header, play_archived_game, playable, step_rng
from adjudicator.services.verification import verify
from bench.measure import Figures as Timed
from bench.measure import print_load

RULESET = "empires-aw"
MAX_STEPS = 1000  # a whole game is about 100 to 200 steps (EAW-4.3: 34 action rounds for each seat)
# EAW-11.7: the options without a list of choices, with values besides the data's
NUMBERS: dict[str, tuple[str, ...]] = {
    "action_rounds_first": ("10", "6", "4", "8"),  # EAW-4.3 (bounds 4 to 20)
    "start_markers": ("3:7,4:6,5:5", "3:5,4:4,5:3", "3:9,4:8,5:6"),  # EAW-3.1
    "plunder_vp": ("1", "unset", "0", "3"),  # EAW-10.6
}


def game_options(index: int) -> dict[str, str]:
    """Game `index`'s options: each option cycles through its values at its own offset, so that every value of
    every option appears within the first four games (EAW-11.7)."""
    found: dict[str, str] = {}
    for offset, (key, choices) in enumerate(sorted({**OPTION_CHOICES, **NUMBERS}.items())):
        found[key] = choices[(index + offset) % len(choices)]
    return found


def seat_count(index: int) -> int:
    return 3 + index % 3  # EAW-3.4: 3, 4, 5 in turn


@dataclass
class Figures:
    games: int = 0
    steps: int = 0
    battles: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    events: dict[str, int] = field(default_factory=dict)
    game_seconds: list[float] = field(default_factory=list)  # each game that played through, as timed where it ran

    def text(self) -> str:
        steps = self.steps / self.games if self.games else 0.0
        timed = Timed(walls=self.game_seconds)
        per_game = f"median {timed.wall:.2f} s a game, spread {timed.spread:.0%}" if self.game_seconds else "no game"
        return (
            f"{self.games} games, {self.steps} steps ({steps:.0f} a game), {self.battles} battles, "
            f"{self.seconds:.1f} s ({per_game}), {len(self.problems)} problems"
        )


def play_archived(folder: Path, index: int, seed: int, options: dict[str, str]) -> tuple[int, int, list[str]]:
    """One game through the services (the archive verified); its steps, battles and event kinds."""
    data = folder / f"game-{index}"
    archive = Archive.open(data, None)
    rules, _ = playable(load_ruleset(RULESET), None, None, options)
    seats = rules.bot.seats(rules, seat_count(index))
    pace = "round" if index % 4 == 3 else "turn"
    decisions = "ask" if index % 10 == 9 else "default"  # asked games wait for answers at every battle: slow
    name = f"eaw-{index}"
    try:
        played = play_archived_game(
            archive, data, name, RULESET, seats, seed, MAX_STEPS, None, pace, decisions=decisions, options=options
        )
    except PbemError as problem:
        raise PbemError(f"{problem} (dice secret {dice_secret(archive, name)})") from problem
    if rules.due(played[-1].state) is not None:
        raise PbemError(f"game {index} did not end in {MAX_STEPS} steps (dice secret {dice_secret(archive, name)})")
    shutil.rmtree(data, ignore_errors=True)
    return len(played), sum(s.battles for s in played), [kind for s in played for kind in s.events]


def dice_secret(archive: Archive, name: str) -> str:
    """The game's dice secret (hex): every new game draws its own, so a game that went wrong plays other dice when
    run again; with this secret fixed it replays as it was (tests/test_eaw_selfplay.py fixes one so)."""
    try:
        with archive.session() as session:
            return db.find_game(session, name).seed
    except PbemError:  # the game was not made
        return "none"


def play_in_memory(index: int, seed: int, options: dict[str, str]) -> tuple[int, int, list[str]]:
    """One game in memory: the bot's texts parsed as mails are, every step resolved with keyed dice (the game's own
    secret made from the seed), the invariants checked after each; its steps, battles and event kinds."""
    rules, _ = playable(load_ruleset(RULESET), None, None, options)
    bot = rules.bot
    state = rules.initial_state(f"eaw-{index}", bot.seats(rules, seat_count(index)))
    steps, battles, kinds = 0, 0, []
    while (step := rules.due(state)) is not None:
        if steps >= MAX_STEPS:
            raise PbemError(f"game {index} did not end in {MAX_STEPS} steps")
        rng = step_rng(seed, step.number)
        orders: dict[str, Any] = {}
        for seat in step.seats:
            text = bot.orders(rules, state, seat, f"GAME g TURN {step.number} PLAYER {seat} PASSWORD x", rng)
            parsed = parse_orders(text, rules)
            if parsed.errors:
                raise PbemError(f"step {step.number}, {seat}: the bot's orders do not parse: {parsed.errors[0]}")
            orders[seat] = parsed
        dice = turn_dice(f"eaw-bench:{seed}:{step.number}".encode(), str(step.number), b"hidden")
        result = resolve_step(rules, state, step, orders, dice)
        state, steps = result.state, steps + 1
        broken = rules.broken_invariants(state)
        if broken:
            raise PbemError(f"step {step.number}: invariant broken: {'; '.join(broken)}")
        kinds += [e.kind for e in result.events]
        battles += sum(e.kind in bot.battle_events for e in result.events)
    return steps, battles, kinds


def play_game(index: int, seed: int, folder: Path, memory: bool) -> tuple[int, int, list[str], float, str | None]:
    """Game `index`: its steps, battles, event kinds, seconds, and the problem (None: none)."""
    options = game_options(index)
    start = time.perf_counter()
    try:
        if memory:
            steps, battles, kinds = play_in_memory(index, seed + index, options)
        else:
            steps, battles, kinds = play_archived(folder, index, seed + index, options)
    except Exception as problem:  # noqa: BLE001 -- every failure of a game is counted and named, the run goes on
        told = str(problem) if isinstance(problem, PbemError) else traceback.format_exc(limit=6)
        message = f"game {index} ({seat_count(index)} seats, seed {seed + index}, options {options}): {told}"
        return 0, 0, [], time.perf_counter() - start, message
    return steps, battles, kinds, time.perf_counter() - start, None


def _one(job: tuple[int, int, Path, bool]) -> tuple[int, tuple[int, int, list[str], float, str | None]]:
    return job[0], play_game(*job)


def run(games: int, seed: int, folder: Path | None, memory: bool, say: Any = print, jobs: int = 1) -> Figures:
    """Play the games (archived ones in worker processes, a new one for each game: the memory a game's reports take
    is given back); the figures."""
    figures = Figures()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="eaw-bench-") as scratch:
        where = folder or Path(scratch)
        work = [(index, seed, where, memory) for index in range(games)]
        if memory:
            results = map(_one, work)
            pool = None
        else:
            pool = multiprocessing.get_context("spawn").Pool(max(1, jobs), maxtasksperchild=1)
            results = pool.imap_unordered(_one, work)  # each game as it ends
        for index, (steps, battles, kinds, seconds, problem) in results:
            figures.games += 1
            if problem is not None:
                figures.problems.append(problem)
                say(f"PROBLEM {problem}")
                continue
            figures.steps += steps
            figures.battles += battles
            figures.game_seconds.append(seconds)
            for kind in kinds:
                figures.events[kind] = figures.events.get(kind, 0) + 1
            say(
                f"game {index + 1}/{games}: {seat_count(index)} seats, {steps} steps, {battles} battles, "
                f"{seconds:.1f} s"
            )
        if pool is not None:
            pool.close()
            pool.join()
    figures.seconds = time.perf_counter() - began
    return figures


@dataclass
class MailPace:
    """A game by mail: order mails, answer mails and report mails per (game round, seat)."""

    orders: Counter[tuple[int, str]] = field(default_factory=Counter)
    answers: Counter[tuple[int, str]] = field(default_factory=Counter)
    reports: Counter[tuple[int, str]] = field(default_factory=Counter)
    steps: int = 0

    def text(self) -> str:
        rounds = sorted({r for r, _ in self.orders} | {r for r, _ in self.answers})
        lines = []
        for game_round in rounds:
            seats = sorted({s for r, s in [*self.orders, *self.answers] if r == game_round})
            sent = ", ".join(
                f"{s} {self.orders[(game_round, s)]}+{self.answers[(game_round, s)]}/{self.reports[(game_round, s)]}"
                for s in seats
            )
            lines.append(f"  round {game_round}: {sent}")
        sent = Counter({key: self.orders[key] + self.answers[key] for key in {*self.orders, *self.answers}})
        playing = [key for key in sent if key[0] > 0]  # the game rounds I to IV (round 0: the placement)
        mean = sum(sent[key] for key in playing) / len(playing) if playing else 0.0
        lines.append(
            f"  mails sent a player a game round (orders + answers): at most {max(sent.values(), default=0)}, "
            f"mean {mean:.2f}; order mails at most {max(self.orders.values(), default=0)}; {self.steps} steps"
        )
        return "\n".join(lines)


def play_by_mail(folder: Path, seed: int, seats: int, options: dict[str, str], decisions: str) -> MailPace:
    """One game by mail: each due seat's bot mails its orders (an RFC 5322 message through `ingest`), each seat
    asked a decision mails its bot's answers, `tick` adjudicates; the mails counted per game round and seat
    (orders / answers sent, report mails received)."""
    name = "mailed"
    archive = Archive.in_folder(folder)
    rules, data_folder = playable(load_ruleset(RULESET), None, None, options)
    bot = rules.bot
    chosen = bot.seats(rules, seats)
    addresses = {seat: f"{seat}@example.org" for seat in chosen}
    made = new_game(
        archive,
        folder,
        NewGameOptions(name, RULESET, addresses, decisions=decisions, game_data=data_folder, ruleset_options=options),
    )
    pace, sent = MailPace(), 0

    def mail(seat: str, text: str) -> None:
        nonlocal sent
        sent += 1
        message = EmailMessage()
        message["From"], message["To"] = addresses[seat], "pbem@example.org"
        message["Subject"], message["Message-ID"] = f"{name} orders", f"<{name}-{sent}@example.org>"
        message.set_content(text)
        ingest(archive, read_message(bytes(message)))

    while True:
        with archive.session() as session:
            game, _, state = current_game(session, name)
            asked = [d for d in db.decisions_after(session, game, rules.steps_done(state)) if d.answer is None]
            queued = db.outbox_size(session)
        if rules.due(state) is None:
            break
        game_round = rules.round_of(state)
        if asked:
            by_seat: dict[str, list[Question]] = {}
            for d in asked:
                by_seat.setdefault(d.seat, []).append(Question(d.seat, d.key, d.question, d.default, d.rule))
            number = asked[0].turn
            for seat, questions in by_seat.items():
                rng = random.Random(f"eaw-mail-answers:{seed}:{number}:{seat}")
                mail(
                    seat,
                    bot.answers(rules, state, seat, header(name, number, seat, made.passwords[seat]), questions, rng),
                )
                pace.answers[(game_round, seat)] += 1
        else:
            for number, seat in due_turns(rules, state, "turn"):
                text = bot.orders(
                    rules, state, seat, header(name, number, seat, made.passwords[seat]), step_rng(seed, number)
                )
                mail(seat, text)
                pace.orders[(game_round, seat)] += 1
        ticked = tick(archive, folder)
        if ticked.failures:
            raise PbemError(f"the tick failed: {ticked.failures}")
        with archive.session() as session:
            game, _, after = current_game(session, name)
            for row in db.outbox_after(session, queued):
                seat = next((s for s, a in addresses.items() if a == row.to), None)
                if seat is not None and "Report" in row.subject:
                    pace.reports[(rules.round_of(after), seat)] += 1
        if rules.steps_done(after) == rules.steps_done(state) and not asked:
            raise PbemError(f"step {rules.steps_done(state) + 1} was not resolved")
        pace.steps = rules.steps_done(after)
    passed, problems = verify(archive, name)
    if problems:
        raise PbemError(f"the game by mail does not verify: {'; '.join(problems)}")
    return pace


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game's bot orders (then +1 a game)")
    parser.add_argument("--data", type=Path, default=None, help="folder of the archives (default: a temporary one)")
    parser.add_argument("--memory", action="store_true", help="play in memory: no archive, no verification")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (archived games; default 1)")
    parser.add_argument(
        "--mail", choices=["default", "ask"], default=None, help="play one game by mail (ingest, tick) and count mails"
    )
    parser.add_argument("--seats", type=int, default=3, help="seats of the game by mail (default 3)")
    args = parser.parse_args(argv)
    if args.mail is not None:
        with tempfile.TemporaryDirectory(prefix="eaw-mail-") as scratch:
            began = time.perf_counter()
            pace = play_by_mail(args.data or Path(scratch), args.seed, args.seats, {}, args.mail)
            print_load()
            print(f"A game by mail, {args.seats} seats, decisions {args.mail}: {time.perf_counter() - began:.1f} s")
            print("Per game round and seat: order mails + answer mails sent / report mails received")
            print(pace.text())
        return 0
    figures = run(args.games, args.seed, args.data, args.memory, lambda line: print(line, flush=True), args.jobs)
    print_load()
    print(figures.text())
    rare = sorted(figures.events.items(), key=lambda item: item[1])[:12]
    print("rarest events: " + ", ".join(f"{kind} {n}" for kind, n in rare))
    return 1 if figures.problems else 0


if __name__ == "__main__":
    sys.exit(main())
