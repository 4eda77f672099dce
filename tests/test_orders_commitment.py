"""Published digests give no sealed order or hidden card away (DESIGN.md "Hidden information", "Randomness").

An observer holds every public report and the site. Each turn's orders hash, mixed into every roll and printed
with the turn key, is a commitment keyed by the turn's secret orders key (engine/chance.py orders_commitment), and
the chain head published each turn is salted with it: an enumeration of order texts, the true one among them,
matches neither. When the game ends its seed is revealed, and with it anybody checks the commitments. Games of
older versions (unkeyed orders hash) verify and play on as they were made, and `pbem verify` names a turn whose
commitment was edited. ER-n.m: games/conqueror-er/rules.md."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import GameRow
from adjudicator.archive.store import close_archives
from adjudicator.engine.chance import (
    KeyedDice,
    fingerprints_commitment,
    orders_commitment,
    orders_digest,
    orders_fingerprint,
    orders_key,
    step_commitment,
    turn_dice,
)
from adjudicator.rulesets import load_ruleset
from adjudicator.services.chain import DIGESTED, chain_hash, turn_digest
from adjudicator.services.clock import SYSTEM_CLOCK
from adjudicator.services.turn import play, turn_row
from tests.conftest import Pbem
from tests.test_conqueror_new import new_er, whole_snapshot
from tests.test_conqueror_resolve_files import short_data

HEX64 = re.compile(r"\b[0-9a-f]{64}\b")
SEATS3 = {"kesh": "k@example.org", "aurel": "a@example.org", "thal": "t@example.org"}
PLANS = 3  # the sealed plans step of round 1 (setup 1, taxation 2)
SECRET_PLAN = "DEFENCE AT KES TACTICS {card}"
FAILED_RECRUIT = "RECRUIT 1 CAV AT AUR"  # refused (ER-6.3: not kesh's area): no event, no public trace


def published(*folders: Path) -> set[str]:
    """Every 64-hex-digit string an observer reads in the public files: reports, public snapshots, the site."""
    found: set[str] = set()
    for folder in folders:
        for path in folder.rglob("*"):
            public = path.name in ("report.txt", "snapshot.json") or folder.name == "site"
            if path.is_file() and public and path.suffix in (".txt", ".json", ".html"):
                found |= set(HEX64.findall(path.read_text(encoding="utf-8")))
    return found


def unkeyed_digests(candidates: list[str]) -> dict[str, str]:
    """What an observer computes of each candidate: the unkeyed orders hash and a plain sha256."""
    digests = {orders_digest([text]): text for text in candidates}
    digests |= {hashlib.sha256(text.encode()).hexdigest(): text for text in candidates}
    return digests


def report_value(report: str, label: str) -> str:
    match = re.search(label + r" ([0-9a-f]{64})", report)
    assert match, f"no {label} in the report"
    return match.group(1)


def test_the_orders_commitment_is_the_documented_formula_and_old_games_keep_their_dice() -> None:
    """HMAC-SHA256(HMAC-SHA256(seed, "orders|<turn>"), SHA-256 of the orders), as the reports tell players; a turn
    without orders key draws exactly as the unkeyed versions did (same orders hash, same rolls)."""
    seed, text = b"s" * 32, "GAME g TURN 7 PLAYER p PASSWORD [removed]\nBUY 1 INF\n"
    key = hmac.new(seed, b"orders|7", hashlib.sha256).digest()
    expected = hmac.new(key, hashlib.sha256(text.encode()).digest(), hashlib.sha256).hexdigest()
    assert orders_key(seed, 7) == key and orders_commitment(key, [text]) == expected
    assert orders_key(seed, 8) != key and expected != orders_digest([text])
    old, before = turn_dice(b"k" * 32, text), KeyedDice(key=b"k" * 32, orders_hash=orders_digest([text]))
    assert old.orders_hash == before.orders_hash and [old.roll("r") for _ in range(9)] == [
        before.roll("r") for _ in range(9)
    ]
    keyed = turn_dice(b"k" * 32, text, orders=key)
    assert keyed.orders_hash == expected and keyed.orders_key == key


def test_a_step_of_several_seats_commits_seat_by_seat_and_a_receipts_fingerprint_checks_each() -> None:
    """Each seat's commitment is HMAC-SHA256(orders key, SHA-256 of its text), the step's orders hash SHA-256 of
    the lines "<seat> <commitment>"; a seat's receipt prints SHA-256 of its text, from which the commitment is
    made without the text. A step of one seat keeps the formula above, whatever its texts are given as."""
    key, texts = b"o" * 32, {"kesh": "GAME g TURN 3 PLAYER kesh PASSWORD [removed]\nDEFENCE AT KES\n", "aurel": ""}
    seats = {seat: hmac.new(key, hashlib.sha256(text.encode()).digest(), hashlib.sha256).hexdigest()
             for seat, text in texts.items()}  # fmt: skip
    lines = f"kesh {seats['kesh']}\naurel {seats['aurel']}\n"
    assert step_commitment(key, texts) == hashlib.sha256(lines.encode()).hexdigest()
    assert fingerprints_commitment(key, [orders_fingerprint(texts["kesh"])]) == seats["kesh"]
    joined = "".join(texts.values())
    by_seat = turn_dice(b"k" * 32, joined, orders=key, by_seat=texts)
    assert by_seat.orders_hash == step_commitment(key, texts) != orders_commitment(key, [joined])
    assert by_seat.by_seat == texts and turn_dice(b"k" * 32, joined, orders=key).orders_hash == seats["kesh"]
    reordered = dict(reversed(texts.items()))  # the step's seat order is part of what is committed
    assert step_commitment(key, reordered) != step_commitment(key, texts)


# --- Conqueror: one seat's sealed plan and a failed recruit --------------------------------------------------


@dataclass(frozen=True)
class ErGame:
    data: Path
    site: Path
    truth: str  # the stored text of the plans step (kesh's orders, password removed)
    by_seat: dict[str, str]  # each seat's text in that step, which commits seat by seat
    card: str  # kesh's only card, in his sealed plan
    areas: list[str]
    cards: list[str]


@pytest.fixture(scope="module")
def er_game(tmp_path_factory: pytest.TempPathFactory) -> ErGame:
    """A Conqueror game of three seats over two rounds (ER-3.1's track shortened) to its end: in the sealed plans
    step (ER-5) kesh plans a defence with his only tactics card and recruits where he may not; aurel and thal send
    nothing. Before the end, the observer takes the public reports and the site."""
    base = tmp_path_factory.mktemp("er-commit")
    pbem = Pbem(base / "data")
    created = new_er(pbem, short_data(base / "er-data"), seats=SEATS3)
    assert created.startswith("0\n"), created
    for line in created.splitlines():  # each seat's password, as `pbem new` prints it
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS3:
            pbem.passwords[parts[0]] = parts[1]
    card = whole_snapshot(pbem, 1)["private"]["kesh"]["hand"][0]
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation (ER-5.2)
    plan = SECRET_PLAN.format(card=card)
    sent = pbem("submit", "er1", str(pbem.orders("kesh", PLANS, plan, FAILED_RECRUIT, game="er1")))
    assert sent.exit_code == 0 and "rejected (ER-6.3)" in sent.output, sent.output
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the plans step
    snapshot = whole_snapshot(pbem, PLANS)
    areas = sorted(snapshot["public"]["army"])
    with Archive.open(pbem.data, None).session() as session:
        row = next(r for r in db.turns(session, db.find_game(session, "er1")) if r.number == PLANS)
        truth, by_seat = row.orders_text, json.loads(row.seat_orders)
    assert plan in truth and FAILED_RECRUIT in truth
    assert by_seat == {seat: truth if seat == "kesh" else "" for seat in by_seat} and len(by_seat) == 3
    assert pbem("site", "er1", "--out", str(base / "site")).exit_code == 0
    observed = base / "observed"  # what the observer holds while the game runs
    shutil.copytree(pbem.data / "games" / "er1", observed / "reports")
    shutil.copytree(base / "site", observed / "site")
    for _ in range(60):  # the rest of the game, every seat silent: its last report reveals the seed (ER-10)
        done = pbem("adjudicate", "er1", "--now")
        if done.exit_code != 0:
            assert "has ended" in done.output, done.output
            break
    else:
        pytest.fail("the game did not end")
    close_archives()
    cards = sorted({c for part in whole_snapshot(pbem, 1)["private"].values() for c in part["hand"]} | {card})
    return ErGame(pbem.data, observed, truth, by_seat, card, areas, cards)


def er_candidates(game: ErGame) -> list[str]:
    """The order texts an observer tries for kesh's plans step: his header as every seat's is stored, then any
    DEFENCE plan with any card in any area, alone or with a refused or accepted recruit, in either order."""
    header = game.truth.splitlines()[0]
    plans = [f"DEFENCE AT {area} TACTICS {card}" for area in game.areas for card in game.cards]
    recruits = [f"RECRUIT {n} {kind} AT {area}" for n in (1, 2) for kind in ("INF", "CAV") for area in game.areas]
    bodies = [[p] for p in plans] + [list(pair) for p in plans for r in recruits for pair in ((p, r), (r, p))]
    candidates = ["\n".join([header, *body]) + "\n" for body in bodies]
    assert game.truth in candidates  # the true text is among them
    return candidates


def test_ER_5_sealed_plans_and_a_failed_recruit_match_no_published_digest(er_game: ErGame) -> None:
    candidates = er_candidates(er_game)
    public = published(er_game.site / "reports", er_game.site / "site")
    report = (er_game.site / "reports" / f"turn-{PLANS:04d}" / "report.txt").read_text(encoding="utf-8")
    assert report_value(report, "orders hash") in public and er_game.card not in report
    found = {digest: text for digest, text in unkeyed_digests(candidates).items() if digest in public}
    assert not found, f"{len(candidates)} candidates: {list(found.values())[:1]} matches a published digest"


def test_ER_10_the_seed_revealed_at_the_end_checks_the_orders_commitment(er_game: ErGame) -> None:
    folder = er_game.data / "games" / "er1"
    last = sorted(folder.glob("turn-*"))[-1] / "report.txt"
    seed = re.search(r"its dice seed is ([0-9a-f]{64})", last.read_text(encoding="utf-8"))
    assert seed, "the last report reveals no seed"
    report = (folder / f"turn-{PLANS:04d}" / "report.txt").read_text(encoding="utf-8")
    key = orders_key(bytes.fromhex(seed.group(1)), PLANS)
    # each seat's commitment, and the step's orders hash made of them (engine/chance.py step_commitment)
    kesh = report_value(report, "orders commitment of kesh:")
    assert orders_commitment(key, [er_game.truth]) == kesh
    assert report_value(report, "orders commitment of aurel:") == orders_commitment(key, [""])
    lines = "".join(f"{seat} {orders_commitment(key, [text])}\n" for seat, text in er_game.by_seat.items())
    assert step_commitment(key, er_game.by_seat) == hashlib.sha256(lines.encode()).hexdigest()
    assert step_commitment(key, er_game.by_seat) == report_value(report, "orders hash")
    others = [text for text in er_candidates(er_game) if text != er_game.truth]
    assert all(orders_commitment(key, [text]) != kesh for text in others[:200])
    verified = Pbem(er_game.data)("verify", "er1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def test_ER_5_a_sealed_step_of_a_game_begun_before_commits_joined_and_resolve_reproduces_it(tmp_path: Path) -> None:
    """A game begun before each seat's orders were committed apart (orders hash version 1) goes on committing to
    the seats' texts joined, prints no seat lines, and `pbem resolve --joined-orders` reproduces its plans step
    byte for byte from the keys; without the switch the same files give another orders hash."""
    pbem = Pbem(tmp_path / "data")
    game_data = short_data(tmp_path / "er-data")
    created = new_er(pbem, game_data, seats=SEATS3)
    assert created.startswith("0\n"), created
    pbem.passwords = {p[0]: p[1] for p in map(str.split, created.splitlines()) if len(p) == 2 and p[0] in SEATS3}
    pbem.sql("UPDATE game SET orders_hash_version = 1")  # as the version before this one made it
    card = whole_snapshot(pbem, 1)["private"]["kesh"]["hand"][0]
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation (ER-5.2)
    plan = pbem.orders("kesh", PLANS, SECRET_PLAN.format(card=card), game="er1")
    assert pbem("submit", "er1", str(plan)).exit_code == 0
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the plans step (ER-5)
    with Archive.open(pbem.data, None).session() as session:
        rows = {r.number: r for r in db.turns(session, db.find_game(session, "er1"))}
    row, before = rows[PLANS], rows[PLANS - 1]
    report = (pbem.data / "games/er1" / f"turn-{PLANS:04d}" / "report.txt").read_text(encoding="utf-8")
    assert row.seat_orders == "" and "orders commitment of" not in report
    assert orders_commitment(bytes.fromhex(row.orders_key), [row.orders_text]) == row.orders_hash
    (tmp_path / "before.json").write_text(before.state_json, encoding="utf-8")
    (tmp_path / "kesh.txt").write_text(row.orders_text, encoding="utf-8")
    given = ["--state", str(tmp_path / "before.json"), "--orders", str(tmp_path / "kesh.txt")]
    given += ["--no-orders", "aurel", "--no-orders", "thal", "--game-data", str(game_data)]
    given += [f"--key={PLANS}={row.turn_key}", f"--hidden-key={PLANS}={row.hidden_key}"]
    given += [f"--orders-key={PLANS}={row.orders_key}"]
    joined = pbem("resolve", *given, "--joined-orders", "--out", str(tmp_path / "joined"), data=False)
    assert joined.exit_code == 0, joined.output
    assert (tmp_path / "joined" / "snapshot.json").read_text(encoding="utf-8") == row.state_json
    assert f"orders hash {row.orders_hash}" in (tmp_path / "joined" / "public.txt").read_text(encoding="utf-8")
    by_seat = pbem("resolve", *given, "--out", str(tmp_path / "by-seat"), data=False)
    assert by_seat.exit_code == 0, by_seat.output
    assert f"orders hash {row.orders_hash}" not in (tmp_path / "by-seat" / "public.txt").read_text(encoding="utf-8")


# --- Conquest of the Empire: a failed order never made public --------------------------------------------------

FAILED_BUY = "BUY 1 FORTIFIED CITY AT BRI"  # refused (C-12.6: he does not control BRI), never made public
MOVE = "MOVE G1 WITH 2 INF: MAC -> THR"


@pytest.fixture(scope="module")
def coe_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """rome1 (Classic) with turn 1 resolved: Macedonia moves and orders a purchase that is refused. The archive is
    copied per case from here."""
    pbem = Pbem(tmp_path_factory.mktemp("coe-commit") / "data")
    pbem.new_game()
    sent = pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, MOVE, FAILED_BUY)))
    assert sent.exit_code == 0 and "rejected (C-12.6)" in sent.output, sent.output
    assert pbem("adjudicate", "rome1").exit_code == 0
    close_archives()
    return pbem.data


@pytest.fixture
def coe(coe_game: Path, tmp_path: Path) -> Pbem:
    shutil.copytree(coe_game.parent, tmp_path / "copy")
    pbem = Pbem(tmp_path / "copy" / "data")
    return pbem


def coe_truth(pbem: Pbem, number: int = 1) -> str:
    with Archive.open(pbem.data, None).session() as session:
        return next(r for r in db.turns(session, db.find_game(session, "rome1")) if r.number == number).orders_text


def coe_candidates(truth: str) -> list[str]:
    """Macedonia's turn as an observer guesses it: the move he saw (the public report tells it) with any purchase
    of 1-9 units, cities or roads in any area of the board, before or after it."""
    header = truth.splitlines()[0]
    areas = sorted(load_ruleset("coe-classic").board.areas)
    things = ["INF", "CAV", "CAT", "GAL", "CITY", "FORTIFIED CITY", "FORTIFICATION"]
    buys = [f"BUY {n} {what} AT {area}" for n in range(1, 10) for what in things for area in areas]
    buys += [f"BUY {n} {what}" for n in range(1, 10) for what in things]
    bodies = [[MOVE]] + [list(pair) for buy in buys for pair in ((MOVE, buy), (buy, MOVE))]
    candidates = ["\n".join([header, *body]) + "\n" for body in bodies]
    assert truth in candidates
    return candidates


def test_C_12_6_a_refused_purchase_matches_no_published_digest(coe: Pbem, tmp_path: Path) -> None:
    truth = coe_truth(coe)
    site = tmp_path / "site"
    assert coe("site", "rome1", "--out", str(site)).exit_code == 0
    report = (coe.data / "games/rome1/turn-0001/report.txt").read_text(encoding="utf-8")
    assert FAILED_BUY not in report
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "The orders hash does not give the orders away: it is HMAC-SHA256(orders key" in index  # how to check it
    setup = (coe.data / "games/rome1/turn-0000/report.txt").read_text(encoding="utf-8")
    assert 'A turn\'s orders key is HMAC-SHA256(seed, "orders|<turn>")' in setup
    public = published(coe.data / "games", site)
    assert report_value(report, "orders hash") in public
    candidates = coe_candidates(truth)
    found = [text for digest, text in unkeyed_digests(candidates).items() if digest in public]
    assert not found, f"{len(candidates)} candidates: {found[:1]} matches a published digest"


SEATS_COMMITMENTS = "A step of several seats prints each seat's commitment"


def test_the_setup_report_explains_seats_commitments_only_where_the_rules_have_steps_of_several_seats(
    coe: Pbem, conqueror_demo: tuple[Path, Result]
) -> None:
    classic = (coe.data / "games/rome1/turn-0000/report.txt").read_text(encoding="utf-8")
    assert "The orders hash is HMAC-SHA256(orders key" in classic and SEATS_COMMITMENTS not in classic
    sealed = (conqueror_demo[0] / "games/demo/turn-0000/report.txt").read_text(encoding="utf-8")  # ER-4.3
    assert SEATS_COMMITMENTS in sealed


def test_C_12_6_the_published_chain_head_gives_no_refused_order_away(coe: Pbem) -> None:
    """The observer replays each candidate from the public snapshot before the turn with the revealed turn key and
    the printed orders hash (every die as the turn rolled it), and hashes the turn as the chain does: the turn's digest
    and the chain head of the report must match none of them, the true one included."""
    truth = coe_truth(coe)
    ruleset = load_ruleset("coe-classic")
    folder = coe.data / "games/rome1"
    before = (folder / "turn-0000/snapshot.json").read_text(encoding="utf-8")
    report = (folder / "turn-0001/report.txt").read_text(encoding="utf-8")
    setup = (folder / "turn-0000/report.txt").read_text(encoding="utf-8")
    previous = report_value(setup, "Archive chain after this turn:")
    head = report_value(report, "Archive chain after this turn:")
    key, printed = report_value(report, "Dice: turn key"), report_value(report, "orders hash")
    game = GameRow(id=1, name="rome1", ruleset=ruleset.name, seed="", commitment="", created="", chain_version=DIGESTED)
    digest = report_value(report, "Turn digest:")
    tried = [truth, *coe_candidates(truth)[:40]]
    for text in tried:
        state = ruleset.read_snapshot(json.loads(before))
        dice = KeyedDice(key=bytes.fromhex(key), orders_hash=printed)
        result = play(ruleset, state, text, dice)
        row = turn_row(ruleset, game, 1, "Macedonia", 1, text, result, dice, clock=SYSTEM_CLOCK)
        assert turn_digest(row) != digest, f"the turn's digest gives {text!r} away"
        assert chain_hash(previous, row, DIGESTED) != head, f"the chain head gives {text!r} away"


def test_the_orders_commitment_is_checked_with_the_seed_and_pbem_verify_passes(coe: Pbem) -> None:
    truth = coe_truth(coe)
    with Archive.open(coe.data, None).session() as session:
        seed = bytes.fromhex(db.find_game(session, "rome1").seed)  # what the game's end reveals
    report = (coe.data / "games/rome1/turn-0001/report.txt").read_text(encoding="utf-8")
    assert orders_commitment(orders_key(seed, 1), [truth]) == report_value(report, "orders hash")
    verified = coe("verify", "rome1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def verify_problems(pbem: Pbem) -> list[str]:
    result: Result = pbem("verify", "rome1")
    return [line.removeprefix("PROBLEM  ") for line in result.output.splitlines() if line.startswith("PROBLEM")]


def test_verify_names_a_turn_whose_orders_commitment_was_edited(coe: Pbem) -> None:
    forged = orders_digest([coe_truth(coe)])  # the unkeyed hash, as if the commitment had never been keyed
    coe.sql(f"update turn set orders_hash = '{forged}' where number = 1")
    close_archives()
    found = verify_problems(coe)
    assert "turn 1 (Macedonia): replay differs in orders_hash" in found, found
    assert any(p.startswith("turn 1: the chain is broken here") for p in found), found


def test_verify_names_a_turn_whose_orders_key_was_edited_or_removed(coe: Pbem) -> None:
    coe.sql("update turn set orders_key = '" + "00" * 32 + "' where number = 1")
    close_archives()
    assert "turn 1: the key of its orders commitment is not the seed's" in verify_problems(coe)
    coe.sql("update turn set orders_key = '' where number = 1")
    close_archives()
    found = verify_problems(coe)
    assert "turn 1: its orders hash is not keyed, though the game's are: the turn was edited" in found, found
    assert "turn 1 (Macedonia): replay differs in orders_hash" in found, found


def test_a_game_made_the_old_way_keeps_its_unkeyed_orders_hash_verifies_and_plays_on(tmp_path: Path) -> None:
    """An archive of an older version lacks the columns: the game is read as unkeyed (orders_hash_version 0), its turns
    go on with the unkeyed orders hash and the same dice as before, and verify passes."""
    pbem = Pbem(tmp_path / "data")
    pbem.new_game()
    for table, column in (("turn", "orders_key"), ("game", "orders_hash_version")):
        pbem.sql(f"alter table {table} drop column {column}")
    close_archives()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, MOVE, FAILED_BUY))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    assert pbem("submit", "rome1", str(pbem.orders("Egyptus", 2, "MOVE G1 WITH 2 INF: EGY -> PAL"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    with Archive.open(pbem.data, None).session() as session:
        game = db.find_game(session, "rome1")
        rows = [r for r in db.turns(session, game) if r.number]
        assert game.orders_hash_version == 0 and [r.orders_key for r in rows] == ["", ""]
        assert all(r.orders_hash == orders_digest([r.orders_text]) for r in rows)  # the dice of before
    report = (pbem.data / "games/rome1/turn-0001/report.txt").read_text(encoding="utf-8")
    assert f"orders hash {rows[0].orders_hash}" in report
    verified = pbem("verify", "rome1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def test_resolve_with_the_orders_key_reproduces_a_stored_turn_byte_for_byte(coe: Pbem, tmp_path: Path) -> None:
    with Archive.open(coe.data, None).session() as session:
        row = next(r for r in db.turns(session, db.find_game(session, "rome1")) if r.number == 1)
    orders = tmp_path / "orders.txt"
    orders.write_text(row.orders_text, encoding="utf-8")
    before = coe.data / "games/rome1/turn-0000/snapshot.json"
    out = tmp_path / "out"
    done = coe("resolve", "--state", str(before), "--orders", str(orders), "--out", str(out),
               "--key", f"1={row.turn_key}", "--orders-key", f"1={row.orders_key}", data=False)  # fmt: skip
    assert done.exit_code == 0, done.output
    assert (out / "snapshot.json").read_text(encoding="utf-8") == row.state_json
    assert f"orders hash {row.orders_hash}" in (out / "public.txt").read_text(encoding="utf-8")
    wrong = coe("resolve", "--state", str(before), "--orders", str(orders), "--out", str(tmp_path / "o2"),
                "--orders-key", "1=" + "00" * 32, data=False)  # fmt: skip
    assert wrong.exit_code != 0 and "--orders-key 1=...: no --key 1=... is given for that turn" in wrong.output


TWO = {"Egyptus": "e@example.org", "Hispania": "h@example.org"}
CAPTURE = "MOVE G1 WITH 5 INF 2 CAV: LUS -> HIS"  # takes Hispania's lone Caesar (C-5.31): the game ends (C-8.8)


def caesar_capture_game(folder: Path, *options: str) -> Pbem:
    """rome1 of two seats (C-3.1) in `folder`, where Egyptus's CAPTURE in turn 1 ends the game: a whole game, seed
    revealed, in one turn; `options`: more options of `pbem new`."""
    pbem = Pbem(folder / "data")
    pbem.new_game(name="template", seats=TWO)
    snapshot = json.loads((pbem.data / "games/template/turn-0000/snapshot.json").read_text(encoding="utf-8"))
    areas, empty = snapshot["areas"], {"caesar": 0, "generals": [], "infantry": 0, "cavalry": 0, "catapult": 0}
    areas["HIS"]["city"] = None
    areas["HIS"]["units"]["Hispania"] = {**empty, "caesar": 1, "galleys": []}
    areas["EGY"]["units"]["Egyptus"] |= {"generals": [2, 3, 4], "infantry": 0}
    areas["LUS"] = {"owner": "Egyptus", "city": None, "roads": []}
    areas["LUS"]["units"] = {"Egyptus": {**empty, "generals": [1], "infantry": 5, "cavalry": 2, "galleys": []}}
    snapshot["players"]["Egyptus"]["tribute"], snapshot["players"]["Hispania"]["tribute"] = 20, 10  # C-9.1
    position = folder / "position.json"
    position.write_text(json.dumps(snapshot), encoding="utf-8")
    seats = [a for seat, mail in TWO.items() for a in ("--seat", f"{seat}={mail}")]
    created = pbem("new", "rome1", "--from-snapshot", str(position), *seats, *options)
    assert created.exit_code == 0, created.output
    pbem.passwords = {
        parts[0]: parts[1]
        for parts in map(str.split, created.output.splitlines())
        if len(parts) == 2 and parts[0] in TWO
    }
    return pbem


def test_C_5_31_C_14_1_a_classic_game_that_ends_reveals_the_seed_that_checks_its_orders_hash(
    tmp_path: Path,
) -> None:
    """Two seats (C-3.1): Egyptus captures Hispania's lone Caesar (C-5.31), which ends the game (C-8.8), and orders
    a purchase after it that is refused (C-14.1: the game is over). Nothing published matches the orders; the last
    report reveals the seed, and with it the observer checks the orders hash against the true orders."""
    pbem = caesar_capture_game(tmp_path)
    observed = published(pbem.data / "games/rome1")  # the setup report, before the turn
    refused = "BUY 1 FORTIFIED CITY AT BRI"
    sent = pbem("submit", "rome1", str(pbem.orders("Egyptus", 1, CAPTURE, refused)))
    assert sent.exit_code == 0 and "rejected (C-14.1)" in sent.output, sent.output
    assert pbem("adjudicate", "rome1").exit_code == 0
    site = tmp_path / "site"
    assert pbem("site", "rome1", "--out", str(site)).exit_code == 0
    report = (pbem.data / "games/rome1/turn-0001/report.txt").read_text(encoding="utf-8")
    assert "Egyptus captures Hispania's Caesar in HIS [C-5.31]" in report and refused not in report
    with Archive.open(pbem.data, None).session() as session:
        truth = next(r for r in db.turns(session, db.find_game(session, "rome1")) if r.number == 1).orders_text
    header = truth.splitlines()[0]
    buys = [f"BUY {n} {what} AT {area}" for n in range(1, 4) for what in ("INF", "CAV", "CITY", "FORTIFIED CITY")
            for area in sorted(load_ruleset("coe-classic").board.areas)]  # fmt: skip
    candidates = [f"{header}\n{CAPTURE}\n{buy}\n" for buy in buys]
    assert truth in candidates
    public = observed | published(pbem.data / "games/rome1", site)
    assert not [text for digest, text in unkeyed_digests(candidates).items() if digest in public]
    seed = re.search(r"its dice seed is ([0-9a-f]{64})", report)
    assert seed, "the last report reveals no seed"
    key = orders_key(bytes.fromhex(seed.group(1)), 1)
    assert orders_commitment(key, [truth]) == report_value(report, "orders hash")
    verified = pbem("verify", "rome1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output
