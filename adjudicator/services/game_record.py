"""A game's record: every stored turn with its inputs and its secret keys, for a game over by its rules.

While a game runs, its hidden cards, sealed plans and future dice must stay secret, so the reports print only what
the players may see, and a player's check (verify_reports.py) holds them to one another and to the commitments they
print. Once the game is over nothing in it is secret any more. The record then gives the players what `pbem verify`
reads of the archive: the seed, each turn's orders (the seats' texts, passwords removed), answers, keys, hidden
draws and position, and the data the game was played with. Nothing of a player's address or password; and a game
whose orders hold private press (press is an order, covered by the turn's hashes) gets no record.

A player replays it (`pbem verify --from-reports`): every turn resolved again from the position before it, every
hidden draw dealt again from the seed, the chain remade link by link. The chain heads it gives must be those the
reports printed while the game ran, so a record cannot be made up after the game: it is the game the players were
sent, turned into cards, plans and positions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from adjudicator.archive.tables import COLUMNS, TURN
from adjudicator.errors import PbemError
from adjudicator.orders.parser import parse_turn_file
from adjudicator.orders.sets import Press
from adjudicator.rulesets import Ruleset
from adjudicator.services.game_reads import game_ruleset
from adjudicator.services.positions import stored_state

if TYPE_CHECKING:
    from adjudicator.archive.verify_rows import GameRows

RECORD_FORMAT = "pbem game record"
RECORD_VERSION = 1
RECORD_FILE = "record.json"  # the site's copy; a player may keep it under any name ending in it
# What a record keeps of the game row: what the replay and the chain read, nothing of the moderator's mail settings
GAME_FIELDS = (
    *("name", "ruleset", "pace", "seed", "commitment", "status", "created", "chain_head", "chain_turn"),
    *("game_data", "orders_hash_version", "chain_version"),
)
TURN_FIELDS = tuple(column for column in COLUMNS[TURN] if column not in ("id", "game_id", "superseded", "mailed"))
DECISION_FIELDS = ("turn", "seat", "key", "question", "default", "rule", "asked", "answer", "answered")
NUMBERS = frozenset({"number", "round", "turn", "chain_turn", "orders_hash_version", "chain_version"})
MAY_BE_NONE = frozenset({"seat", "answer", "answered"})  # the setup's seat, a decision not answered


def game_over(stored: GameRows) -> bool:
    """Whether the game's rules have ended it: its last position has no step due. A game the moderator ended early
    keeps its seed, as its reports do (reports.hidden_draws_revealed)."""
    if not stored.turns:
        return False
    ruleset = game_ruleset(stored.game)
    return ruleset.due(stored_state(ruleset, stored.turns[-1].state_json)) is None


def press_turns(ruleset: Ruleset, game: Any, turns: Sequence[Any]) -> list[int]:
    """The turns whose orders hold press that stays private after the game: a PRESS to some seats, and in a game of
    anonymous press any press (its text names the sender), as the order parser reads them. Press is an order, so
    its text is in the orders the turn's hashes and chain cover: a record cannot leave it out and still replay."""
    return [row.number for row in turns if _private_press(ruleset, row.orders_text, bool(game.anonymous_press))]


def _private_press(ruleset: Ruleset, text: str, anonymous: bool) -> bool:
    return any(
        isinstance(order, Press) and (anonymous or order.to is not None)
        for orders in parse_turn_file(text, ruleset)
        for order in orders.orders
    )


def game_record(stored: GameRows) -> dict[str, Any]:
    """The record of a game over by its rules whose orders hold no private press; a PbemError for any other: a game
    not over would give away its seed, hidden cards and sealed plans, and private press would be published."""
    game = stored.game
    if not game_over(stored):
        raise PbemError(
            f"game {game.name} is not over by its rules: its record would give away its seed, hidden cards and "
            "sealed plans, so it is made only once the game is over"
        )
    pressed = press_turns(game_ruleset(game), game, stored.turns)
    if pressed:
        shown = ", ".join(map(str, pressed[:10])) + (", ..." if len(pressed) > 10 else "")
        raise PbemError(
            f"game {game.name}: the orders of turn(s) {shown} hold private press, which is part of the orders the "
            "record would publish: no record is made"
        )
    last = stored.turns[-1]  # the record ends with it, whatever the archive holds since
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": {name: getattr(game, name) for name in GAME_FIELDS}
        | {"chain_head": last.chain, "chain_turn": last.number},
        "seats": [seat.seat for seat in stored.seats],
        "turns": [{name: getattr(row, name) for name in TURN_FIELDS} for row in stored.turns],
        "decisions": [{name: getattr(row, name) for name in DECISION_FIELDS} for row in stored.decisions],
        # the seats whose orders the bot gave, which the public reports name (an older record has none)
        "bots": [[number, seat] for number, seats in bot_turns(stored).items() for seat in seats],
    }


