"""The battle while it is being resolved: the armies with their surviving units, the cards and abilities in
play (`Source`), and how effects' conditions (ER-13.6 `if`) and unit counts are read from one player's side.
battle.py runs the steps on it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    INDEPENDENT,
    KINDS,
    NO_ORDERS,
    NO_PLAN,
    STANDARD,
    Army,
    Battle,
    BattleError,
    Casualties,
    Event,
    Plan,
    Standing,
)
from adjudicator.rulesets.conqueror.data import Effect, Effects
from adjudicator.rulesets.conqueror.vocabulary import Condition, FortLimit, UnitCount

BASE_STRENGTH: Final = {"cavalry": 2, "infantry": 1, "archer": 0, "ship": 2, "siege": 0}  # ER-8.16a, ER-12.11
SIEGE_VS_FORT: Final = 4  # ER-12.17
MELEE_WHEN: Final = frozenset({"battle.reinforce", "battle.melee", "immediate"})  # immediate: standing effects
VOLLEY_WHEN: Final = frozenset({"battle.volley", "immediate"})
CASUALTY_WHEN: Final = frozenset({"battle.melee", "battle.casualties"})


def other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


@dataclass
class Group:
    """One army in the battle with its surviving units; `main`: the attacking or defending army itself, not a
    reinforcement (ER-8.3, ER-8.6)."""

    army: Army
    side: str
    main: bool
    units: dict[str, int]
    lost: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))

    @property
    def player(self) -> str:
        return self.army.player

    @property
    def total(self) -> int:
        return sum(self.units.values())

    def types_of_elite(self) -> frozenset[str]:
        """The types the elite counts as (ER-6.8, ER-9.3), its `unit_flag` effects included."""
        if self.army.elite is None:
            return frozenset()
        flags = {str(e.args["flag"]) for e in self.army.elite.effects if e.op == "unit_flag"}
        return self.army.elite.types | flags

    def count(self, kind: str) -> int:
        """Units of `kind`; cavalry/infantry/archer include an elite of that type; `any`: all."""
        if kind == "any":
            return self.total
        elite = self.units["elite"] if kind in STANDARD and kind in self.types_of_elite() else 0
        return self.units.get(kind, 0) + elite

    def remove(self, kind: str, n: int = 1) -> None:
        self.units[kind] -= n
        self.lost[kind] += n


def group_of(army: Army, side: str, main: bool) -> Group:
    return Group(army, side, main, {kind: army.count(kind) for kind in KINDS})


@dataclass(frozen=True)
class Source:
    """A card, elite or ability whose effects may apply: `group` is the elite's own army (ER-9.2 "same army")."""

    player: str
    side: str
    name: str
    kind: str  # hero | tactic | elite | ability
    effects: Effects
    group: Group | None = None
    optional: bool = False  # Free Men style (ER-8.18): applies only when chosen


