"""Sealed bids: the test ruleset of the game-neutral core, plugged in through the Ruleset protocol alone
(adjudicator/engine/protocol.py). It exercises what Conqueror: Empire Rises needs of the core: a shuffled deck,
private hands, sealed steps and a reveal at the end.

Rules (IDs cited by verdicts and tests):
  B-1  Step 1 (deal, nobody orders): the deck is shuffled and each seat, in seat order, is dealt `hand_size`
       cards from the top. A seat's hand is its own: nobody else sees it. The cards left are set aside unseen.
  B-2  Then `rounds` sealed bid steps: every seat bids one card of its hand (BID <card>), all at once; nobody
       sees another's bid before the step resolves.
  B-3  The bids are revealed together; the highest card wins the round and scores 1; a tie for the highest
       wins nobody. Bid cards are discarded face up.
  B-4  A seat that bids no card of its hand (no orders, or none valid) bids its lowest card.
  B-5  A second BID in the same step is refused: one card per round.
  B-6  After the last round the game ends and every hand is shown.

Order of chance (a dice file gives the draws in this order): the deal's shuffle of the whole deck, as
adjudicator.engine.chance documents a shuffle (n - 1 draws for n cards). Nothing else is random.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any, ClassVar

from lark import Token, Transformer

from adjudicator.engine.chance import Dice
from adjudicator.engine.protocol import EVERYONE, PUBLIC
from adjudicator.engine.ruleset_base import RulesetBase
from adjudicator.engine.ruleset_source import RulesetInfo, RulesetSource
from adjudicator.engine.steps import Step, StepResult
from adjudicator.engine.vocabulary import N_, Event, OrderResult
from adjudicator.errors import PbemError
from adjudicator.orders.builder import CommonBuilder, LineProblem
from adjudicator.orders.parser import parse_orders
from adjudicator.orders.sets import Order
from adjudicator.resources import resource_dir

DEAL, BID = "deal", "bid"


# -- Data (ruleset.toml), checked -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    name: str
    value: int


@dataclass(frozen=True)
class BidsData:
    seats: tuple[str, ...]
    hand_size: int
    rounds: int
    deck: tuple[Card, ...]
    grammar: tuple[str, ...]
    bot: str  # the module of its bot ("": none)

    @classmethod
    def read(cls, source: RulesetSource) -> BidsData:
        deck = tuple(Card(card.text("name"), card.value("value", int)) for card in source.tables("card"))
        data = cls(
            seats=source.strings("seats"),
            hand_size=source.value("hand_size", int),
            rounds=source.value("rounds", int),
            deck=deck,
            grammar=source.strings("grammar"),
            bot=source.text("bot", ""),
        )
        if not 2 <= len(data.seats) <= 3:
            raise source.error("seats", f"two or three seats, not {len(data.seats)}")
        if not 1 <= data.rounds <= data.hand_size:
            raise source.error("rounds", f"1 to hand_size ({data.hand_size}), not {data.rounds}")
        if data.hand_size * len(data.seats) > len(deck):
            raise source.error("card", f"{len(deck)} cards cannot deal {data.hand_size} to {len(data.seats)} seats")
        return data


# -- State ------------------------------------------------------------------------------------------------------


@dataclass
class BidsState:
    game: str
    seats: tuple[str, ...]
    steps_done: int = 0
    dealt: bool = False
    round: int = 0  # rounds bid so far
    hands: dict[str, list[str]] = field(default_factory=dict)  # private: each seat's own (B-1)
    scores: dict[str, int] = field(default_factory=dict)
    played: list[dict[str, str]] = field(default_factory=list)  # each round's revealed bids, seat -> card
    revealed: bool = False  # B-6: the hands are shown

    def copy(self) -> BidsState:
        return BidsState(
            self.game,
            self.seats,
            self.steps_done,
            self.dealt,
            self.round,
            {seat: list(cards) for seat, cards in self.hands.items()},
            dict(self.scores),
            [dict(bids) for bids in self.played],
            self.revealed,
        )


# -- Orders -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BidOrder(Order):
    card: str


class OrderBuilder(CommonBuilder):
    """bids.lark's one order for the shared parser (adjudicator/orders/parser.py), which adds the header line."""

    described: ClassVar[dict[str, str]] = {**CommonBuilder.described, "CARD": "a card"}

    def __init__(self, ruleset: SealedBids) -> None:  # no board: the header's seat is all it resolves
        Transformer.__init__(self)
        self.ruleset = ruleset  # type: ignore[assignment]

    def seat(self, c: list[Token]) -> str:
        found = self.ruleset.lookup_seat(str(c[0]))
        if len(found) != 1:
            raise LineProblem(
                c[0].column, f"unknown seat {str(c[0])!r}; the seats are {', '.join(self.ruleset.seat_names)}"
            )
        return found[0]

    def bid(self, c: list[Token]) -> Callable[..., BidOrder]:
        return partial(BidOrder, card=str(c[-1]))


