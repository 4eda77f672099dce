"""Self-play (adjudicator/rulesets/coe/bot.py): seeded games of random, mostly legal orders for both rulesets, with the
invariants checked after every player-turn, the orders mostly accepted, battles fought, and a few games played
through the real archive (new_game, submit, adjudicate) and verified by replay. Also the regression tests of the
engine bugs self-play found."""

from __future__ import annotations

import gc
import json
import random
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.bot import SelfPlayTurn, play_game, random_orders, seats_in_play
from adjudicator.rulesets.coe.state import from_snapshot, snapshot_text, state_hash
from adjudicator.services.selfplay import play_archived_game
from adjudicator.services.verification import verify
from tests.helpers import force, place, play, start

TURN_LIMIT = 60  # player-turns per game, unless somebody wins before
CLASSIC = [(seed, 3 + seed % 4) for seed in range(20)]  # 3 to 6 seats
ORIGINAL = [(seed, 2 + seed % 5) for seed in range(100, 120)]  # 2 to 6 seats


@dataclass
class Game:
    """One self-play game and what went wrong in it, turn by turn."""

    turns: list[SelfPlayTurn]
    problems: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> int:
        return sum(t.accepted for t in self.turns)

    @property
    def verdicts(self) -> int:
        return sum(t.accepted + t.rejected for t in self.turns)

    @property
    def battles(self) -> int:
        return sum(t.battles for t in self.turns)


@cache
def game(ruleset_name: str, seed: int, count: int) -> Game:
    """Play one seeded game; every turn's state must keep the invariants and survive its own snapshot."""
    ruleset = load_ruleset(ruleset_name)
    problems: list[str] = []

    def check(turn: SelfPlayTurn) -> None:
        where = f"seed {seed}, turn {turn.number} ({turn.seat}); orders:\n{turn.orders}"
        for broken in ruleset.broken_invariants(turn.state):
            problems.append(f"{where}\ninvariant broken: {broken}")
        text = snapshot_text(turn.state)
        if snapshot_text(from_snapshot(json.loads(text), set(ruleset.board.areas))) != text:
            problems.append(f"{where}\nthe snapshot differs from its own reload")
        if turn.not_understood:
            problems.append(f"{where}\n{turn.not_understood} order line(s) not understood")

    played = play_game(ruleset_name, seats_in_play(ruleset, count), seed, TURN_LIMIT, on_turn=check)
    return Game(played.turns, problems)


@pytest.mark.parametrize(("seed", "count"), CLASSIC)
def test_classic_selfplay_keeps_the_invariants(seed: int, count: int) -> None:
    played = game("coe-classic", seed, count)
    assert not played.problems, played.problems[0]
    last = played.turns[-1].state
    assert len(played.turns) == TURN_LIMIT or last.winner is not None


@pytest.mark.parametrize(("seed", "count"), ORIGINAL)
def test_1984_selfplay_keeps_the_invariants(seed: int, count: int) -> None:
    played = game("coe-1984", seed, count)
    assert not played.problems, played.problems[0]
    last = played.turns[-1].state
    assert len(played.turns) == TURN_LIMIT or last.winner is not None


@pytest.mark.parametrize(("ruleset", "games"), [("coe-classic", CLASSIC), ("coe-1984", ORIGINAL)])
def test_selfplay_orders_are_mostly_accepted_and_battles_happen(ruleset: str, games: list[tuple[int, int]]) -> None:
    played = [game(ruleset, seed, count) for seed, count in games]
    accepted, verdicts = sum(g.accepted for g in played), sum(g.verdicts for g in played)
    assert verdicts > 20 * 300
    assert accepted / verdicts >= 0.8, f"{accepted} of {verdicts} orders accepted"
    assert accepted < verdicts  # some orders are refused, with reasons
    assert sum(g.battles for g in played) >= 100
    assert sum(1 for g in played if g.battles) >= 15
    events = {e.kind for g in played for t in g.turns for e in t.result.events}
    assert {
        "battle",
        "naval_battle",
        "conquered",
        "captured",
        "eliminated",
        "ransomed",
        "bought",
        "sailed",
        "retreat",
    } <= events


@pytest.mark.parametrize("ruleset", ["coe-classic", "coe-1984"])
def test_selfplay_writes_every_kind_of_order(ruleset: str) -> None:
    games = CLASSIC if ruleset == "coe-classic" else ORIGINAL
    lines = [line for seed, count in games for t in game(ruleset, seed, count).turns for line in t.orders.splitlines()]
    words = {line.split()[0].rstrip(":") for line in lines}
    assert {
        "GAME",
        "MOVE",
        "SAIL",
        "BUY",
        "LOSSES",
        "BATTLELEGION",
        "PURSUIT",
        "RETREAT",
        "CAPTIVES",
        "FREED",
        "RANSOM",
        "PRESS",
        "BROADCAST",
        "BATTLES",
        "ANSWER",
        "DESTROY",
    } <= words
    assert any("=>" in line for line in lines)  # road journeys
    assert any(re.match(r"SAIL GALLEY \d+: \w+ -> .* CARRYING", line) for line in lines)
    assert any(re.search(r"\bCITY AT\b", line) for line in lines) and any(" ROAD " in f" {line}" for line in lines)
    if ruleset == "coe-1984":
        assert "TARGETS" in words and any("ENEMY ADVANTAGE" in line for line in lines)
    else:
        assert "NAVAL" in words


