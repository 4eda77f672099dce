"""What every service reads of a game: its ruleset (bound to its stored data), its current position, the steps
due, the turn an order set is for, its dice chain's checkpoints, its folder, and a snapshot file's position."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import chain_checkpoints
from adjudicator.errors import PbemError
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.positions import read_position, stored_state

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive.lean_mail import LeanSession
    from adjudicator.archive.models import GameRow
    from adjudicator.archive.queries import Claim
    from adjudicator.engine.steps import Step


def with_game_data(
    ruleset: Ruleset, folder: Path | None, mode: str | None, options: dict[str, str] | None
) -> tuple[Ruleset, str]:
    """A ruleset whose printed facts the moderator supplies (protocol member `game_data`) is bound to the data of
    `folder`, which must pass its check (every problem named, as `pbem data check`); returns it with the files to
    store with the game. Other rulesets take no data, mode or options."""
    member = ruleset.game_data
    if member is None:
        if folder is not None or mode is not None or options:
            raise PbemError(f"{ruleset.name} takes no --game-data, --mode or --option")
        return ruleset, ""
    if folder is None:
        raise PbemError(
            f"{ruleset.name}: name the game's data with --game-data DIR "
            f"(`pbem data template {ruleset.name} DIR` writes one to fill in, `pbem data check DIR` checks it)"
        )
    report = member.check(folder)
    if report.problems:
        listed = "\n".join(f"  {problem.text()}" for problem in report.problems)
        raise PbemError(f"{folder}: the game data has {len(report.problems)} problem(s) (`pbem data check`):\n{listed}")
    files = member.files(folder)
    stored = {"files": files, "mode": mode, "options": dict(options or {})}
    return ruleset.with_game_data(files, mode, options), json.dumps(stored, sort_keys=True)


def game_ruleset(game: GameRow) -> Ruleset:
    """The ruleset a game is played with: bound to the data stored with it, if the ruleset takes data."""
    if game.game_data:
        try:
            return _bound(game.ruleset, game.game_data)
        except PbemError as damaged:  # a damaged row: every command reading the game names it
            raise PbemError(f"game {game.name}: {damaged}") from None
    return load_ruleset(game.ruleset)


@lru_cache(maxsize=8)
def _bound(name: str, stored: str) -> Ruleset:
    """A ruleset bound to stored data with the game's mode and options, read once per process for each game."""
    from adjudicator.services.game_data import stored_game_ruleset

    return stored_game_ruleset(name, stored)


def due_steps(ruleset: Ruleset, state: Any, pace: str) -> list[Step]:
    """The steps open for orders: the one due, or the rest of the round (round pace)."""
    coming = ruleset.coming_steps(state)
    return coming if pace == "round" else coming[:1]


def due_turns(ruleset: Ruleset, state: Any, pace: str) -> list[tuple[int, str]]:
    """The (step number, seat) pairs open for orders: one per seat of each due step (CoE: the active seat's
    player-turn, or the rest of the round)."""
    return [(step.number, seat) for step in due_steps(ruleset, state, pace) for seat in step.seats]


def expected_turn(ruleset: Ruleset, state: Any, pace: str, seat: str, header_turn: int) -> int:
    """The step an order set is for: a due one, or in turn pace the seat's next step (the one its report's
    orders template names), for which orders may be sent ahead; any other is refused."""
    if ruleset.due(state) is None:
        raise PbemError(f"game {state.game} has ended; no orders are taken")
    number = open_turn(ruleset, state, pace, seat)
    if number is None:
        first = next(iter(due_steps(ruleset, state, pace)), None) or ruleset.due(state)
        whose = f"{first.seats[0]}'s" if len(first.seats) == 1 else f"{first.phase}, for {', '.join(first.seats)}"
        whose = whose if first.seats else f"{first.phase}, in which nobody orders"
        raise PbemError(
            f"{seat}: no player-turn of yours is open for orders now; the turn due is turn {first.number}, {whose}"
        )
    if header_turn != number:
        raise PbemError(f"header says TURN {header_turn}, but {seat}'s coming player-turn is turn {number}")
    return number


def open_turn(ruleset: Ruleset, state: Any, pace: str, seat: str) -> int | None:
    """The step `seat` may send orders for now: its first due one, or in turn pace its very next one (orders sent
    ahead); None when it has none (or the game has ended)."""
    if ruleset.due(state) is None:
        return None
    due: dict[str, int] = {}
    for number, due_seat in due_turns(ruleset, state, pace):
        due.setdefault(due_seat, number)  # a seat of a sealed step and of a later step of the round: its first
    if pace == "turn" and seat not in due:
        due = ruleset.next_steps(state)  # orders ahead: only for the seat's very next player-turn
    return due.get(seat)


