"""`pbem verify`: every stored turn replayed from its archived inputs, every hash, turn key and the
turns' chain checked."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import (
    CHAIN_LENGTH,
    ORDERS_BY_SEAT,
    ORDERS_KEYED,
    chain_keys,
    hidden_turn_key,
    key_follows,
    orders_key,
    turn_dice,
)
from adjudicator.engine.envelope import DATA_KEY, data_digest, envelope_text
from adjudicator.errors import PbemError
from adjudicator.rulesets import Ruleset
from adjudicator.services.chain import chain_hash
from adjudicator.services.game_reads import game_ruleset
from adjudicator.services.positions import stored_state
from adjudicator.services.turn import (
    play,
    replayed_fields,
    seat_texts,
    step_orders_text,
    step_seat,
    step_seats,
    turn_name,
)
from adjudicator.services.verify_published import verify_published

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it, and `pbem verify`
# of a SQLite archive reads its rows without it (archive/verify_rows.py).
if TYPE_CHECKING:
    from adjudicator.archive import Archive
    from adjudicator.archive.models import DecisionRow, GameRow, TurnRow
    from adjudicator.archive.verify_rows import GameRows


def verify(
    archive: Archive,
    name: str,
    data: Path | None = None,
    mail_dirs: Sequence[Path] = (),
    notes: list[str] | None = None,
) -> tuple[list[str], list[str]]:
    """Replay every stored turn from its archived inputs and follow the turns' chain; returns (checks passed,
    problems found). A damaged row is a problem line naming its turn, and the check goes on to the end. Then the
    archive is held against what has left it (the turn files under `data`, the mails, the .eml files in
    `mail_dirs`) and the rows outside the chain are checked (verify_published); what could not be checked is
    added to `notes`."""
    from adjudicator.archive.verify_rows import orm_rows

    with archive.session() as session:
        rows = orm_rows(session, name)
    return verify_rows(rows, data, mail_dirs, notes)


def verify_stored(
    data: Path, db: str | None, name: str, mail_dirs: Sequence[Path] = (), notes: list[str] | None = None
) -> tuple[list[str], list[str]]:
    """`pbem verify`: verify() of the game in the archive at `db`, or else in the data folder's SQLite archive, read
    without SQLAlchemy where it can be (the same rows, read the same way; verify_rows.py)."""
    from adjudicator.archive.verify_rows import lean_rows

    rows = lean_rows(data, name) if db is None else None
    if rows is None:
        from adjudicator.archive import Archive

        return verify(Archive.open(data, db), name, data, mail_dirs, notes)
    return verify_rows(rows, data, mail_dirs, notes)


def verify_rows(
    stored: GameRows, data: Path | None = None, mail_dirs: Sequence[Path] = (), notes: list[str] | None = None
) -> tuple[list[str], list[str]]:
    """verify() of the rows read of a game."""
    passed, problems, rows = replay_game(stored)
    verify_published(stored, data, mail_dirs, passed, problems, notes, rows)
    return passed, problems


def replay_game(stored: GameRows) -> tuple[list[str], list[str], list[TurnRow]]:
    """Replay every turn of the rows read of a game and follow its chain: (checks passed, problems found, the
    turns whose number is a number). What the archive alone holds is verify_published's; a game's record
    (game_record.py) holds the rest, which a player replays with this."""
    game = stored.game
    seats = [s.seat for s in stored.seats]
    asked = _asked(stored.decisions)
    passed: list[str] = []
    problems: list[str] = []
    rows = _numbered(stored.turns, problems)
    keys = _dice_keys(game, rows, problems)
    try:
        ruleset = game_ruleset(game)  # bound to the game's stored data, if its ruleset takes data
    except PbemError as damaged:  # damaged stored game data: no turn can be replayed, the chain is still followed
        problems.append(f"{damaged}; no turn is replayed")
        _verify_chain(game, rows, passed, problems)
        return passed, problems, rows
    _verify_data(game, rows, passed, problems)
    previous: Any = None
    for index, row in enumerate(rows):
        replayed = False
        try:
            replayed = _verify_turn(ruleset, game, seats, rows, index, previous, keys, asked, passed, problems)
        except Exception as broken:  # noqa: BLE001 (a damaged row is a problem of its turn, not the end of verify)
            problems.append(f"turn {row.number}: cannot be replayed ({type(broken).__name__}: {broken})")
        previous = _stored_state(ruleset, row, problems, replayed)
    _verify_chain(game, rows, passed, problems)
    return passed, problems, rows


def _asked(decisions: Sequence[DecisionRow]) -> dict[int, dict[tuple[str, str], str | None]]:
    """Turn -> (seat, key) -> answer of each decision the game asked (the decision rows)."""
    asked: dict[int, dict[tuple[str, str], str | None]] = {}
    for decision in decisions:
        asked.setdefault(decision.turn, {})[(decision.seat, decision.key)] = decision.answer
    return asked


def _numbered(rows: list[TurnRow], problems: list[str]) -> list[TurnRow]:
    """The rows whose turn number is a number: SQLite keeps any value in an INTEGER column, so an edited row may
    hold text; it is named and left out, and the turns around it are then named as not following each other."""
    kept = []
    for row in rows:
        if type(row.number) is int:
            kept.append(row)
        else:
            problems.append(f"a stored turn (row {row.id}) is numbered {row.number!r}, which is no turn number: edited")
    return kept


def _dice_keys(game: GameRow, rows: list[TurnRow], problems: list[str]) -> list[bytes]:
    """The game's turn keys up to its last turn (at most the chain's length); none when the seed is unreadable."""
    try:
        seed = bytes.fromhex(game.seed)
    except ValueError:
        problems.append("the game's dice seed is not readable: no turn key can be checked")
        return []
    last = min(max((row.number for row in rows), default=0), CHAIN_LENGTH - 1)
    keys = chain_keys(seed, max(last, 0))
    if keys[0].hex() != game.commitment:
        problems.append("the dice seed does not match the published commitment")
    return keys


def _verify_data(game: GameRow, rows: list[TurnRow], passed: list[str], problems: list[str]) -> None:
    """The game's stored data against the digest its snapshots name (ER-13): the first turn's snapshot, chained by
    its state hash and published in its report, fixes the data the game began with; any edit changes the digest."""
    if not game.game_data or not rows:
        return
    digest = data_digest(json.loads(game.game_data)["files"])  # readable: the ruleset was bound to it
    first = rows[0].number
    named = {first: _named_digest(rows[0])}  # the others are read only to name the turns of a changed digest
    if not named[first]:  # a game made before snapshots named their data (older versions)
        return
    if named[first] == digest:
        passed.append(f"game data: digest {digest}, as the first turn's snapshot names it")
    else:
        named = {row.number: _named_digest(row) for row in rows}
        same = [number for number, text in named.items() if text == named[first]]
        span = f"{same[0]}-{same[-1]}" if len(same) > 1 else f"{same[0]}"
        problems.append(
            f"the game's stored data (game_data.files) has digest {digest}, but the snapshot of turn {first} names "
            f"{named[first]} (turns {span} name it): the data was changed after the game began"
        )


def _named_digest(row: TurnRow) -> str:
    """The data digest a stored snapshot names ("" for none, or for a snapshot that is unreadable)."""
    try:
        named = json.loads(row.state_json).get(DATA_KEY, "")
    except (json.JSONDecodeError, AttributeError):  # an unreadable row is named by its own check
        return ""
    return named if isinstance(named, str) else ""


def _stored_state(ruleset: Ruleset, row: TurnRow, problems: list[str], replayed: bool = False) -> Any:
    """The position a stored turn ends with (the start of the next turn's replay), or None when unreadable.
    `replayed`: its replay wrote this very text (the hash matched) of a position that kept the invariants under
    `ruleset`, so a ruleset that offers `read_replayed_snapshot` reads it without checking it again. Every other
    stored text (edited under a stale hash, imported, the setup, one this version writes otherwise) is read with
    every check of a snapshot."""
    reader = getattr(ruleset, "read_replayed_snapshot", None) if replayed else None
    try:
        return reader(row.state_json) if reader is not None else stored_state(ruleset, row.state_json)
    except Exception as unreadable:  # noqa: BLE001 (whatever is wrong with the row, verify names it and goes on)
        problems.append(
            f"turn {row.number}: the stored state cannot be read ({type(unreadable).__name__}: "
            f"{unreadable}); the next turn is not replayed"
        )
        return None


def _verify_turn(
    ruleset: Ruleset,
    game: GameRow,
    seats: list[str],
    rows: list[TurnRow],
    index: int,
    previous: Any,
    keys: list[bytes],
    asked: dict[int, dict[tuple[str, str], str | None]],
    passed: list[str],
    problems: list[str],
) -> bool:
    """Check one stored turn: its state hash, its place in the sequence, where its dice came from, its replay.
    True when the replay wrote the stored snapshot text itself and its position keeps the invariants."""
    row = rows[index]
    stored_hash = hashlib.sha256(row.state_json.encode()).hexdigest()  # of the stored text, which the replay writes
    problems.extend(_stored_row_problems(rows, index, stored_hash))
    if not _replayable(ruleset, game, seats, rows, index, previous, len(keys), passed, problems):
        return False
    problems.extend(_chain_key_problems(row, keys))
    _verify_step(ruleset, row, previous, asked.get(row.number, {}), problems)
    # the keys of the turn's secrets, made once for their checks and the replay
    seed = bytes.fromhex(game.seed)
    hidden = hidden_turn_key(seed, row.number)
    keyed = orders_key(seed, row.number) if row.orders_key else b""
    problems.extend(_secret_key_problems(game, row, hidden, keyed))
    return _verify_replay(ruleset, row, previous, keys[row.number], hidden, keyed, stored_hash, passed, problems)


def _stored_row_problems(rows: list[TurnRow], index: int, stored_hash: str) -> list[str]:
    """The row against its own hash (`stored_hash`, that of its text) and its place after the turn before it."""
    row, found = rows[index], []
    if stored_hash != row.state_hash:
        found.append(f"turn {row.number}: the stored state does not match its hash")
    if index and row.number != rows[index - 1].number + 1:
        found.append(f"turn {row.number}: follows turn {rows[index - 1].number}; the turns between are missing")
    return found


def _replayable(
    ruleset: Ruleset,
    game: GameRow,
    seats: list[str],
    rows: list[TurnRow],
    index: int,
    previous: Any,
    chain_length: int,
    passed: list[str],
    problems: list[str],
) -> bool:
    """Whether the turn is replayed from the keyed dice; if not, the verdict on it (setup, import or edit)."""
    row = rows[index]
    # only `pbem new --from-snapshot` stores an imported position, as the game's first turn;
    # nothing stores dice from a file. Such a turn cannot be replayed from the verifiable dice: it was edited.
    if row.dice_source == "given":
        problems.append(
            f"turn {row.number}: its dice are marked as given from a dice file, which no stored turn "
            "can be: the turn was edited and its dice cannot be checked"
        )
    elif row.dice_source == "imported" and index:
        problems.append(
            f"turn {row.number}: marked as an imported position, which only a game's first turn "
            "can be: the turn was edited and cannot be checked"
        )
    elif row.dice_source == "imported":
        passed.append(f"turn {row.number}: the game starts from an imported position (not replayed)")
    elif row.dice_source != "keyed":
        problems.append(f"turn {row.number}: unknown dice source {row.dice_source!r}")
    elif row.number == 0 and not index:
        expected = ruleset.initial_state(game.name, _setup_seats(ruleset, row, seats, problems))
        same = hashlib.sha256(_as_stored(ruleset.snapshot_text(expected), row).encode()).hexdigest() == row.state_hash
        (passed if same else problems).append(f"turn 0: setup {'matches' if same else 'differs from'} the setup rules")
    elif not index:
        problems.append(f"turn {row.number}: the first stored turn is neither the setup nor an imported position")
    elif previous is None:
        problems.append(f"turn {row.number}: not replayed, the position before it is missing or unreadable")
    elif not 0 < row.number < chain_length:
        problems.append(f"turn {row.number}: outside the game's dice chain; not replayed")
    else:
        return True
    return False


def _chain_key_problems(row: TurnRow, keys: list[bytes]) -> list[str]:
    """The revealed turn key against the dice chain, and no given dice in a keyed turn."""
    found = []
    if row.turn_key != keys[row.number].hex() or not key_follows(row.turn_key, keys[row.number - 1].hex()):
        found.append(f"turn {row.number}: the revealed turn key is not the chain's")
    if row.given_dice:  # only a turn resolved from a dice file has given dice, and it is never stored as keyed
        found.append(f"turn {row.number}: its dice are keyed, yet it holds given dice ({row.given_dice}): edited")
    return found


def _secret_key_problems(game: GameRow, row: TurnRow, hidden: bytes, keyed: bytes) -> list[str]:
    """The keys of the turn's hidden draws and of its orders commitment against those made from the game's seed
    (`hidden`, `keyed`: the latter made where the row has one)."""
    found = []
    if row.hidden_key and row.hidden_key != hidden.hex():
        found.append(f"turn {row.number}: the key of its hidden draws is not the seed's")
    elif not row.hidden_key and row.hidden_dice_json:  # the key salts the chain (ER-13: hidden cards)
        found.append(f"turn {row.number}: it has hidden draws but not the key of them: the turn was edited")
    # each turn's orders hash as it was made: keyed by its orders key (a game that commits keyed), or unkeyed
    if row.orders_key and row.orders_key != keyed.hex():
        found.append(f"turn {row.number}: the key of its orders commitment is not the seed's")
    elif not row.orders_key and game.orders_hash_version >= ORDERS_KEYED:
        found.append(f"turn {row.number}: its orders hash is not keyed, though the game's are: the turn was edited")
    return found + _seat_orders_problems(game, row)


def _seat_orders_problems(game: GameRow, row: TurnRow) -> list[str]:
    """A step of several seats of a game that commits seat by seat stores each seat's text, which joined make its
    orders text (the replay then remakes the commitments from them)."""
    seats, by_seat = step_seats(row), seat_texts(row)
    if by_seat is None:
        return [f"turn {row.number}: its seats' order texts are garbled: the turn was edited"]
    if len(seats) > 1 and row.orders_key and game.orders_hash_version >= ORDERS_BY_SEAT and list(by_seat) != seats:
        return [f"turn {row.number}: its seats' order texts are not stored seat by seat: the turn was edited"]
    if by_seat and step_orders_text(by_seat) != row.orders_text:
        return [f"turn {row.number}: its seats' order texts do not make its orders text: the turn was edited"]
    return []


def _verify_replay(
    ruleset: Ruleset,
    row: TurnRow,
    previous: Any,
    turn_key: bytes,
    hidden: bytes,
    keyed: bytes,
    stored_hash: str,
    passed: list[str],
    problems: list[str],
) -> bool:
    """Replay the turn from the position before it, its orders, answers and dice; compare with what is stored
    (`hidden`, `keyed`: the turn's secret keys; `stored_hash`: the hash of the stored text). True when the replay
    wrote the stored snapshot text itself and its position keeps the invariants."""
    dice = turn_dice(turn_key, row.orders_text, hidden, keyed, seat_texts(row))
    answers = json.loads(row.answers_json)
    # on `previous` itself, a freshly loaded position that is not used again: no copy of it is needed
    result = play(ruleset, previous, row.orders_text, dice, answers, in_place=True)
    text = ruleset.snapshot_text(result.state)
    # a replay that wrote the stored text itself has that text's hash, made once
    replay = replayed_fields(row.orders_text, result, dice, text, stored_hash if text == row.state_json else "")
    differences = [what for what, value in replay.items() if value != getattr(row, what)]
    if row.dice_faces and row.dice_faces != json.dumps(dice.faces_log):  # the faces the reports print
        differences.append("dice_faces")
    if row.hidden_faces and row.hidden_faces != json.dumps(dice.hidden_faces_log):  # the site's, at the end
        differences.append("hidden_faces")
    broken = ruleset.broken_invariants(result.state)
    if differences:
        problems.append(f"{turn_name(row)}: replay differs in {', '.join(differences)}")
        return False
    if broken:
        problems.append(f"{turn_name(row)}: invariants broken: {'; '.join(broken)}")
        return False
    passed.append(f"{turn_name(row)}: replay matches ({len(result.dice)} dice), invariants hold")
    return text == row.state_json  # the hash matched; an edited text under a stale hash is read with every check


def _verify_step(
    ruleset: Ruleset,
    row: TurnRow,
    previous: Any,
    asked: dict[tuple[str, str], str | None],
    problems: list[str],
) -> None:
    """The columns the adjudication takes from the position before the turn (its seats, its round) and from the
    decisions it asked (its answers): a rehashed chain covers an edit of them, the position does not."""
    step = ruleset.due(previous)
    if step is not None and step_seat(step) != row.seat:
        problems.append(
            f"turn {row.number}: stored as the step of {row.seat or 'no seat'}, but the step due was "
            f"{step_seat(step) or 'no seat'}'s: the turn was edited"
        )
    if row.round != ruleset.round_of(previous):
        problems.append(
            f"turn {row.number}: stored in round {row.round}, but it was played in round "
            f"{ruleset.round_of(previous)}: the turn was edited"
        )
    answers = json.loads(row.answers_json)
    if not isinstance(answers, dict):
        return  # the replay names it
    for seat, given in answers.items():
        for key, answer in given.items() if isinstance(given, dict) else ():
            if (seat, key) not in asked:
                problems.append(
                    f"turn {row.number}: it holds {seat}'s answer to {key!r}, which the turn never asked: edited"
                )
            elif asked[(seat, key)] != answer:
                problems.append(
                    f"turn {row.number}: {seat}'s answer to {key!r} is not the one its decision row holds: edited"
                )


def _setup_seats(ruleset: Ruleset, row: TurnRow, seats: list[str], problems: list[str]) -> list[str]:
    """The seats the setup is made for: those its stored snapshot names; seat rows that differ from them are named
    (a seat row renamed, added or deleted) and the setup is checked for the snapshot's seats."""
    try:
        named = list(ruleset.seats_of(ruleset.read_snapshot(json.loads(row.state_json))))
    except Exception:  # noqa: BLE001 (an unreadable state is named by its own check; the seat rows are used)
        named = list(seats)
    for seat in seats:
        if seat not in named:
            problems.append(
                f"turn 0: the game's seat row {seat!r} is not a seat of the setup ({', '.join(named)}): "
                "the seat row was renamed or added"
            )
    known = [seat for seat in named if seat in ruleset.seat_names]
    return sorted(known, key=ruleset.seat_names.index)


def _as_stored(text: str, row: TurnRow) -> str:
    """A setup's snapshot text as a version that did not name the game's data wrote it, when the stored one names
    none (engine/envelope.py data_digest): such a game goes on without it."""
    written = json.loads(text)
    if isinstance(written, dict) and DATA_KEY in written and DATA_KEY not in json.loads(row.state_json):
        return envelope_text({key: value for key, value in written.items() if key != DATA_KEY})
    return text


def _verify_chain(game: GameRow, rows: list[TurnRow], passed: list[str], problems: list[str]) -> None:
    """Follow the turns' chain: each stored link must cover its turn and the link before it,
    and the game's head must be the last turn's, so that an edited, deleted or moved turn is named. Turns stored
    by older versions have no link: it is computed, and they are not failed for it."""
    link, unstored, stored = game.commitment, [], False
    for index, row in enumerate(rows):
        own = chain_hash(link, row, game.chain_version)
        if not row.chain and game.orders_hash_version >= ORDERS_KEYED:  # begun by a version that links every turn
            problems.append(f"turn {row.number}: its chain hash is missing, though the game stores every turn's")
        elif not row.chain:
            if stored:
                problems.append(f"turn {row.number}: its chain hash is missing, though earlier turns have theirs")
            else:
                unstored.append(row.number)
        elif row.chain != own:
            before = f"turn {rows[index - 1].number}" if index else "the dice commitment"
            problems.append(
                f"turn {row.number}: the chain is broken here: this turn was edited, or it does not "
                f"follow {before} as stored (a turn edited, deleted or moved)"
            )
        stored = stored or bool(row.chain)
        link = row.chain or own
    if unstored:
        passed.append(
            f"turns {unstored[0]}-{unstored[-1]}: no chain hash stored (an archive of an older version); computed"
        )
    if not rows:
        problems.append(f"the game has no stored turn (its chain head is turn {game.chain_turn}'s)")
        return
    last = rows[-1].number
    if not game.chain_head:
        if stored:
            problems.append(f"turn {last}: the game's chain head after it is missing, though the turns are linked")
        passed.append(f"chain head (computed) after turn {last}: {link}")
    elif game.chain_head != link or game.chain_turn != last:
        problems.append(
            f"the game's chain head is that of turn {game.chain_turn}, but the chain of the stored turns "
            f"ends at turn {last} with another hash: a turn was deleted or edited "
            f"(head {game.chain_head}, stored turns {link})"
        )
    else:
        passed.append(f"chain head after turn {last}: {link} (the turn's report publishes it)")
