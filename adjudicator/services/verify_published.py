"""The end of `pbem verify`: the archive held against what has left it, and the stored rows the turns' chain does
not cover.

The chain (services/chain.py) shows that the archive agrees with itself; an archive rewritten along with every
hash agrees with itself too. What has left it cannot be rewritten with it: each report prints the chain head after
its turn ("Archive chain after this turn: <hash>") in the turn files on disk (games/<game>/turn-NNNN/report.txt)
and in the report mails (the outbox rows, and the .eml files `pbem send --eml-dir` wrote). A turn published there
that the archive no longer holds, or holds with another chain head, is named with where it was published.

The rows outside the chain are checked against what they made or what made them: the dice checkpoints against the
seed, the current order sets against the orders each stored turn resolved, the seat rows against the seats the
stored snapshots name."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.engine.chance import ORDERS_KEYED, chain_checkpoints
from adjudicator.errors import PbemError
from adjudicator.orders.keywords import KEYWORD_LANGUAGES
from adjudicator.render.i18n import gettext
from adjudicator.services.chain import chain_hash
from adjudicator.services.game_reads import game_folder, game_ruleset
from adjudicator.services.turn import step_orders_text, step_seats, turn_name

if TYPE_CHECKING:
    from adjudicator.archive.models import GameRow, OrderSetRow, TurnRow
    from adjudicator.archive.verify_rows import GameRows

CHAIN_LINE = "Archive chain after this turn: %(hash)s"  # templates/report.txt.j2
_HASH = re.compile(r"[0-9a-f]{64}")
_TURN_FOLDER = re.compile(r"turn-(\d{4,})(-withdrawn-\d+)?")
_SHOWN = 3  # places named in one problem line; the rest are counted
_SAME_MAIL = timedelta(minutes=1)  # an order mail and the order set it stored are stored together


@dataclass(frozen=True)
class Published:
    """A chain head that left the archive: the turn whose report printed it, the head, and where it was printed."""

    turn: int
    chain: str
    where: str
    kind: str  # "mail" (an outbox row), "file" (a turn's report on disk) or "eml" (a mail `pbem send` wrote)
    withdrawn: bool = False  # in a folder a roll-back moved aside (turn-NNNN-withdrawn-K)


def verify_published(
    stored: GameRows,
    data: Path | None,
    mail_dirs: Sequence[Path],
    passed: list[str],
    problems: list[str],
    notes: list[str] | None = None,
    live: list[TurnRow] | None = None,
) -> None:
    """Check the published chain heads and the rows outside the chain of the game whose rows are `stored`; adds one
    summary line to `passed` when nothing is wrong, a line per problem (naming its turn) to `problems`, and what
    could not be checked (files missing, no data folder) to `notes`. `live`: the game's turns, when the caller has
    kept only some of them."""
    said: list[str] = [] if notes is None else notes
    game, name = stored.game, stored.game.name
    live = stored.turns if live is None else live
    withdrawn = stored.withdrawn
    seat_rows = stored.seats
    seats = [row.seat for row in seat_rows]
    # the languages reports were written in: a catalogue is read only for those (each costs start-up time)
    languages = frozenset(["en", *(row.language for row in seat_rows)])
    languages |= {row.language for row in stored.observers}
    current = stored.order_sets
    order_mails = _order_mails(stored.order_mails)
    mails = [(f"mail {number} to {to}", body) for number, to, body in stored.mails]
    found = len(problems)
    named = {int(m.group(1)) for p in problems if (m := re.match(r"turn (-?\d+)\b", p))}  # verify's own lines
    prefixes = _chain_prefixes(languages)
    mailed = [head for where, body in mails for head in _heads(body, where, "mail", prefixes)]
    counts = {"mails": len(mailed)}
    files = _turn_files(data, name, live, prefixes, said)
    counts["turn files"] = len(files)
    emls = _eml_heads(mail_dirs, name, prefixes, said)
    counts[".eml files"] = len(emls)
    _check_heads(game, [*mailed, *files, *emls], live, withdrawn, problems)
    _check_checkpoints(game, problems)
    sets = _check_order_sets([row for row in live if row.number not in named], current, problems)
    _check_seats(game, live, seats, current, problems)
    _check_order_mails(live, current, order_mails, problems)
    if len(problems) == found:
        heads = ", ".join(f"{count} in {kind}" for kind, count in counts.items())
        passed.append(
            f"rows outside the chain: seats, dice checkpoints and {sets} order set(s) agree with the turns; "
            f"published chain heads ({heads}) agree with the archive"
        )


# -- what left the archive ------------------------------------------------------------------------------------


def _chain_prefixes(languages: frozenset[str]) -> tuple[str, ...]:
    """The chain line before its hash, in each of these languages that a report is written in."""
    return tuple(gettext(language, CHAIN_LINE, hash="") for language in KEYWORD_LANGUAGES if language in languages)


def _heads(text: str, where: str, kind: str, prefixes: tuple[str, ...], withdrawn: bool = False) -> Iterator[Published]:
    """The chain heads a report text prints, each with the turn of the section it ends: a section begins with its
    "=== Turn N ... ===" line (in the reader's language; its first number is the turn)."""
    turn = None
    for line in _marked_lines(text, prefixes):
        if line.startswith("==="):
            number = re.search(r"\d+", line)
            turn = int(number.group()) if number else None
        elif turn is not None and line.startswith(prefixes):
            head = line.rsplit(" ", 1)[-1]
            if _HASH.fullmatch(head):
                yield Published(turn, head, where, kind, withdrawn)


# The line breaks str.splitlines knows besides "\n": a text holding one is read line by line.
_OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _marked_lines(text: str, prefixes: tuple[str, ...]) -> Iterator[str]:
    """The lines of `text` that _heads reads, stripped and in order: each line that begins (past blanks) with a
    section's "===" or a chain line's prefix, found by searching the text for them (a report is mostly other
    lines); a text with line breaks other than "\n" gives all its lines."""
    if any(mark in text for mark in _OTHER_BREAKS):
        yield from (line.strip() for line in text.splitlines())
        return
    begins = set()
    for mark in ("===", *prefixes):
        at = text.find(mark)
        while at >= 0:
            begin = text.rfind("\n", 0, at) + 1
            if begin == at or text[begin:at].isspace():  # str.strip's blanks before it
                begins.add(begin)
            at = text.find(mark, at + 1)
    for begin in sorted(begins):
        end = text.find("\n", begin)
        yield text[begin : end if end >= 0 else len(text)].strip()


def _turn_files(
    data: Path | None, name: str, live: list[TurnRow], prefixes: tuple[str, ...], notes: list[str]
) -> list[Published]:
    """The heads the public reports on disk print (games/<game>/turn-NNNN/report.txt, and the folders a roll-back
    moved aside); what is missing is noted, not failed: `pbem repair` writes it again."""
    if data is None:
        notes.append("turn files not checked: no data folder given")
        return []
    folder = game_folder(data, name)
    found: list[Published] = []
    unchained: list[str] = []
    seen: set[int] = set()
    for path in sorted(folder.glob("turn-*/report.txt")) if folder.is_dir() else []:
        match = _TURN_FOLDER.fullmatch(path.parent.name)
        if match is None:
            continue
        where = str(path.relative_to(data))
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as unreadable:
            notes.append(f"{where} cannot be read ({unreadable.strerror}): not checked")
            continue
        heads = list(_heads(text, where, "file", prefixes, bool(match.group(2))))
        if not heads:
            unchained.append(where)
        found += heads
        if not match.group(2):
            seen.add(int(match.group(1)))
    missing = [row.number for row in live if row.number not in seen]
    if missing:
        notes.append(
            f"turn files not available for turn(s) {spans(missing)} "
            f"({folder}/turn-NNNN/report.txt missing; `pbem repair` writes them): not checked"
        )
    if unchained:
        notes.append(f"no chain head printed in {', '.join(unchained)} (written by an older version): not checked")
    return found


def _eml_heads(mail_dirs: Sequence[Path], name: str, prefixes: tuple[str, ...], notes: list[str]) -> list[Published]:
    """The heads printed in the game's mails that `pbem send --eml-dir` wrote (X-PBEM-Game names the game)."""
    if not mail_dirs:
        return []
    import email  # here: only `pbem verify --eml-dir` reads mail files, and the package costs start-up time
    import email.policy

    found: list[Published] = []
    for folder in mail_dirs:
        if not folder.is_dir():
            notes.append(f"mail folder {folder} not available: its mails not checked")
            continue
        for path in sorted(folder.glob("*.eml")):
            try:
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                if message.get("X-PBEM-Game") != name:
                    continue
                body = message.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
                text = body.get_content() if body is not None else ""
            except (OSError, LookupError, ValueError) as unreadable:  # an unreadable file or a damaged mail
                notes.append(f"{path} cannot be read ({unreadable}): not checked")
                continue
            found += _heads(text, str(path), "eml", prefixes)
    return found


def spans(numbers: list[int]) -> str:
    """1, 2, 3, 5 as "1-3, 5": a long game's missing turns in one short line."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in spans)


def _check_heads(
    game: GameRow, published: list[Published], live: list[TurnRow], withdrawn: set[tuple[int, str]], problems: list[str]
) -> None:
    """Each published head against the archive: the live turn of its number must have it (a report in a folder a
    roll-back moved aside, or a mail sent before the roll-back, may have a withdrawn turn's), and must store it: a
    version that printed a head also stored it, so a blank link under a published head was blanked."""
    stored, link = {}, game.commitment
    for row in live:  # a turn stored by an older version has no link: it is computed, as verify's chain check does
        stored[row.number] = link = row.chain or chain_hash(link, row, game.chain_version)
    wrong: dict[tuple[int, str], list[Published]] = {}
    blank = {row.number for row in live if not row.chain}
    for head in published:
        if stored.get(head.turn) == head.chain and head.turn in blank:
            blank.discard(head.turn)  # named once, with the first place that published it
            problems.append(
                f"turn {head.turn}: its chain hash is missing, but its report published one ({head.where}): the "
                "chain was blanked (an archive made before the chain publishes none)"
            )
        if stored.get(head.turn) == head.chain:
            continue
        if (head.turn, head.chain) in withdrawn and (head.kind != "file" or head.withdrawn):
            continue  # mailed, or moved aside, before `pbem gm rollback` withdrew the turn
        wrong.setdefault((head.turn, head.chain), []).append(head)
    for (turn, chain), heads in sorted(wrong.items()):
        first = {h.kind: h for h in reversed(heads)}  # one place of each kind first: a mail, a file, an .eml
        shown_first = sorted(first.values(), key=lambda h: ("mail", "file", "eml").index(h.kind))
        places = [h.where for h in shown_first] + [h.where for h in heads if h not in shown_first]
        shown = ", ".join(places[:_SHOWN]) + (f" and {len(places) - _SHOWN} more" if len(places) > _SHOWN else "")
        if turn in stored:
            problems.append(
                f"turn {turn}: published with archive chain {chain} ({shown}), but the archive's turn {turn} "
                f"has chain {stored[turn]}: the turn was edited and rehashed, or what was "
                f"published was edited"
            )
        else:
            problems.append(
                f"turn {turn}: published with archive chain {chain} ({shown}), but the archive has no turn "
                f"{turn}: a turn that left the archive was deleted"
            )


# -- rows outside the chain -----------------------------------------------------------------------------------


def _check_checkpoints(game: GameRow, problems: list[str]) -> None:
    """The stored dice checkpoints (GameRow.checkpoints) are keys of the seed's chain: a changed one would give the
    turns before it keys that are not the chain's."""
    if not game.checkpoints:
        if game.orders_hash_version >= ORDERS_KEYED:  # such a game stores them when it begins (services/games.py)
            problems.append(
                "turn 0: the game's dice checkpoints (game.checkpoints) are missing, though the game stored them "
                "when it began: they were blanked (they are made again from the seed, so no key changes)"
            )
        return  # a game of an older version makes them from the seed when first needed
    try:
        seed = bytes.fromhex(game.seed)
    except ValueError:
        return  # verify names the unreadable seed
    try:
        stored = {int(turn): str(key) for turn, key in json.loads(game.checkpoints).items()}
    except (ValueError, TypeError, AttributeError):
        problems.append("the game's dice checkpoints (game.checkpoints) are not readable: they were edited")
        return
    expected = {turn: key.hex() for turn, key in chain_checkpoints(seed).items()}
    for turn, key in sorted(stored.items()):
        if expected.get(turn) != key:
            problems.append(
                f"turn {turn}: the stored dice checkpoint (game.checkpoints) is not the seed's key: it was "
                f"edited, and the turns up to {turn} would be resolved with keys that are not the chain's"
            )


def _check_order_sets(live: list[TurnRow], current: dict[tuple[int, str], OrderSetRow], problems: list[str]) -> int:
    """Each stored turn's orders_text (chained, replayed) is made of its seats' current order sets, as the
    adjudication read them (adjudication.turn_inputs): an order set edited, added or removed afterwards differs.
    The turns given are those verify has not named already (a turn given another seat is not named twice).
    Returns the number of order sets checked."""
    checked = 0
    for row in live:
        seats = step_seats(row)
        if not seats or row.dice_source == "imported":
            continue
        texts = {seat: current[(row.number, seat)].text if (row.number, seat) in current else "" for seat in seats}
        checked += sum(1 for text in texts.values() if text)
        if step_orders_text(texts) == row.orders_text:
            continue
        differ = [seat for seat, text in texts.items() if (text.rstrip("\n") not in row.orders_text) or not text]
        named = ", ".join(differ) or ", ".join(seats)
        problems.append(
            f"{turn_name(row)}: the stored order set of {named} differs from the orders the turn "
            f"resolved: an order set row was edited, added or removed after the turn"
        )
    return checked


def _order_mails(stored: list[tuple[str | None, str]]) -> dict[str, list[datetime]]:
    """Seat -> when each of its mails that stored orders was received (the message table's (seat, received))."""
    found: dict[str, list[datetime]] = {}
    for seat, received in stored:
        try:
            found.setdefault(seat or "", []).append(datetime.fromisoformat(received))
        except ValueError:
            continue  # a damaged time matches no order set: the set is named
    return found


def _check_order_mails(
    live: list[TurnRow],
    current: dict[tuple[int, str], OrderSetRow],
    mails: dict[str, list[datetime]],
    problems: list[str],
) -> None:
    """An order set a stored turn resolved that came by mail has its mail in the message table, received in the same
    minute (the mail is stored first, in the same transaction): a deleted mail row leaves its order set alone."""
    for row in live:
        for seat in step_seats(row):
            stored = current.get((row.number, seat))
            if stored is None or stored.source != "mail" or not stored.text:
                continue
            try:
                at = datetime.fromisoformat(stored.received)
            except ValueError:
                at = None
            if at is None or not any(timedelta(0) <= at - sent <= _SAME_MAIL for sent in mails.get(seat, [])):
                problems.append(
                    f"{turn_name(row)}: the order set of {seat} came by mail (received "
                    f"{stored.received}), but no stored mail of {seat}'s orders was received then: the mail's row "
                    "was deleted or edited"
                )


def _check_seats(
    game: GameRow,
    live: list[TurnRow],
    seats: list[str],
    current: dict[tuple[int, str], OrderSetRow],
    problems: list[str],
) -> None:
    """The seat rows (name, address, password) are the seats the stored snapshots name: a seat renamed in its row
    would hand a seat's orders and reports to a name the game does not have."""
    try:
        ruleset = game_ruleset(game)
    except PbemError:
        return  # verify names the damaged game data
    named: tuple[str, ...] | None = None
    for row in reversed(live):
        try:
            named = ruleset.seats_of(ruleset.read_snapshot(json.loads(row.state_json)))
            break
        except Exception:  # noqa: BLE001 (an unreadable state is named by its own check)
            continue
    if named is None:
        return
    for seat in seats:
        if seat not in named:
            problems.append(
                f"turn {live[-1].number}: the game has a seat row {seat!r}, which no seat of the stored snapshots "
                f"is ({', '.join(named)}): the seat row was renamed"
            )
    for seat in named:
        if seat not in seats:
            problems.append(f"turn {live[-1].number}: seat {seat!r} of the stored snapshots has no seat row")
    for row in live:  # a turn's seat is chained: renamed along with a rehashed chain, it names no seat of the game
        for seat in step_seats(row):
            if seat not in named:
                problems.append(f"turn {row.number}: stored as {seat!r}'s, which is not a seat of the game")
    strangers = sorted({(turn, seat) for turn, seat in current if seat not in named})
    for turn, seat in strangers:
        problems.append(f"turn {turn}: an order set is stored for {seat!r}, which is not a seat of the game")
