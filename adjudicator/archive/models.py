"""The archive's tables (sqlmodel). Every turn is stored with its inputs so that it can be replayed.

The classes are named ...Row, apart from the engine's and the rulesets' types (a stored turn, TurnRow, is not the
engine's Turn; a stored order set, OrderSetRow, is not a parsed OrderSet); the tables keep their names, so that
every archive made before opens as it was."""

from __future__ import annotations

from sqlalchemy import Index, text
from sqlmodel import Field, SQLModel, UniqueConstraint

from adjudicator.archive import tables  # the tables' names (those of archives made before the Row names)


def _unique_where(name: str, columns: tuple[str, ...], condition: str) -> Index:
    """A partial unique index (SQLite and PostgreSQL both have them): a race that slips past the game lock
    fails on it instead of storing a duplicate. Its condition for PostgreSQL is set when an archive on it is
    opened (store.py, with_partial_conditions): naming it here would load the PostgreSQL dialect in every
    command (40 ms of start-up)."""
    return Index(name, *columns, unique=True, sqlite_where=text(condition), info={PARTIAL_CONDITION: condition})


PARTIAL_CONDITION = "partial_condition"  # Index.info key: the WHERE of a partial index


class GameRow(SQLModel, table=True):
    __tablename__ = tables.GAME
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    ruleset: str
    pace: str = "turn"  # "turn": one player-turn per deadline; "round": a whole round per deadline
    seed: str  # secret dice seed (hex); revealed only turn key by turn key
    commitment: str  # sha256 chain end published in the turn-0 report
    # secret like the seed (it reveals every key up to its turn): the chain's keys of turns 0, 100, 200, ... as
    # JSON {turn: hex}, so that a turn's key costs at most 99 hashes (engine/chance.py); "" until first needed
    checkpoints: str = ""
    status: str = "running"  # "running" | "ended"
    decisions: str = "default"  # "default": a missing decision takes the default at once; "ask": wait
    decision_hours: int = 48  # how long "ask" waits for an answer before the default applies
    moderator: str = ""  # the moderator's mail address (alerts, copies)
    deadline: str | None = None  # when the due turn(s) will be adjudicated (ISO time, UTC)
    turn_hours: int = 72  # time from one adjudication to the next deadline
    reminder_hours: int = 24  # remind seats without orders this long before the deadline
    check_sender: bool = True  # order mail must come from the seat's registered address
    anonymous_press: bool = False  # relayed press does not name its sender
    nmr_alert: int = 2  # alert the moderator after this many missed turns in a row
    bot_after: int = 0  # the ruleset's bot takes a seat over after this many missed steps in a row (0: never)
    paused: bool = False
    created: str
    observers: str = "open"  # "open": anybody may OBSERVE (public reports only); "closed": the moderator adds them
    selfplay: bool = False  # played by `pbem selfplay`: never ticked, never mailed
    # when a turn is resolved before its deadline: "orders", once every due seat's orders are in (and none said
    # WAIT); "ready", once every due seat has said READY (with orders or without)
    early: str = "orders"
    away_days: int = 14  # the longest absence (AWAY) a seat may announce; 0: none
    grace_hours: int = 0  # after the deadline, a turn still waits this long for the seats without orders
    wait_turn: int = 0  # the latest turn a seat said WAIT for: a tick reads the seats' WAIT only for a turn up to it
    chain_head: str = ""  # the chain hash of the latest live turn, set with it ("" in older archives)
    chain_turn: int = -1  # the number of that turn: a deleted last turn is named by verify
    # the moderator's game data the game is played with, as JSON {"files": {file: text}, "mode", "options"} ("" for
    # a ruleset without):
    # every later step and `pbem verify` read these, never the folder `pbem new --game-data` named
    game_data: str = ""
    # how the orders hash of its turns is made (engine/chance.py): 0 unkeyed (games of older versions, to their end),
    # 1 keyed by each turn's secret orders key, revealed with the seed when the game ends; new games take 1
    orders_hash_version: int = 0
    # how a turn's chain link is made (services/chain.py): 0, over the previous link and the turn's fields at once;
    # 1 (games begun since), over the previous link and the turn's digest, which reports print (players follow it)
    chain_version: int = 0
    ticks: int = 0  # the ticks that changed nothing else (PostgreSQL workers): a worker leaves a game ticked since


class SeatRow(SQLModel, table=True):
    __tablename__ = tables.SEAT
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key=f"{tables.GAME}.id", index=True)
    seat: str
    email: str
    password_hash: str  # scrypt, never the password itself
    pending_password_hash: str = ""  # a reset's new password (scrypt): it replaces the old one when first used
    language: str = "en"
    missed: int = 0  # player-turns in a row resolved without orders from this seat (NMR)
    reminded_for: int = 0  # the turn number of the last reminder sent
    timezone: str = ""  # IANA zone (Europe/Berlin) in which mails also state the deadline; "" for UTC only
    resigned: str = ""  # when the player gave the seat up (RESIGN): open until `pbem gm replace`; "" while played
    pending_email: str = ""  # an address asked for by SET ADDRESS, the seat's once it sends the token back
    email_token_hash: str = ""  # sha256 of the token mailed to pending_email
    ready_for: int = 0  # the turn for which the seat said READY (it may be resolved before its deadline)
    wait_for: int = 0  # the turn for which the seat said WAIT (not before the deadline)
    away_from: str = ""  # an absence the player announced (AWAY): its first and last day (YYYY-MM-DD, UTC), whose
    away_until: str = ""  # turns are not counted missed
    run_by_bot: bool = False  # the ruleset's bot orders for the seat (`pbem gm bot`, or the game's bot_after)
    back_from_bot: bool = False  # its player took the seat back from the bot; the next report says so


