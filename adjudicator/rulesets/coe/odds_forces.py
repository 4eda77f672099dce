"""Battle odds (odds.py), the input: the forces of each side as the arithmetic counts them, and the standing
orders that decide for them (C-15.5 to C-15.10, O-14.4 to O-14.7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.coe.decisions import UNIT_WORDS, Pick, record_standing_order
from adjudicator.rulesets.coe.orders import Order
from adjudicator.rulesets.coe.ruleset import CoeRuleset, coe_ruleset
from adjudicator.rulesets.coe.state import Force
from adjudicator.rulesets.coe.vocabulary import UNIT_ABBREVIATIONS, UNIT_KINDS

Prob = Fraction | float
Comp = tuple[int, int, int]  # infantry, cavalry, catapult
PURSUIT_DEFAULT = ["catapult", "cavalry", "infantry"]  # C-15.9
KIND_WORDS = {**UNIT_WORDS, "gal": "galley", "galley": "galley", "galleys": "galley"}


# -- input ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Army:
    infantry: int = 0
    cavalry: int = 0
    catapult: int = 0
    leaders: int = 0
    caesar: bool = False
    generals: int = 0
    fortified: bool = False
    by_sea: Comp = (0, 0, 0)

    @property
    def comp(self) -> Comp:
        return self.infantry, self.cavalry, self.catapult


def read_army(pieces: Mapping[str, Any] | None, what: str) -> Army:
    """A force from a dict: infantry, cavalry, catapult (or inf, cav, cat), leaders (Caesar and generals
    together; or generals + caesar), caesar (bool), fortified (defender), by_sea (1984 attacker: units per kind
    that came by sea this turn)."""
    pieces = dict(pieces or {})
    counts = {kind: 0 for kind in UNIT_KINDS}
    extra: dict[str, Any] = {}
    for key, value in pieces.items():
        word = key.casefold()
        if word in UNIT_WORDS:
            counts[UNIT_WORDS[word]] += int(value)
        elif word in ("leaders", "generals", "caesar", "fortified"):
            extra[word] = value
        elif word == "by_sea":
            extra["by_sea"] = value
        else:
            raise ValueError(
                f"{what}: unknown key {key!r} (infantry, cavalry, catapult, leaders, generals, caesar, "
                "fortified, by_sea)"
            )
    if any(n < 0 for n in counts.values()):
        raise ValueError(f"{what}: negative unit count")
    caesar = bool(extra.get("caesar", False))
    leaders = int(extra["leaders"]) if "leaders" in extra else int(extra.get("generals", 0)) + caesar
    leaders = max(leaders, int(caesar))
    generals = int(extra["generals"]) if "generals" in extra else leaders - caesar
    if leaders < 0 or generals < 0:
        raise ValueError(f"{what}: negative leader count")
    sea = {UNIT_WORDS[k.casefold()]: int(v) for k, v in dict(extra.get("by_sea") or {}).items()}
    by_sea = tuple(min(sea.get(kind, 0), counts[kind]) for kind in UNIT_KINDS)
    return Army(
        counts["infantry"],
        counts["cavalry"],
        counts["catapult"],
        leaders,
        caesar,
        generals,
        bool(extra.get("fortified", False)),
        by_sea,
    )  # type: ignore[arg-type]


def rules_of(ruleset: str | CoeRuleset) -> CoeRuleset:
    return coe_ruleset(ruleset) if isinstance(ruleset, str) else ruleset


def is_1984(rules: CoeRuleset) -> bool:
    return rules.edition("combat") == "target_number"


def kind_priority(values: Iterable[str] | None) -> list[str] | None:
    """A standing priority of unit kinds (long or short words), or None when none was given."""
    if not values:
        return None
    return [KIND_WORDS.get(str(v).casefold(), str(v).casefold()) for v in values]


def read_picks(values: Iterable[Any] | None) -> list[Pick] | None:
    """A standing LOSSES, BATTLELEGION or PURSUIT priority as picks (an entry with a count is kept as {"kind",
    "count"} in Player.standing, C-6.9), or None when none was given."""
    if not values:
        return None

    def kind(word: Any) -> str:
        return KIND_WORDS.get(str(word).casefold(), str(word).casefold())

    return [(kind(v["kind"]), int(v["count"])) if isinstance(v, dict) else (kind(v), None) for v in values]


def retreat_rule(standing: Mapping[str, Any], area: str | None) -> dict[str, Any] | None:
    """The RETREAT rule the engine applies: one FROM this area first, else the general one (C-15.7)."""
    for rule in sorted(standing.get("retreat") or [], key=lambda r: r.get("from") is None):
        if rule.get("from") in (None, area):
            return dict(rule)
    return None


def as_force(comp: Comp, caesar: bool) -> Force:
    return Force(caesar=int(caesar), infantry=comp[0], cavalry=comp[1], catapult=comp[2])


def units_of(comp: Comp) -> dict[str, int]:
    return dict(zip(UNIT_KINDS, comp, strict=True))


def comp_of(units: Mapping[str, int]) -> Comp:
    return units["infantry"], units["cavalry"], units["catapult"]


def minus(a: Comp, b: Comp) -> Comp:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def describe(pieces: Mapping[str, Any] | None) -> str:
    """'10 INF 5 CAV 2 CAT, 2 leaders (Caesar), fortified city' for a force dict."""
    return _describe(read_army(pieces, "force"))


def _describe(army: Army) -> str:
    """In English, each part an engine text that a reader's language translates (render/i18n.py engine_text)."""
    parts = [_unit_counts(army.comp) or N_("no units")]
    if army.leaders:
        count = army.leaders
        leaders = N_("%(count)s leader", count=count) if count == 1 else N_("%(count)s leaders", count=count)
        parts.append(N_("%(leaders)s (Caesar)", leaders=leaders) if army.caesar else leaders)
    if army.fortified:
        parts.append(N_("fortified city"))
    if any(army.by_sea):
        parts.append(N_("by sea: %(units)s", units=_unit_counts(army.by_sea)))
    return ", ".join(parts)


