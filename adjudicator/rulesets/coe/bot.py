"""Self-play: a bot that writes random, mostly legal orders for any seat of a Conquest of the Empire ruleset, and
whole games played from them with verifiable dice (for tests, benchmarks and `pbem selfplay`).

The bot reads the position and the board: leaders march with combat units into adjacent provinces (into enemy
armies too, so that battles happen), make road journeys, sail galleys with cargo and land it; it buys within its
treasury, builds cities, fortifications and roads, gives standing orders, now and then declares a naval battle,
offers or accepts a ransom and sends press. It does not play the rules through, so the engine refuses some of its
orders (with reasons), as it would a hasty player's. Deterministic for a given random.Random state: whatever it
draws from is sorted first.

CoeBot is the bot as the Ruleset protocol's member `bot`: services/selfplay.py plays archived games with it
(`pbem selfplay`); play_game below plays in memory, without the archive (tests, benchmarks).

The bot's parts: bot_view.py (the position and the weights it plans by), bot_moves.py (MOVE, SAIL),
bot_purchases.py (BUY) and bot_orders.py (the other orders).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from adjudicator.engine.chance import CHAIN_LENGTH, KeyedDice, chain_keys, orders_digest
from adjudicator.engine.decisions import Question, default_answers
from adjudicator.orders import parse_orders
from adjudicator.rulesets.coe.bot_moves import MovingBot
from adjudicator.rulesets.coe.bot_orders import OrderingBot
from adjudicator.rulesets.coe.bot_purchases import BuyingBot
from adjudicator.rulesets.coe.ruleset import CoeRuleset, coe_ruleset
from adjudicator.rulesets.coe.state import GameState
from adjudicator.rulesets.coe.turn import TurnResult, coming_turns, resolve

BATTLE_EVENTS = ("battle", "naval_battle")


# -- the bot ------------------------------------------------------------------------------------------------


def random_orders(
    ruleset: CoeRuleset, state: GameState, seat: str, rng: random.Random, password: str = "selfplay"
) -> str:
    """An order text (header and order lines) of plausible, mostly legal random orders for `seat`'s coming
    player-turn in `state`. The same rng state gives the same text."""
    number = coming_turns(state).get(seat, state.turn + 1)
    return _Bot(ruleset, state, seat, rng).orders(f"GAME {state.game} TURN {number} PLAYER {seat} PASSWORD {password}")


@dataclass(frozen=True)
class CoeBot:
    """The bot as the Ruleset protocol's member `bot` (engine/protocol.py Bot), for self-play through the services
    (services/selfplay.py)."""

    battle_events: tuple[str, ...] = BATTLE_EVENTS

    def seats(self, ruleset: CoeRuleset, count: int) -> list[str]:
        return seats_in_play(ruleset, count)

    def orders(self, ruleset: CoeRuleset, state: GameState, seat: str, header: str, rng: random.Random) -> str:
        return _Bot(ruleset, state, seat, rng).orders(header)

    def seat_orders(self, ruleset: CoeRuleset, state: GameState, seat: str, header: str, rng: random.Random) -> str:
        return _SeatBot(ruleset, state, seat, rng).orders(header)

    def answers(
        self,
        ruleset: CoeRuleset,
        state: GameState,
        seat: str,
        header: str,
        asked: Sequence[Question],
        rng: random.Random,
    ) -> str:
        """Each decision answered with the default its notice shows (C-15): a player who reads and agrees."""
        return default_answers(header, asked)

    def winner(self, ruleset: CoeRuleset, state: GameState) -> str | None:
        return state.winner


class _Bot(MovingBot, OrderingBot, BuyingBot):
    """One seat's orders for one player-turn, planned against a projection of its own pieces (bot_view.py):
    moves (bot_moves.py), purchases (bot_purchases.py) and the other orders (bot_orders.py)."""

    def orders(self, header: str) -> str:
        if not self.playing_a_seat and self.rng.random() < 0.03:
            return header + "\n"  # now and then nothing at all
        self.standing_orders()
        for code in sorted(self.galleys_at):
            if not self.board.is_land(code) and self.galleys_at[code]:
                self.sail_from_sea(code)
        for code in sorted(c for c, a in self.state.areas.items() if self.board.is_land(c) and self.seat in a.units):
            self.land_area(code)
        self.retreat_orders()
        self.naval_declarations()
        if len(self.battles) > 1 and self.rng.random() < 0.4:
            order = list(self.battles)
            self.rng.shuffle(order)
            self.lines.append(f"BATTLES {', '.join(order)}")
        self.answers()
        self.destroy_city()
        spent = self.ransoms()
        self.purchases(spent)
        if not self.playing_a_seat:  # self-play's variety, which a player's seat must not get
            self.press()
            self.concede()
            self.mistake()
        return "\n".join([header, *self.lines]) + "\n"


class _SeatBot(_Bot):
    """The bot running a seat of a real game: the same plans, without press, concessions, deliberate mistakes or
    empty turns, and without a look at other seats' standing orders (bot_orders.py ransoms)."""

    playing_a_seat = True


