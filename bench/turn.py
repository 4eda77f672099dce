"""One 6-seat Classic player-turn with two land battles: resolve + render + archive commit (SQLite).

Target: under 50 ms. Run from the repository root: python -m bench.turn [--runs 20]
(The Classic edition has at most 6 seats, C-1.6, so the "7-seat" target is measured with 6.)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.state import snapshot_text
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit

SEATS = ["Macedonia", "Galatia", "Egyptus", "Numidia", "Hispania", "Italia"]
ORDERS = ["MOVE G1 WITH 4 INF 2 CAV: MOE -> THR", "MOVE G2 WITH 4 INF 1 CAT: DAL -> PAN", "BUY 1 INF"]


def position() -> str:
    """Macedonia, to move, stands next to two enemy armies (Galatia's in Thracia, Italia's in Pannonia)."""
    state = load_ruleset("coe-classic").initial_state("bench", SEATS)
    mac = state.force("MAC", "Macedonia")
    for general, area, units in (
        (1, "MOE", {"infantry": 4, "cavalry": 2}),
        (2, "DAL", {"infantry": 4, "catapult": 1}),
        (3, "ACH", {"infantry": 3}),
    ):
        mac.generals.remove(general)
        force = state.force(area, "Macedonia")
        force.generals.append(general)
        for kind, count in units.items():
            setattr(force, kind, count)
        state.area(area).owner = "Macedonia"
    for seat, area, infantry in (("Galatia", "THR", 4), ("Italia", "PAN", 3)):
        enemy = state.force(area, seat)
        enemy.infantry = infantry
        enemy.generals.append(4)
        state.force(state.players[seat].home, seat).generals.remove(4)
        state.area(area).owner = seat
    ruleset = load_ruleset("coe-classic")
    for seat, player in state.players.items():
        player.tribute = tribute_value(ruleset, state, seat)
    return snapshot_text(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    times = []
    battles = 0
    with tempfile.TemporaryDirectory() as folder:
        for run in range(runs):
            data = Path(folder) / f"run{run}"
            archive = Archive.in_folder(data)
            game = new_game(
                archive,
                data,
                NewGameOptions("bench", "coe-classic", {s: f"{s}@x.org" for s in SEATS}, position=position()),
            )
            text = f"GAME bench TURN 1 PLAYER Macedonia PASSWORD {game.passwords['Macedonia']}\n" + "\n".join(ORDERS)
            submit(archive, "bench", text)
            start = time.perf_counter()
            done = adjudicate(archive, data, "bench")
            times.append(time.perf_counter() - start)
            battles = done.turns[0].events_json.count('"battle"')
    print(
        f"6-seat Classic player-turn with {battles} land battles: median {statistics.median(times) * 1000:.1f} ms, "
        f"best {min(times) * 1000:.1f} ms over {runs} runs (resolve + render + SQLite commit; target < 50 ms)"
    )


if __name__ == "__main__":
    main()
