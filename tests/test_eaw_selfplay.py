"""Empires of the Ancient World self-play (bench/eaw_selfplay.py, services/selfplay.py with rulesets/empires/bot.py):
a few seeded whole games of 3 to 5 seats in memory with a mix of the EAW-11.7 options, each step's invariants
checked; a short game through the services in round pace with decisions asked, its archive verified; and
`pbem selfplay --ruleset empires-aw`. The 100 games are the bench's (`python -m bench.eaw_selfplay`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import OPTION_CHOICES
from adjudicator.services.game_reads import current_game
from adjudicator.services.selfplay import play_archived_game, playable
from adjudicator.services.verification import verify
from bench.eaw_selfplay import NUMBERS, dice_secret, game_options, run, seat_count
from tests.conftest import Pbem


def test_EAW_11_7_the_bench_gives_every_value_of_every_option_within_four_games() -> None:
    seen: dict[str, set[str]] = {}
    for index in range(4):
        for key, value in game_options(index).items():
            seen.setdefault(key, set()).add(value)
    assert seen == {key: set(values) for key, values in {**OPTION_CHOICES, **NUMBERS}.items()}
    rules, _ = playable(load_ruleset("empires-aw"), None, None, game_options(1))  # each mix is a game's options
    assert rules.options_of(rules.initial_state("g", ["red", "blue", "green"])).threshold in ("ge", "gt")
    assert {seat_count(i) for i in range(3)} == {3, 4, 5}  # EAW-3.4


def test_EAW_10_8_seeded_games_of_three_to_five_seats_with_mixed_options_end_with_every_invariant_kept() -> None:
    lines: list[str] = []
    figures = run(6, 11, None, True, lines.append)
    assert figures.problems == [], figures.problems
    assert figures.games == 6 and len(lines) == 6
    assert figures.steps > 6 * 40 and figures.battles > 0
    for kind in ("battle_begins", "area_captured", "card_recruited", "trade_placed", "diplomacy", "fort_built"):
        assert figures.events.get(kind), kind  # the bot meets every kind of action (EAW-7) and battles (EAW-8)
    assert figures.events["game_ended"] == 6  # EAW-10.8


def test_EAW_12_selfplay_in_round_pace_with_decisions_asked_keeps_the_invariants_and_verifies(tmp_path: Path) -> None:
    archive = Archive.open(tmp_path, None)
    options = {"marker_choice": "winner_chooses", "loss_selection": "owner_chooses", "action_rounds_first": "4"}
    rules, _ = playable(load_ruleset("empires-aw"), None, None, options)
    seats = rules.bot.seats(rules, 3)
    played = play_archived_game(
        archive, tmp_path, "asked", "empires-aw", seats, 3, 10, pace="round", decisions="ask", options=options
    )
    assert len(played) >= 10
    assert all(rules.broken_invariants(step.state) == [] for step in played)
    assert sum(step.accepted for step in played) > sum(step.rejected for step in played)
    assert verify(archive, "asked")[1] == []


FREE_ACTION = 35  # the step of the game below that asks for a rout's free action


def test_EAW_13_9_a_game_with_decisions_asked_goes_on_past_the_free_action_of_a_rout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bench's game 19 (4 seats, its options, round pace, decisions asked) with a fixed dice secret (every new
    game draws its own, so a stop seen in the bench did not come back when the game was run again): at step 35 a
    rout's free action is asked (EAW-12.9). The bot used to answer with an attack carrying its own THEN, refused
    (EAW-13.9: a free action earns no other); asked again, it wrote the same answer, until "step 34 still asks after
    50 answers" (in the game of that stop, whose dice the orders commitments of newer games no longer make)."""
    secret = hashlib.sha256(b"eaw-flake-104").digest()
    monkeypatch.setattr("adjudicator.services.games.secrets.token_bytes", lambda n=32: secret[:n])
    archive, options = Archive.open(tmp_path, None), game_options(19)
    rules, _ = playable(load_ruleset("empires-aw"), None, None, options)
    seats = rules.bot.seats(rules, seat_count(19))
    played = play_archived_game(
        archive, tmp_path, "eaw-19", "empires-aw", seats, 20, 35, pace="round", decisions="ask", options=options
    )
    assert FREE_ACTION in [s.number for s in played if "free_action" in s.events]
    assert not [s.number for s in played if "answer_refused" in s.events]  # the bot's answers are all read
    with archive.session() as session:
        game, _, _ = current_game(session, "eaw-19")
        (free,) = [d for d in db.decisions(session, game, FREE_ACTION) if d.key.startswith("free.")]
    assert free.answer is not None and free.answer.startswith("ATTACK") and " THEN " not in free.answer
    assert dice_secret(archive, "eaw-19") == secret.hex()  # what the bench names with a game's problem
    assert dice_secret(archive, "eaw-20") == "none"


def test_pbem_selfplay_plays_empires_aw_on_its_example_data(pbem: Pbem) -> None:
    done = pbem("selfplay", "eaw", "--ruleset", "empires-aw", "--seats", "4", "--turns", "1", "--seed", "2")
    assert done.exit_code == 0, done.output
    assert "playing with its example data" in done.output
    assert "Game eaw:" in done.output and "red, blue, green, yellow" in done.output
    refused = pbem("selfplay", "eaw2", "--ruleset", "empires-aw", "--seats", "6")
    assert refused.exit_code == 1 and "3 to 5 players (EAW-3.4)" in refused.output
