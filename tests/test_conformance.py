"""One standard for every registered ruleset (the registry, with the test rulesets: tests/registered.py), so that a
new game folder is held to it without anybody writing its tests again. Per ruleset, with its example data where it
takes game data (services/selfplay.py playable):

- a seeded self-played short game keeps the ruleset's invariants after every stored step, and its archive verifies;
- `pbem resolve` of each stored step from its stored snapshot, orders and turn keys writes the archive's next
  snapshot byte for byte (the file interface, DESIGN.md "What a ruleset is");
- a ruleset that hides information (engine/protocol.py hides_information) shows no seat's hidden items to another
  seat: not in the files of the turn folders, the public snapshots, the game's site, nor in the mails `pbem send`
  writes, for a game played by mail (services/bot_demo.py);
- random order texts and mutated snapshots give a result or the tool's own refusal (PbemError) with a message.

Each ruleset's games are played once per module; the whole file takes well under a minute."""

from __future__ import annotations

import email
import hashlib
import json
import os
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import default
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.cli import app
from adjudicator.engine.protocol import hides_information
from adjudicator.errors import PbemError
from adjudicator.rulesets import EXTRA_FOLDERS, Ruleset, load_ruleset
from adjudicator.services.bot_demo import GAME as MAILED
from adjudicator.services.bot_demo import BotDemo, run_bot_demo
from adjudicator.services.game_reads import load_snapshot
from adjudicator.services.orders import check_state_orders
from adjudicator.services.selfplay import SelfPlayStep, header, play_archived_game, playable, selfplay_seats
from adjudicator.services.turn_files import resolve_files
from adjudicator.services.verification import verify
from tests.registered import registered_rulesets, with_test_rulesets
from tests.test_conqueror_resolve_files import StoredStep, step_files, stored_steps
from tests.test_fuzz import paths

RULESETS = sorted(registered_rulesets())
GAME = "conform"
SEED = 5
STEPS = 12  # a short game: a few turns of each seat, or two rounds of Conqueror's steps
SEAT_COUNTS = (3, 2, 4, 5, 6)  # the first count the ruleset's bot takes is played
SCALE = int(os.environ.get("PBEM_FUZZ_SCALE", "1"))  # as in test_fuzz.py: more examples for a longer campaign


@dataclass(frozen=True)
class Played:
    name: str  # the ruleset's registered name
    ruleset: Ruleset  # bound to its example data where it takes game data
    game_data: Path | None  # that data's folder
    data: Path  # the moderator's folder (the SQLite archive and the turn folders)
    seats: tuple[str, ...]
    played: tuple[SelfPlayStep, ...]
    broken: tuple[tuple[int, tuple[str, ...]], ...]  # each played step's number and broken invariants
    steps: tuple[StoredStep, ...]


@pytest.fixture(scope="module", autouse=True)
def registry() -> Iterator[None]:
    """The test rulesets are registered for the whole module (PBEM_RULESETS restored after)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(EXTRA_FOLDERS, with_test_rulesets())
        yield


@contextmanager
def fixed_secrets(name: str) -> Iterator[None]:
    """The games' secret seeds made from a counter, so that a game's dice (and so the suite) repeat run after run."""
    made = iter(range(10_000))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            "adjudicator.services.games.secrets.token_bytes",
            lambda n=32: hashlib.sha256(f"conform:{name}:{next(made)}".encode()).digest()[:n],
        )
        yield


def seats_for(ruleset: Ruleset) -> list[str]:
    for count in SEAT_COUNTS:
        try:
            return selfplay_seats(ruleset, count)
        except ValueError:
            continue
    raise AssertionError(f"{ruleset.name}'s bot takes none of the seat counts {SEAT_COUNTS}")


@pytest.fixture(scope="module", params=RULESETS)
def game(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A seeded self-played short game of the ruleset, every step's invariants recorded as it was stored."""
    name: str = request.param
    ruleset, game_data = playable(load_ruleset(name))
    seats = seats_for(ruleset)
    data = tmp_path_factory.mktemp(f"conform-{name}")
    broken: list[tuple[int, tuple[str, ...]]] = []

    def check(step: SelfPlayStep) -> None:
        broken.append((step.number, tuple(ruleset.broken_invariants(step.state))))

    archive = Archive.open(data, None)
    with fixed_secrets(name):
        played = play_archived_game(
            archive, data, GAME, name, seats, SEED, STEPS, check, check_archive=False, game_data=game_data
        )
    return Played(name, ruleset, game_data, data, tuple(seats), tuple(played), tuple(broken), stored_steps(data, GAME))


