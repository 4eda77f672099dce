"""Turn files (`pbem resolve`): the due steps of a snapshot resolved from order files alone, with no archive."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import (
    GivenDice,
    KeyedDice,
    hidden_turn_key,
    orders_digest,
    parse_dice_file,
    turn_dice,
)
from adjudicator.engine.steps import Step
from adjudicator.errors import PbemError
from adjudicator.orders import parse_orders, parse_turn_file
from adjudicator.orders.sets import OrderError, OrderSet
from adjudicator.render import render, write_atomically
from adjudicator.render.i18n import gettext
from adjudicator.rulesets import Ruleset
from adjudicator.services.clock import SYSTEM_CLOCK, Clock
from adjudicator.services.game_reads import (
    load_snapshot,
    snapshot_json,
)
from adjudicator.services.orders import verdict_lines
from adjudicator.services.passwords import redacted
from adjudicator.services.positions import partial_view
from adjudicator.services.reports import turn_context
from adjudicator.services.turn import (
    play,
    seat_order_sets,
    step_orders_text,
    step_seat,
    turn_row,
)

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from adjudicator.archive.models import GameRow, TurnRow


@dataclass
class FileResolution:
    turns: list[TurnRow]
    files: list[Path]
    state: Any
    not_understood: list[tuple[str, OrderError]] = field(default_factory=list)  # (seat, line of the turn file)
    spare_dice: int = 0  # rolls of the dice file that no battle needed


def given_dice(dice_text: str | None, ruleset: Ruleset) -> GivenDice | None:
    """The draws of a dice file, or None for the keyed stream."""
    if dice_text is None:
        return None
    return GivenDice(values=parse_dice_file(dice_text, ruleset.dice_words, ruleset.largest_draw))


# step number -> (turn key, key of its hidden draws or b"", key of its orders commitment or b"" for an unkeyed hash)
TurnKeys = dict[int, tuple[bytes, bytes, bytes]]


def turn_keys(keys: Mapping[str, str], hidden: Mapping[str, str], orders: Mapping[str, str] | None = None) -> TurnKeys:
    """`pbem resolve --key TURN=HEX --hidden-key TURN=HEX --orders-key TURN=HEX`: the keys of the steps to resolve,
    as a game's reports reveal them (the turn key) and its archive keeps them (the hidden key and the orders key,
    secret until the game ends). A step without --orders-key is resolved with the unkeyed orders hash of the games
    of older versions."""
    found: TurnKeys = {}
    for option, pairs in (("--key", keys), ("--hidden-key", hidden), ("--orders-key", orders or {})):
        for turn, text in pairs.items():
            number = turn.strip()
            if not number.isdigit() or len(number) > 9:
                raise PbemError(f"{option} {turn}={text}: the turn is a number, e.g. {option} 7=<64 hex digits>")
            try:
                key = bytes.fromhex(text.strip())
            except ValueError:
                key = b""
            if len(key) != 32:
                raise PbemError(f"{option} {turn}={text}: a key is 64 hexadecimal digits")
            if option == "--key":
                found[int(number)] = (key, b"", b"")
            elif int(number) not in found:
                raise PbemError(f"{option} {turn}=...: no --key {turn}=... is given for that turn")
            elif option == "--hidden-key":
                found[int(number)] = (found[int(number)][0], key, found[int(number)][2])
            else:
                found[int(number)] = (*found[int(number)][:2], key)
    return found


@dataclass
class FileChance:
    """Where the draws of the steps `pbem resolve` resolves come from: a dice file, the turn keys given (the game's
    own stream, so that a stored step is reproduced exactly), or else a stream keyed by each step's snapshot."""

    given: GivenDice | None = None
    keys: TurnKeys | None = None
    joined: bool = False  # a sealed step's keyed orders hash commits to its seats' texts joined (older games)

    def keyed(self, number: int) -> bool:
        """Whether step `number` may be resolved: with turn keys given, only the steps they name are."""
        return self.keys is None or number in self.keys

    def dice(
        self, number: int, before: str, text: str, by_seat: Mapping[str, str] | None = None
    ) -> KeyedDice | GivenDice:
        """The step's dice; `by_seat`: the seats' texts of a sealed step, which the keyed orders hash commits to
        seat by seat (engine/chance.py step_commitment), `text` being them joined."""
        if self.given is not None:
            return self.given
        if self.keys is not None:
            if number not in self.keys:
                raise PbemError(f"no --key for turn {number}: with --key, give the turn key of every step resolved")
            key, hidden, orders = self.keys[number]
            return turn_dice(key, text, hidden, orders, None if self.joined else by_seat)
        state_key = hashlib.sha256(before.encode()).digest()
        # files alone: nothing is secret from the moderator who runs them, so the hidden draws are keyed likewise
        return KeyedDice(
            key=state_key, orders_hash=orders_digest([text]), hidden_key=hidden_turn_key(state_key, number)
        )


