"""The state of a game of Empires of the Ancient World (EAW-1 to EAW-10).

The state has three parts, as the snapshot envelope (engine/envelope.py, schema 2) keeps them (snapshot.py):
- public: game round, phase, action round, whose action, start player, the control markers, forts and trade
  markers on the map, the display, the discards, each player's warehouse, plunder, face-up personalities, VP,
  scores and how many cards each hand holds;
- private, per seat: its hand (home army and recruited cards), the home-army group it drew unseen (EAW-3.8), its
  plan of actions for the round and its standing battle plans (EAW-12);
- secret: the order of the general deck and the home-army groups not drawn (EAW-3.5, EAW-3.8).

The state holds ids only; what an id means is the game data's (data.py)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Final

# The phases, in a game's order: the deal of EAW-3.5/3.6 (engine.steps.SETUP: resolved when the game is made), the
# sealed placement of EAW-3.7 to EAW-3.11, then per game round the revolt and trade step (EAW-5, EAW-6), the sealed
# plans step, the actions (EAW-7) and, after rounds II to IV, the scoring (EAW-10).
DEAL: Final = "setup"
PLACEMENT: Final = "placement"
REVOLT: Final = "revolt"
PLANS: Final = "plans"
ACTION: Final = "action"
SCORING: Final = "scoring"
ENDED: Final = "ended"


@dataclass
class Player:
    """One player's pieces and holdings. `hand`, `home_group`, `plan` and `standing` are private (EAW-12)."""

    seat: str
    half: str | None = None  # EAW-3.7: the half of its starting province
    home_group: str | None = None  # private: EAW-3.8, drawn unseen
    hand: list[str] = field(default_factory=list)  # private: card instances (home army and recruited)
    personalities: list[str] = field(default_factory=list)  # face up (EAW-7.22)
    warehouse: int = 0  # its own trade markers, to spend or place (EAW-6.1)
    plunder: dict[str, int] = field(default_factory=dict)  # owner -> markers taken (EAW-8.13, EAW-8.11)
    stock_control: int | None = None  # EAW-1.2: None = unlimited
    stock_trade: int | None = None
    stock_forts: int | None = None
    vp: int = 0  # EAW-10: the sum of its scorings
    scores: list[dict[str, Any]] = field(default_factory=list)  # one per scoring: items and areas (EAW-10.7)
    plan: list[dict[str, Any]] = field(default_factory=list)  # private: the actions still planned (orders.py JSON)
    standing: dict[str, Any] = field(default_factory=dict)  # private: standing battle plans (orders.py JSON)
    actions_taken: int = 0  # its actions in the current game round (free actions not counted)
    revealed: list[str] = field(default_factory=list)  # hand cards everybody has seen (a battle's reveal, EAW-8.4)
    planned: bool = False  # it sent orders in this round's plans step: when its plan runs out, the game waits for it


@dataclass
class Control:
    """The control markers in one area: one player's (EAW-2.4), at least one (EAW-2.4, EAW-7.40)."""

    seat: str
    markers: int = 1


@dataclass
class GameState:
    game: str
    seats: list[str]  # the seating order (EAW-3.3)
    players: dict[str, Player]
    options: dict[str, Any] = field(default_factory=dict)  # the game's options (data.Options as JSON)
    data_digest: str = ""
    steps_done: int = 0
    phase: str = DEAL
    round: int = 0  # the game round, 1-4 (0 during setup)
    action_round: int = 0  # 1 to the round's number of action rounds (EAW-4.3)
    turn: int = 0  # index into the action order of the action round (`action_order`)
    first_setup_player: str | None = None  # EAW-3.6
    start_player: str | None = None  # EAW-3.11, EAW-6.2
    control: dict[str, Control] = field(default_factory=dict)  # area -> markers
    forts: dict[str, str] = field(default_factory=dict)  # province -> the player whose stock the fort is from
    trade: dict[str, dict[str, int]] = field(default_factory=dict)  # area -> seat -> trade markers (EAW-2.6)
    deck: list[str] = field(default_factory=list)  # secret: the general deck, top first (EAW-3.5)
    display: list[str] = field(default_factory=list)  # face up, at most 6 (EAW-7.20)
    discards: list[str] = field(default_factory=list)  # EAW-7.20, EAW-7.21, EAW-8.8
    home_groups: dict[str, list[str]] = field(default_factory=dict)  # secret: half -> groups not drawn (EAW-3.8)
    winners: list[str] = field(default_factory=list)  # EAW-10.8, when the game has ended

    def copy(self) -> GameState:
        return copy.deepcopy(self)

    # -- derived facts every rule module reads --------------------------------------------------------------------
    def controller(self, area: str) -> str | None:
        """EAW-2.4: the player whose control markers are in `area`, None for a neutral area."""
        held = self.control.get(area)
        return held.seat if held is not None else None

    def markers(self, area: str) -> int:
        held = self.control.get(area)
        return held.markers if held is not None else 0

    def controlled(self, seat: str) -> list[str]:
        """The areas `seat` controls, sorted by id."""
        return sorted(area for area, held in self.control.items() if held.seat == seat)

    def action_order(self) -> list[str]:
        """EAW-4.2: the seats in the order they act in an action round: from the start player, clockwise."""
        if self.start_player is None:
            return list(self.seats)
        first = self.seats.index(self.start_player)
        return self.seats[first:] + self.seats[:first]

    def waits_for(self, seat: str) -> bool:
        """Whether `seat`'s action must wait for its mail: it sent a plan this round and the plan has run out (a seat
        that sent none takes the EAW-12.2 default without stopping the game)."""
        player = self.players[seat]
        return player.planned and not player.plan

    def setup_order(self) -> list[str]:
        """EAW-3.6: from the first setup player, in seating order."""
        if self.first_setup_player is None:
            return list(self.seats)
        first = self.seats.index(self.first_setup_player)
        return self.seats[first:] + self.seats[:first]
