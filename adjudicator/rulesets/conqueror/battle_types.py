"""The battle's own typed inputs and outputs (ER-8). The game state builds a `Battle`, the plans (ER-8.15) and the
standing orders (ER-14); battle.resolve_battle returns a `BattleOutcome` that the state applies. Nothing here
reads the game state, files or mail."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from adjudicator.errors import PbemError
from adjudicator.rulesets.conqueror.data import EMPTY, Cards, Effect, Effects, Elite, Options, Units
from adjudicator.rulesets.conqueror.vocabulary import STANDARD_UNITS, UNIT_KINDS, UPGRADES  # noqa: F401 (UPGRADES: battle.py)

ATTACKER: Final = "attacker"
DEFENDER: Final = "defender"
INDEPENDENT: Final = "independent"  # the player id under which an independent army's losses are reported
KINDS: Final = UNIT_KINDS  # ER-0.3
STANDARD: Final = STANDARD_UNITS
LOSS_PRIORITY: Final = ("archer", "infantry", "cavalry", "siege", "ship", "elite")  # ER-14.13 default
INDEPENDENT_LOSSES: Final = ("archer", "infantry", "cavalry")  # ER-8.33: weakest first
FORT_KINDS: Final = ("none", "small", "large", "built", "blanked")  # a blank marker covers a fort (ER-2.7)


class BattleError(PbemError, ValueError):
    """A battle or a plan that the rules do not allow (the message names the rule)."""


@dataclass(frozen=True)
class Army:
    """One player's units that fight in the battle from one area (`area`): the attacking army (which came from
    `area`), the defending army (in the battle area) or a reinforcing army (ER-8.4, staying in `area`).
    `upgrades` are the owner's ER-9.4 upgrades; `effects` the owner's faction ability and other standing
    effects (board ability, dynasty back); `heroes` maps each recruited hero id to its uses so far (0 face
    down, 1 face up, ER-8.12); `hand` the tactic card ids in hand; `facts` the numbers conditions read that
    only the game state knows (food, round, stored_food, large_forts, small_forts)."""

    player: str
    area: str
    cavalry: int = 0
    infantry: int = 0
    archer: int = 0
    elite: Elite | None = None
    ship: int = 0
    siege: int = 0
    upgrades: frozenset[str] = frozenset()
    effects: Effects = ()
    heroes: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    hand: tuple[str, ...] = ()
    facts: Mapping[str, int] = field(default_factory=lambda: EMPTY)

    def count(self, kind: str) -> int:
        return int(self.elite is not None) if kind == "elite" else int(getattr(self, kind))


@dataclass(frozen=True)
class Reinforcement:
    """ER-8.4: one army added to a side, in the order attacker, defender, others in turn order."""

    army: Army
    side: str  # attacker | defender


@dataclass(frozen=True)
class Neighbour:
    """An area next to the battle area, as the retreat rules read it (ER-8.24, ER-12.14): who controls it
    (a player, or None), whether an independent army holds it, and the controller's units there."""

    code: str
    land: bool
    controller: str | None = None
    independent: bool = False
    units: int = 0
    wharf_of: str | None = None  # ER-12.9: whose wharf stands there


@dataclass(frozen=True)
class Battle:
    """ER-8.1: where the battle is and who fights. `defender` is None against an independent army
    (`independent` holds its units). `from_sea`: the attack came from a sea area (ER-12.12, Amphibious
    Assault). `reinforcements` in the order of ER-8.4."""

    area: str
    land: bool
    attacker: Army
    defender: Army | None = None
    independent: Units | None = None
    fort: str = "none"
    capital_of: str | None = None
    temporary_capital_of: str | None = None
    europe: bool = False
    from_sea: bool = False
    reinforcements: tuple[Reinforcement, ...] = ()
    neighbours: tuple[Neighbour, ...] = ()
    cards: Cards | None = None
    options: Options = Options()
    wharf_ships: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # on wharves here, by owner (ER-15.19)
    automa_deck: tuple[str, ...] = ()  # top first (ER-8.31)
    automa_discards: tuple[str, ...] = ()

    @property
    def defender_id(self) -> str:
        return self.defender.player if self.defender is not None else INDEPENDENT


