"""Honest timing for every bench script: each measure is run in turn with its baseline (interleaved, so that a
busy moment of this shared machine falls on both), many times; the figures are medians, wall and CPU time both
(CPU time swings less under load), each with its ratio to the baseline taken run by run; the load is printed with
them.

    from bench.measure import Command, interleave, print_load, print_rows
    rows = interleave({"bare python": Command(lambda run: [sys.executable, "-c", "pass"]),
                       "pbem --help": Command(lambda run: [*PBEM, "--help"])}, runs=15, baseline="bare python")
    print_load()
    print_rows(rows, targets={"pbem --help": 4.0})

A measure is either a command (a new process: its start-up is paid, as the user pays it) or a call in this
process (`Call`), for work whose start-up a long-running process pays once.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bench import COMMAND_ENV

PBEM = [sys.executable, "-m", "adjudicator.cli"]


@dataclass(frozen=True)
class Command:
    """A new process per run: `argv(run)` is its command line (run 0 is the warm-up); it must exit 0 and print
    `expect` (when given), else the benchmark stops: a figure of a failing command would be a lie."""

    argv: Callable[[int], list[str]]
    expect: str = ""


@dataclass(frozen=True)
class Call:
    """A call in this process per run: `work(run)` does the timed work; `prepare(run)`, untimed, readies it
    (a fresh copy of an archive, say)."""

    work: Callable[[int], object]
    prepare: Callable[[int], object] = lambda run: None


@dataclass
class Figures:
    """One measure's runs: wall and CPU seconds, and each run's ratio to the baseline run just before it."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    wall_ratios: list[float] = field(default_factory=list)
    cpu_ratios: list[float] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    @property
    def wall_ratio(self) -> float:
        return statistics.median(self.wall_ratios) if self.wall_ratios else 1.0

    @property
    def cpu_ratio(self) -> float:
        return statistics.median(self.cpu_ratios) if self.cpu_ratios else 1.0

    @property
    def spread(self) -> float:
        """The middle half of the wall times as a share of the median: how far one figure can be trusted."""
        if len(self.walls) < 4:
            return 0.0
        low, _, high = statistics.quantiles(self.walls, n=4)
        return (high - low) / self.wall


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_once(measure: Command | Call, run: int) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `measure`."""
    if isinstance(measure, Call):
        measure.prepare(run)
        cpu, start = time.process_time(), time.perf_counter()
        measure.work(run)
        return time.perf_counter() - start, time.process_time() - cpu
    argv = measure.argv(run)
    cpu, start = children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=COMMAND_ENV)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    if done.returncode != 0 or measure.expect not in done.stdout:
        raise SystemExit(f"{' '.join(argv)} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    return wall, cpu


def interleave(
    measures: Mapping[str, Command | Call], runs: int, baseline: str | None = None, progress: bool = True
) -> dict[str, Figures]:
    """Run every measure once per round, in turn, for `runs` rounds after one warm-up round (file cache, bytecode);
    ratios are taken to `baseline`'s run of the same round."""
    figures = {name: Figures() for name in measures}
    for run in range(runs + 1):
        taken = {name: run_once(measure, run) for name, measure in measures.items()}
        if run == 0:
            continue
        for name, (wall, cpu) in taken.items():
            figures[name].walls.append(wall)
            figures[name].cpus.append(cpu)
            if baseline is not None:
                base_wall, base_cpu = taken[baseline]
                figures[name].wall_ratios.append(wall / base_wall)
                figures[name].cpu_ratios.append(cpu / base_cpu if base_cpu else 1.0)
        if progress:
            print(f"  round {run}/{runs}", end="\r", file=sys.stderr, flush=True)
    if progress:
        print(" " * 30, end="\r", file=sys.stderr)
    return figures


def load_text() -> str:
    """The machine's load as the figures were taken (a figure means little without it)."""
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min) {five:.2f} (5 min) on {os.cpu_count()} cores"


def print_load() -> None:
    print(load_text())


def print_rows(
    figures: Mapping[str, Figures], targets: Mapping[str, float] | None = None, *, ratio: str = "wall"
) -> None:
    """One line per measure: median wall and CPU ms, the ratios to the baseline, the spread, and the verdict of its
    ratio target (`targets`: measure -> highest ratio; `ratio` says whether the wall or the CPU ratio is judged)."""
    targets = targets or {}
    width = max(len(name) for name in figures)
    for name, got in figures.items():
        line = (
            f"{name:{width}}  wall {got.wall * 1000:8.1f} ms  cpu {got.cpu * 1000:8.1f} ms  "
            f"ratio wall {got.wall_ratio:5.1f}x cpu {got.cpu_ratio:5.1f}x  (spread {got.spread:4.0%}, "
            f"{len(got.walls)} runs)"
        )
        if name in targets:
            judged = got.wall_ratio if ratio == "wall" else got.cpu_ratio
            line += f"  target <= {targets[name]:g}x ({ratio}): {'met' if judged <= targets[name] else 'NOT met'}"
        print(line)
