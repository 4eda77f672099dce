"""The orders of Empires of the Ancient World (EAW-7, EAW-12), as the order language (parse.py) makes them.

Pace by mail: a player sends a plan for the game round, one action a line, each with fall-backs (`ELSE`) that are
tried in order against the position when the action's turn comes (EAW-12.2); standing battle plans (EAW-12.4 to
EAW-12.8) hold until replaced. The plan and the standing plans are kept in the state as JSON (`to_json`,
`action_from_json`), private to the seat.

Cards are named by their data id (`pike`): copies of one entry are alike, so an order never names an instance.
`canonical(order, language)` writes an order back as the line that makes it, in a reader's keywords."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Final

from adjudicator.orders.sets import Order

# -- actions (EAW-7) --------------------------------------------------------------------------------------------
REFRESH_NO, REFRESH_YES, REFRESH_IF_NONE = "no", "yes", "if_none"  # EAW-12.3


@dataclass(frozen=True)
class Attack:
    """EAW-7.1 to EAW-7.4: attack `target` from `origin` (one of the player's areas; the connection between them,
    or the Mediterranean rule of EAW-2.3 when there is none). `stack`: the battle stack sent with the attack, top
    first (EAW-12.6; empty: the standing plan or the default); `then`: the free action after a rout (EAW-12.9)."""

    target: str
    origin: str
    stack: tuple[str, ...] = ()
    then: tuple[Any, ...] = ()  # alternatives of the free action, tried in order like a plan line's


@dataclass(frozen=True)
class Diplomacy:
    """EAW-7.10, EAW-7.11: take over a neutral area next to one of the player's (pay 2 and roll 2+; with a diplomat
    1 and no roll); with `remove`, the diplomat's removal of another player's marker paying `pay` markers (0-3,
    EAW-12.10: None = 3 if available)."""

    target: str
    remove: bool = False
    pay: int | None = None


@dataclass(frozen=True)
class Recruit:
    """EAW-7.20, EAW-12.3: take the first display card matching `wants` (card ids, categories, personality types,
    or `best`); `refresh` the display first (yes), never (no), or only if no card matches (if_none)."""

    wants: tuple[str, ...] = ()
    refresh: str = REFRESH_NO


@dataclass(frozen=True)
class Disband:
    """EAW-7.21: instead of recruiting, discard one card of the hand (by its id)."""

    card: str


@dataclass(frozen=True)
class BuildFort:
    """EAW-7.25."""

    area: str


@dataclass(frozen=True)
class TradeTarget:
    """One trade marker's target (EAW-7.30); `displace`: into a full area, roll to remove this seat's marker
    (EAW-7.31, EAW-12.15; "" = the default owner); None: a full area is skipped (EAW-12.11)."""

    area: str
    displace: str | None = None


@dataclass(frozen=True)
class PlaceTrade:
    """EAW-7.30: the targets in order, one marker at a time (2, +1 per merchant)."""

    targets: tuple[TradeTarget, ...]


@dataclass(frozen=True)
class PlaceControl:
    """EAW-7.40."""

    area: str


Action = Attack | Diplomacy | Recruit | Disband | BuildFort | PlaceTrade | PlaceControl
ACTION_KINDS: Final[dict[str, type]] = {
    "attack": Attack,
    "diplomacy": Diplomacy,
    "recruit": Recruit,
    "disband": Disband,
    "fort": BuildFort,
    "trade": PlaceTrade,
    "control": PlaceControl,
}
KIND_OF: Final[dict[type, str]] = {kind: name for name, kind in ACTION_KINDS.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    found: dict[str, Any] = {"kind": KIND_OF[type(action)]}
    for f in fields(action):
        value = getattr(action, f.name)
        if f.name == "then":
            value = [action_to_json(a) for a in value]
        elif f.name == "targets":
            value = [{"area": t.area, "displace": t.displace} for t in value]
        elif isinstance(value, tuple):
            value = list(value)
        found[f.name] = value
    return found


def action_from_json(data: dict[str, Any]) -> Action:
    kind = ACTION_KINDS[data["kind"]]
    values: dict[str, Any] = {}
    for f in fields(kind):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "then":
            value = tuple(action_from_json(a) for a in value)
        elif f.name == "targets":
            value = tuple(TradeTarget(t["area"], t.get("displace")) for t in value)
        elif isinstance(value, list):
            value = tuple(value)
        values[f.name] = value
    return kind(**values)


# -- the lines of an order set ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlanLine(Order):
    """One action of the plan: its alternatives in order (EAW-12.2: the first that can be taken is)."""

    alternatives: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "alternatives": [action_to_json(a) for a in self.alternatives]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlanLine:
        alternatives = tuple(action_from_json(a) for a in data["alternatives"])
        return cls(alternatives, line=data.get("line", 0), text=data.get("text", ""))


@dataclass(frozen=True)
class StartChoice(Order):
    """EAW-12.1: starting provinces in order of preference (setup)."""

    areas: tuple[str, ...]


@dataclass(frozen=True)
class PlaceChoice(Order):
    """EAW-12.13: areas for the further setup markers, in order of preference."""

    areas: tuple[str, ...]


@dataclass(frozen=True)
class FortChoice(PlanLine):
    """EAW-12.14: provinces for the starting fort, in order of preference: `FORT ITA, GAL` (or `FORT ITA`). The
    parser cannot know the step a line is for, and the same words in a plan order a fort in the first of them that
    can take one (EAW-7.25, EAW-12.2): so a FortChoice is also a plan line of BuildFort alternatives (made from
    `areas`), which the placement reads as its list and a plan as its line."""

    alternatives: tuple[Action, ...] = field(init=False, default=())
    areas: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "alternatives", tuple(BuildFort(area) for area in self.areas))


# standing battle plans (EAW-12.4 to EAW-12.8); `area` None: every area of the player
@dataclass(frozen=True)
class DefendOrder(Order):
    """EAW-12.4: SIEGE or OPEN when a fortified province of the player is attacked."""

    siege: bool
    area: str | None = None


@dataclass(frozen=True)
class AmbushOrder(Order):
    """EAW-12.5: lay an ambush (with a military leader) when attacked."""

    ambush: bool
    area: str | None = None


SITUATIONS: Final = ("open", "siege", "naval")  # the battle types of EAW-9.2
SIDES: Final = ("attack", "defend")


@dataclass(frozen=True)
class StackOrder(Order):
    """EAW-12.6: the stack (card ids, top first) for a battle type and side; None for either: any."""

    cards: tuple[str, ...]
    situation: str | None = None
    side: str | None = None


@dataclass(frozen=True)
class MarkersOrder(Order):
    """EAW-12.7: push or pull a combat marker when the player wins a comparison."""

    push: bool


@dataclass(frozen=True)
class LossesOrder(Order):
    """EAW-12.8: the loss priority (card ids) when losses are chosen (loss_selection = owner_chooses)."""

    cards: tuple[str, ...]


STANDING_ORDERS: Final = (DefendOrder, AmbushOrder, StackOrder, MarkersOrder, LossesOrder)


# -- writing an order back (reports, the orders template, answers) -----------------------------------------------
def canonical(order: Order | Action, language: str = "en") -> str:
    """`order` (or one action) as one line of the order language in `language`'s keywords (written as a reader of
    that language writes them); it parses back to the same order."""
    from adjudicator.orders.keywords import written

    def w(name: str) -> str:
        return written(language, name, "empires-aw")

    return _text(order, w)


def _text(order: Any, w: Callable[[str], str]) -> str:
    if isinstance(order, FortChoice):
        return f"{w('FORT')} " + ", ".join(order.areas)
    if isinstance(order, PlanLine):
        return f" {w('ELSE')} ".join(_text(a, w) for a in order.alternatives)
    write = _WRITERS.get(type(order))
    if write is None:
        raise TypeError(f"no line form for {type(order).__name__}")
    return write(order, w)


def _attack(order: Attack, w: Callable[[str], str]) -> str:
    text = f"{w('ATTACK')} {order.target} {w('FROM')} {order.origin}"
    if order.stack:
        text += f" {w('WITH')} " + ", ".join(order.stack)
    if order.then:  # the free action's alternatives (EAW-12.9)
        text += f" {w('THEN')} " + f" {w('OR')} ".join(_text(a, w) for a in order.then)
    return text


def _diplomacy(order: Diplomacy, w: Callable[[str], str]) -> str:
    if not order.remove:
        return f"{w('DIPLOMACY')} {order.target}"
    pay = "" if order.pay is None else f" {w('PAY')} {order.pay}"
    return f"{w('DIPLOMACY')} {w('REMOVE')} {order.target}{pay}"


def _recruit(order: Recruit, w: Callable[[str], str]) -> str:
    words = [w("RECRUIT")]
    if order.wants:
        words.append(", ".join(w("BEST") if want == "best" else want for want in order.wants))
    if order.refresh != REFRESH_NO:
        words.append(w("REFRESH") + (f" {w('IF')} {w('NONE')}" if order.refresh == REFRESH_IF_NONE else ""))
    return " ".join(words)


def _trade(order: PlaceTrade, w: Callable[[str], str]) -> str:
    targets = []
    for t in order.targets:
        displace = "" if t.displace is None else f" {w('DISPLACE')}" + (f" {t.displace}" if t.displace else "")
        targets.append(t.area + displace)
    return f"{w('TRADE')} " + ", ".join(targets)


def _at(order: DefendOrder | AmbushOrder, w: Callable[[str], str]) -> str:
    return f" {w('AT')} {order.area}" if order.area else ""


def _stack(order: StackOrder, w: Callable[[str], str]) -> str:
    words = [w("STACK")] + [w(x.upper()) for x in (order.situation, order.side) if x]
    return " ".join(words) + ": " + ", ".join(order.cards)


_WRITERS: Final[dict[type, Callable[[Any, Callable[[str], str]], str]]] = {
    Attack: _attack,
    Diplomacy: _diplomacy,
    Recruit: _recruit,
    Disband: lambda o, w: f"{w('DISBAND')} {o.card}",
    BuildFort: lambda o, w: f"{w('FORT')} {o.area}",
    PlaceTrade: _trade,
    PlaceControl: lambda o, w: f"{w('CONTROL')} {o.area}",
    StartChoice: lambda o, w: f"{w('START')} " + ", ".join(o.areas),
    PlaceChoice: lambda o, w: f"{w('PLACE')} " + ", ".join(o.areas),
    DefendOrder: lambda o, w: f"{w('DEFEND')} {w('SIEGE' if o.siege else 'OPEN')}{_at(o, w)}",
    AmbushOrder: lambda o, w: f"{w('AMBUSH')} {w('YES' if o.ambush else 'NO')}{_at(o, w)}",
    StackOrder: _stack,
    MarkersOrder: lambda o, w: f"{w('MARKERS')} {w('PUSH' if o.push else 'PULL')}",
    LossesOrder: lambda o, w: f"{w('LOSSES')} " + ", ".join(o.cards),
}