def _unit_counts(comp: Sequence[int]) -> str:
    return " ".join(f"{n} {UNIT_ABBREVIATIONS[k]}" for k, n in zip(UNIT_KINDS, comp, strict=True) if n)


def retreat_areas(standing: Mapping[str, Any]) -> set[str]:
    """The areas that RETREAT FROM <area> orders of a standing dict name."""
    return {rule["from"] for rule in standing.get("retreat") or [] if rule.get("from")}


def standing_from_orders(orders: Iterable[Order]) -> dict[str, Any]:
    """Standing orders (parsed LOSSES, BATTLELEGION, PURSUIT, TARGETS, NAVAL LOSSES, RETREAT orders) as the dict
    Player.standing holds, the later order of a kind replacing the earlier one (as in a turn, C-15)."""
    standing: dict[str, Any] = {}
    for order in orders:
        record_standing_order(standing, order)
    return standing


# -- fleets -----------------------------------------------------------------------------------------------------


def read_fleet(galleys: int | Sequence[Mapping[str, Any]], what: str) -> list[Army]:
    if isinstance(galleys, int):
        if galleys < 0:
            raise ValueError(f"{what}: negative galley count")
        return [Army() for _ in range(galleys)]
    return [read_army(cargo, f"{what} galley {n}") for n, cargo in enumerate(galleys, 1)]


def describe_fleet(galleys: int | Sequence[Mapping[str, Any]]) -> str:
    fleet = read_fleet(galleys, "fleet")
    loaded = [f"galley {n}: {_describe(g)}" for n, g in enumerate(fleet, 1) if sum(g.comp) or g.leaders]
    text = f"{len(fleet)} galle{'ys' if len(fleet) != 1 else 'y'}"
    return text + (f" ({'; '.join(loaded)})" if loaded else "")


def category(army: Army) -> str:
    """C-15.10 categories, as naval.category."""
    if not (sum(army.comp) or army.leaders):
        return "empty"
    if army.caesar:
        return "caesar"
    return "generals" if army.leaders else "loaded"