def current_game(
    session: Session | LeanSession, name: str, lock: bool = False, claim: Claim | None = None
) -> tuple[GameRow, Ruleset, Any]:
    """The game, its ruleset and its current position; with `lock`, the game stays locked until the
    transaction ends (every operation that changes a game takes it first, before reading the position). With a
    tick worker's `claim` (PostgreSQL), GameHeld is raised instead when another worker holds or ticked the game."""
    from adjudicator.archive.lean_mail import queries_for

    db = queries_for(session)
    game = db.claim_game(claim) if claim is not None else db.find_game(name, lock)
    ruleset = game_ruleset(game)
    state = stored_state(ruleset, db.latest_state(game))
    return game, ruleset, state


def game_checkpoints(game: GameRow) -> dict[int, bytes]:
    """The checkpoints of the game's dice chain (turn -> key): those stored with the game, else (an archive made
    before they were kept, or checkpoints that do not end in the game's commitment) made from the seed and kept
    on the row, so that the game's next commit stores them."""
    if game.checkpoints:
        stored = {int(turn): bytes.fromhex(key) for turn, key in json.loads(game.checkpoints).items()}
        if stored.get(0, b"").hex() == game.commitment:
            return stored
    made = chain_checkpoints(bytes.fromhex(game.seed))
    game.checkpoints = checkpoints_text(made)
    return made


def checkpoints_text(checkpoints: dict[int, bytes]) -> str:
    """How GameRow.checkpoints stores them."""
    return json.dumps({str(turn): key.hex() for turn, key in sorted(checkpoints.items())})


def game_folder(data: Path, name: str) -> Path:
    return data / "games" / name


def snapshot_json(text: str) -> Any:
    """The JSON data of a state file, or a PbemError naming the line where it stops being JSON we can read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as bad:
        raise PbemError(f"state file: not JSON (line {bad.lineno}, column {bad.colno}: {bad.msg})") from None
    except RecursionError:  # json.loads recurses once per level of nesting
        line = text.count("\n", 0, _deep_nesting(text)) + 1
        raise PbemError(
            f"state file line {line}: arrays or objects nested too deeply (a snapshot has 7 levels)"
        ) from None
    except ValueError:  # a number of more than 4,300 digits (Python's limit on converting text to int)
        found = re.search(r"\d{4300,}", text)
        line = text.count("\n", 0, found.start() if found else 0) + 1
        raise PbemError(f"state file line {line}: a number of more than 4,300 digits") from None


def _deep_nesting(text: str, limit: int = 100) -> int:
    """Where `text` opens its `limit`-th nested array or object (strings skipped), else its end."""
    depth, inside, escaped = 0, False, False
    for at, char in enumerate(text):
        if inside:
            escaped, inside = char == "\\" and not escaped, inside and (char != '"' or escaped)
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            if depth >= limit:
                return at
        elif char in "]}":
            depth -= 1
    return len(text)


def load_snapshot(text: str, game_data: Path | None = None, *, adopt: bool = False) -> tuple[Any, Ruleset]:
    """A snapshot file's state and ruleset, or a PbemError naming what breaks the schema. A ruleset whose data the
    moderator supplies is bound to the data folder `game_data`, which must be the data the snapshot names by its
    digest (engine/envelope.py data_digest); with `adopt`, a snapshot that names none (one made before snapshots
    named their data) is taken as made with it, and the state read names it."""
    data = snapshot_json(text)
    ruleset_name = data.get("ruleset") if isinstance(data, dict) else None
    if not isinstance(ruleset_name, str):
        raise PbemError("state file: missing field 'ruleset'")
    ruleset = snapshot_ruleset(load_ruleset(ruleset_name), data, game_data)
    digest = ruleset.data_digest
    if adopt and digest:
        from adjudicator.engine.envelope import DATA_KEY  # here: a check of a file needs no envelope (start-up)

        if not data.get(DATA_KEY):
            data = {**data, DATA_KEY: digest}
    return read_position(ruleset, data), ruleset


def snapshot_ruleset(ruleset: Ruleset, data: dict[str, Any], game_data: Path | None) -> Ruleset:
    """The ruleset that reads and plays a snapshot: as it is, or bound to `game_data` for a ruleset whose data the
    moderator supplies (a game is played with its data), refused when the snapshot names other data."""
    if not ruleset.takes_game_data:
        if game_data is not None:
            raise PbemError(f"{ruleset.name} takes no --game-data: its data ships with it")
        return ruleset
    if game_data is None:
        raise PbemError(
            f"state file: a game of {ruleset.name} is played with its data: give the game's data with --game-data DIR"
        )
    from adjudicator.engine.envelope import DATA_KEY

    bound, _ = with_game_data(ruleset, game_data, None, None)
    named, own = data.get(DATA_KEY), bound.data_digest
    if named and named != own:
        raise PbemError(
            f"state file: the snapshot was made with the game data {named}, but the data of {game_data} is {own}: "
            "give the data folder the game is played with"
        )
    return bound