def bot_turns(stored: GameRows) -> dict[int, list[str]]:
    """The seats whose orders for each live turn the bot gave (number -> seats in name order; a turn without any is
    left out), as queries.bot_seats reads them of the archive."""
    live = {row.number for row in stored.turns}
    found: dict[int, list[str]] = {}
    for (number, seat), orders in sorted(stored.order_sets.items()):
        if orders.source == "bot" and number in live:
            found.setdefault(number, []).append(seat)
    return found


def record_text(stored: GameRows) -> str:
    """The record as the file holds it: JSON, a field a line, so that a damaged file names its line."""
    return json.dumps(game_record(stored), ensure_ascii=False, indent=1) + "\n"


def record_until(stored: GameRows, chain: str) -> str:
    """The record of the game up to the turn whose chain head is `chain` (a mail's record, made when it is sent: the
    game as it was when the mail was queued); a PbemError when no live turn has that head (the archive changed)."""
    for index, row in enumerate(stored.turns):
        if row.chain == chain:
            return record_text(replace(stored, turns=stored.turns[: index + 1]))
    raise PbemError(f"the turn of this mail's record (chain head {chain[:16]}...) is not in the archive")


def read_record(text: str) -> GameRows:
    """The rows a record holds, as `pbem verify` reads them of the archive (a PbemError naming the line of what is
    wrong with the file)."""
    from adjudicator.archive.verify_rows import GameRows

    try:
        record = json.loads(text)
    except json.JSONDecodeError as bad:
        raise PbemError(f"line {bad.lineno} column {bad.colno}: not JSON ({bad.msg}); truncated?") from None
    except (ValueError, RecursionError) as bad:  # a number of thousands of digits, arrays nested thousands deep
        raise PbemError(f"not a JSON file this check reads ({type(bad).__name__}: {str(bad)[:80]})") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise PbemError(f"not a game record (its format is not {RECORD_FORMAT!r})")
    if record.get("version") != RECORD_VERSION:
        raise PbemError(f"a game record of version {record.get('version')!r}; this version reads {RECORD_VERSION}")
    game = _row(record.get("game"), "game", GAME_FIELDS)
    return GameRows(
        game=game,
        turns=[_row(turn, f"turn {index}", TURN_FIELDS) for index, turn in enumerate(_list(record, "turns"))],
        seats=[SimpleNamespace(seat=seat, language="en") for seat in _list(record, "seats")],
        decisions=[_row(d, f"decision {i}", DECISION_FIELDS) for i, d in enumerate(_list(record, "decisions"))],
        withdrawn=set(),
        observers=[],
        order_sets={(turn, seat): SimpleNamespace(source="bot") for turn, seat in _bots(record)},
        order_mails=[],
        mails=[],
    )


def _bots(record: dict[str, Any]) -> list[tuple[int, str]]:
    """The record's (turn, seat) whose orders the bot gave; none in a record of an older version."""
    found = record.get("bots", [])
    pairs = found if isinstance(found, list) else [None]
    if not all(isinstance(p, list) and len(p) == 2 and type(p[0]) is int and isinstance(p[1], str) for p in pairs):
        raise PbemError("its 'bots' is not a list of [turn, seat]")
    return [(turn, seat) for turn, seat in pairs]


def _list(record: dict[str, Any], key: str) -> list[Any]:
    found = record.get(key)
    if not isinstance(found, list):
        raise PbemError(f"its {key!r} is not a list")
    return found


def _row(fields: Any, what: str, names: tuple[str, ...]) -> SimpleNamespace:
    """A row of the record with the archive's attributes; its missing fields are named."""
    if not isinstance(fields, dict):
        raise PbemError(f"its {what} is not an object")
    missing = [name for name in names if name not in fields]
    if missing:
        raise PbemError(f"its {what} lacks {', '.join(missing)}")
    for name in names:  # each of the archive's type, as the replay reads it
        value = fields[name]
        if name in NUMBERS and (type(value) is not int):
            raise PbemError(f"its {what}'s {name} is not a whole number: {value!r:.60}")
        if name not in NUMBERS and not isinstance(value, str) and not (value is None and name in MAY_BE_NONE):
            raise PbemError(f"its {what}'s {name} is not a text: {value!r:.60}")
    return SimpleNamespace(**{name: fields[name] for name in names}, checkpoints="", id=None)
