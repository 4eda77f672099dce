"""The turns' chain: each stored turn's hash covers the turn and the link before it, so
that an edited, deleted or moved turn breaks the links from there on."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive.models import GameRow, TurnRow


# What a turn's chain hash covers: its place, its inputs and its outputs. The state is covered
# by its hash, which verify checks against the stored state.
CHAINED = (
    "number",
    "seat",
    "round",
    "orders_text",
    "orders_hash",
    "dice_source",
    "given_dice",
    "turn_key",
    "answers_json",
    "state_hash",
    "events_json",
    "results_json",
    "dice_json",
)


DIGESTED = 1  # GameRow.chain_version of the games whose links are made from the turns' digests


def chain_hash(previous: str, row: TurnRow, version: int = 0) -> str:
    """A turn's link in its game's chain: sha256 over the previous turn's link (the dice commitment before the first
    turn) and the turn's fields, so that editing, deleting or moving a turn breaks the links from there on. In a game
    of chain version DIGESTED, sha256 of the previous link followed by the turn's digest (both in hex): a player who
    holds the reports, which print the digests, follows the links from turn to turn without the archive."""
    if version >= DIGESTED:
        return digest_link(previous, turn_digest(row))
    return hashlib.sha256(json.dumps([previous, *_chained(row)], ensure_ascii=False).encode()).hexdigest()


def digest_link(previous: str, digest: str) -> str:
    """A link of chain version DIGESTED from the previous link and the turn's digest, as a player recomputes it from
    the reports (verify_reports.py)."""
    return hashlib.sha256((previous + digest).encode()).hexdigest()


def turn_digest(row: TurnRow) -> str:
    """sha256 over the turn's chained fields: what its link covers of the turn itself. It tells nothing of private
    orders or hidden draws: a turn that has them chains the secret keys that salt them."""
    return hashlib.sha256(json.dumps(_chained(row), ensure_ascii=False).encode()).hexdigest()


def _chained(row: TurnRow) -> list[object]:
    fields = [getattr(row, name) for name in CHAINED]
    if row.hidden_key:  # a game with hidden cards: its hidden draws are chained, salted by their secret key
        fields += [row.hidden_dice_json, row.hidden_key]
    if row.orders_key:  # its orders are public only in part (a failed order, a sealed plan): salted by the secret
        # key of its orders commitment, or a replay of each candidate order text would find them from the chain
        fields.append(row.orders_key)
    return fields


def chain_head(session: Session, game: GameRow) -> str:
    """The link of the game's latest live turn: stored in the game row, or computed (archives of older versions)."""
    from adjudicator.archive import queries as db

    if game.chain_head:
        return game.chain_head
    link = game.commitment
    for row in db.turns(session, game):
        link = row.chain or chain_hash(link, row, game.chain_version)
    return link


def link_turn(session: Session | None, game: GameRow, row: TurnRow) -> None:
    """Chain a new turn to the game's latest and make it the game's head, in the transaction that stores it
    (`session` None: the game's first turn)."""
    previous = chain_head(session, game) if session is not None else game.commitment
    row.chain = chain_hash(previous, row, game.chain_version)
    game.chain_head, game.chain_turn = row.chain, row.number