def file_step(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    number: int,
    seat: str | None,
    text: str,
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
    by_seat: Mapping[str, str] | None = None,
) -> Any:
    """Resolve the step due from its order text with no archive; its row and the snapshot before it are added to
    `rows` and `befores` (`by_seat`: a sealed step's texts, FileChance.dice). Returns the state after it."""
    before = ruleset.snapshot_text(state)
    befores.append(before)
    dice = chance.dice(number, before, text, by_seat)
    result = play(ruleset, state, text, dice)
    rows.append(turn_row(ruleset, game, number, seat, ruleset.round_of(state), text, result, dice, clock=clock))
    return result.state


def turn_file(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    orders_text: str,
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
) -> tuple[Any, list[tuple[str, OrderError]]]:
    """The player-turns of one seat each from a turn file (one block per seat), as resolve_files tells."""
    blocks = parse_turn_file(orders_text, ruleset)
    # the coming steps of one seat each; a step nobody orders in or a sealed step ends them (ER-4: a round's phases)
    coming = [(s.number, s.seats[0]) for s in ruleset.coming_steps(state) if len(s.seats) == 1 and not s.sealed]
    numbers: dict[str, int] = {}
    for number, seat in coming:
        numbers.setdefault(seat, number)
    by_seat: dict[str, str] = {}
    not_understood = [(block.header.player, e) for block in map(redacted, blocks) if block.header for e in block.errors]
    for block in blocks:
        if block.header is None:
            raise PbemError("orders file: " + "; ".join(e.located for e in block.errors))
        seat = block.header.player
        if block.header.game.casefold() != state.game.casefold():
            raise PbemError(
                f"orders file line {block.header.line}: game {block.header.game!r}, but the state "
                f"is of game {state.game!r}"
            )
        if seat not in numbers:
            raise PbemError(
                f"orders file line {block.header.line}: {seat}'s player-turn is not due in this "
                f"round (due: {', '.join(f'{n} {s}' for n, s in coming)})"
            )
        if block.header.turn != numbers[seat]:
            raise PbemError(
                f"orders file line {block.header.line}: TURN {block.header.turn}, but {seat}'s "
                f"coming player-turn is turn {numbers[seat]}"
            )
        if seat in by_seat:
            raise PbemError(f"orders file line {block.header.line}: a second block for {seat}")
        by_seat[seat] = block.source
    last = max((numbers[s] for s in by_seat), default=coming[0][0] if coming else 0)
    for number, seat in coming:
        step = ruleset.due(state)
        if number > last or step is None or step.seats != (seat,):
            break
        state = file_step(ruleset, game, state, number, seat, by_seat.get(seat, ""), chance, rows, befores, clock=clock)
    return state, not_understood


def steps_without_orders(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
    keyed_only: bool = False,
) -> Any:
    """The steps due that nobody orders in (a deal, taxation, the end of a round), up to the next step with seats or
    the game's end, or with `keyed_only` up to the first step without a turn key given; the state after them."""
    step = ruleset.due(state)
    while step is not None and not step.seats and (not keyed_only or chance.keyed(step.number)):
        state = file_step(ruleset, game, state, step.number, None, "", chance, rows, befores, clock=clock)
        step = ruleset.due(state)
    return state


def sealed_files(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    files: list[tuple[str, str]],
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
    silent: Sequence[str] = (),
) -> tuple[Any, list[tuple[str, OrderError]]]:
    """The steps nobody orders in (a deal), then the sealed step due after them, from one orders file per seat of
    it: each file one order set under its GAME header; the seats `silent` sent none (as the archive resolves a seat
    that missed the deadline). A seat of the step without a file, a file for a seat that does not order in it, or a
    second file for a seat is an error naming the seat and the file; the state after the sealed step is returned,
    with the lines not understood."""
    state = steps_without_orders(ruleset, game, state, chance, rows, befores, clock=clock)
    step = ruleset.due(state)
    if step is None:
        given = files[0][0] if files else f"--no-orders {silent[0]}"
        raise PbemError(
            f"game {state.game} ends with turn {ruleset.steps_done(state)}, which nobody orders in: {given} has "
            "no step to be for (resolve without --orders to end the game)"
        )
    if not step.sealed:
        raise PbemError(f"the step due, turn {step.number}, is {step.seats[0]}'s alone: give one turn file")
    texts: dict[str, str] = {}
    named: dict[str, str] = {}
    not_understood: list[tuple[str, OrderError]] = []
    for name, text in files:
        seat, block = _seat_file(name, text, ruleset, state, step)
        if seat in named:
            raise PbemError(f"{name}: a second orders file for {seat} (the first is {named[seat]})")
        texts[seat], named[seat] = block.source, name
        not_understood += [(seat, e) for e in redacted(block).errors]
    for seat in silent:
        if seat not in step.seats:
            whose = ", ".join(step.seats)
            raise PbemError(f"--no-orders {seat}: {seat} does not order in turn {step.number} (its seats: {whose})")
        if seat in texts:
            raise PbemError(f"--no-orders {seat}: {named[seat]} has {seat}'s orders")
        texts[seat] = ""  # a seat that sent nothing: no text, as the archive resolves it (step_orders_text)
    missing = [seat for seat in step.seats if seat not in texts]
    if missing:
        raise PbemError(
            f"no orders file for {', '.join(missing)}: turn {step.number} is sealed, so every seat of it "
            f"({', '.join(step.seats)}) gives one (--orders for each; the header line alone orders nothing), "
            "or --no-orders SEAT for a seat that sent none"
        )
    by_seat = {seat: texts[seat] for seat in step.seats}
    text = step_orders_text(by_seat)
    state = file_step(
        ruleset, game, state, step.number, step_seat(step), text, chance, rows, befores, clock=clock, by_seat=by_seat
    )
    return state, not_understood


