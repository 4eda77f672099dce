"""`pbem demo`: a scripted 3-seat Classic game played from bundled order files into a fresh folder; or
(`--ruleset`, e.g. conqueror-er) a whole game that the ruleset's bot players play by mail."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.errors import PbemError
from adjudicator.resources import resource_dir
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from adjudicator.services.reports import write_game_site
from adjudicator.services.verification import verify

MARKER = ".pbem-demo"
SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}


def demo_orders() -> list[Path]:
    """The bundled order files, in play order: NN-Seat.txt with a {password} placeholder."""
    return sorted((resource_dir("games") / "coe-classic" / "demo").glob("*.txt"))


def fresh_folder(data: Path) -> None:
    """Make `data` an empty demo folder (refusing a folder that holds anything but an earlier demo)."""
    if data.exists() and any(data.iterdir()):
        if not (data / MARKER).exists():
            raise PbemError(f"{data} is not empty and holds no earlier demo; choose a fresh folder with --data")
        shutil.rmtree(data)
    data.mkdir(parents=True)
    (data / MARKER).write_text("made by pbem demo; the next demo run replaces this folder\n")


def run_demo(data: Path, say: Callable[[str], None]) -> Path:
    """Play the demo game into `data` (refusing a folder that holds anything but an earlier demo)."""
    fresh_folder(data)
    archive = Archive.in_folder(data)
    game = new_game(archive, data, NewGameOptions("demo", "coe-classic", SEATS))
    say(f"Created game demo (coe-classic) with seats {', '.join(SEATS)} in {data}")
    for path in demo_orders():
        seat = path.stem.split("-", 1)[1]
        receipt = submit(archive, "demo", path.read_text(encoding="utf-8").replace("{password}", game.passwords[seat]))
        rejected = sum(not r.accepted for r in receipt.results)
        say(
            f"  {seat:10} turn {receipt.turn}: orders stored, {len(receipt.results) - rejected} accepted, "
            f"{rejected} rejected"
        )
        done = adjudicate(archive, data, "demo")
        for row in done.turns:
            say(f"  turn {row.number} resolved -> {game.folder / f'turn-{row.number:04d}' / 'report.txt'}")
    passed, problems = verify(archive, "demo")
    say(f"Verified by replay: {len(passed)} checks passed, {len(problems)} problems")
    for problem in problems:
        say(f"  PROBLEM {problem}")
    say(f"Reports are in {game.folder} (turn-NNNN/report.txt, report-<seat>.txt, snapshot.json, map.svg)")
    if problems:
        raise PbemError("the demo game did not verify")
    site = write_game_site(archive, "demo", data / "site")
    say(f"The game as a web site: {site[-1]}")
    return game.folder
