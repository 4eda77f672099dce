"""`pbem demo`: the scripted game of a ruleset's [demo] table (ruleset.toml: its order files and seats) played into a
fresh folder; or (a ruleset without one) a whole game that the ruleset's bot players play by mail (bot_demo.py)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.engine.protocol import Ruleset
from adjudicator.errors import PbemError
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.game_record import RECORD_FILE
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from adjudicator.services.reports import write_game_site
from adjudicator.services.verification import verify

MARKER = ".pbem-demo"


def demo_seats(ruleset: Ruleset) -> dict[str, str]:
    """The seats of the scripted game and their mail addresses ([demo.seats])."""
    return {str(seat): str(address) for seat, address in ruleset.demo["seats"].items()}


def demo_orders(ruleset: Ruleset) -> list[Path]:
    """The order files of the scripted game ([demo] orders, a folder of the ruleset's), in play order: NN-Seat.txt
    with a {password} placeholder."""
    return sorted((ruleset.folder / str(ruleset.demo["orders"])).glob("*.txt"))


def fresh_folder(data: Path) -> None:
    """Make `data` an empty demo folder (refusing a folder that holds anything but an earlier demo)."""
    if data.exists() and any(data.iterdir()):
        if not (data / MARKER).exists():
            raise PbemError(f"{data} is not empty and holds no earlier demo; choose a fresh folder with --data")
        shutil.rmtree(data)
    data.mkdir(parents=True)
    (data / MARKER).write_text("made by pbem demo; the next demo run replaces this folder\n")


def run_demo(data: Path, say: Callable[[str], None], ruleset: Ruleset) -> Path:
    """Play the scripted game of `ruleset` into `data` (refusing a folder that holds anything but an earlier demo)."""
    fresh_folder(data)
    archive = Archive.in_folder(data)
    name, seats = str(ruleset.demo["game"]), demo_seats(ruleset)
    game = new_game(archive, data, NewGameOptions(name, ruleset.name, seats))
    say(f"Created game {name} ({ruleset.name}) with seats {', '.join(seats)} in {data}")
    for path in demo_orders(ruleset):
        seat = path.stem.split("-", 1)[1]
        receipt = submit(archive, name, path.read_text(encoding="utf-8").replace("{password}", game.passwords[seat]))
        rejected = sum(not r.accepted for r in receipt.results)
        say(
            f"  {seat:10} turn {receipt.turn}: orders stored, {len(receipt.results) - rejected} accepted, "
            f"{rejected} rejected"
        )
        done = adjudicate(archive, data, name)
        for row in done.turns:
            say(f"  turn {row.number} resolved -> {game.folder / f'turn-{row.number:04d}' / 'report.txt'}")
    passed, problems = verify(archive, name)
    say(f"Verified by replay: {len(passed)} checks passed, {len(problems)} problems")
    for problem in problems:
        say(f"  PROBLEM {problem}")
    say(f"Reports are in {game.folder} (turn-NNNN/report.txt, report-<seat>.txt, snapshot.json, map.svg)")
    if problems:
        raise PbemError("the demo game did not verify")
    site = write_game_site(archive, name, data / "site")
    say(f"The game as a web site: {data / 'site' / 'index.html'}")
    if data / "site" / RECORD_FILE in site:
        say(f"The game's record, for the players to replay it: {data / 'site' / RECORD_FILE}")
    return game.folder