# -- The ruleset ------------------------------------------------------------------------------------------------


@dataclass
class SealedBids(RulesetBase):
    """The Ruleset protocol's implementation for sealed bids: what differs from the engine's defaults."""

    info: RulesetInfo
    rules: BidsData

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.rules.seats

    def lookup_seat(self, text: str) -> list[str]:
        key = text.strip().casefold()
        return [seat for seat in self.rules.seats if seat.casefold().startswith(key)]

    def value(self, card: str) -> int:
        return next(c.value for c in self.rules.deck if c.name == card)

    # The game

    def initial_state(self, game: str, seats: list[str]) -> BidsState:
        unknown = [seat for seat in seats if seat not in self.rules.seats]
        if unknown or len(seats) < 2:
            raise PbemError(f"sealed bids takes two or three of {', '.join(self.rules.seats)}, not {seats}")
        ordered = tuple(seat for seat in self.rules.seats if seat in seats)
        return BidsState(game, ordered, scores=dict.fromkeys(ordered, 0))

    def due(self, state: BidsState) -> Step | None:
        if not state.dealt:
            return Step(state.steps_done + 1, DEAL, ())
        if state.round < self.rules.rounds:
            return Step(state.steps_done + 1, BID, state.seats, sealed=True)
        return None

    def play_step(
        self,
        state: BidsState,
        step: Step,
        orders: Mapping[str, Any | None],
        chance: Dice,
        answers: Mapping[str, Mapping[str, str]],
        *,
        ask: bool = False,
        settled: frozenset[tuple[str, str]] = frozenset(),
        in_place: bool = False,
    ) -> StepResult:
        state = state if in_place else state.copy()
        events: list[Event] = []
        results: dict[str, list[OrderResult]] = {seat: [] for seat in step.seats}
        if step.phase == DEAL:
            self.deal(state, chance, events)
        else:
            bids = {seat: self.choose_bid(state, seat, bids_of(orders.get(seat)), results[seat]) for seat in step.seats}
            self.reveal_bids(state, bids, events)
        state.steps_done += 1
        return StepResult(state, events, results, [], list(chance.log))

    def deal(self, state: BidsState, chance: Dice, events: list[Event]) -> None:
        """B-1."""
        # hidden: the turn key the report reveals must not let anybody recompute the deal (engine/chance.py)
        deck = chance.shuffle([card.name for card in self.rules.deck], "deck", hidden=True)
        size = self.rules.hand_size
        for index, seat in enumerate(state.seats):
            state.hands[seat] = deck[index * size : (index + 1) * size]
            events.append(seen_by(seat, "hand", seat, cards=list(state.hands[seat])))
        events.append(Event("dealt", None, {"cards": size, "seats": list(state.seats)}))
        state.dealt = True

    def choose_bid(self, state: BidsState, seat: str, orders: Sequence[BidOrder], results: list[OrderResult]) -> str:
        """B-2, B-4, B-5: the seat's first valid bid, else its lowest card."""
        chosen = None
        for order in orders:
            card = next((c for c in state.hands[seat] if c.casefold() == order.card.casefold()), None)
            if chosen is not None:
                results.append(OrderResult(order.line, order.text, False, N_("one card per round"), "B-5"))
            elif card is not None:
                chosen = card
                results.append(OrderResult(order.line, order.text, True))
            else:
                reason = N_("%(card)s is not in your hand", card=order.card)
                results.append(OrderResult(order.line, order.text, False, reason, "B-2"))
        return chosen or min(state.hands[seat], key=self.value)

    def reveal_bids(self, state: BidsState, bids: dict[str, str], events: list[Event]) -> None:
        """B-3, B-6."""
        state.round += 1
        for seat, card in bids.items():
            state.hands[seat].remove(card)
        state.played.append(dict(bids))
        events.append(Event("bids_revealed", None, {"round": state.round, "bids": dict(bids)}))
        best = max(self.value(card) for card in bids.values())
        winners = [seat for seat, card in bids.items() if self.value(card) == best]
        if len(winners) == 1:
            state.scores[winners[0]] += 1
            events.append(Event("round_won", winners[0], {"round": state.round, "card": bids[winners[0]]}))
        else:
            events.append(Event("round_tied", None, {"round": state.round, "seats": winners}))
        if state.round == self.rules.rounds:
            state.revealed = True
            events.append(Event("hands_revealed", None, {"hands": {s: list(c) for s, c in state.hands.items()}}))

    def broken_invariants(self, state: BidsState) -> list[str]:
        cards = [card for hand in state.hands.values() for card in hand]
        cards += [card for bids in state.played for card in bids.values()]
        problems = [f"{card} is in play twice" for card in sorted(set(cards)) if cards.count(card) > 1]
        problems += [f"{card} is no card of the deck" for card in cards if card not in self.card_names]
        if state.dealt:
            left = self.rules.hand_size - state.round
            problems += [f"{s} holds {len(h)} cards, not {left}" for s, h in state.hands.items() if len(h) != left]
        if sum(state.scores.values()) > state.round:
            problems.append(f"{sum(state.scores.values())} rounds won in {state.round} rounds")
        return problems

    def check_orders(self, state: BidsState, seat: str, number: int, orders: Any, chance: Dice) -> list[OrderResult]:
        """The seat's bids checked against its own hand alone (B-2, B-5)."""
        results: list[OrderResult] = []
        if state.dealt and seat in state.hands:
            self.choose_bid(state, seat, bids_of(orders), results)
        return results

    def seats_of(self, state: BidsState) -> tuple[str, ...]:
        return state.seats

    largest_draw: int = 12  # a shuffle of the 12 cards draws up to 12
    hidden_information: bool = True  # hands are secret: the deal is a hidden draw, the chain is salted
    shared_steps: bool = True  # every seat bids in one sealed step

    @cached_property
    def card_names(self) -> frozenset[str]:
        return frozenset(card.name for card in self.rules.deck)

    # Snapshots: schema 2's envelope (public, private per seat)

    def snapshot(self, state: BidsState, viewer: str | None = EVERYONE) -> dict[str, Any]:
        public: dict[str, Any] = {
            "seats": list(state.seats),
            "dealt": state.dealt,
            "round": state.round,
            "scores": dict(state.scores),
            "hand_sizes": {seat: len(cards) for seat, cards in state.hands.items()},
            "played": [dict(bids) for bids in state.played],
        }
        if state.revealed:  # B-6
            public["hands"] = {seat: list(cards) for seat, cards in state.hands.items()}
        head = {"schema": 2, "ruleset": self.name, "game": state.game, "step": state.steps_done, "public": public}
        if viewer is PUBLIC:
            return head
        seats = state.hands if viewer == EVERYONE else {viewer: state.hands.get(viewer, [])}
        return {**head, "private": {seat: {"hand": list(cards)} for seat, cards in seats.items()}}

    def read_snapshot(self, data: Any) -> BidsState:
        """The protocol's contract: the shape, then the rules, are checked before anything plays the position. A
        public view (no private part) reads as a position without hands; once the hands are dealt, it is refused by
        name, and so is one seat's view (B-1)."""
        try:
            public, private = data["public"], data.get("private", {})
            state = BidsState(
                data["game"],
                tuple(public["seats"]),
                data["step"],
                public["dealt"],
                public["round"],
                {seat: list(part["hand"]) for seat, part in private.items()},
                dict(public["scores"]),
                [dict(bids) for bids in public["played"]],
                "hands" in public,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise PbemError(f"snapshot: {error} is missing or wrong") from None
        problems = self.shape_problems(state)
        if problems:
            raise PbemError(f"snapshot: {'; '.join(problems)}")
        return state

    def shape_problems(self, state: BidsState) -> list[str]:
        """What of a read state is not of the schema's types, or names seats or cards the game has not (B-1)."""
        seats = state.seats
        if not isinstance(state.game, str) or not state.game:
            return ["game: not a name"]
        if not seats or any(s not in self.seat_names for s in seats) or len(set(seats)) != len(seats):
            return [f"public.seats: {list(seats)} are not 2 to 3 of {', '.join(self.seat_names)}"]
        for path, value in (("step", state.steps_done), ("public.round", state.round)):
            if type(value) is not int or not 0 <= value <= self.rules.rounds + 1:
                return [f"{path}: {value!r} is not a step of the game"]
        if type(state.dealt) is not bool:
            return [f"public.dealt: {state.dealt!r} is not true or false"]
        if set(state.scores) != set(seats) or any(type(v) is not int or v < 0 for v in state.scores.values()):
            return [f"public.scores: {state.scores!r} is not a count per seat"]
        if not set(state.hands) <= set(seats):
            return [f"private: {sorted(map(str, state.hands))} are not the seats' hands"]
        missing = [seat for seat in seats if seat not in state.hands]
        if state.dealt and not state.revealed and missing:
            # B-1: every seat holds a hand after the deal; the whole snapshot has no other part that a public or
            # one seat's view lacks, so the service cannot tell a view from the whole by its keys alone
            return [
                f"private: no hand of {', '.join(missing)}: a public or one seat's snapshot (not every seat's hidden "
                "part) cannot be played"
            ]
        cards = [card for hand in state.hands.values() for card in hand]
        cards += [card for bids in state.played for card in bids.values()]
        if any(not isinstance(card, str) or card not in self.card_names for card in cards):
            return ["a hand or bid holds something that is no card of the deck"]
        if len(set(cards)) != len(cards):
            return ["a card is in play twice"]
        left = self.rules.hand_size - state.round  # B-2: one card a round leaves each hand
        if state.dealt and any(len(hand) != left for hand in state.hands.values()):
            return [f"private: a hand does not hold {left} cards after {state.round} rounds"]
        if len(state.played) != state.round or any(set(bids) != set(seats) for bids in state.played):
            return [f"public.played: {len(state.played)} rounds of bids, not {state.round} of every seat"]
        return []

    # Orders

    @property
    def grammar_files(self) -> tuple[Path, ...]:
        """The shared header and comments (grammar/common.lark), then its own (bids.lark)."""
        return (resource_dir("grammar") / "common.lark", *(self.folder / name for name in self.rules.grammar))

    def order_builder(self) -> OrderBuilder:
        return OrderBuilder(self)

    def parse_orders(self, text: str) -> tuple[BidOrder, ...]:
        """The bids of a text without its header (the shared parser's; the engine-level tests send no header)."""
        return parse_orders(text, self).orders  # type: ignore[return-value]

    # Reports: its own templates; no map or odds

    @property
    def templates(self) -> Path | None:
        """Its own sentences, position and the parts of the private report (templates/ beside this module)."""
        return self.folder / "templates"

    @cached_property
    def bot(self) -> Any:
        """The bot that ruleset.toml's optional key `bot` names (a module with BOT), or None (no self-play)."""
        return importlib.import_module(self.rules.bot).BOT if self.rules.bot else None


def load(source: RulesetSource) -> SealedBids:
    return SealedBids(RulesetInfo.read(source), BidsData.read(source))


def bids_of(orders: Any) -> Sequence[BidOrder]:
    """The bids of an order set (the shared parser's OrderSet) or of a sequence of bids; none for None."""
    return tuple(getattr(orders, "orders", orders) or ())


def seen_by(seat: str, kind: str, actor: str | None, **data: Any) -> Event:
    """An event only `seat` may see."""
    return Event(kind, actor, data, visible_to=frozenset({seat}))
