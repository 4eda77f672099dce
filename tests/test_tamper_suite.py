"""The tamper suite: edits of a stored game, each named by `pbem verify` (services/verification.py) with the turn it
touched. A Classic game (coe-classic) and a Conqueror game (conqueror-er, the example data) are played once per
module by the seeded bots through the archive, with the decisions asked (so that answers are stored); each case
copies the SQLite file, applies one edit with plain SQL as an attacker would (tests/tamper.py), recomputing the
row's own hashes or the turns' chain where its id says so ("-rehashed": the row's hashes, the chain from the touched
turn on and the game's head), and runs verify in-process.

The games mail as a real game does: each report, in the outbox and on disk (games/<game>/turn-NNNN/report.txt),
prints the chain head after its turn, and verify holds the archive against those (services/verify_published.py).
An edit that only a published head reveals ("published" cases: the archive agrees with itself) is named once from
the report mails alone and once from the turn files alone (the outbox emptied). The rows outside the chain (seat
rows, dice checkpoints, order sets, decisions) are checked against the turns. What no check can name is said in
docs/moderator.md ("Verification")."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from adjudicator.engine.chance import chain_keys
from adjudicator.engine.envelope import DATA_KEY, data_digest
from adjudicator.rulesets import load_ruleset
from adjudicator.services.games import new_game
from adjudicator.services.selfplay import play_archived_game, playable, selfplay_seats
from adjudicator.services.verification import verify
from tests.tamper import Tampered, orders_hash

GAMES = {"classic": ("coe-classic", 3, 1, 8), "er": ("conqueror-er", 3, 5, 8)}  # ruleset, seats, bot seed, steps


@dataclass(frozen=True)
class Played:
    """A played game's archive (never edited: each case copies it) and the turns the cases touch."""

    folder: Path
    roles: dict[str, int]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Played]]:
    games: dict[str, Played] = {}
    with pytest.MonkeyPatch.context() as patch:  # a fixed dice seed: the same game on every run
        patch.setattr("secrets.token_bytes", lambda size=32: bytes(range(size)))
        # a game that mails, as a real one does: its report mails print the chain heads (a self-play game's do not)
        patch.setattr(
            "adjudicator.services.selfplay.new_game",
            lambda archive, data, options, **k: new_game(archive, data, replace(options, mail={}), **k),
        )
        for name, (ruleset_name, count, seed, steps) in GAMES.items():
            folder = tmp_path_factory.mktemp(name)
            archive = Archive.open(folder, None)
            rules, _ = playable(load_ruleset(ruleset_name))
            seats = selfplay_seats(rules, count)
            play_archived_game(archive, folder / "data", name, ruleset_name, seats, seed, steps, decisions="ask")
            games[name] = Played(folder, roles_of(folder, name))
    close_archives()
    yield games


def roles_of(folder: Path, name: str) -> dict[str, int]:
    """The turns the cases touch, found in the played game: the first with dice rolled, with answers stored, with
    hidden draws, with several seats' orders (a sealed step); a turn in the middle; the last."""
    edit = Tampered(folder / "archive.sqlite", name)
    rows = edit.turns()
    checkpoints = json.loads(edit.game()["checkpoints"])
    edit.close()

    def first(test: Callable[[Any], bool], default: int) -> int:
        return next((row["number"] for row in rows if test(row)), default)

    last = rows[-1]["number"]
    roles = {
        "setup": 0,
        "dice": first(lambda row: row["dice_json"] != "[]", -1),
        "answers": first(lambda row: row["answers_json"] != "{}", -1),
        "orders": first(lambda row: row["orders_text"] != "" and row["results_json"] not in ("[]", "{}"), -1),
        "hidden": first(lambda row: row["hidden_dice_json"] != "", 0),
        "quiet": first(lambda row: row["number"] and row["orders_text"] and row["dice_json"] == "[]", -1),
        "mid": last // 2,
        "checkpoint": max(int(turn) for turn in checkpoints),  # the last dice checkpoint stored
        "last": last,
    }
    assert -1 not in roles.values(), roles  # the game played has every kind of turn the cases need
    assert 0 < roles["mid"] < last - 1 and roles["checkpoint"] > 0
    return roles