@dataclass(frozen=True)
class Plan:
    """A principal's sealed council of war (ER-8.12 to ER-8.15): heroes and tactic cards played (ids), and the
    answers given with it: Free Men (ER-8.18, ER-14.15), whether to re-roll a melee die a card allows when not
    ahead, and the unit kind to leave behind after a won attack (ER-8.24, ER-14.10)."""

    heroes: tuple[str, ...] = ()
    tactics: tuple[str, ...] = ()
    free_men: bool = False
    melee_reroll: bool = True
    leave_behind: str | None = None


@dataclass(frozen=True)
class Standing:
    """A player's standing orders for battles (ER-14): loss priority (ER-14.13, ER-14.17), the order in which
    this player, as opposing principal, hands casualties to the players of a side (ER-14.16: player ids;
    unlisted players follow the default), retreat priorities (ER-14.18, ER-14.19: area ids)."""

    loss_priority: tuple[str, ...] = LOSS_PRIORITY
    assign_order: tuple[str, ...] = ()
    retreat: tuple[str, ...] = ()
    ship_retreat: tuple[str, ...] = ()


NO_PLAN: Final = Plan()
NO_ORDERS: Final = Standing()


@dataclass(frozen=True)
class Pending:
    """A `manual` effect (ER-13.6) the moderator must rule on: before the result (`blocking`) the battle is not
    resolved until a ruling is given; after it (battle.after_win) the result stands and the ruling follows."""

    player: str
    source: str
    key: str
    text: str
    when: str
    blocking: bool


@dataclass(frozen=True)
class FollowUp:
    """An effect of a played card or ability that the game state applies after the battle (coins, VP, draws,
    attack bans, looks at a hand, ...), with the conditions already checked."""

    player: str
    source: str
    effect: Effect
    amount: int = 0  # for `per` counters the battle knows (casualties_inflicted): the count


@dataclass(frozen=True)
class Move:
    """Units that leave or enter an area after the battle (ER-8.24): `to` None means eliminated."""

    player: str
    units: Mapping[str, int]
    source: str
    to: str | None
    why: str
    options: tuple[str, ...] = ()  # for a retreat: every area it could go to (a pending decision offers them)


@dataclass(frozen=True)
class Event:
    """A report line: what happened, under which rule, with its numbers (rendered by the reports)."""

    rule: str
    what: str
    data: Mapping[str, object] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True)
class Casualties:
    """ER-8.20, ER-8.21: casualties inflicted on one side."""

    blockable: int = 0
    unblockable: int = 0
    shields: int = 0
    self_removal: int = 0

    @property
    def net(self) -> int:
        return max(0, self.blockable - self.shields) + self.unblockable


@dataclass(frozen=True)
class BattleOutcome:
    """What the battle decided. `finished` False: blocked by `pending` manual effects, nothing rolled."""

    finished: bool
    winner: str | None = None  # attacker | defender | None (tie, ER-8.19)
    strengths: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # each side's total, its die included
    dice: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # the die (automa card strength) in it
    volley_hits: Mapping[str, int] = field(default_factory=lambda: EMPTY)  # hits suffered by each side
    casualties: Mapping[str, Casualties] = field(default_factory=lambda: EMPTY)
    losses: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: EMPTY)  # player -> kind -> n
    # (player, area the units fought from) -> kind -> n: where the state removes them (a principal may also
    # reinforce its own side from a second area, ER-8.4)
    area_losses: Mapping[tuple[str, str], Mapping[str, int]] = field(default_factory=lambda: EMPTY)
    heroes_face_up: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)  # ER-8.27 first use
    heroes_discarded: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)  # second use
    tactics_discarded: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: EMPTY)
    draws: tuple[tuple[str, int], ...] = ()  # ER-8.28, in draw order
    automa_card: str | None = None
    automa_deck: tuple[str, ...] = ()
    automa_discards: tuple[str, ...] = ()
    moves: tuple[Move, ...] = ()
    conquered: bool = False  # the attacker now holds the area
    independent_removed: bool = False
    follow_ups: tuple[FollowUp, ...] = ()
    pending: tuple[Pending, ...] = ()
    events: tuple[Event, ...] = ()