def pbem(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


# -- self-play and verification ------------------------------------------------------------------------------------


def test_self_play_keeps_the_invariants_after_every_step(game: Played) -> None:
    assert len(game.played) >= min(STEPS, 3), f"{game.name}: only {len(game.played)} steps played"
    assert [number for number, _ in game.broken] == [step.number for step in game.played]  # every step checked
    assert [(n, b) for n, b in game.broken if b] == []
    assert any(step.accepted for step in game.played), f"{game.name}: the bot's orders were never accepted"
    assert any(step.seats for step in game.steps), f"{game.name}: nobody ordered in the game"


def test_the_self_played_archive_verifies_without_a_problem(game: Played) -> None:
    passed, problems = verify(Archive.open(game.data, None), GAME)
    assert problems == []
    assert len(passed) > len(game.steps)  # a check per stored step, and the chain's


def test_self_play_in_round_pace_with_decisions_asked_keeps_the_invariants_and_verifies(
    game: Played, tmp_path: Path
) -> None:
    """Round pace (`pbem new --pace round`): every seat orders its coming step of the round at once, a seat with
    two steps in a round (Conqueror's plans, then its campaign turn) the second once the first is resolved."""
    archive = Archive.open(tmp_path, None)
    with fixed_secrets(f"{game.name}-round"):
        played = play_archived_game(
            archive, tmp_path, GAME, game.name, list(game.seats), SEED, STEPS, pace="round", decisions="ask",
            game_data=game.game_data,
        )  # fmt: skip
    assert len(played) >= min(STEPS, 3)
    assert all(game.ruleset.broken_invariants(step.state) == [] for step in played)
    assert verify(archive, GAME)[1] == []


# -- the file interface --------------------------------------------------------------------------------------------


def test_resolve_of_each_stored_step_writes_the_archives_next_snapshot_byte_for_byte(
    game: Played, tmp_path: Path
) -> None:
    data = ["--game-data", str(game.game_data)] if game.game_data else []
    for step in game.steps:
        out = tmp_path / f"out-{step.number}"
        done = pbem("resolve", *step_files(step, tmp_path / f"in-{step.number}"), "--out", str(out), *data)
        assert done.exit_code == 0, f"{game.name}, step {step.number}: {done.output}"
        written = (out / "snapshot.json").read_text(encoding="utf-8")
        assert written == step.after, f"{game.name}, step {step.number}: the resolved snapshot differs"
        assert (out / "report.txt").is_file()


def test_resolve_refuses_a_public_or_one_seats_snapshot_of_a_game_that_hides_information(
    game: Played, tmp_path: Path
) -> None:
    if not hides_information(game.ruleset):
        pytest.skip(f"{game.name} hides no information (engine/protocol.py hides_information)")
    data = ["--game-data", str(game.game_data)] if game.game_data else []
    step = ordered_steps(game)[-1]
    args = step_files(step, tmp_path / "in")
    folder = game.data / "games" / GAME / f"turn-{step.number - 1:04d}"
    views = [folder / "snapshot.json", *(folder / f"snapshot-{seat}.json" for seat in game.seats)]
    for view in views:  # the files a turn folder publishes lack the other seats' hidden part
        assert view.is_file()
        args[args.index("--state") + 1] = str(view)
        refused = pbem("resolve", *args, "--out", str(tmp_path / "out"), *data)
        # refused by name, by the service (services/turn_files.py) or by the ruleset's reader
        assert refused.exit_code == 1, f"{view}: {refused.output}"
        assert "a public or one seat's snapshot (not every seat's hidden part)" in refused.output, refused.output
        assert not (tmp_path / "out").exists()


# -- hidden information --------------------------------------------------------------------------------------------


def leaves(value: Any) -> Iterator[str]:
    """The strings of a JSON value that name one thing (a card, a hero): no sentences, no standing orders, and no
    single letter (a home-army group's letter is a word of any text; the group's cards are searched for)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, str) and re.fullmatch(r"[\w][\w-]+", value):
        yield value


def mentions(text: str, item: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(item)}(?![\w-])", text) is not None


def hidden_items(snapshot: dict[str, Any]) -> dict[str, set[str]]:
    """Each seat's hidden items in a whole snapshot: what its private part names that neither the public part nor
    another seat's private part names."""
    private: dict[str, Any] = snapshot.get("private", {})
    public = json.dumps(snapshot["public"], ensure_ascii=False)
    found: dict[str, set[str]] = {}
    for seat, part in private.items():
        others = {item for other, rest in private.items() if other != seat for item in leaves(rest)}
        found[seat] = {item for item in leaves(part) if item not in others and not mentions(public, item)}
    return found


@dataclass(frozen=True)
class Mailed:
    """A short game of the ruleset played by mail (ingest, tick, `pbem send`'s outbox as .eml files)."""

    folder: Path  # the moderator's folder
    hidden: dict[int, dict[str, set[str]]]  # step -> each seat's hidden items after it
    public: tuple[str, ...]  # each step's public part
    addresses: dict[str, str]  # address -> seat


@cache
def mailed(name: str, folder: Path) -> Mailed:
    ruleset, _ = playable(load_ruleset(name))
    seats = seats_for(ruleset)
    with fixed_secrets(name):
        run_bot_demo(folder, lambda _: None, BotDemo(name, len(seats), None, SEED, STEPS))
    archive = Archive.open(folder, None)
    with archive.session() as session:
        found = db.find_game(session, MAILED)
        rows = db.turns(session, found)
        hidden = {row.number: hidden_items(json.loads(row.state_json)) for row in rows}
        public = tuple(json.dumps(json.loads(row.state_json)["public"], ensure_ascii=False) for row in rows)
        addresses = {seat.email: seat.seat for seat in db.game_seats(session, found)}
    return Mailed(folder, hidden, public, addresses)


def assert_hidden_from_others(text: str, hidden: dict[str, set[str]], reader: str | None, where: str) -> None:
    """No seat's hidden item but the reader's own appears in `text` (reader None: the public)."""
    for holder, items in hidden.items():
        if holder == reader:
            continue
        for item in sorted(items):
            assert not mentions(text, item), f"{holder}'s hidden {item!r} reaches {reader or 'the public'}: {where}"


def mail_step(subject: str) -> int:
    """The step a mail was written after: a report's step, the position a receipt checks orders against (the one
    before its step), the setup for a welcome."""
    if found := re.search(r"Report, turn (\d+)", subject):
        return int(found[1])
    if found := re.search(r"Receipt for turn (\d+)", subject):
        return int(found[1]) - 1
    return 0


def test_no_seat_sees_another_seats_hidden_items_in_files_snapshots_site_or_mails(
    game: Played, tmp_path_factory: pytest.TempPathFactory
) -> None:
    if not hides_information(game.ruleset):
        pytest.skip(f"{game.name} hides no information (engine/protocol.py hides_information)")
    played = mailed(game.name, tmp_path_factory.mktemp(f"mailed-{game.name}") / "demo")
    seats = set(played.addresses.values())
    turns = sorted((played.folder / "games" / MAILED).glob("turn-*"))
    assert turns
    checked = 0
    shown: dict[str, int] = dict.fromkeys(seats, 0)  # the hidden items each seat's own files and mails show it
    for turn in turns:
        hidden = played.hidden[int(turn.name.split("-")[1])]
        for path in sorted(turn.iterdir()):
            owner = next((s for s in seats if path.stem.endswith(f"-{s}")), None)
            if path.suffix in (".txt", ".json", ".svg"):
                text = path.read_text(encoding="utf-8")
                assert_hidden_from_others(text, hidden, owner, str(path))
                if owner is not None:
                    shown[owner] += sum(mentions(text, item) for item in hidden.get(owner, ()))
                checked += 1
    # the site shows every step: what is hidden at the end, and was never public before, is in none of its pages
    last = played.hidden[max(played.hidden)]
    still_hidden = {
        s: {i for i in items if not any(mentions(p, i) for p in played.public)} for s, items in last.items()
    }
    for path in sorted((played.folder / "site").rglob("*")):
        if path.is_file() and path.suffix in (".html", ".txt", ".json", ".svg"):
            assert_hidden_from_others(path.read_text(encoding="utf-8"), still_hidden, None, str(path))
            checked += 1
    mails = sorted((played.folder / "mail").glob("*.eml"))
    assert mails
    for path in mails:
        mail = email.message_from_bytes(path.read_bytes(), policy=default)
        assert isinstance(mail, EmailMessage)
        reader = played.addresses.get(str(mail["To"]))
        body = mail.get_body(("plain",))
        assert body is not None, path
        text = f"{mail['Subject']}\n{body.get_content()}"
        for part in mail.iter_attachments():
            payload = part.get_payload(decode=True)
            text += "\n" + (payload.decode("utf-8", "replace") if isinstance(payload, bytes) else "")
        hidden = played.hidden[mail_step(str(mail["Subject"]))]
        assert_hidden_from_others(text, hidden, reader, str(path))
        if reader is not None:
            shown[reader] += sum(mentions(text, item) for item in hidden.get(reader, ()))
        checked += 1
    assert checked > len(turns)
    # the search finds what it looks for: each seat that held hidden items is shown them, where nobody else sees them
    holders = {seat for hidden in played.hidden.values() for seat, items in hidden.items() if items}
    assert holders, "nothing was ever hidden"
    assert all(shown[seat] for seat in holders), f"a seat never saw its own hidden items: {shown}"


# -- bad input -----------------------------------------------------------------------------------------------------


def fuzz(examples: int) -> settings:
    """A fixed seed, few examples, no example database (nothing written beside the tests)."""
    return settings(
        max_examples=examples * SCALE,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def words_of(game: Played) -> list[str]:
    """The words of the game's stored orders, and some that no ruleset takes."""
    found = {word for step in game.steps for text in step.orders.values() for word in re.split(r"\s+", text) if word}
    return sorted(found) + ["", "->", ":", ",", "0", "-1", "99999999999999999999", "ZZZ", "é", "\t", "GAME", "TURN"]


def ordered_steps(game: Played) -> list[StoredStep]:
    steps = [step for step in game.steps if step.seats]
    assert steps, f"{game.name}: nobody ordered in the game"
    return steps


def refused_clearly(error: PbemError) -> None:
    assert str(error).strip(), f"{type(error).__name__} without a message"


@fuzz(examples=12)
@given(data=st.data())
def test_random_order_texts_are_checked_and_resolved_or_refused_with_a_message(
    game: Played, tmp_path: Path, data: st.DataObject
) -> None:
    step = data.draw(st.sampled_from(ordered_steps(game)))
    seat = data.draw(st.sampled_from(step.seats))
    words = words_of(game)
    lines = data.draw(st.lists(st.lists(st.sampled_from(words), max_size=8).map(" ".join), max_size=6))
    head = data.draw(st.sampled_from([header(GAME, step.number, seat, "x"), "", "GAME " + GAME]))
    text = "\n".join([head, *lines]) + "\n"
    try:
        check_state_orders(step.before, text, game.game_data)
    except PbemError as refused:
        refused_clearly(refused)
    out = tmp_path / f"out-{random.Random(text).random()}"
    silent = [other for other in step.seats if other != seat]
    try:
        resolve_files(step.before, [(f"{seat}.txt", text)], None, out, game_data=game.game_data, silent=silent)
    except PbemError as refused:
        refused_clearly(refused)
    else:
        assert (out / "snapshot.json").is_file()


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 10**20), st.floats(), st.sampled_from(["", "x", "ZZZ", "1"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["x", "1"]), inner)),
    max_leaves=4,
)


@fuzz(examples=15)
@given(data=st.data())
def test_mutated_snapshots_resolve_or_are_refused_with_a_message(
    game: Played, tmp_path: Path, data: st.DataObject
) -> None:
    step = data.draw(st.sampled_from(game.steps))
    snapshot = json.loads(step.before)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths(snapshot)[1:]))
        parent = snapshot
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["nudge", "replace", "drop"]))
        if action == "nudge" and type(parent[path[-1]]) is int:
            parent[path[-1]] += data.draw(st.integers(-3, 3))
        elif action == "drop":
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON_VALUES)
    text = json.dumps(snapshot)
    try:
        load_snapshot(text, game.game_data)
    except PbemError as refused:
        refused_clearly(refused)
    out = tmp_path / f"out-{random.Random(text).random()}"
    orders = [(f"{seat}.txt", body) for seat, body in step.orders.items() if body]
    try:
        resolve_files(text, orders, None, out, game_data=game.game_data)
    except PbemError as refused:
        refused_clearly(refused)