def copy_of(played: Played, tmp_path: Path) -> Path:
    shutil.copy(played.folder / "archive.sqlite", tmp_path / "archive.sqlite")
    return tmp_path


def data_of(played: Played) -> Path:
    return played.folder / "data"


def problems_of(folder: Path, name: str, data: Path | None = None) -> list[str]:
    """verify's problems; with `data`, the turn files of the played game there (never edited) are read too."""
    passed, problems = verify(Archive.open(folder, None), name, data)
    return problems


def names_turn(problems: list[str], turn: int | None, says: str) -> bool:
    """A problem line that names `turn` (not a turn whose number merely begins so; any line when None) and says
    `says`."""
    return any((turn is None or re.search(rf"\bturns? {turn}\b", line)) and says in line for line in problems)


# -- the edits ---------------------------------------------------------------------------------------------------

Edit = Callable[[Tampered, int], None]  # an edit of the game, given the number of the turn it touches


def rehashed(edit: Edit) -> Edit:
    """The edit, then the row's orders and state hashes recomputed, and the chain from the turn on with the head."""

    def whole(t: Tampered, n: int) -> None:
        edit(t, n)
        row = t.turn(n)
        if row["dice_source"] == "keyed" and row["number"]:
            t.set_turn(n, orders_hash=orders_hash(row))
        t.rehash_state(n)
        t.rehash_chain(n)

    return whole


def drop_last_line(column: str) -> Edit:
    def edit(t: Tampered, n: int) -> None:
        text = t.turn(n)[column]
        t.set_turn(n, **{column: text[: text.rstrip("\n").rfind("\n")] + "\n"})

    return edit


def json_edit(column: str, change: Callable[[Any], Any]) -> Edit:
    """Load a JSON column, change it, store it as the code writes it."""

    def edit(t: Tampered, n: int) -> None:
        value = change(json.loads(t.turn(n)[column]))
        t.set_turn(n, **{column: json.dumps(value, ensure_ascii=False)})

    return edit


def other_die(dice: list[list[Any]]) -> list[list[Any]]:
    dice[0][1] = dice[0][1] % 6 + 1
    return dice


def other_faces(faces: list[int]) -> list[int]:
    return [faces[0] + 1, *faces[1:]]


def refused_first(results: Any) -> Any:
    verdicts = results if isinstance(results, list) else next(v for v in results.values() if v)
    verdicts[0]["accepted"] = not verdicts[0]["accepted"]
    return results


