"""A Conqueror turn's files are made with each piece of work done once: every snapshot view of a turn (the public
one and each seat's) is built once for its report and its file, the ruleset's report context once for all the
seats' private reports; and the files are the same as those made the long way, view by view (ER-6.10: a seat sees
its own hand alone).

The game is self-played from the example data into a real SQLite archive (services/selfplay.py)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.engine.protocol import PUBLIC
from adjudicator.services import reports
from adjudicator.services.game_reads import game_ruleset
from adjudicator.services.positions import stored_state
from adjudicator.services.selfplay import play_archived_game

SEATS = ["kesh", "aurel", "thal"]


@pytest.fixture(scope="module")
def archived(tmp_path_factory: pytest.TempPathFactory) -> tuple[Archive, Path]:
    """A self-played game of three seats, a round and more (plans, campaign turns, the end of a round)."""
    folder = tmp_path_factory.mktemp("written-once")
    archive = Archive.in_folder(folder)
    play_archived_game(archive, folder, "g", "conqueror-er", SEATS, 3, 12, check_archive=False)
    return archive, folder


def stored_turns(archive: Archive) -> Iterator[tuple[Any, Any, Any, str | None]]:
    """Each stored turn with its game row, ruleset and the snapshot text before it."""
    with archive.session() as session:
        game = db.find_game(session, "g")
        rows = db.turns(session, game)
    ruleset = game_ruleset(game)
    before = None
    for row in rows:
        yield game, ruleset, row, before
        before = row.state_json


@pytest.fixture(autouse=True)
def nothing_kept() -> Iterator[None]:
    """Each case renders from scratch (the reports keep what they made in this process)."""
    reports._RENDERED.clear()
    yield
    reports._RENDERED.clear()


def test_ER_6_10_each_view_and_the_report_context_are_made_once_a_turn(
    archived: tuple[Archive, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    archive, _ = archived
    game, ruleset, row, before = list(stored_turns(archive))[-1]
    asked: Counter[Any] = Counter()
    snapshot, report_context = ruleset.snapshot, ruleset.report_context

    def counted_snapshot(state: Any, viewer: str | None = None) -> dict[str, Any]:
        asked["view", viewer] += 1
        return snapshot(state, viewer)

    def counted_context(state: Any) -> dict[str, Any]:
        asked["report_context"] += 1
        return report_context(state)

    monkeypatch.setattr(ruleset, "snapshot", counted_snapshot)
    monkeypatch.setattr(ruleset, "report_context", counted_context)
    files = reports.turn_reports(ruleset, game, row, before=before)
    assert {f"report-{seat}.txt" for seat in SEATS} | {f"snapshot-{seat}.json" for seat in SEATS} <= set(files)
    assert asked == Counter({("view", PUBLIC): 1, **{("view", seat): 1 for seat in SEATS}, "report_context": 1})


def test_ER_6_10_the_files_are_those_made_view_by_view(archived: tuple[Archive, Path]) -> None:
    archive, _ = archived
    compared = 0
    for game, ruleset, row, before in stored_turns(archive):
        files = reports.turn_reports(ruleset, game, row, before=before)
        state = stored_state(ruleset, row.state_json)
        assert files["snapshot.json"] == ruleset.snapshot_text(state, PUBLIC)
        for seat in SEATS:
            own = files[f"snapshot-{seat}.json"]
            assert own == ruleset.snapshot_text(state, seat)
            assert set(json.loads(own)["private"]) == {seat}  # its own hand alone
        compared += 1
    assert compared >= 10


def test_the_turn_files_on_disk_are_the_reports_rendered_again(archived: tuple[Archive, Path]) -> None:
    """What self-play wrote (each view and context made once) is what a fresh process renders for the turn."""
    archive, folder = archived
    for game, ruleset, row, before in stored_turns(archive):
        files = reports.turn_reports(ruleset, game, row, before=before)
        written = folder / "games" / "g" / f"turn-{row.number:04d}"
        for name, text in files.items():
            assert (written / name).read_text(encoding="utf-8") == text, (row.number, name)
        reports._RENDERED.clear()
