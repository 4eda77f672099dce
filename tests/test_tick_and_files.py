"""`pbem tick` across many games (one game's failure stops no other) and the modes of the files written
(public files follow the umask, private ones stay private)."""

from __future__ import annotations

import gc
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.archive import Archive
from adjudicator.render import write_atomically
from adjudicator.services import deadlines
from tests.conftest import SEATS, Pbem

Write = Callable[[str, str | bytes], Path]


def new_from_snapshot(pbem: Pbem, name: str, position: Path) -> None:
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", name, "--from-snapshot", str(position), *seats)
    assert result.exit_code == 0, result.output


def played_position(pbem: Pbem) -> Path:
    """The snapshot after turn 1 of a game played elsewhere (a position with turn > 0, as a hand-played game)."""
    pbem.new_game(name="elsewhere")
    assert pbem("submit", "elsewhere", str(pbem.orders("Macedonia", 1, "BUY 1 INF", game="elsewhere"))).exit_code == 0
    assert pbem("adjudicate", "elsewhere").exit_code == 0
    return pbem.data / "games/elsewhere/turn-0001/snapshot.json"


def test_tick_handles_a_game_made_from_a_snapshot(pbem: Pbem) -> None:
    new_from_snapshot(pbem, "imported", played_position(pbem))
    pbem.sql("update game set status = 'ended' where name = 'elsewhere'")
    result = pbem("tick")
    assert result.exit_code == 0, result.output
    assert "imported: waiting for Egyptus" in result.output
    assert "KeyError" not in result.output


def test_one_failing_game_stops_no_other_and_the_exit_status_says_so(pbem: Pbem) -> None:
    pbem.new_game(name="broken")
    pbem.new_game(name="rome1")
    pbem.sql("update turn set state_json = 'not json' where game_id = (select id from game where name = 'broken')")
    result = pbem("tick")
    assert result.exit_code == 1
    assert "rome1: waiting for Macedonia" in result.output
    assert "broken: FAILED" in result.output and "JSONDecodeError" in result.output
    assert "Traceback" in result.output  # the trace goes to stderr, for the cron mail


@pytest.fixture
def umask() -> Iterator[Callable[[int], None]]:
    """Set the process umask for one test (restored afterwards)."""
    before = os.umask(0o022)

    def set_umask(mask: int) -> None:
        os.umask(mask)

    yield set_umask
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_public_files_follow_the_umask_and_private_files_stay_private(
    pbem: Pbem, umask: Callable[[int], None], mask: int, tmp_path: Path
) -> None:
    umask(mask)
    public = 0o666 & ~mask
    pbem.new_game()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    game = pbem.data / "games/rome1"
    for name in ("report.txt", "map.svg"):
        assert mode(game / "turn-0001" / name) == public, name
    assert mode(game / "turn-0001/snapshot.json") == 0o600  # it holds every seat's standing orders
    assert mode(game / "turn-0000/report.txt") == public
    for seat in SEATS:
        assert mode(game / f"turn-0001/report-{seat}.txt") == 0o600
        assert mode(game / f"outbox/welcome-{seat}.txt") == 0o600
    site = tmp_path / "site"
    assert pbem("site", "rome1", "--out", str(site)).exit_code == 0
    assert {mode(p) for p in site.iterdir()} == {public}
    assert pbem("tick").exit_code == 0  # queues the report mails
    eml = tmp_path / "eml"
    assert pbem("send", "--eml-dir", str(eml)).exit_code == 0
    assert list(eml.iterdir()) and {mode(p) for p in eml.iterdir()} == {0o600}
    out = tmp_path / "out"
    orders = pbem.orders("Egyptus", 2, "BUY 1 INF")
    result = pbem(
        "resolve",
        "--state",
        str(game / "turn-0001/snapshot.json"),
        "--orders",
        str(orders),
        "--out",
        str(out),
        data=False,
    )
    assert result.exit_code == 0, result.output
    # the public report follows the umask; the moderator's report, the snapshot and the seats' reports do not
    assert {p.name: mode(p) for p in out.iterdir()} == {
        "public.txt": public,
        "snapshot.json": 0o600,
        "report.txt": 0o600,
        **{f"report-{seat}.txt": 0o600 for seat in SEATS},
    }


def test_a_file_is_replaced_whole_or_left_as_it_was_and_no_random_bytes_are_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary file is named without drawing random bytes (a demo run with fixed randomness stays the same),
    and a failed write leaves the file as it was, with no temporary file beside it."""
    path = tmp_path / "report.txt"
    monkeypatch.setattr(os, "urandom", lambda _: pytest.fail("random bytes drawn"))
    write_atomically(path, "first")
    write_atomically(path, "second")
    assert path.read_text(encoding="utf-8") == "second"

    def replace_failing(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", replace_failing)
    with pytest.raises(OSError, match="No space"):
        write_atomically(path, "third")
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]
    assert path.read_text(encoding="utf-8") == "second"


def test_a_file_is_written_whole_in_utf8_when_the_disk_takes_each_write_in_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The text is written as UTF-8 bytes with its line ends as they are, all of it even where the disk takes a
    write only in part (as it may for a large map), and without a file object (whose opening asked the disk three
    more times per file: its size, whether it is a terminal, its position)."""
    text = "Kaiserstraße -> Byzantion\nµ ÆØ ⚓ 3S\n" * 200
    write = os.write
    monkeypatch.setattr(os, "write", lambda handle, data: write(handle, bytes(data[:7])))
    monkeypatch.setattr(os, "fdopen", lambda *_, **__: pytest.fail("a file object was opened"))
    write_atomically(tmp_path / "map.svg", text, public=True)
    assert (tmp_path / "map.svg").read_bytes() == text.encode("utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["map.svg"]


def test_the_games_are_ticked_with_the_objects_made_before_them_frozen(
    pbem: Pbem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The objects made before the games' ticks are left out of the garbage collector's full walks while the games
    are ticked, and put back after; a caller's own freeze is kept."""
    pbem.new_game(name="rome1")
    pbem.new_game(name="rome2")
    archive = Archive.open(pbem.data, pbem.db)
    seen: list[int] = []
    tick_game = deadlines._tick_game

    def counted(*args: Any, **kwargs: Any) -> list[str]:
        seen.append(gc.get_freeze_count())
        return tick_game(*args, **kwargs)

    monkeypatch.setattr(deadlines, "_tick_game", counted)
    assert not deadlines.tick(archive, pbem.data).failures
    assert len(seen) == 2 and min(seen) > 0 and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        deadlines.tick(archive, pbem.data)
        assert gc.get_freeze_count() > 0  # the caller's objects stay frozen
    finally:
        gc.unfreeze()