@dataclass
class Field:
    battle: Battle
    plans: dict[str, Plan]
    orders: dict[str, Standing]
    groups: list[Group]
    sources: list[Source] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    winner: str | None = None
    margin: int = 0
    base: dict[str, int] = field(default_factory=dict)  # ER-12.5-style unit strength, for enemy_strength_ge
    free_men: dict[str, bool] = field(default_factory=dict)
    self_removed: dict[str, int] = field(default_factory=dict)  # ER-8.20: not casualties, but units lost
    ships_lost: dict[str, int] = field(default_factory=dict)  # ER-8.23: at most one casualty per battle
    volley_hits: dict[str, int] = field(default_factory=dict)  # hits suffered by each side (ER-8.11)
    casualties: dict[str, Casualties] = field(default_factory=dict)  # ER-8.21
    automa_deck: tuple[str, ...] = ()
    automa_discards: tuple[str, ...] = ()
    ended: str | None = None  # the winner when the volley ended the battle (ER-8.26)

    def __post_init__(self) -> None:
        self.automa_deck, self.automa_discards = self.battle.automa_deck, self.battle.automa_discards

    def principal(self, side: str) -> str:
        return self.battle.attacker.player if side == ATTACKER else self.battle.defender_id

    def plan(self, side: str) -> Plan:
        return self.plans.get(self.principal(side), NO_PLAN)

    def standing(self, player: str) -> Standing:
        return self.orders.get(player, NO_ORDERS)

    def side(self, side: str) -> list[Group]:
        return [g for g in self.groups if g.side == side]

    def main(self, side: str) -> Group | None:
        return next((g for g in self.groups if g.side == side and g.main), None)

    def players(self, side: str) -> list[str]:
        """The side's players, principal first, then allies in reinforcement order (ER-8.10, ER-14.16)."""
        seen: list[str] = [self.principal(side)]
        for g in self.side(side):
            if g.player not in seen:
                seen.append(g.player)
        return seen

    def own(self, player: str) -> list[Group]:
        return [g for g in self.groups if g.player == player]

    def count(self, groups: list[Group], kind: str) -> int:
        return sum(g.count(kind) for g in groups)

    def say(self, rule: str, what: str, **data: object) -> None:
        self.events.append(Event(rule, what, data))

    # -- the fort and capital (ER-8.16d) ---------------------------------------------------------------------
    def fort(self) -> str:
        """The fort as conditions read it: none | small | large (a built fort is small, a capital large)."""
        if self.battle.capital_of is not None:
            return "large"
        return {"built": "small", "blanked": "none"}.get(self.battle.fort, self.battle.fort)

    def own_capital(self, player: str) -> bool:
        return player in (self.battle.capital_of, self.battle.temporary_capital_of) and player != INDEPENDENT

    # -- sources of effects ----------------------------------------------------------------------------------
    def active(self, side: str, player: str | None = None) -> Iterator[Source]:
        """The sources that apply now on `side` (of `player` if given): elites still in the battle (ER-15.14),
        optional ones only when chosen (ER-8.18)."""
        for source in self.sources:
            if source.side != side or (player is not None and source.player != player):
                continue
            if source.kind == "elite" and (source.group is None or source.group.units["elite"] == 0):
                continue
            if source.optional and not self.free_men.get(source.player, False):
                continue
            yield source

    def effects(self, side: str, ops: frozenset[str], when: frozenset[str]) -> Iterator[tuple[Source, Effect]]:
        """Every effect of `ops` with a trigger in `when` whose conditions hold, on `side`."""
        for source in self.active(side):
            for effect in source.effects:
                if effect.op in ops and effect.when.name in when and self.holds(source, effect):
                    yield source, effect

    # -- conditions (ER-13.6 `if`) ---------------------------------------------------------------------------
    def holds(self, source: Source, effect: Effect) -> bool:
        return all(self.condition(source, condition) for condition in effect.conditions)

    def condition(self, source: Source, condition: Condition) -> bool:
        name, value, side, battle = condition.name, condition.value, source.side, self.battle
        facts = source.group.army.facts if source.group is not None else self._facts(source.player)
        if name in ("attacking", "defending"):
            return side == (ATTACKER if name == "attacking" else DEFENDER)
        if name in ("at_sea", "on_land"):
            return battle.land == (name == "on_land")
        if name == "from_sea":
            return side == ATTACKER and battle.from_sea
        if name == "area_fort":
            return self.fort() != "none" if value == "any" else self.fort() == value
        if name == "own_capital":
            return self.own_capital(source.player)
        if name == "region":
            return battle.europe
        if name in ("own_units", "enemy_units"):
            assert isinstance(value, UnitCount)
            groups = self.own(source.player) if name == "own_units" else self.side(other(side))
            return self.count(groups, value.type) >= value.n
        if name == "accompanied_by":
            groups = [source.group] if source.group is not None else self.own(source.player)
            return any(g.units.get(str(value), 0) > 0 for g in groups)  # a standard unit beside it (ER-9.2)
        if name in ("won", "margin_ge", "margin_gt"):
            return self._won(side, name, value)
        if name == "enemy_strength_ge":
            return self.base.get(other(side), 0) >= int(str(value))
        return self._state_fact(name, value, facts)

    def _won(self, side: str, name: str, value: object) -> bool:
        if self.winner != side:
            return False
        if name == "margin_ge":
            return self.margin >= int(str(value))
        if name == "margin_gt":
            return self.margin > int(str(value))
        return True

    def _facts(self, player: str) -> Mapping[str, int]:
        group = next(iter(self.own(player)), None)
        return group.army.facts if group is not None else {}

    @staticmethod
    def _state_fact(name: str, value: object, facts: Mapping[str, int]) -> bool:
        """Conditions only the game state knows, read from the army's `facts` (absent: not met)."""
        if name == "holds_stored_food":
            return facts.get("stored_food", 0) > 0
        if name == "food_le":
            return "food" in facts and facts["food"] <= int(str(value))
        if name == "round_ge":
            return facts.get("round", 0) >= int(str(value))
        if name == "forts_le" and isinstance(value, FortLimit):
            return facts.get("large_forts", 0) <= value.large and facts.get("small_forts", 0) <= value.small
        return False


def check_upgrades(army: Army, known: tuple[str, ...]) -> None:
    unknown = sorted(army.upgrades - set(known))
    if unknown:
        raise BattleError(f"ER-9.4: {army.player} has unknown upgrades {', '.join(unknown)}")
