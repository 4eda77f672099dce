"""An attacker's edits of a stored game (tests/test_tamper_suite.py): plain SQL on a copy of a SQLite archive, the
turn row's own hashes or the turns' chain recomputed where a case says so, as someone who has read the code would.
Nothing here calls the archive layer: the edits go past it, as they would with the sqlite3 shell."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from adjudicator.engine.chance import orders_commitment, orders_digest, step_commitment
from adjudicator.services.chain import chain_hash


class Tampered:
    """One game of a copied SQLite archive, open for editing with plain SQL (every statement committed at once)."""

    def __init__(self, path: Path, game: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA synchronous = OFF")  # a copy made to be edited: no need to wait for the disk
        found = self.db.execute("SELECT id FROM game WHERE name = ?", (game,)).fetchone()
        assert found is not None, game
        self.game_id: int = found["id"]

    def close(self) -> None:
        self.db.close()

    def sql(self, statement: str, *params: object) -> list[sqlite3.Row]:
        return self.db.execute(statement, params).fetchall()

    def game(self) -> sqlite3.Row:
        return self.sql("SELECT * FROM game WHERE id = ?", self.game_id)[0]

    def set_game(self, **columns: object) -> None:
        assignments = ", ".join(f"{name} = ?" for name in columns)
        self.sql(f"UPDATE game SET {assignments} WHERE id = ?", *columns.values(), self.game_id)

    def turns(self) -> list[sqlite3.Row]:
        """The game's live turns in order, as verify reads them."""
        return self.sql("SELECT * FROM turn WHERE game_id = ? AND superseded = 0 ORDER BY number", self.game_id)

    def turn(self, number: int) -> sqlite3.Row:
        rows = self.sql("SELECT * FROM turn WHERE game_id = ? AND superseded = 0 AND number = ?", self.game_id, number)
        assert len(rows) == 1, number
        return rows[0]

    def set_turn(self, number: int, /, **columns: object) -> None:
        """Overwrite columns of the live turn `number`, and nothing else."""
        assignments = ", ".join(f"{name} = ?" for name in columns)
        statement = f"UPDATE turn SET {assignments} WHERE game_id = ? AND superseded = 0 AND number = ?"
        self.sql(statement, *columns.values(), self.game_id, number)

    def replace_in(self, number: int, column: str, old: str, new: str) -> None:
        """Replace the first `old` of a text column of turn `number` by `new` (which must be there)."""
        text = self.turn(number)[column]
        assert old in text, (number, column, old)
        self.set_turn(number, **{column: text.replace(old, new, 1)})

    def state(self, number: int) -> Any:
        return json.loads(self.turn(number)["state_json"])

    def put_state(self, number: int, snapshot: Any, rehash: bool = True) -> None:
        """Store an edited snapshot as the code writes one (canonical JSON), with its hash recomputed unless not."""
        text = json.dumps(snapshot, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
        self.set_turn(number, state_json=text)
        if rehash:
            self.rehash_state(number)

    def rehash_state(self, number: int) -> None:
        self.set_turn(number, state_hash=hashlib.sha256(self.turn(number)["state_json"].encode()).hexdigest())

    def rehash_chain(self, start: int = 0, head: bool = True) -> None:
        """Recompute the link of every live turn from `start` on (each over the link before it, the commitment
        before the first), and the game's head after the last turn unless `head` is False."""
        link = self.game()["commitment"]
        last = -1
        for row in self.turns():
            if row["number"] >= start:
                link = chain_link(link, row, self.game()["chain_version"])
                self.sql("UPDATE turn SET chain = ? WHERE id = ?", link, row["id"])
            else:
                link = row["chain"]
            last = row["number"]
        if head:
            self.set_game(chain_head=link, chain_turn=last)


def chain_link(previous: str, row: sqlite3.Row, version: int) -> str:
    """A turn's link, by the chain's public formula of the game's chain version (services/chain.py) over the row as
    stored."""
    return chain_hash(previous, SimpleNamespace(**dict(row)), version)  # type: ignore[arg-type]


def orders_hash(row: sqlite3.Row) -> str:
    """The orders hash of a turn's order text as the code makes it: keyed by the turn's orders key (secret like the
    seed, but in the archive), seat by seat in a sealed step that stores its seats' texts, or unkeyed in a turn that
    has none."""
    if row["orders_key"] and row["seat_orders"]:
        return step_commitment(bytes.fromhex(row["orders_key"]), json.loads(row["seat_orders"]))
    if row["orders_key"]:
        return orders_commitment(bytes.fromhex(row["orders_key"]), [row["orders_text"]])
    return orders_digest([row["orders_text"]])