def _seat_file(name: str, text: str, ruleset: Ruleset, state: Any, step: Step) -> tuple[str, OrderSet]:
    """The seat and order set of one seat's orders file for the sealed `step` (a PbemError naming the file)."""
    blocks = parse_turn_file(text, ruleset)
    if len(blocks) != 1 or blocks[0].header is None:
        problems = "; ".join(e.located for block in blocks if block.header is None for e in block.errors)
        raise PbemError(
            f"{name}: one seat's order set under its GAME header, not {len(blocks)} blocks {problems}".strip()
        )
    header = blocks[0].header
    if header.game.casefold() != state.game.casefold():
        raise PbemError(f"{name} line {header.line}: game {header.game!r}, but the state is of game {state.game!r}")
    if header.player not in step.seats:
        raise PbemError(
            f"{name} line {header.line}: {header.player} does not order in turn {step.number} "
            f"(its seats: {', '.join(step.seats)})"
        )
    if header.turn != step.number:
        raise PbemError(f"{name} line {header.line}: TURN {header.turn}, but the step due is turn {step.number}")
    return header.player, blocks[0]


def resolve_files(
    state_text: str,
    orders_text: str | Sequence[tuple[str, str]],
    dice_text: str | None,
    out: Path,
    strict_dice: bool = False,
    *,
    clock: Clock = SYSTEM_CLOCK,
    game_data: Path | None = None,
    keys: TurnKeys | None = None,
    silent: Sequence[str] = (),
    joined_orders: bool = False,
) -> FileResolution:
    """`pbem resolve`: the due player-turns of a snapshot from a turn file, with no archive.

    Turns are resolved in turn order from the active seat up to the last seat of the round with an order
    block; seats in between without a block do nothing. Passwords cannot be checked without an archive.
    Without a dice file the dice stream is keyed by the snapshot's hash (reproducible, not secret), or by the
    turn keys given (`keys`: the game's own stream). Lines not understood do nothing; the report gives them their
    verdict among the orders' verdicts. Rolls of the dice file left over are reported; with `strict_dice` they are
    an error and nothing is written.

    A sealed step (its seats order at once) takes one orders file per seat instead: `orders_text` is then each
    file's (name, text); see sealed_files. With no orders file at all, the steps due that nobody orders in are
    resolved (up to the next step with seats, or the game's end). A ruleset whose data the moderator supplies
    reads the snapshot with the data folder `game_data` (services/game_reads.py load_snapshot). The seats `silent`
    (`--no-orders`) sent no orders for the step due: a seat of a sealed step, or the seat of the one-seat step due;
    the step is resolved as the archive resolves it past the deadline, with no text from them. With
    `joined_orders` a sealed step's keyed orders hash commits to the seats' texts joined, as games begun before
    each seat's were committed apart (orders hash version 1) made it.
    """
    from adjudicator.archive.models import GameRow

    state, ruleset = load_snapshot(state_text, game_data)
    if partial_view(ruleset, state, snapshot_json(state_text)):
        raise PbemError(
            "state file: a public or one seat's snapshot (not every seat's hidden part): resolving needs the whole "
            "snapshot, with every seat's hidden part and the decks' order (the snapshot.json `pbem resolve` writes)"
        )
    files = [("orders file", orders_text)] if isinstance(orders_text, str) else list(orders_text)
    game = GameRow(id=0, name=state.game, ruleset=ruleset.name, seed="", commitment="", created="")
    rows: list[TurnRow] = []
    befores: list[str] = []
    due = ruleset.due(state)
    if due is None:
        raise PbemError(
            f"game {state.game} has ended (after turn {ruleset.steps_done(state)}): there is no step to resolve"
        )
    if dice_text is not None and keys:
        raise PbemError("give either a dice file (--dice) or the turn keys (--key), not both")
    chance = FileChance(given_dice(dice_text, ruleset), keys if keys else None, joined_orders)
    given = chance.given
    if not files and not silent:
        if due.seats:
            raise PbemError(
                f"turn {due.number} is {', '.join(due.seats)}'s to order: give the orders with --orders "
                "(a file of the header line alone orders nothing)"
            )
        # with turn keys, the steps they name: a stored game is reproduced one step at a time
        state = steps_without_orders(ruleset, game, state, chance, rows, befores, clock=clock, keyed_only=True)
        not_understood: list[tuple[str, OrderError]] = []
    elif due.sealed or not due.seats:
        state, not_understood = sealed_files(
            ruleset, game, state, files, chance, rows, befores, clock=clock, silent=silent
        )
    elif silent:
        if files or list(silent) != list(due.seats):
            raise PbemError(
                f"--no-orders {', '.join(silent)}: the step due, turn {due.number}, is {due.seats[0]}'s alone: "
                f"give its turn file, or --no-orders {due.seats[0]} alone"
            )
        state = file_step(ruleset, game, state, due.number, due.seats[0], "", chance, rows, befores, clock=clock)
        not_understood = []
    elif len(files) > 1:
        raise PbemError(
            f"{files[1][0]}: one orders file per seat is for a sealed step, and the step due is turn {due.number}, "
            f"{', '.join(due.seats)}'s: give one turn file, with a block per seat"
        )
    else:
        state, not_understood = turn_file(ruleset, game, state, files[0][1], chance, rows, befores, clock=clock)
    unused_keys = sorted(set(keys or {}) - {row.number for row in rows})
    if unused_keys:
        raise PbemError(
            f"--key for turn {', '.join(map(str, unused_keys))}, which was not resolved "
            f"(resolved: {', '.join(str(row.number) for row in rows) or 'none'})"
        )
    spare = given.unused if given is not None else 0
    if spare and strict_dice:
        raise PbemError(f"{spare} rolls of the dice file were not used (--strict-dice)")
    contexts = [
        with_lines_not_understood(turn_context(ruleset, r, b), r.orders_text, ruleset)
        for r, b in zip(rows, befores, strict=True)
    ]
    common = {
        "ruleset": ruleset,
        "title": ruleset.title,
        "game": state.game,
        "turns": contexts,
        "state": json.loads(ruleset.snapshot_text(state)),
        "commitment": "",
        "seats": list(ruleset.seats_of(state)),
    }
    # report.txt of `pbem resolve` is the moderator's (the interface keeps each seat's verdicts there); what the
    # public may read is public.txt, and each seat's orders, verdicts and decisions are in its private report
    outputs = {
        "report.txt": render("report.txt.j2", **common, moderator=True),
        "public.txt": render("report.txt.j2", **common),
        "snapshot.json": ruleset.snapshot_text(state),
    }
    if spare:
        unused = gettext("en", "%(count)s rolls of the dice file were not used.", count=spare)
        outputs["report.txt"] += f"\n{unused}\n"
    template = ruleset.report_context(state)
    for seat in ruleset.seats_of(state):
        outputs[f"report-{seat}.txt"] = render("report-seat.txt.j2", seat=seat, **common, **template)
    for filename, text in outputs.items():
        write_atomically(out / filename, text, public=filename == "public.txt")
    return FileResolution(rows, [out / filename for filename in outputs], state, not_understood, spare)


def with_lines_not_understood(context: dict[str, Any], orders_text: str, ruleset: Ruleset) -> dict[str, Any]:
    """A turn's report context whose verdicts include the lines of its order set that were not understood (they
    did nothing), in line order, so that every line sent gets a verdict."""
    if orders_text and len(context["senders"]) > 1:
        # a sealed step: each seat's order set under its header (step_orders_text), its lines numbered as its own
        sets = {block.header.player: block for block in seat_order_sets(orders_text, ruleset) if block.header}
        of = context["results_of"]
        for seat, block in sets.items():
            of[seat] = sorted([*of.get(seat, []), *block.errors], key=lambda item: item.line)
        context["results"] = [item for found in of.values() for item in found]
    else:
        errors = list(parse_orders(orders_text, ruleset).errors) if orders_text else []
        if errors:
            context["results"] = sorted([*context["results"], *errors], key=lambda item: item.line)
            of = context["results_of"]
            for seat in of:  # the one seat of the step: its private report too
                of[seat] = sorted([*of[seat], *errors], key=lambda item: item.line)
    sources = context.get("sources", {})
    context["lines_of"] = {
        seat: verdict_lines(found, sources.get(seat, "")) for seat, found in context["results_of"].items()
    }
    return context
