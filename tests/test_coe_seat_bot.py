"""Conquest of the Empire's bot running a seat of a real game (CoeBot.seat_orders): it plays from what the seat may
know, without self-play's variety (press, concessions, deliberate mistakes, empty turns)."""

from __future__ import annotations

import copy
import random

import pytest

from adjudicator.rulesets.coe import bot
from adjudicator.rulesets.coe.bot import CoeBot, play_game, seats_in_play
from adjudicator.rulesets.coe.ruleset import coe_ruleset
from adjudicator.rulesets.coe.state import GameState


def positions(ruleset_name: str) -> list[GameState]:
    """The positions of a self-played game, each with the seat due in it."""
    played = play_game(ruleset_name, seats_in_play(coe_ruleset(ruleset_name), 4), seed=7, max_turns=60)
    return [state for state in played.states if state.active is not None]


@pytest.mark.parametrize("ruleset_name", ["coe-classic", "coe-1984"])
def test_a_seats_bot_sends_no_press_concession_mistake_or_empty_turn(
    ruleset_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(self: object) -> None:
        raise AssertionError("a seat's bot played self-play's variety")

    ruleset = coe_ruleset(ruleset_name)
    states = positions(ruleset_name)
    for name in ("press", "concede", "mistake"):
        monkeypatch.setattr(bot._Bot, name, never)
    for state in states:
        for draw in range(5):
            header = f"GAME g TURN {state.turn + 1} PLAYER {state.active} PASSWORD -"
            text = CoeBot().seat_orders(ruleset, state, state.active, header, random.Random(draw))
            assert text.count("\n") > 1  # never an empty turn


def test_a_seats_bot_does_not_read_other_seats_standing_orders() -> None:
    """Its ransom offers (C-13.1) are the same whatever the other seats' standing ransom acceptances say, which a
    seat cannot see; the self-play bot's do depend on them."""
    ruleset = coe_ruleset("coe-classic")
    peeked = 0
    for state in positions("coe-classic"):
        seat = state.active
        assert seat is not None
        blind = copy.deepcopy(state)
        for other, player in blind.players.items():
            if other != seat:
                player.standing.pop("ransom_accept", None)
        header = "GAME g TURN 1 PLAYER x PASSWORD -"
        seen = CoeBot().seat_orders(ruleset, state, seat, header, random.Random(1))
        assert CoeBot().seat_orders(ruleset, blind, seat, header, random.Random(1)) == seen
        selfplay = CoeBot().orders(ruleset, state, seat, header, random.Random(1))
        peeked += selfplay != CoeBot().orders(ruleset, blind, seat, header, random.Random(1))
    assert peeked  # the game had captives whose ransom another seat's standing orders set
