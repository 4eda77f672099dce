"""Benchmarks: each script prints its figures against its targets. Run from the repository root as
`python -m bench.<name>`; `--help` gives each one's arguments, and small ones (`--runs 1`, few games) make a quick
check (tests/test_bench_smoke.py runs some of them so).

How they measure (bench/measure.py), so that a figure says what a user pays on this shared, noisy machine:
- What the user pays: a command a moderator or a mail filter runs is timed as a new process, start-up included;
  work a long-running process does once per item (the tick's turn, the listener's mail) is timed in the process.
- Realistic inputs within the product's limits: self-played positions and the bots' orders, order mails of about
  8 orders as players write them, never a text the product would refuse.
- Interleaved baselines: every measure runs in turn with its baseline in each round (bare `python -c pass` for a
  process's start-up, the old tree's same command for before and after; e.g. /work/wt-lead with its own .venv),
  after a warm-up round, and each figure is also a ratio to the baseline's run of the same round.
- Medians, never the best run, with the spread of the middle half; CPU time next to wall time (CPU swings less
  under load, and targets are judged on it where the script says so); the load is printed with the figures.

The scripts, what each measures, and its target:
- cli_startup: `pbem --help`, `check --state`, `check --game`, `ingest` of one mail, each a new process, as ratios
  to bare Python; check at most 10x, ingest at most 25x.
- startup_map: where a command's start-up goes (imports step by step, then the command's phases); no target.
- parse: realistic order mails of every ruleset the parser reads, many through a built parser (at least 20,000
  orders a CPU second) and one with the parser built (what a one-shot `pbem ingest` pays; no target).
- turn: a 6-seat Classic player-turn with two battles, in a process (under 50 ms CPU) and as `pbem adjudicate`
  (a ratio to bare Python, against the old tree).
- tick: `pbem tick` over games with orders and battles, against the old tree and the disk's commit floor; at most
  10 ms CPU a game, one commit a game, wall at most 1.5x the floor. tick_map: where the tick's time goes.
- verify: `pbem verify` of archived games as a new process, a cost per turn and a fixed cost; Classic at most
  1.5 ms a turn and 0.3 s fixed, conqueror-er 0.3 s fixed.
- selfplay_archive: builds a self-played archive (default 200 Classic player-turns) and times `pbem verify` of it
  against bare Python and the old tree; under 2 s CPU.
- serve: the long-running listener (`pbem serve`); at least 10 mails a second with passwords checked.
- workers: 10,000 due games ticked by 1, 2 and 4 workers on one PostgreSQL; how it scales.
- conqueror_step: a conqueror-er step in self-play; at most 20 ms CPU.
- odds: exact battle odds of large battles, each case in a fresh process; at most 20 ms computing.
- resolve_replay: a whole self-played conqueror-er game replayed step by step through `pbem resolve`, byte for
  byte; the time a step (no target).
- eaw_selfplay: seeded self-play of Empires of the Ancient World (archived and verified, or in memory); counts the
  problems (none allowed) and the time a game.
- mutation: the surviving share of mutants of one rule module (not a speed bench).
"""

import os

# Commands are timed as an installed tool runs: with its compiled bytecode (__pycache__) in place. Some sandboxes
# set PYTHONDONTWRITEBYTECODE, which would make every timed run compile the whole package again.
COMMAND_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