class TurnRow(SQLModel, table=True):
    """One adjudicated player-turn (number 0 is the setup): the resulting state and all its inputs.
    A turn withdrawn by a roll-back stays archived, marked superseded."""

    __tablename__ = tables.TURN
    __table_args__ = (_unique_where("one_live_turn", ("game_id", "number"), "superseded = false"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key=f"{tables.GAME}.id", index=True)
    number: int
    seat: str | None  # whose player-turn it was (None for the setup)
    round: int
    orders_text: str = ""  # the order set resolved ("" when none was received)
    orders_hash: str = ""
    dice_source: str = "keyed"  # "keyed" (verifiable stream) | "given" (dice file) | "imported" (start position)
    given_dice: str = ""  # the dice file's rolls when dice_source is "given"
    turn_key: str = ""  # revealed key of the dice chain (hex)
    hidden_key: str = ""  # key of the turn's hidden draws (hex): secret like the seed; set in games with hidden cards
    hidden_dice_json: str = ""  # the hidden draws (JSON), which no public output prints
    orders_key: str = ""  # key of its orders commitment (hex): secret like the seed; "" for an unkeyed orders hash
    state_json: str
    state_hash: str
    events_json: str = "[]"
    results_json: str = "[]"
    dice_json: str = "[]"
    answers_json: str = "{}"  # answers to decisions used in this turn (seat -> key -> text)
    superseded: bool = False  # withdrawn by `pbem gm rollback`
    mailed: bool = False  # its reports are in the outbox (set in the transaction that queues them)
    chain: str = ""  # sha256 over the previous turn's chain and this turn's inputs and outputs ("" in older archives)
    created: str
    # the faces of each public draw (JSON list, beside dice_json): reports print them so that a player recomputes
    # the dice; not chained, as a replay makes them again ("" in older archives: their reports print no draws)
    dice_faces: str = ""
    hidden_faces: str = ""  # the same for the hidden draws (hidden_dice_json), shown once the game has ended
    # a step of several seats that commits seat by seat (engine/chance.py step_commitment): each seat's order text
    # (JSON object in the step's seat order, "" for none), orders_text being them joined; "" for any other step
    seat_orders: str = ""


class OrderSetRow(SQLModel, table=True):
    """An order set received for a seat's coming player-turn; a later one replaces it."""

    __tablename__ = tables.ORDER_SET
    __table_args__ = (_unique_where("one_current_order_set", ("game_id", "turn", "seat"), "replaced = false"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key=f"{tables.GAME}.id", index=True)
    turn: int
    seat: str
    text: str
    received: str
    replaced: bool = False
    source: str = "file"  # "file" | "turn-file" | "mail" | "moderator" | "bot" (a seat run by the bot)


class DecisionRow(SQLModel, table=True):
    """A decision a seat was asked to take for a turn being resolved, and its answer once given."""

    __tablename__ = tables.DECISION
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key=f"{tables.GAME}.id", index=True)
    turn: int
    seat: str
    key: str
    question: str
    default: str
    rule: str
    asked: str
    answer: str | None = None
    answered: str | None = None
    notified: bool = False  # the question is in the outbox


class MessageRow(SQLModel, table=True):
    """A received mail, stored once per Message-ID with what became of it."""

    __tablename__ = tables.MESSAGE
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)
    received: str
    sender: str
    subject: str = ""
    raw: str  # the whole message as received
    game: str | None = None
    seat: str | None = None
    outcome: str = ""  # "orders", "answers", "press", "refused: <why>", ...


class OutboxRow(SQLModel, table=True):
    """A mail to send: receipts, reports, notices. It stays queued until delivered."""

    __tablename__ = tables.OUTBOX
    id: int | None = Field(default=None, primary_key=True)
    game: str | None = None
    to: str
    subject: str
    body: str  # plain text: every mail has it
    html: str = ""  # an HTML alternative of the body (report mails: the report with its map)
    map_svg: str = ""  # attached as map.svg (mails queued by older versions; see map_turn)
    created: str
    sent: str | None = None
    attempts: int = 0
    error: str = ""
    secret: str = ""  # the password a welcome or reset mail carries: blanked in its body once it is sent
    in_reply_to: str = ""  # Message-ID of the player's mail this one answers (threading)
    thread: str = ""  # the thread's Message-IDs for References: (space separated; "references" is an SQL word)
    # the map a mail carries is the turn's map, drawn when the mail is sent (services/reports.queued_maps) rather than
    # stored with each seat's mail: the turn is named by its chain head, unique in the archive, and the map is drawn
    # in the mail's language. Their default is the database's too: a pbem older than them, run again on this archive,
    # queues its mails (with map_svg) as it did.
    map_turn: str = Field(default="", sa_column_kwargs={"server_default": ""})
    map_language: str = Field(default="", sa_column_kwargs={"server_default": ""})
    # the chain head of the last turn of the game's record that the mail carries (a player's last report mail, once
    # the game is over by its rules: services/game_record.py), made when the mail is sent; "" for none
    record_turn: str = Field(default="", sa_column_kwargs={"server_default": ""})


class ObserverRow(SQLModel, table=True):
    """An address that receives a game's public reports (never private ones) after OBSERVE, once it has sent back
    the token of its confirmation mail (or the moderator added it); until then it is pending and gets nothing."""

    __tablename__ = tables.OBSERVER
    __table_args__ = (UniqueConstraint("game_id", "email"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key=f"{tables.GAME}.id", index=True)
    email: str
    language: str = "en"
    since: str  # when observing began; while pending, when the confirmation was mailed
    confirmed: bool = True  # False while pending (observers of archives made before the opt-in stay confirmed)
    token_hash: str = ""  # sha256 of the confirmation token while pending
