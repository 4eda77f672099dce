"""The sealed-bids test ruleset's bot (the Ruleset protocol's member `bot`, engine/protocol.py Bot): it bids a
random card of its hand, and now and then writes what a hasty player writes (a card it does not hold, a second
bid, nothing at all), so that self-play meets refusals (B-2, B-5) and the lowest-card default (B-4)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adjudicator.engine.decisions import Question
    from tests.rulesets.sealed_bids.game import BidsState, SealedBids


@dataclass(frozen=True)
class BidsBot:
    battle_events: tuple[str, ...] = ()  # no battles in this game

    def seats(self, ruleset: SealedBids, count: int) -> list[str]:
        """The first `count` seats (B-1: two or three)."""
        if not 2 <= count <= len(ruleset.seat_names):
            raise ValueError(f"{ruleset.name} is for 2 to {len(ruleset.seat_names)} players, not {count}")
        return list(ruleset.seat_names[:count])

    def orders(self, ruleset: SealedBids, state: BidsState, seat: str, header: str, rng: random.Random) -> str:
        hand = sorted(state.hands.get(seat, []))
        draw = rng.random()
        lines: list[str] = []  # below 0.1 no bid: the seat bids its lowest card (B-4)
        if 0.1 <= draw < 0.2:
            lines = [f"BID {rng.choice(sorted(ruleset.card_names - set(hand)))}"]  # not in the hand (B-2)
        elif draw < 0.3 and len(hand) > 1:
            first, second = rng.sample(hand, 2)
            lines = [f"BID {first}", f"BID {second}"]  # the second is refused (B-5)
        elif hand:
            lines = [f"BID {rng.choice(hand)}"]
        return "\n".join([header, *lines]) + "\n"

    def seat_orders(self, ruleset: SealedBids, state: BidsState, seat: str, header: str, rng: random.Random) -> str:
        """A seat's bot bids a card of its hand, never a hasty player's mistake."""
        hand = sorted(state.hands.get(seat, []))
        return "\n".join([header, *([f"BID {rng.choice(hand)}"] if hand else [])]) + "\n"

    def answers(
        self,
        ruleset: SealedBids,
        state: BidsState,
        seat: str,
        header: str,
        asked: Sequence[Question],
        rng: random.Random,
    ) -> str:
        """Sealed bids asks no decisions: nothing to answer."""
        return header + "\n"

    def winner(self, ruleset: SealedBids, state: BidsState) -> str | None:
        """After the last round (B-6), the one seat with the most rounds won; none on a tie."""
        if ruleset.due(state) is not None:
            return None
        best = max(state.scores.values())
        leaders = [seat for seat, score in state.scores.items() if score == best]
        return leaders[0] if len(leaders) == 1 else None


BOT = BidsBot()