def test_selfplay_is_deterministic_for_a_seed() -> None:
    one = play_game("coe-classic", ["Macedonia", "Egyptus", "Hispania"], 7, 15)
    two = play_game("coe-classic", ["Macedonia", "Egyptus", "Hispania"], 7, 15)
    assert one.orders == two.orders
    assert [state_hash(s) for s in one.states] == [state_hash(s) for s in two.states]
    assert [r.dice for r in one.results] == [r.dice for r in two.results]
    assert len(one.states) == 16 and one.states[0].turn == 0 and one.states[-1].turn == 15
    other = play_game("coe-classic", ["Macedonia", "Egyptus", "Hispania"], 8, 15)
    assert other.orders != one.orders


def test_random_orders_are_an_order_set_in_the_order_language() -> None:
    ruleset = load_ruleset("coe-1984")
    state = ruleset.initial_state("rome1", ["Macedonia", "Egyptus", "Hispania"])
    text = random_orders(ruleset, state, "Macedonia", random.Random(3), password="s3cret")
    assert text == random_orders(ruleset, state, "Macedonia", random.Random(3), password="s3cret")
    assert text.splitlines()[0] == "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD s3cret"
    parsed = parse_orders(text, ruleset)
    assert parsed.header is not None and not parsed.errors


def test_selfplay_stops_at_a_winner() -> None:
    played = play_game("coe-classic", ["Egyptus", "Hispania"], 8, 100)  # a two-player game decided early
    assert played.winner is not None and len(played.turns) < 100
    assert played.final.active is None


@pytest.mark.parametrize(
    ("ruleset", "count", "pace"), [("coe-classic", 6, "turn"), ("coe-1984", 4, "turn"), ("coe-classic", 3, "round")]
)
def test_selfplay_through_the_archive_verifies(
    tmp_path: Path, archive: Archive, ruleset: str, count: int, pace: str
) -> None:
    data = tmp_path / "data"
    rules = load_ruleset(ruleset)
    turns = play_archived_game(archive, data, "auto", ruleset, seats_in_play(rules, count), 11, 14, pace=pace)
    assert len(turns) >= 14 and [t.number for t in turns] == list(range(1, len(turns) + 1))
    assert all(not rules.broken_invariants(t.state) for t in turns)
    assert sum(t.accepted for t in turns) >= 0.6 * sum(t.accepted + t.rejected for t in turns)
    passed, problems = verify(archive, "auto")
    assert not problems and len(passed) == len(turns) + 3  # the setup, the turns, the chain head, the rows outside it
    assert (data / "games" / "auto" / f"turn-{len(turns):04d}" / "report.txt").is_file()


def test_selfplay_steps_leave_the_objects_made_before_them_to_no_full_collection(tmp_path: Path) -> None:
    """The game's steps run with the objects made before them frozen (left out of the garbage collector's walks),
    and unfrozen after; a caller's own freeze is kept as it was."""
    rules = load_ruleset("coe-classic")
    seen: list[int] = []

    def frozen(step: object) -> None:
        seen.append(gc.get_freeze_count())

    archive = Archive.in_folder(tmp_path / "one")
    play_archived_game(archive, tmp_path / "one", "g", "coe-classic", seats_in_play(rules, 3), 1, 3, frozen)
    assert len(seen) == 3 and min(seen) > 0 and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        archive = Archive.in_folder(tmp_path / "two")
        play_archived_game(archive, tmp_path / "two", "g", "coe-classic", seats_in_play(rules, 3), 1, 2)
        assert gc.get_freeze_count() > 0  # the caller's objects stay frozen
    finally:
        gc.unfreeze()


# -- engine bugs found by self-play ----------------------------------------------------------------------------


def test_C_6_16_a_pursuit_that_eliminates_every_retreating_unit_leaves_no_empty_force() -> None:
    """Self-play (Classic, 3 seats, seed 1061 with random answers, turn 91): the defender retreated and the
    pursuit eliminated his last unit; an empty force stayed in the destination, so the snapshot differed from its
    own reload and a round of turns adjudicated at once no longer matched `pbem verify`'s replay."""
    state = start()
    state.force("MAC", "Macedonia").generals.remove(1)
    place(state, "THR", "Macedonia", owner=False, generals=[1], cavalry=3)
    place(state, "THR", "Egyptus", infantry=1)
    answers = {"Egyptus": {"battle.THR.1.retreat": "retreat to MOE"}}
    result = play(state, dice=[6, 6, 6] + [6] + [3, 3, 3], answers=answers)  # blanks; pursuit: cavalry hits
    assert [e.data["losses"] for e in result.events if e.kind == "pursuit"] == ["1 INF"]
    assert "Egyptus" not in result.state.area("MOE").units and force(result, "THR", "Macedonia").cavalry == 3
    text = snapshot_text(result.state)
    assert snapshot_text(from_snapshot(json.loads(text))) == text