def other_answers(answers: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    seat, asked = next(iter(answers.items()))
    key = next(iter(asked))
    return {seat: {**asked, key: f"not {asked[key]}"}}


def columns(**values: object) -> Edit:
    return lambda t, n: t.set_turn(n, **values)


def column_from(column: str, change: Callable[[Any], Any]) -> Edit:
    return lambda t, n: t.set_turn(n, **{column: change(t.turn(n)[column])})


def state_edit(change: Callable[[Any], None], rehash: bool = True) -> Edit:
    def edit(t: Tampered, n: int) -> None:
        snapshot = t.state(n)
        change(snapshot)
        t.put_state(n, snapshot, rehash)

    return edit


def some_unit_count(snapshot: Any) -> None:
    """One more unit somewhere: Classic's first force with infantry, Conqueror's first army."""
    if "areas" in snapshot:
        force = next(f for area in snapshot["areas"].values() for f in area["units"].values() if f["infantry"])
        force["infantry"] += 1
    else:
        units = next(iter(snapshot["public"]["army"].values()))["units"]
        kind = next(iter(units))
        units[kind] += 1


def some_owner(snapshot: Any) -> None:
    """An area taken from its owner by another seat."""
    if "areas" in snapshot:
        seats = list(snapshot["players"])
        area = next(a for a in snapshot["areas"].values() if a["owner"])
        area["owner"] = seats[(seats.index(area["owner"]) + 1) % len(seats)]
    else:
        army = snapshot["public"]["army"]
        area = next(a for a in army.values() if a["owner"] not in ("independent", None))
        area["owner"] = "independent"


def some_money(snapshot: Any) -> None:
    if "players" in snapshot:
        next(iter(snapshot["players"].values()))["treasury"] += 10
    else:
        next(iter(snapshot["public"]["factions"].values()))["coins"] += 3


def a_card_in_hand(snapshot: Any) -> None:
    """Conqueror: a tactic card put in a seat's hidden hand."""
    hand = next(iter(snapshot["private"].values()))["hand"]
    hand.append(hand[0] if hand else "hold-the-line")


def drop_turn(t: Tampered, n: int) -> None:
    t.sql("DELETE FROM turn WHERE game_id = ? AND superseded = 0 AND number = ?", t.game_id, n)


def renumber(n: int, to: int) -> Edit:
    return lambda t, _: t.set_turn(n, number=to)


def swap_with_next(t: Tampered, n: int) -> None:
    t.set_turn(n, number=-1)
    t.set_turn(n + 1, number=n)
    t.set_turn(-1, number=n + 1)


def duplicate_as_next(t: Tampered, n: int) -> None:
    """A copy of turn n stored after the game's last turn, with the next number (the chain not extended)."""
    row = dict(t.turn(n))
    last = t.turns()[-1]["number"]
    row.pop("id")
    row["number"] = last + 1
    names = ", ".join(row)
    t.sql(f"INSERT INTO turn ({names}) VALUES ({', '.join('?' for _ in row)})", *row.values())


def drop_and_close_the_gap(t: Tampered, n: int) -> None:
    """Turn n deleted and every later turn moved down by one, the chain rehashed with the head: the gap is hidden."""
    drop_turn(t, n)
    for row in t.turns():
        if row["number"] > n:
            t.set_turn(row["number"], number=row["number"] - 1)
    t.rehash_chain(n)


def fresh_seed(t: Tampered, n: int) -> None:
    """A new seed and its own commitment, the chain rehashed with the head: consistent, but not the game's dice."""
    seed = hashlib.sha256(b"an attacker's seed").digest()
    t.set_game(seed=seed.hex(), commitment=chain_keys(seed, 0)[0].hex(), checkpoints="")
    t.rehash_chain(0)


def game_data_edit(change: Callable[[dict[str, str]], None]) -> Edit:
    """Conqueror: the stored game data (JSON {"files": {name: text}, ...}) changed in one of its files."""

    def edit(t: Tampered, n: int) -> None:
        data = json.loads(t.game()["game_data"])
        change(data["files"])
        t.set_game(game_data=json.dumps(data, sort_keys=True))

    return edit


def replace_in_data(old: str, new: str) -> Callable[[dict[str, str]], None]:
    def change(files: dict[str, str]) -> None:
        name = next(name for name, text in sorted(files.items()) if old in text)
        files[name] = files[name].replace(old, new, 1)

    return change


def add_comment(files: dict[str, str]) -> None:
    name = sorted(files)[0]
    files[name] += "# a comment added after the game began\n"


def a_card_value(files: dict[str, str]) -> None:
    """The first number of the cards' file changed (a hero's cost)."""
    name = "cards.toml"
    match = re.search(r"= (\d+)\n", files[name])
    assert match is not None
    files[name] = files[name][: match.start(1)] + str(int(match[1]) + 1) + files[name][match.end(1) :]


def an_area_name(files: dict[str, str]) -> None:
    name = next(name for name in sorted(files) if name.startswith("board"))
    match = re.search(r'name = "([^"]+)"', files[name])
    assert match is not None
    files[name] = files[name].replace(match[0], 'name = "Elsewhere"', 1)


def a_comment_line(t: Tampered, n: int) -> None:
    """A comment line added at the end of the turn's orders and of the order set they end with: the turn's order
    sets still make its orders."""
    text = t.turn(n)["orders_text"]
    t.set_turn(n, orders_text=text + "# added afterwards\n")
    sets = t.sql("SELECT id, text FROM orderset WHERE game_id = ? AND turn = ? AND replaced = 0", t.game_id, n)
    last = next(row for row in sets if text.endswith(row["text"]))
    t.sql("UPDATE orderset SET text = ? WHERE id = ?", last["text"] + "# added afterwards\n", last["id"])


def unkeyed_orders(t: Tampered, n: int) -> None:
    """The turn's orders key blanked and the game marked as one of unkeyed orders hashes (an older version's)."""
    t.set_game(orders_hash_version=0)
    t.set_turn(n, orders_key="")


def every_chain_blanked(t: Tampered, n: int) -> None:
    """Every link and the head blanked, as in an archive of a version before the chain."""
    t.sql("UPDATE turn SET chain = '' WHERE game_id = ?", t.game_id)
    t.set_game(chain_head="", orders_hash_version=0)


def an_unasked_answer(answers: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    seat, asked = next(iter(answers.items()))
    return {**answers, seat: {**asked, "never.asked": "yes"}}


def order_set_edited(t: Tampered, n: int) -> None:
    (row,) = t.sql("SELECT id, text FROM orderset WHERE game_id = ? AND turn = ? AND replaced = 0", t.game_id, n)[:1]
    t.sql("UPDATE orderset SET text = ? WHERE id = ?", row["text"] + "# added afterwards\n", row["id"])


def first_seat(t: Tampered) -> str:
    return str(t.sql("SELECT seat FROM seat WHERE game_id = ? ORDER BY id", t.game_id)[0]["seat"])


def seat_row_renamed(t: Tampered, n: int) -> None:
    t.sql("UPDATE seat SET seat = 'Nobody' WHERE game_id = ? AND seat = ?", t.game_id, first_seat(t))


def seat_row_deleted(t: Tampered, n: int) -> None:
    t.sql("DELETE FROM seat WHERE game_id = ? AND seat = ?", t.game_id, first_seat(t))


def checkpoint_edited(t: Tampered, n: int) -> None:
    checkpoints = json.loads(t.game()["checkpoints"])
    checkpoints[str(n)] = "00" * 32
    t.set_game(checkpoints=json.dumps(checkpoints))


def data_and_digests(change: Callable[[dict[str, str]], None]) -> Edit:
    """Conqueror: the game data changed and every snapshot made to name its new digest, each state's hash and the
    whole chain with the head redone: the archive agrees with itself; only the published heads tell."""

    def edit(t: Tampered, n: int) -> None:
        game_data_edit(change)(t, n)
        digest = data_digest(json.loads(t.game()["game_data"])["files"])
        for row in t.turns():
            t.put_state(row["number"], {**t.state(row["number"]), DATA_KEY: digest})
        t.rehash_chain(0)

    return edit


@dataclass(frozen=True)
class Case:
    role: str  # the turn the edit touches (roles_of)
    edit: Edit
    says: str  # part of the problem line that names the turn
    # the turn named, relative to the touched one (a deleted turn's successor; Conqueror mails no report of the
    # setup turn 0, only of the setup steps after it: an edit of every turn is named at turn 1); None: none
    named: int | None = 0
    published: bool = False  # only the published heads can tell: named from the mails, and from the turn files
    plain: bool = False  # every problem line is plain words, no Python error text


BOTH: dict[str, Case] = {
    # each column of a turn row, as it is stored (the chain names it) and with the row's hashes and the chain redone
    "orders-text": Case("orders", drop_last_line("orders_text"), "replay differs in"),
    "orders-text-rehashed": Case("orders", rehashed(drop_last_line("orders_text")), "replay differs in"),
    "orders-hash": Case("orders", columns(orders_hash=hashlib.sha256(b"x").hexdigest()), "orders_hash"),
    "answers": Case("answers", json_edit("answers_json", other_answers), "chain is broken"),
    "answers-rehashed": Case("answers", rehashed(json_edit("answers_json", other_answers)), "replay differs in"),
    "answers-dropped-rehashed": Case("answers", rehashed(columns(answers_json="{}")), "replay differs in"),
    "dice": Case("dice", json_edit("dice_json", other_die), "dice_json"),
    "dice-rehashed": Case("dice", rehashed(json_edit("dice_json", other_die)), "dice_json"),
    "dice-dropped-rehashed": Case("dice", rehashed(columns(dice_json="[]")), "dice_json"),
    # the faces the reports print beside each draw, outside the chain: the replay makes them again
    "dice-faces": Case("dice", json_edit("dice_faces", other_faces), "replay differs in dice_faces"),
    "results": Case("orders", json_edit("results_json", refused_first), "results_json"),
    "results-rehashed": Case("orders", rehashed(json_edit("results_json", refused_first)), "results_json"),
    "events": Case("orders", json_edit("events_json", lambda events: events[:-1]), "events_json"),
    "events-rehashed": Case("orders", rehashed(json_edit("events_json", lambda e: e[:-1])), "events_json"),
    "state-without-hash": Case("mid", state_edit(some_unit_count, rehash=False), "does not match its hash"),
    "state-with-hash": Case("mid", state_edit(some_unit_count), "chain is broken"),
    "state-rehashed": Case("mid", rehashed(state_edit(some_unit_count)), "replay differs in state_hash"),
    "state-unreadable-rehashed": Case("mid", rehashed(columns(state_json="{")), "cannot be read"),
    "turn-key": Case("mid", columns(turn_key=hashlib.sha256(b"k").hexdigest()), "turn key is not the chain's"),
    "turn-key-rehashed": Case("mid", rehashed(columns(turn_key="00" * 32)), "turn key is not the chain's"),
    "turn-key-of-the-turn-before": Case(
        "mid", rehashed(lambda t, n: t.set_turn(n, turn_key=t.turn(n - 1)["turn_key"])), "turn key is not"
    ),
    "seat": Case("mid", column_from("seat", lambda seat: f"{seat}x"), "chain is broken"),
    "round": Case("mid", column_from("round", lambda number: number + 1), "chain is broken"),
    "number": Case("mid", column_from("number", lambda number: number + 1000), "the turns between are missing", 1),
    "dice-source-given": Case("mid", columns(dice_source="given"), "marked as given"),
    "dice-source-given-rehashed": Case("dice", rehashed(columns(dice_source="given", given_dice="6 6 6")), "given"),
    "dice-source-imported": Case("mid", columns(dice_source="imported"), "imported position"),
    "dice-source-unknown": Case("mid", columns(dice_source="loaded"), "unknown dice source"),
    "given-dice": Case("dice", columns(given_dice="6 6 6 6"), "chain is broken"),
    # turn rows deleted, moved, duplicated
    "turn-deleted": Case("mid", drop_turn, "the turns between are missing", 1),
    "turn-withdrawn": Case("mid", columns(superseded=True), "the turns between are missing", 1),
    "turn-moved-to-another-game": Case("mid", columns(game_id=999), "the turns between are missing", 1),
    "last-turn-deleted": Case("last", drop_turn, "chain head is that of turn"),
    "setup-deleted": Case("setup", drop_turn, "neither the setup nor an imported position", 1),
    "every-turn-deleted": Case("last", lambda t, n: t.sql("DELETE FROM turn"), "no stored turn"),
    "turn-duplicated-after-the-last": Case("last", duplicate_as_next, "turn key is not the chain's", 1),
    "turns-swapped": Case("mid", swap_with_next, "chain is broken"),
    "turns-swapped-rehashed": Case("mid", lambda t, n: (swap_with_next(t, n), t.rehash_chain(n)), "turn key is"),
    "turn-deleted-gap-closed-rehashed": Case("mid", drop_and_close_the_gap, "turn key is not the chain's"),
    "turn-moved-back": Case("mid", lambda t, n: (drop_turn(t, n - 1), t.set_turn(n, number=n - 1)), "turn", -1),
    # the chain and the game's head
    "chain-link": Case("mid", columns(chain=hashlib.sha256(b"c").hexdigest()), "chain is broken here"),
    "chain-link-blanked": Case("mid", columns(chain=""), "its chain hash is missing"),
    "chain-from-edited-turn-without-head": Case(
        "mid", lambda t, n: (state_edit(some_owner)(t, n), t.rehash_chain(n, head=False)), "replay differs in"
    ),
    "chain-from-edited-turn-with-head": Case(
        "mid", lambda t, n: (state_edit(some_owner)(t, n), t.rehash_chain(n)), "replay differs in"
    ),
    "head-hash": Case("last", lambda t, n: t.set_game(chain_head="ab" * 32), "chain head is that of turn"),
    "head-blanked": Case("last", lambda t, n: t.set_game(chain_head=""), "chain head after it is missing"),
    "setup-chain-blanked": Case("setup", columns(chain=""), "its chain hash is missing"),
    "seat-rehashed": Case("mid", rehashed(column_from("seat", lambda seat: f"{seat}x")), "not a seat of the game"),
    "seat-of-another-rehashed": Case("mid", rehashed(lambda t, n: t.set_turn(n, seat=t.turn(n - 1)["seat"])), "step"),
    "round-rehashed": Case("mid", rehashed(column_from("round", lambda number: number + 1)), "round"),
    "given-dice-keyed-rehashed": Case("dice", rehashed(columns(given_dice="6 6 6 6")), "given dice"),
    "answer-never-asked-rehashed": Case("answers", rehashed(json_edit("answers_json", an_unasked_answer)), "asked"),
    # what only the published heads (the report mails, the turn files) reveal
    "comment-in-orders-rehashed": Case("quiet", rehashed(a_comment_line), "published with archive chain", 0, True),
    "orders-key-downgraded-rehashed": Case("quiet", rehashed(unkeyed_orders), "published with archive", 0, True),
    "last-turn-deleted-head-moved-back": Case(
        "last", lambda t, n: (drop_turn(t, n), t.rehash_chain(0)), "the archive has no turn", 0, True
    ),
    "every-chain-blanked": Case("setup", every_chain_blanked, "its report published", 1, True),
    # rows outside the chain
    "checkpoint-edited": Case("checkpoint", checkpoint_edited, "stored dice checkpoint"),
    "checkpoints-blanked": Case("setup", lambda t, n: t.set_game(checkpoints=""), "are missing"),
    "order-set-edited": Case("orders", order_set_edited, "order set"),
    "seat-row-renamed": Case("setup", seat_row_renamed, "seat row 'Nobody' is not a seat", plain=True),
    "seat-row-deleted": Case("last", seat_row_deleted, "has no seat row", plain=True),
    "game-data-damaged-and-order-set-edited": Case(
        "orders", lambda t, n: (t.set_game(game_data="{"), order_set_edited(t, n)), "order set"
    ),
    "head-turn": Case("last", lambda t, n: t.set_game(chain_turn=n - 1), "ends at turn"),
    # the game's seed and commitment
    "seed": Case("mid", lambda t, n: t.set_game(seed="cd" * 32), "turn key is not the chain's"),
    "seed-unreadable": Case("mid", lambda t, n: t.set_game(seed="not hex"), "outside the game's dice chain"),
    "commitment": Case("setup", lambda t, n: t.set_game(commitment="ef" * 32), "chain is broken here"),
    "seed-and-commitment-replaced-rehashed": Case("mid", fresh_seed, "turn key is not the chain's"),
    # snapshot fields, each with the state's hash, the chain from it and the head redone
    "snapshot-unit-count": Case("last", rehashed(state_edit(some_unit_count)), "replay differs in state_hash"),
    "snapshot-owner": Case("mid", rehashed(state_edit(some_owner)), "replay differs in state_hash"),
    "snapshot-money": Case("mid", rehashed(state_edit(some_money)), "replay differs in state_hash"),
    "snapshot-setup": Case("setup", rehashed(state_edit(some_unit_count)), "setup differs"),
    "snapshot-turn-number": Case(
        "mid", rehashed(state_edit(lambda s: s.update({k: s[k] + 1 for k in ("turn", "step") if k in s}))), "replay"
    ),
    # values no code writes: verify names the turn and goes on, never a traceback
    "answers-not-json": Case("answers", columns(answers_json="{"), "cannot be replayed (JSONDecodeError"),
    "answers-a-list": Case("answers", columns(answers_json="[1]"), "cannot be replayed"),
    "events-an-object-rehashed": Case("mid", rehashed(columns(events_json="{}")), "replay differs in events_json"),
    "results-not-json": Case("mid", columns(results_json="nope"), "replay differs in results_json"),
    "dice-not-json": Case("dice", columns(dice_json="x"), "replay differs in dice_json"),
    "state-a-list-rehashed": Case("mid", rehashed(columns(state_json="[]")), "stored state cannot be read"),
    "state-null-rehashed": Case("last", rehashed(columns(state_json="null")), "stored state cannot be read"),
    "state-bytes": Case("mid", columns(state_json=b"\xff\xfe"), "stored state cannot be read"),
    "state-data-digest-a-number-rehashed": Case(
        "setup", rehashed(state_edit(lambda s: s.update({"data_digest": 5}))), "stored state cannot be read"
    ),
    "turn-key-not-hex": Case("mid", columns(turn_key="zz"), "turn key is not the chain's"),
    "turn-key-blank": Case("mid", columns(turn_key=""), "turn key is not the chain's"),
    "orders-key": Case("orders", columns(orders_key="44" * 32), "key of its orders commitment is not the seed's"),
    "orders-key-blanked-rehashed": Case("orders", rehashed(columns(orders_key="")), "orders hash is not keyed"),
    "hidden-key-not-hex": Case("mid", columns(hidden_key="zz"), "hidden draws is not the seed's"),
    "number-negative": Case("mid", column_from("number", lambda n: n - 100), "the first stored turn is", -100),
    "number-beyond-the-dice-chain": Case(
        "last", column_from("number", lambda n: n + 10**7), "outside the game's dice chain", 10**7
    ),
    "number-a-fraction": Case("mid", column_from("number", lambda n: n + 0.5), "the turns between are missing", 1),
    "seed-blank": Case("mid", lambda t, n: t.set_game(seed=""), "turn key is not the chain's"),
    "seed-of-odd-length": Case("mid", lambda t, n: t.set_game(seed="abc"), "outside the game's dice chain"),
    "commitment-blank": Case("setup", lambda t, n: t.set_game(commitment=""), "chain is broken here"),
    "ruleset-unknown": Case("mid", lambda t, n: t.set_game(ruleset="nope"), "unknown ruleset 'nope'", None),
    "game-data-not-json": Case("mid", lambda t, n: t.set_game(game_data="{"), "not readable JSON", None),
}

ONLY: dict[str, dict[str, Case]] = {
    "classic": {
        "hidden-key-where-none": Case("mid", columns(hidden_key="33" * 32), "hidden draws is not the seed's"),
        "ruleset": Case("setup", lambda t, n: t.set_game(ruleset="coe-1984"), "setup differs"),
    },
    "er": {
        "hidden-key": Case("hidden", columns(hidden_key="11" * 32), "hidden draws is not the seed's"),
        "hidden-key-rehashed": Case("hidden", rehashed(columns(hidden_key="22" * 32)), "hidden draws is not the seed"),
        "hidden-draws": Case("hidden", json_edit("hidden_dice_json", other_die), "chain is broken"),
        "hidden-draws-blanked-rehashed": Case("hidden", rehashed(columns(hidden_dice_json="")), "hidden_dice_json"),
        "hidden-draws-rehashed": Case("hidden", rehashed(json_edit("hidden_dice_json", other_die)), "hidden_dice"),
        "hidden-faces": Case("hidden", json_edit("hidden_faces", other_faces), "replay differs in hidden_faces"),
        "snapshot-card-in-hand": Case("mid", rehashed(state_edit(a_card_in_hand)), "replay differs in state_hash"),
        "ER-13-game-data-card-value": Case("setup", game_data_edit(a_card_value), "the data was changed"),
        "ER-13-game-data-area-name": Case("setup", game_data_edit(an_area_name), "the data was changed"),
        "ER-13-game-data-comment": Case("setup", game_data_edit(add_comment), "the data was changed"),
        "hidden-key-blanked-rehashed": Case("hidden", rehashed(columns(hidden_key="")), "hidden draws"),
        "ER-13-game-data-comment-digests-rewritten": Case(
            "setup", data_and_digests(add_comment), "published with archive chain", 1, True
        ),
        "ER-13-game-data-area-name-digests-rewritten": Case(
            "setup", data_and_digests(an_area_name), "published with archive chain", 1, True
        ),
        "ER-13-game-data-card-value-digests-rewritten": Case(
            "setup", data_and_digests(a_card_value), "published with archive chain", 1, True
        ),
    },
}

CASES = [
    pytest.param(game, case, id=f"{game}-{name}")
    for game in GAMES
    for name, case in [*BOTH.items(), *ONLY[game].items()]
]


@pytest.mark.parametrize(("game", "case"), CASES)
def test_verify_names_the_turn_an_edit_touched(
    played: dict[str, Played], tmp_path: Path, game: str, case: Case
) -> None:
    turn = played[game].roles[case.role]
    folder = copy_of(played[game], tmp_path)
    edit = Tampered(folder / "archive.sqlite", game)
    case.edit(edit, turn)
    edit.close()
    problems = problems_of(folder, game)  # a published head: from the report mails in the outbox
    assert names_turn(problems, None if case.named is None else turn + case.named, case.says), problems
    if case.published:  # ... and from the turn files alone
        edit = Tampered(folder / "archive.sqlite", game)
        edit.sql("DELETE FROM outbox")
        edit.close()
        problems = problems_of(folder, game, data_of(played[game]))
        assert names_turn(problems, None if case.named is None else turn + case.named, case.says), problems
    assert not case.plain or not any("Error" in line or "cannot be replayed" in line for line in problems), problems


@pytest.mark.parametrize("number", ["five", b"\x05"], ids=["text", "bytes"])
def test_verify_names_a_turn_whose_number_is_not_a_number(
    played: dict[str, Played], tmp_path: Path, number: object
) -> None:
    """SQLite stores any value in an INTEGER column: a turn numbered "five" must be named, not crash verify."""
    folder = copy_of(played["classic"], tmp_path)
    edit = Tampered(folder / "archive.sqlite", "classic")
    edit.set_turn(played["classic"].roles["mid"], number=number)
    edit.close()
    problems = problems_of(folder, "classic")
    assert any("is no turn number" in problem for problem in problems), problems
    assert names_turn(problems, played["classic"].roles["mid"] + 1, "the turns between are missing"), problems


def test_the_suite_has_seventy_distinct_edits() -> None:
    assert len({*BOTH, *ONLY["classic"], *ONLY["er"]}) >= 70 and len(CASES) >= 140


@pytest.mark.parametrize("game", GAMES)
def test_the_untouched_game_verifies_clean_and_the_attackers_chain_is_its_own(
    played: dict[str, Played], tmp_path: Path, game: str
) -> None:
    folder = copy_of(played[game], tmp_path)
    edit = Tampered(folder / "archive.sqlite", game)
    before = [row["chain"] for row in edit.turns()], edit.game()["chain_head"]
    edit.rehash_chain(0)  # the helper recomputes exactly what the code stored: a rehashed edit is a real one
    assert ([row["chain"] for row in edit.turns()], edit.game()["chain_head"]) == before
    assert all(orders_hash(row) == row["orders_hash"] for row in edit.turns() if row["number"])
    edit.close()
    assert problems_of(folder, game, data_of(played[game])) == []