# -- whole games --------------------------------------------------------------------------------------------


@dataclass
class SelfPlayTurn:
    """One resolved player-turn of a self-play game."""

    number: int
    seat: str
    orders: str
    result: TurnResult
    not_understood: int = 0  # order lines the parser could not read

    @property
    def state(self) -> GameState:
        return self.result.state

    @property
    def accepted(self) -> int:
        return sum(r.accepted for r in self.result.order_results)

    @property
    def rejected(self) -> int:
        return sum(not r.accepted for r in self.result.order_results)

    @property
    def battles(self) -> int:
        return sum(e.kind in BATTLE_EVENTS for e in self.result.events)


@dataclass
class SelfPlayResult:
    ruleset: str
    seats: list[str]
    seed: int
    initial: GameState
    turns: list[SelfPlayTurn] = field(default_factory=list)

    @property
    def states(self) -> list[GameState]:
        """The initial state, then the state after each turn."""
        return [self.initial, *(t.state for t in self.turns)]

    @property
    def results(self) -> list[TurnResult]:
        return [t.result for t in self.turns]

    @property
    def orders(self) -> list[str]:
        return [t.orders for t in self.turns]

    @property
    def final(self) -> GameState:
        return self.turns[-1].state if self.turns else self.initial

    @property
    def winner(self) -> str | None:
        return self.final.winner

    @property
    def accepted(self) -> int:
        return sum(t.accepted for t in self.turns)

    @property
    def rejected(self) -> int:
        return sum(t.rejected for t in self.turns)

    @property
    def battles(self) -> int:
        return sum(t.battles for t in self.turns)


def seats_in_play(ruleset: CoeRuleset, count: int) -> list[str]:
    """The seats in play for `count` players (C-3.1, O-3.1)."""
    homes = ruleset.data["setup"]["homes"]
    if str(count) not in homes:
        raise ValueError(f"{ruleset.name} is for {min(map(int, homes))} to {max(map(int, homes))} players, not {count}")
    return [ruleset.seat_of_home(home) or home for home in homes[str(count)]]


def turn_rng(seed: int, number: int) -> random.Random:
    """The bot's random stream for one player-turn of a game (independent of the dice)."""
    return random.Random(f"pbem-selfplay:{seed}:{number}")


def dice_secret(seed: int) -> bytes:
    """The secret of a self-play game's dice chain, made from its seed."""
    return hashlib.sha256(f"pbem-selfplay-dice:{seed}".encode()).digest()


def play_game(
    ruleset_name: str,
    seats: list[str],
    seed: int,
    max_turns: int,
    on_turn: Callable[[SelfPlayTurn], None] | None = None,
    game: str = "selfplay",
) -> SelfPlayResult:
    """Play up to `max_turns` player-turns from the initial position (fewer when somebody wins), each seat
    ordering with random_orders; dice come from a KeyedDice stream keyed from the seed (as the archive's),
    decisions take their standing orders or defaults. `on_turn` sees each turn as it is resolved."""
    ruleset = coe_ruleset(ruleset_name)
    state = ruleset.initial_state(game, list(seats))
    result = SelfPlayResult(ruleset.name, list(state.players), seed, state)
    last = min(state.turn + max_turns, CHAIN_LENGTH - 1)
    keys = chain_keys(dice_secret(seed), last)
    while state.active is not None and state.turn < last:
        seat, number = state.active, state.turn + 1
        text = random_orders(ruleset, state, seat, turn_rng(seed, number))
        orders = parse_orders(text, ruleset)
        dice = KeyedDice(key=keys[number], orders_hash=orders_digest([text]))
        turn = SelfPlayTurn(number, seat, text, resolve(ruleset, state, orders, dice), len(orders.errors))
        result.turns.append(turn)
        if on_turn is not None:
            on_turn(turn)
        state = turn.state
    return result
