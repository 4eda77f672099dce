"""Typed order objects: what the parser produces and the engine consumes.

Every order keeps the line it came from, so that verdicts and errors can name it.
Areas are board codes (already resolved by the parser); seats are seat names.
"""

from __future__ import annotations

from dataclasses import dataclass

# The order set and the base order are the same for every game (adjudicator/orders/sets.py); named here too.
from adjudicator.orders.sets import PASSWORD_MARK as PASSWORD_MARK
from adjudicator.orders.sets import Answer as Answer
from adjudicator.orders.sets import Header as Header
from adjudicator.orders.sets import Language as Language
from adjudicator.orders.sets import Order
from adjudicator.orders.sets import OrderError as OrderError
from adjudicator.orders.sets import OrderSet as OrderSet
from adjudicator.orders.sets import Press as Press

CAESAR = 0  # leader number of the Caesar; generals are 1, 2, ... (taken-over ones numbered on, C-8.8)


@dataclass(frozen=True)
class Troops:
    """A group of one seat's pieces that act together: leaders plus counted combat units."""

    leaders: tuple[int, ...] = ()
    infantry: int = 0
    cavalry: int = 0
    catapult: int = 0

    @property
    def units(self) -> int:
        return self.infantry + self.cavalry + self.catapult


@dataclass(frozen=True)
class Step:
    """One leg of a move: `land` into an adjacent area (->), or a `road` journey to a city (=>). `leave`: pieces
    dropped there (LEAVING); a road leg after a road leg that dropped pieces goes on with the same journey
    (C-5.12)."""

    kind: str
    to: str
    leave: Troops | None = None


@dataclass(frozen=True)
class Move(Order):
    troops: Troops
    start: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Sail(Order):
    """Galleys move through sea zones; cargo boards at the start and lands at a land destination."""

    galleys: tuple[int, ...]
    start: str
    route: tuple[str, ...]
    cargo: Troops | None = None


@dataclass(frozen=True)
class NavalBattle(Order):
    zone: str
    against: str | None = None


@dataclass(frozen=True)
class BattleOrder(Order):
    areas: tuple[str, ...]


@dataclass(frozen=True)
class DestroyCity(Order):
    area: str


@dataclass(frozen=True)
class Purchase:
    """One item of a BUY order. `piece` is one of PIECES in rulesets/coe/vocabulary.py."""

    piece: str
    count: int = 1
    at: str | None = None  # city/fortification site, galley province, road's first city
    coast: str | None = None  # a sea zone naming the coast of a new galley
    to: str | None = None  # a road's second city


@dataclass(frozen=True)
class Buy(Order):
    items: tuple[Purchase, ...]


@dataclass(frozen=True)
class Priority(Order):
    """Standing order giving a priority of piece kinds: LOSSES, BATTLELEGION, PURSUIT, NAVAL LOSSES."""

    kind: str  # "losses" | "battlelegion" | "pursuit" | "naval_losses"
    values: tuple[str, ...]
    counts: tuple[int | None, ...] = ()  # a count per value limits that kind there (LOSSES 4 INF, CAV); () none


@dataclass(frozen=True)
class RetreatRule(Order):
    """Standing order: RETREAT [FROM area] [TO areas] WHEN condition, or RETREAT NEVER."""

    condition: str  # "never" | "units_below" | "below_enemy" | "caesar_and_units_below"
    threshold: int | None = None
    origin: str | None = None
    destinations: tuple[str, ...] = ()


@dataclass(frozen=True)
class Captives(Order):
    choice: str  # "ransom" | "kill"
    owner: str | None = None


@dataclass(frozen=True)
class FreedTo(Order):
    areas: tuple[str, ...]


@dataclass(frozen=True)
class Homes(Order):
    areas: tuple[str, ...]


@dataclass(frozen=True)
class RansomOffer(Order):
    """Offer to return (or buy back) `owner`'s general for talents and/or prisoners."""

    owner: str
    general: int
    talents: int = 0
    prisoners: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class RansomAccept(Order):
    owner: str
    general: int
    min_talents: int = 0


@dataclass(frozen=True)
class Concede(Order):
    to: str
