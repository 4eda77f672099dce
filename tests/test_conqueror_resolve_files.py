"""The file interface takes every Conqueror position (DESIGN.md "What a ruleset is"): `pbem resolve`, `pbem check
--state` and `pbem new --from-snapshot` take `--game-data DIR`, the snapshot names the digest of the data it was made
with, and resolve reproduces a self-played game step by step from its stored snapshots, orders and turn keys, the
game's last step included. ER-n.m: games/conqueror-er/rules.md."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.cli import app
from adjudicator.engine.envelope import data_digest, envelope_text
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.snapshot_check import schema_problems
from adjudicator.services.game_reads import load_snapshot

EXAMPLE = Path(__file__).resolve().parent.parent / "games/conqueror-er/example-data"
DOCS = Path(__file__).resolve().parent.parent / "docs"


@dataclass(frozen=True)
class StoredStep:
    number: int
    seats: tuple[str, ...]  # who ordered; none for a step nobody orders in
    orders: dict[str, str]  # seat -> its stored order set
    before: str  # the whole snapshot before the step
    after: str  # the whole snapshot the step stored
    turn_key: str
    hidden_key: str
    orders_key: str  # the key of its orders commitment (secret until the game's end)


@dataclass(frozen=True)
class Played:
    folder: Path  # the data folder of the moderator (the archive under data/)
    game_data: Path  # the game's data: the example data in two rounds
    steps: tuple[StoredStep, ...]


def short_data(folder: Path) -> Path:
    """The example data with a game of two rounds (ER-3.1's track of rounds), so that a game ends soon."""
    shutil.copytree(EXAMPLE, folder)
    tracks = folder / "tracks.toml"
    tracks.write_text(tracks.read_text().replace("imperator = 10", "imperator = 2", 1))
    return folder


@cache
def played(base: Path) -> Played:
    """A seeded self-played game of three seats over two rounds, to its end, with every stored step."""
    game_data = short_data(base / "short-data")
    data = base / "moderator"
    done = CliRunner().invoke(
        app,
        ["selfplay", "er1", "--ruleset", "conqueror-er", "--players", "3", "--turns", "200", "--seed", "3"]
        + ["--game-data", str(game_data), "--data", str(data)],
    )
    assert done.exit_code == 0, done.output
    return Played(data, game_data, stored_steps(data, "er1"))


def stored_steps(data: Path, name: str) -> tuple[StoredStep, ...]:
    """Every stored step of game `name` after its first stored position, with what it was resolved from."""
    archive = Archive.open(data, None)
    with archive.session() as session:
        game = db.find_game(session, name)
        rows = db.turns(session, game)
        steps = []
        for before, row in zip(rows, rows[1:], strict=False):
            seats = tuple(row.seat.split(", ") if row.seat else ())
            orders = {}
            for seat in seats:
                stored = db.current_orders(session, game, row.number, seat)
                orders[seat] = stored.text if stored else ""
            steps.append(
                StoredStep(
                    row.number,
                    seats,
                    orders,
                    before.state_json,
                    row.state_json,
                    row.turn_key,
                    row.hidden_key,
                    row.orders_key,
                )
            )
    return tuple(steps)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return played(tmp_path_factory.mktemp("er-files"))


def pbem(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def step_files(step: StoredStep, folder: Path) -> list[str]:
    """The arguments of `pbem resolve` for a stored step: its snapshot before, one orders file per seat that
    orders in it (none for a step nobody orders in), and its turn keys."""
    folder.mkdir(parents=True, exist_ok=True)
    state = folder / "before.json"
    state.write_text(step.before, encoding="utf-8")
    args = ["--state", str(state)]
    for seat, text in step.orders.items():
        if not text:  # the seat sent nothing by the deadline
            args += ["--no-orders", seat]
            continue
        path = folder / f"{seat}.txt"
        path.write_text(text, encoding="utf-8")
        args += ["--orders", str(path)]
    args += ["--key", f"{step.number}={step.turn_key}"]
    if step.hidden_key:
        args += ["--hidden-key", f"{step.number}={step.hidden_key}"]
    if step.orders_key:
        args += ["--orders-key", f"{step.number}={step.orders_key}"]
    return args


def test_ER_13_resolve_with_game_data_reproduces_a_self_played_game_step_by_step(game: Played, tmp_path: Path) -> None:
    phases = set()
    for step in game.steps:
        out = tmp_path / f"out-{step.number}"
        done = pbem("resolve", *step_files(step, tmp_path / f"in-{step.number}"), "--out", str(out),
                    "--game-data", str(game.game_data))  # fmt: skip
        assert done.exit_code == 0, f"step {step.number}: {done.output}"
        assert (out / "snapshot.json").read_text(encoding="utf-8") == step.after, f"step {step.number} differs"
        assert (out / "report.txt").exists() and (out / "public.txt").exists()
        # the orders hash is the archive's keyed commitment, as the step's published report prints it
        archived = (game.folder / f"games/er1/turn-{step.number:04d}/report.txt").read_text(encoding="utf-8")
        printed = archived.split("orders hash ", 1)[1][:64]
        assert step.orders_key and f"orders hash {printed}" in (out / "public.txt").read_text(encoding="utf-8")
        phases.add(json.loads(step.before)["public"]["phase"])
    # every kind of step was resolved from files: the deal, the steps nobody orders in, the sealed plans step
    # (ER-5, ER-6), the campaign turns of one seat each (ER-7) and the game's last step, which ends it (ER-10)
    assert {"setup", "taxation", "plans", "campaign", "end_of_round"} <= phases
    assert json.loads(game.steps[-1].after)["public"]["ended"] is True
    assert len(game.steps) >= 10


def test_ER_10_resolving_the_last_step_writes_its_files_and_an_ended_game_says_so(game: Played, tmp_path: Path) -> None:
    last = game.steps[-1]
    assert not last.seats  # the end of the last round (ER-4.6) is ordered by nobody
    state = tmp_path / "before.json"
    state.write_text(last.before, encoding="utf-8")
    out = tmp_path / "out"
    done = pbem("resolve", "--state", str(state), "--out", str(out), "--game-data", str(game.game_data))
    assert done.exit_code == 0, done.output
    assert f"Turn {last.number} resolved" in done.output
    assert json.loads((out / "snapshot.json").read_text())["public"]["ended"] is True
    ended = tmp_path / "ended.json"
    ended.write_text(last.after, encoding="utf-8")
    again = pbem("resolve", "--state", str(ended), "--out", str(tmp_path / "more"), "--game-data", str(game.game_data))
    assert again.exit_code == 1
    assert f"game er1 has ended (after turn {last.number}): there is no step to resolve" in again.output
    assert not (tmp_path / "more").exists()


def test_ER_13_a_snapshot_names_the_digest_of_its_data_and_other_data_is_refused(game: Played, tmp_path: Path) -> None:
    files = load_ruleset("conqueror-er").game_data.files(game.game_data)  # type: ignore[attr-defined]
    digest = data_digest(files)
    for step in game.steps:
        assert json.loads(step.after)["data_digest"] == digest
    step = next(s for s in game.steps if len(s.seats) > 1)
    other = tmp_path / "other-data"
    shutil.copytree(EXAMPLE, other)  # ten rounds: another game's data
    other_digest = data_digest(load_ruleset("conqueror-er").game_data.files(other))  # type: ignore[attr-defined]
    args = step_files(step, tmp_path / "in")
    refused = pbem("resolve", *args, "--out", str(tmp_path / "out"), "--game-data", str(other))
    assert refused.exit_code == 1
    assert f"the snapshot was made with the game data {digest}" in refused.output
    assert f"{other} is {other_digest}" in refused.output
    assert not (tmp_path / "out").exists()
    bare = pbem("resolve", *args, "--out", str(tmp_path / "out"))
    assert bare.exit_code == 1 and "give the game's data with --game-data DIR" in bare.output
    # the snapshot.json of a turn's folder is the public one: it lacks the hands and the decks' order (ER-6.10)
    public = game.folder / "games/er1" / f"turn-{step.number - 1:04}" / "snapshot.json"
    assert "private" not in json.loads(public.read_text())
    for view in (public, public.with_name("snapshot-kesh.json")):  # and a seat's own: its hand alone
        args[args.index("--state") + 1] = str(view)
        seen = pbem("resolve", *args, "--out", str(tmp_path / "out"), "--game-data", str(game.game_data))
        assert seen.exit_code == 1 and "a public or one seat's snapshot (not every seat's hidden part)" in seen.output
        assert not (tmp_path / "out").exists()


def test_ER_5_check_state_takes_the_sealed_plans_step_and_a_campaign_turn(game: Played, tmp_path: Path) -> None:
    plans = next(s for s in game.steps if len(s.seats) > 1)
    campaign = next(s for s in game.steps if len(s.seats) == 1 and s.orders[s.seats[0]].count("\n") > 1)
    for step in (plans, campaign):
        seat = step.seats[-1]
        state, orders = tmp_path / f"state-{step.number}.json", tmp_path / f"orders-{step.number}.txt"
        state.write_text(step.before, encoding="utf-8")
        orders.write_text(step.orders[seat], encoding="utf-8")
        done = pbem("check", "--state", str(state), str(orders), "--game-data", str(game.game_data))
        assert done.exit_code == 0, done.output
        assert f"turn {step.number}" in done.output.casefold() and "accepted" in done.output.casefold()
    # before the steps nobody orders in that open the round (ER-4.4, ER-5.2), the plans step is the seat's next
    index = game.steps.index(plans)
    earlier = game.steps[index - 1]
    assert not earlier.seats
    state, orders = tmp_path / "state-early.json", tmp_path / "orders-early.txt"
    state.write_text(earlier.before, encoding="utf-8")
    orders.write_text(plans.orders[plans.seats[0]], encoding="utf-8")
    done = pbem("check", "--state", str(state), str(orders), "--game-data", str(game.game_data))
    assert done.exit_code == 0, done.output
    assert f"turn {plans.number}" in done.output.casefold()


def test_ER_13_new_from_snapshot_takes_a_conqueror_position_with_its_data(game: Played, tmp_path: Path) -> None:
    step = next(s for s in game.steps if len(s.seats) > 1)
    position = tmp_path / "position.json"
    position.write_text(step.before, encoding="utf-8")
    seats = [a for seat in step.seats for a in ("--seat", f"{seat}={seat}@example.org")]
    common = ["new", "er2", "--ruleset", "conqueror-er", *seats, "--from-snapshot", str(position)]
    refused = pbem(*common, "--game-data", str(EXAMPLE), "--data", str(tmp_path / "m"))
    assert refused.exit_code == 1 and "the snapshot was made with the game data" in refused.output
    made = pbem(*common, "--game-data", str(game.game_data), "--data", str(tmp_path / "m"))
    assert made.exit_code == 0, made.output
    archive = Archive.open(tmp_path / "m", None)
    with archive.session() as session:
        stored = db.latest_turn(session, db.find_game(session, "er2"))
    snapshot = json.loads(stored.state_json)
    assert snapshot["game"] == "er2" and snapshot["step"] == step.number - 1
    assert snapshot["data_digest"] == json.loads(step.before)["data_digest"]
    assert snapshot["public"] == json.loads(step.before)["public"]


def test_ER_13_self_played_snapshots_match_the_documented_schema(game: Played) -> None:
    schema = json.loads((DOCS / "snapshot-conqueror.schema.json").read_text(encoding="utf-8"))
    for step in game.steps:
        for text in (step.before, step.after):
            assert schema_problems(json.loads(text), schema, schema) == [], step.number
    state, ruleset = load_snapshot(game.steps[-1].after, game.game_data)
    for view in (None, *ruleset.seats_of(state)):  # the public snapshot and each seat's own
        snapshot = ruleset.snapshot(state, view)
        assert schema_problems(snapshot, schema, schema) == []
    wrong = json.loads(game.steps[-1].after)
    area = next(iter(wrong["public"]["army"]))
    wrong["public"]["factions"]["kesh"]["treasure"] = 1
    wrong["public"]["army"][area]["units"]["dragon"] = 1
    wrong["private"]["kesh"]["standing"] = {"ALWAYS": "ATTACK KES"}
    assert sorted(schema_problems(wrong, schema, schema)) == [
        "snapshot.private.kesh.standing: 'ALWAYS' is not of the form " + schema["$defs"]["standing_key"]["pattern"],
        f"snapshot.public.army.{area}.units: 'dragon' is not one of "
        '"cavalry", "infantry", "archer", "elite", "ship", "siege"',
        "snapshot.public.factions.kesh.treasure: not documented",
    ]


def test_ER_13_the_conqueror_snapshot_doc_names_every_field_of_its_schema() -> None:
    doc = (DOCS / "snapshot-conqueror.md").read_text(encoding="utf-8")
    schema = json.loads((DOCS / "snapshot-conqueror.schema.json").read_text(encoding="utf-8"))
    parts = [schema, *(schema["$defs"][name] for name in ("public", "faction_public", "army", "private", "secret"))]
    for name in (field for part in parts for field in part["properties"]):
        assert f"`{name}`" in doc, name
    for key in ("DEFENCE@<area>", "LOSSES", "EXCESS", "CASUALTIES", "RETREAT-SHIPS@<area>", "REINFORCE@<seat>/<area>"):
        assert f"`{key}`" in doc, key
    assert "--game-data DIR" in doc and "--key TURN=HEX" in doc and "--hidden-key TURN=HEX" in doc
    assert "--orders-key TURN=HEX" in doc


def test_ER_13_a_snapshot_that_breaks_the_schema_is_refused_naming_each_field(game: Played, tmp_path: Path) -> None:
    step = next(s for s in game.steps if len(s.seats) > 1)
    broken = json.loads(step.before)
    area = next(iter(broken["public"]["army"]))
    broken["public"]["army"][area]["exhausted"] = {"infantry": -1}
    broken["public"]["factions"]["kesh"]["coins"] = "ten"
    state = tmp_path / "broken.json"
    state.write_text(json.dumps(broken), encoding="utf-8")
    orders = tmp_path / "kesh.txt"
    orders.write_text(step.orders["kesh"], encoding="utf-8")
    refused = pbem("check", "--state", str(state), str(orders), "--game-data", str(game.game_data))
    assert refused.exit_code == 1
    assert "snapshot.public.factions.kesh.coins: 'ten' is not of type integer" in refused.output
    assert f"snapshot.public.army.{area}.exhausted.infantry: -1 is below 1" in refused.output


def test_ER_14_resolve_no_orders_reproduces_the_steps_of_seats_that_sent_nothing(tmp_path: Path) -> None:
    game_data, data = short_data(tmp_path / "short-data"), tmp_path / "moderator"
    seats = [a for seat in ("kesh", "aurel", "thal") for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem("new", "er3", "--ruleset", "conqueror-er", *seats, "--game-data", str(game_data), "--data", str(data))
    assert made.exit_code == 0, made.output
    for _ in range(6):  # nobody sends orders: each step is resolved past its deadline with the defaults (ER-14)
        done = pbem("adjudicate", "er3", "--now", "--data", str(data))
        assert done.exit_code == 0, done.output
    steps = stored_steps(data, "er3")
    assert any(len(s.seats) > 1 for s in steps) and any(len(s.seats) == 1 for s in steps)
    for step in steps:
        assert all(text == "" for text in step.orders.values())
        out = tmp_path / f"out-{step.number}"
        done = pbem("resolve", *step_files(step, tmp_path / f"in-{step.number}"), "--out", str(out),
                    "--game-data", str(game_data))  # fmt: skip
        assert done.exit_code == 0, f"step {step.number}: {done.output}"
        assert (out / "snapshot.json").read_text(encoding="utf-8") == step.after, f"step {step.number} differs"
    campaign = next(s for s in steps if len(s.seats) == 1)
    state = tmp_path / "campaign.json"
    state.write_text(campaign.before, encoding="utf-8")
    other = next(seat for seat in ("kesh", "aurel", "thal") if seat not in campaign.seats)
    refused = pbem("resolve", "--state", str(state), "--no-orders", other, "--out", str(tmp_path / "no"),
                   "--game-data", str(game_data))  # fmt: skip
    assert refused.exit_code == 1
    assert f"--no-orders {other}: the step due, turn {campaign.number}, is {campaign.seats[0]}'s alone" in (
        refused.output
    )
    assert not (tmp_path / "no").exists()


def test_ER_13_a_game_made_before_snapshots_named_their_data_still_verifies(tmp_path: Path) -> None:
    game_data, data = short_data(tmp_path / "short-data"), tmp_path / "moderator"
    seats = [a for seat in ("kesh", "aurel", "thal") for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem("new", "old1", "--ruleset", "conqueror-er", *seats, "--game-data", str(game_data), "--data", str(data))
    assert made.exit_code == 0, made.output
    assert pbem("adjudicate", "old1", "--now", "--data", str(data)).exit_code == 0
    # the archive as an older version wrote it: no data_digest in any snapshot, and no chain hashes yet
    with sqlite3.connect(data / "archive.sqlite") as connection:
        for number, text in connection.execute("SELECT number, state_json FROM turn").fetchall():
            snapshot = json.loads(text)
            del snapshot["data_digest"]
            old = envelope_text(snapshot)
            connection.execute(
                "UPDATE turn SET state_json = ?, state_hash = ?, chain = '' WHERE number = ?",
                (old, hashlib.sha256(old.encode()).hexdigest(), number),
            )
        connection.execute("UPDATE game SET chain_head = '', chain_turn = 0, orders_hash_version = 0")
        connection.execute("DELETE FROM outbox")  # ... whose mails and reports printed no chain head
    for report in (data / "games/old1").glob("turn-*/report.txt"):
        lines = report.read_text().splitlines(keepends=True)
        report.write_text("".join(line for line in lines if not line.startswith("Archive chain after this turn")))
    assert pbem("adjudicate", "old1", "--now", "--data", str(data)).exit_code == 0  # the game goes on as it was
    checked = pbem("verify", "old1", "--data", str(data))
    assert checked.exit_code == 0, checked.output
    assert "turn 0: setup matches the setup rules" in checked.output
