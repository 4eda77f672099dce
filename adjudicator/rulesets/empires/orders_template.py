"""The orders template at the end of a seat's private report and welcome: the order forms the seat can use in its next
step, filled with its choices as the position stands now, and example lines. The steps a seat orders in: the sealed
placement (EAW-3.7 to EAW-3.10: START, PLACE, FORT), the sealed plans of a game round (one action a line with ELSE
fall-backs, and the standing battle plans of EAW-12.4 to EAW-12.8), and a step of its own when its plan ran out
(the first line of its new plan is the action now, EAW-12.2).

Every line comes in the reader's language: keywords as he writes them (orders.canonical), notes through gettext. An
example is a concrete order that parses, and that the real checks of its step accept now where they can judge it
(checks.check_plan_line for a plan line), so that a player can send it as it stands.

The choices shown (attack targets and the rolls they need, diplomacy, trade room, fort sites) are read from the
position and the data as EAW-2, EAW-7 and EAW-13 state them; the action's own checks have the last word."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from adjudicator.engine.chance import GivenDice
from adjudicator.orders.keywords import written
from adjudicator.render.i18n import N_, engine_text, gettext, plural_gettext
from adjudicator.rulesets.empires import data as eaw
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.actions import refusal
from adjudicator.rulesets.empires.attack import needs_sea_move, sea_move_bonus
from adjudicator.rulesets.empires.board import Route, attack_route, is_last_province
from adjudicator.rulesets.empires.diplomacy import reaches
from adjudicator.rulesets.empires.forts_control import fort_cost
from adjudicator.rulesets.empires.orders import (
    REFRESH_IF_NONE,
    AmbushOrder,
    Attack,
    BuildFort,
    DefendOrder,
    Diplomacy,
    Disband,
    FortChoice,
    LossesOrder,
    MarkersOrder,
    PlaceChoice,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    StackOrder,
    StartChoice,
    TradeTarget,
    canonical,
)
from adjudicator.rulesets.empires.parse import BEST, RULESET, language_of
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.standing import ANY
from adjudicator.rulesets.empires.state import ACTION, ENDED, PLACEMENT, GameState, Player

if TYPE_CHECKING:
    from adjudicator.orders.sets import Order

HALF_NAMES: Final = {eaw.NORTH: N_("north"), eaw.SOUTH: N_("south")}  # EAW-2.10
CATEGORY_NAMES: Final = {  # EAW-1.3, as the position report names them
    "sword": N_("sword"),
    "spear": N_("spear"),
    "foot": N_("foot soldier"),
    "archer": N_("archer"),
    "mounted": N_("mounted"),
    "artillery": N_("artillery"),
    "galley": N_("galley"),
    "other": N_("other"),
}
PERSONALITY_NAMES: Final = {  # EAW-9.1
    eaw.LEADER: N_("military leader"),
    eaw.ENGINEER: N_("engineer"),
    eaw.DIPLOMAT: N_("diplomat"),
    eaw.MERCHANT: N_("merchant"),
}
MAX_LISTED: Final = 12  # targets listed per kind (the map may be large)


@dataclass
class Section:
    """A heading and its lines, in the reader's language."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass
class OrdersTemplate:
    """What the template shows for one seat: its next step (number and phase), what that step is, the sections of
    choices and the example lines (each parsed and, where the checks can judge it, accepted now)."""

    step: int
    phase: str
    what: str
    sections: list[Section]
    examples: list[str]


@dataclass(frozen=True)
class Target:
    """An attack the seat may order now: target, origin, the connection's kinds (empty: the Mediterranean rule) and
    the notes on what it needs (rolls, a battle)."""

    target: str
    origin: str
    crossing: frozenset[str]
    notes: tuple[str, ...]
    neutral: bool


class TemplateMaker:
    """`orders_template(seat, language)` for the report templates (report_context): None when the game has ended or
    the seat orders in no coming step. `game`: the bound ruleset (data, options, next_steps, coming_steps)."""

    def __init__(self, game: Any, state: GameState) -> None:
        self.game, self.state = game, state

    def __call__(self, seat: str, language: str = "en") -> OrdersTemplate | None:
        if self.state.phase == ENDED or seat not in self.state.players:
            return None
        number = self.game.next_steps(self.state).get(seat)
        if number is None:
            return None
        phase = next((s.phase for s in self.game.coming_steps(self.state) if s.number == number), "plans")
        options_of = getattr(self.game, "options_of", None)  # the options a game's state keeps (EAW-11.7)
        options = options_of(self.state) if options_of is not None else self.game.options
        return Template(self.game.data, options, self.state, seat, language).make(number, phase)


class Template:
    """The template of one seat in one language."""

    def __init__(self, data: eaw.GameData, options: eaw.Options, state: GameState, seat: str, language: str) -> None:
        self.data, self.options, self.state, self.seat, self.language = data, options, state, seat, language
        self.player: Player = state.players[seat]
        self.map = data.map
        self._play: Play | None = None  # the position as the actions read it, made when first needed

    @property
    def play(self) -> Play:
        """The position as the actions read it (on a copy: the template changes nothing), so that the choices shown
        follow the actions' own rules (board.py, attack.py, diplomacy.py, forts_control.py)."""
        if self._play is None:
            self._play = Play(self.state.copy(), self.data, self.options, GivenDice(values=[]))
        return self._play

    # -- words ------------------------------------------------------------------------------------------------------
    def _(self, msgid: str, **values: object) -> str:
        return gettext(self.language, msgid, in_ruleset=RULESET, **values)

    def kw(self, name: str) -> str:
        return written(self.language, name, RULESET)

    def line(self, order: Order | Any) -> str:
        return canonical(order, self.language)

    def area(self, area: str) -> str:
        return f"{area} {self.map.areas[area].name}"

    def card(self, instance: str) -> str:
        """A card as the template lists it: its id, name and what it fights with (EAW-8.5, EAW-11.6)."""
        card = self.data.card(instance)
        parts: list[str] = []
        if card.kind == eaw.PERSONALITY:
            parts.append(self.word(PERSONALITY_NAMES, card.personality or ""))
        else:
            parts.append(self._("value %(value)s", value=card.value))
            parts += [
                self._("%(value)s against %(category)s", value=v, category=self.word(CATEGORY_NAMES, k))
                for k, v in card.value_vs.items()
            ]
            if card.value_roll:
                parts.append(self._("value by a die roll"))
            elif card.roll_mod is not None:
                parts.append(self._("plus a die roll"))
            parts.append(self.word(CATEGORY_NAMES, card.category))
            parts.append(self._("fast") if card.speed == eaw.FAST else self._("slow"))
            if card.mounted and card.category != "mounted":  # a mounted category says it already
                parts.append(self._("mounted"))
            if card.melee:
                parts.append(self._("melee"))
        if card.label:
            parts.append(self._("label %(label)s", label=card.label))
        if card.vp_cost:
            parts.append(self._("upkeep %(vp)s VP", vp=card.vp_cost))
        if card.kind == eaw.EMPIRE:
            parts.append(self._("home army"))
        name = "" if card.name.casefold() == card.id.replace("_", " ").casefold() else f" {card.name}"
        return f"{card.id}{name}: " + ", ".join(p for p in parts if p)

    def word(self, names: dict[str, str], key: str) -> str:
        """A data word (a category, a personality type) in the reader's language; an unknown one as it is."""
        return self._(names[key]) if key in names else key

    def needs(self, roll: int) -> str:
        """A roll "n+" as the option `threshold` judges it (EAW-0.4)."""
        return f"{roll}+" if self.options.threshold == "ge" else self._("more than %(roll)s", roll=roll)

    # -- the whole --------------------------------------------------------------------------------------------------
    def make(self, number: int, phase: str) -> OrdersTemplate:
        if phase == PLACEMENT:
            what = self._("the placement: your starting province, further markers and fort (EAW-3.7 to EAW-3.10)")
            sections, examples = self.placement()
        else:
            if phase == ACTION:
                what = self._(
                    "your action now in round %(round)s: your plan has run out; the first line of a new plan is this "
                    "action, the rest is your plan (EAW-12.2)",
                    round=self.state.round,
                )
            else:
                what = self._(
                    "your plan for game round %(round)s: one action a line, fall-backs joined by %(kw_else)s "
                    "(EAW-12.2)",
                    round=self.next_round(),
                )
            sections, examples = self.plans()
        kept = self.accepted(phase, examples)
        return OrdersTemplate(number, phase, what, [s for s in sections if s.lines], [self.line(o) for o in kept])

    def next_round(self) -> int:
        """The game round the plans step is for (the next one when this round's actions are over)."""
        if self.state.phase in (PLACEMENT, "setup"):
            return 1
        if self.state.phase == "scoring":
            return self.state.round + 1
        return max(self.state.round, 1)

    def accepted(self, phase: str, examples: list[Order]) -> list[Order]:
        """The examples that parse back to themselves and that the step's checks accept now (plan lines: the actions'
        checks.check_plan_line where it exists)."""
        from adjudicator.orders import parse_orders

        language = language_of(self.data, self.state.seats)
        text = "\n".join([f"GAME g TURN 1 PLAYER {self.seat} PASSWORD x", *(canonical(o) for o in examples)])
        parsed = parse_orders(text, language)
        bad = {e.line for e in parsed.errors}
        check = None if phase == PLACEMENT else _plan_check()
        kept = []
        for order in parsed.orders:
            if order.line in bad:
                continue
            if check is not None and isinstance(order, PlanLine) and not check(self, order):
                continue
            kept.append(examples[order.line - 2])
        return kept

    # -- placement (EAW-3.7 to EAW-3.10, EAW-12.1, EAW-12.13, EAW-12.14) --------------------------------------------
    def placement(self) -> tuple[list[Section], list[Order]]:
        free = self.free_start_provinces()
        by_half = {half: [a for a in free if self.map.areas[a].half == half] for half in (eaw.NORTH, eaw.SOUTH)}
        lines = [
            self._(
                "Setup order: %(order)s; markers each: %(markers)s (EAW-3.1, EAW-3.6)",
                order=", ".join(self.state.setup_order()),
                markers=self.start_markers(),
            )
        ]
        for half, areas in by_half.items():
            names = ", ".join(f"{a} ({self.map.areas[a].value})" for a in areas) or "-"
            lines.append(f"{self._(HALF_NAMES[half])}: {names}")
        start = Section(
            self._(
                "%(kw_start)s: land provinces no player holds, most wanted first; at most 3 players start in each "
                "half (EAW-3.7, EAW-12.1); VP values in brackets:"
            ),
            lines,
        )
        forms = Section(
            self._("The placement's orders:"),
            [
                self.kw("START") + " <" + self._("provinces") + ">: " + self._("your starting province (EAW-12.1)"),
                self.kw("PLACE")
                + " <"
                + self._("areas")
                + ">: "
                + self._("your further markers, one at a time, next to your areas (EAW-3.9, EAW-12.13)"),
                self.kw("FORT")
                + " <"
                + self._("provinces")
                + ">: "
                + self._("your starting fort in a land province you control (EAW-3.10, EAW-12.14)"),
            ]
            + self.setup_seas(),
        )
        best = sorted(free, key=lambda a: (-self.map.areas[a].value, a))[:3]
        examples: list[Order] = []
        if best:
            examples.append(StartChoice(tuple(best)))
            near = [
                n
                for n in self.map.neighbours(best[0])
                if self.state.controller(n) is None and n not in best[:1] and self.placeable(n)
            ]
            near.sort(key=lambda a: (-self.map.areas[a].value, a))
            if near:
                examples.append(PlaceChoice(tuple(near[: max(self.start_markers() - 1, 1)])))
            examples.append(FortChoice(tuple(best)))
        return [start, forms], examples

    def free_start_provinces(self) -> list[str]:
        """EAW-3.7: land provinces nobody holds, in a half that has room for another starting player."""
        started = [p.half for p in self.state.players.values() if p.half]
        full = {h for h in (eaw.NORTH, eaw.SOUTH) if started.count(h) >= eaw.STARTERS_PER_HALF}
        return sorted(
            a.id
            for a in self.map.areas.values()
            if a.is_province and self.state.controller(a.id) is None and a.half not in full
        )

    def setup_seas(self) -> list[str]:
        """EAW-2.11: the seas a PLACE list may name, and the unnamed ones it may not (the map labels them too)."""
        seas = [a for a in sorted(self.map.areas) if self.map.areas[a].is_sea]
        named = [a for a in seas if self.map.areas[a].named]
        unnamed = [self.area(a) for a in seas if not self.map.areas[a].named]
        lines = [self._("Seas %(kw_place)s may name (EAW-2.11): %(seas)s", seas=", ".join(named))] if named else []
        if unnamed:
            lines.append(
                self._(
                    "Unnamed seas, which cannot be taken at setup though the map labels them (EAW-2.11): %(seas)s",
                    seas=", ".join(unnamed),
                )
            )
        return lines

    def placeable(self, area: str) -> bool:
        """EAW-3.9, EAW-2.11: a setup marker goes into a province or a named sea."""
        info = self.map.areas[area]
        return info.is_province or info.named

    def start_markers(self) -> int:
        return self.options.start_markers.get(len(self.state.seats), 10 - len(self.state.seats))

    # -- the plans (EAW-7, EAW-12.2 to EAW-12.15) -------------------------------------------------------------------
    def plans(self) -> tuple[list[Section], list[Order]]:
        targets = self.attack_targets()
        sections = [
            self.holdings(),
            self.attack_section(targets),
            self.diplomacy_section(),
            self.recruit_section(),
            self.fort_section(),
            self.trade_section(),
            self.control_section(),
            self.standing_section(),
        ]
        return sections, self.plan_examples(targets)

    def holdings(self) -> Section:
        p = self.player
        lines = [
            self._("Trade markers in your warehouse: %(count)s", count=p.warehouse),
        ]
        if p.plunder:
            lines.append(self._("Plunder (EAW-8.13): %(count)s", count=sum(p.plunder.values())))
        lines.append(self._("Your hand:") + (" " + self._("none") if not p.hand else ""))
        lines += [f"  {self.card(c)}" for c in p.hand]
        if p.personalities:
            lines.append(self._("Your personalities:") + " " + ", ".join(self.card(c) for c in p.personalities))
        lines.append(self._("Your areas:"))
        for area in self.state.controlled(self.seat):
            fort = ", " + self._("fort") if area in self.state.forts else ""
            lines.append(
                "  "
                + self.area(area)
                + ": "
                + self._(
                    "%(vp)s VP, markers: %(markers)s", vp=self.map.areas[area].value, markers=self.state.markers(area)
                )
                + fort
            )
        if p.plan:
            lines.append(self._("Your plan still holds (it is replaced by the plan you send):"))
            lines += ["  " + self.line(PlanLine.from_json(entry)) for entry in p.plan]
        return Section(self._("What you hold:"), lines)

    # attacks (EAW-7.1 to EAW-7.4, EAW-2.3, EAW-2.8) -------------------------------------------------------------------
    def attack_targets(self) -> list[Target]:
        """EAW-7.1: each area an area of the seat reaches (board.attack_route: a connection or the Mediterranean
        rule, EAW-2.3) that the actions let it attack now."""
        found: dict[tuple[str, str], Target] = {}
        for origin in self.state.controlled(self.seat):
            for target in sorted(self.map.areas):
                route = attack_route(self.map, origin, target)
                if route is None or self.state.controller(target) == self.seat:
                    continue
                if is_last_province(self.state, self.map, target) or self.refused(Attack(target, origin)):
                    continue  # EAW-2.8, EAW-13.18: a player's only province is no target
                found[(target, origin)] = self.target(route, self.state.controller(target))
        return sorted(found.values(), key=lambda t: (not t.neutral, len(t.notes), t.target, t.origin))

    def refused(self, action: Attack) -> bool:
        """Whether the actions refuse `action` now (actions.refusal: e.g. no control marker left, EAW-1.2)."""
        return refusal(self.play, self.seat, action) is not None

    def target(self, route: Route, owner: str | None) -> Target:
        """The attack along `route` with what it needs: the rolls of attack.py (EAW-7.2 to EAW-7.4) or a battle."""
        notes: list[str] = []
        info = self.map.areas[route.target]
        if route.rolled_crossing:
            notes.append(self._("crossing: %(roll)s (EAW-7.2)", roll=self.needs(eaw.ROLLS["crossing"])))
        if needs_sea_move(self.play, route):
            notes.append(
                self._(
                    "sea movement: %(roll)s with %(bonus)+d (EAW-7.3)",
                    roll=self.needs(eaw.ROLLS["sea_move"]),
                    bonus=sea_move_bonus(self.play, self.seat, route),
                )
            )
        if owner is None and info.is_province:
            notes.append(self._("neutral province: %(roll)s (EAW-7.4)", roll=self.needs(eaw.ROLLS["neutral"])))
        elif owner is not None:
            fort = route.target in self.state.forts
            if info.is_sea:
                notes.append(self._("naval battle against %(seat)s (EAW-8.20)", seat=owner))
            elif fort:
                notes.append(self._("battle against %(seat)s, who may choose a siege (EAW-8.15)", seat=owner))
            else:
                notes.append(self._("battle against %(seat)s (EAW-8.1)", seat=owner))
        crossing = frozenset() if route.mediterranean else route.kinds
        return Target(route.target, route.origin, crossing, tuple(notes), owner is None)

    def effect(self, code: str) -> eaw.Effect | None:
        return next(iter(self.play.effects_of(self.seat, code)), None)

    def attack_section(self, targets: list[Target]) -> Section:
        lines = [self.line(Attack(t.target, t.origin)) + ": " + "; ".join(t.notes) for t in targets[:MAX_LISTED]]
        if len(targets) > MAX_LISTED:
            lines.append(self._("and %(count)s more", count=len(targets) - MAX_LISTED))
        title = self._(
            "%(kw_attack)s <target> %(kw_from)s <your area> [%(kw_with)s <cards, top first>] [%(kw_then)s <free action "
            "after a rout> %(kw_or)s ...] (EAW-7.1, EAW-12.6, EAW-12.9); the targets now:"
        )
        return Section(title, lines)

    # diplomacy (EAW-7.10 to EAW-7.13, EAW-12.10) ----------------------------------------------------------------------
    def diplomacy_targets(self) -> tuple[list[str], list[str]]:
        """Neutral areas the seat's reach (diplomacy.reaches, EAW-7.12) and, with a diplomat, other players' areas
        (EAW-7.11 b; a player's only province not under last_province = all, EAW-2.8)."""
        near = [a for a in sorted(self.map.areas) if reaches(self.play, self.seat, a)]
        neutral = [a for a in near if self.state.controller(a) is None]
        spared = self.options.last_province == "all"
        held = [
            a
            for a in near
            if self.state.controller(a) not in (None, self.seat)
            and not (spared and is_last_province(self.state, self.map, a))
        ]
        return neutral, held

    def diplomacy_section(self) -> Section:
        neutral, held = self.diplomacy_targets()
        takeover = self.effect("diplomacy_takeover")
        remove = self.effect("diplomacy_remove")
        lines = []
        if neutral:
            if takeover is not None:
                paid = takeover.number("cost", 1)
                cost = plural_gettext(
                    self.language,
                    "%(cost)s trade marker, no roll (EAW-7.11)",
                    "%(cost)s trade markers, no roll (EAW-7.11)",
                    paid,
                    in_ruleset=RULESET,
                    cost=paid,
                )
            else:
                cost = self._(
                    "%(cost)s trade markers, then %(roll)s (EAW-7.10)",
                    cost=eaw.COSTS["diplomacy"],
                    roll=self.needs(eaw.ROLLS["diplomacy"]),
                )
            lines.append(self.kw("DIPLOMACY") + " " + ", ".join(neutral[:MAX_LISTED]) + ": " + cost)
        if remove is not None and held:
            lines.append(
                self.kw("DIPLOMACY")
                + " "
                + self.kw("REMOVE")
                + " "
                + ", ".join(held[:MAX_LISTED])
                + " "
                + self.kw("PAY")
                + " 0-3: "
                + self._(
                    "%(roll)s, +1 per marker paid; without %(kw_pay)s 3 if you have them (EAW-7.11, EAW-12.10)",
                    roll=self.needs(remove.number("target", eaw.ROLLS["diplomat_remove"])),
                )
            )
        return Section(self._("Diplomacy: take over a neutral area next to yours:"), lines)

    # recruit (EAW-7.20 to EAW-7.23, EAW-12.3) -------------------------------------------------------------------------
    def halves(self) -> set[str | None]:
        return {self.map.areas[a].half for a in self.state.controlled(self.seat) if self.map.areas[a].is_province}

    def may_recruit(self, instance: str) -> bool:
        card = self.data.card(instance)
        if card.label == "N" and eaw.NORTH not in self.halves():
            return False
        if card.label == "S" and eaw.SOUTH not in self.halves():
            return False
        if card.kind == eaw.PERSONALITY and card.personality != eaw.MERCHANT:
            held = {self.data.card(c).personality for c in self.player.personalities}
            return card.personality not in held
        return True

    def may_disband(self, instance: str) -> bool:
        """EAW-7.21, EAW-13.17: a recruited army card with no identical card in the display."""
        card = self.data.card(instance)
        shown = {eaw.base_id(c) for c in self.state.display}
        return card.kind == eaw.ARMY and card.id not in shown

    def recruit_section(self) -> Section:
        lines = []
        for instance in self.state.display:
            note = "" if self.may_recruit(instance) else " (" + self._("not for you (EAW-7.22, EAW-7.23)") + ")"
            lines.append(self.card(instance) + note)
        disband = sorted({eaw.base_id(c) for c in self.player.hand if self.may_disband(c)})
        if disband:
            lines.append(
                self.kw("DISBAND") + " " + " | ".join(disband) + ": " + self._("instead of recruiting (EAW-7.21)")
            )
        title = self._(
            "%(kw_recruit)s <cards, categories, personality types or %(kw_best)s, in order> [%(kw_refresh)s | "
            "%(kw_refresh)s %(kw_if)s %(kw_none)s]: the refresh costs 1 trade marker (EAW-7.20, EAW-12.3); "
            "the display now:"
        )
        return Section(title, lines)

    # fort, trade, control (EAW-7.25, EAW-7.30, EAW-7.31, EAW-7.40) ----------------------------------------------------
    def fort_cost(self) -> int:
        return fort_cost(self.play, self.seat)

    def fort_sites(self) -> list[str]:
        return [
            a for a in self.state.controlled(self.seat) if self.map.areas[a].is_province and a not in self.state.forts
        ]

    def fort_section(self) -> Section:
        sites = self.fort_sites()
        if not sites:
            return Section("")
        cost = self.fort_cost()  # an engineer's fort_cost may make it 1 (EAW-11.6)
        line = (
            self.kw("FORT")
            + " "
            + " | ".join(sites)
            + ": "
            + plural_gettext(
                self.language,
                "%(cost)s trade marker (EAW-7.25)",
                "%(cost)s trade markers (EAW-7.25)",
                cost,
                in_ruleset=RULESET,
                cost=cost,
            )
        )
        return Section(self._("A fort in a province of yours without one:"), [line])

    def trade_room(self) -> list[tuple[str, int, int]]:
        """EAW-7.30 (`trade_reach`), EAW-2.6: areas in or next to the seat's, with the markers there and the room."""
        sources = set(self.state.controlled(self.seat))
        if self.options.trade_reach == "chain":
            sources |= {a for a, by in self.state.trade.items() if by.get(self.seat)}
        near = set(sources)
        for area in sources:
            near |= set(self.map.neighbours(area))
        found = []
        for area in sorted(near):
            there = sum(self.state.trade.get(area, {}).values())
            found.append((area, there, self.map.areas[area].value))
        return found

    def trade_section(self) -> Section:
        room = self.trade_room()
        placed = eaw.TRADE_PLACED + sum(e.number() for e in self.play.effects_of(self.seat, "trade_place"))
        lines = [f"{a} {n}/{cap}" + (" " + self._("full") if n >= cap else "") for a, n, cap in room[: MAX_LISTED * 2]]
        title = self._(
            "%(kw_trade)s <areas in order> [%(kw_displace)s <seat>]: %(count)s markers, one a target; into a full area "
            "only with %(kw_displace)s: %(roll)s (EAW-7.30, EAW-7.31, EAW-12.11, EAW-12.15); markers there / room:",
            count=placed,
            roll=self.needs(eaw.ROLLS["displace"]),
        )
        return Section(title, [", ".join(lines)] if lines else [])

    def control_section(self) -> Section:
        mine = self.state.controlled(self.seat)
        if not mine:
            return Section("")
        return Section(
            self._(
                "%(kw_control)s <your area>: one more control marker (EAW-7.40); without an action of yours, the "
                "default is a marker in your province with the fewest (EAW-12.2)"
            ),
            [self.kw("CONTROL") + " " + " | ".join(mine)],
        )

    # standing battle plans (EAW-12.4 to EAW-12.8) ---------------------------------------------------------------------
    def standing_orders(self) -> list[Order]:
        """The seat's standing battle plans as orders (standing.py keeps them as JSON)."""
        s = self.player.standing
        found: list[Order] = []
        for area, how in sorted(s.get("defend", {}).items()):
            found.append(DefendOrder(how == "siege", None if area == ANY else area))
        for area, yes in sorted(s.get("ambush", {}).items()):
            found.append(AmbushOrder(bool(yes), None if area == ANY else area))
        for key, cards in sorted(s.get("stacks", {}).items()):
            situation, side = key.split(".", 1)
            found.append(
                StackOrder(tuple(cards), None if situation == ANY else situation, None if side == ANY else side)
            )
        if "markers" in s:
            found.append(MarkersOrder(s["markers"] == "push"))
        if s.get("losses"):
            found.append(LossesOrder(tuple(s["losses"])))
        return found

    def stack_warning(self, order: Order) -> str | None:
        """A standing STACK plan a battle would refuse with the hand as it stands: why, and that the default stack
        would fight (EAW-8.21); None for any other plan."""
        if not isinstance(order, StackOrder):
            return None
        free = bool(self.play.effects_of(self.seat, "stack_order_free"))
        why = standing.stack_refusal(self.data, self.player, order, free)
        if why is None:
            return None
        return (
            self.line(order)
            + ": "
            + self._(
                "as your hand stands now a battle would refuse it: %(why)s; the default stack would fight (EAW-8.21)",
                why=engine_text(self.language, why, RULESET),
            )
        )

    def standing_section(self) -> Section:
        plans = self.standing_orders()
        now = [self.line(o) for o in plans]
        warnings = [w for w in map(self.stack_warning, plans) if w is not None]
        forms = [
            self.kw("DEFEND")
            + f" {self.kw('SIEGE')} | {self.kw('OPEN')} [{self.kw('AT')} <"
            + self._("province")
            + ">] (EAW-12.4)",
            self.kw("AMBUSH")
            + f" {self.kw('YES')} | {self.kw('NO')} [{self.kw('AT')} <"
            + self._("area")
            + ">] (EAW-12.5)",
            self.kw("STACK")
            + f" [{self.kw('OPEN')} | {self.kw('SIEGE')} | {self.kw('NAVAL')}]"
            + f" [{self.kw('ATTACK')} | {self.kw('DEFEND')}]: <"
            + self._("cards, top first")
            + "> (EAW-12.6)",
            self.kw("MARKERS") + f" {self.kw('PUSH')} | {self.kw('PULL')} (EAW-12.7)",
            self.kw("LOSSES") + " <" + self._("cards") + "> (EAW-12.8)",
        ]
        lines = forms + [self._("Yours now:") + " " + ("; ".join(now) if now else self._("none")), *warnings]
        return Section(self._("Standing battle plans, kept until you replace them:"), lines)

    # examples ---------------------------------------------------------------------------------------------------------
    def plan_examples(self, targets: list[Target]) -> list[Order]:
        mine = self.state.controlled(self.seat)
        examples: list[Order] = []
        weakest = min(mine, key=lambda a: (self.state.markers(a), a)) if mine else None
        fallback = (PlaceControl(weakest),) if weakest else ()
        if targets:
            t = targets[0]
            stack = () if t.neutral else self.best_stack()  # a battle only against another player (EAW-7.4)
            examples.append(PlanLine((Attack(t.target, t.origin, stack=stack), *fallback)))
        examples += [PlanLine((action, *fallback)) for action in self.diplomacy_examples()]
        refresh = REFRESH_IF_NONE if self.player.warehouse >= eaw.COSTS["refresh"] else "no"
        wanted = [eaw.base_id(c) for c in self.state.display if self.may_recruit(c)][:2]
        examples.append(PlanLine((Recruit((*dict.fromkeys(wanted), BEST), refresh=refresh),)))
        disband = [c for c in self.player.hand if self.may_disband(c)]
        if disband:
            examples.append(PlanLine((Disband(eaw.base_id(disband[0])), *fallback)))
        sites = self.fort_sites()
        if sites and self.player.warehouse >= self.fort_cost():
            best = max(sites, key=lambda a: (self.map.areas[a].value, a))
            examples.append(PlanLine((BuildFort(best),)))
        room = [a for a, n, cap in self.trade_room() if n < cap]
        if room and self.player.warehouse >= 1:
            examples.append(PlanLine((PlaceTrade(tuple(TradeTarget(a) for a in room[:2])), *fallback)))
        if weakest:
            examples.append(PlanLine(fallback))
        return examples + self.standing_examples()

    def diplomacy_examples(self) -> list[Diplomacy]:
        """A takeover the warehouse pays for (EAW-7.10) and the diplomat's removal (EAW-7.11 b, EAW-12.10)."""
        neutral, held = self.diplomacy_targets()
        found = []
        if neutral and self.player.warehouse >= eaw.COSTS["diplomacy"]:
            found.append(Diplomacy(neutral[0]))
        if held and self.effect("diplomacy_remove") is not None:
            found.append(Diplomacy(held[0], remove=True, pay=min(self.player.warehouse, 3)))
        return found

    def standing_examples(self) -> list[Order]:
        """Standing battle plans as examples (EAW-12.4 to EAW-12.8)."""
        examples: list[Order] = []
        fortified = [a for a in self.state.controlled(self.seat) if a in self.state.forts]
        if fortified:
            examples.append(DefendOrder(True, fortified[0]))
        if self.effect("ambush") is not None:  # a military leader may lay one (EAW-8.2, EAW-12.5)
            examples.append(AmbushOrder(True))
        examples.append(MarkersOrder(True))
        stack = self.best_stack()
        if stack:
            examples.append(StackOrder(stack, "open", "defend"))
            if self.options.loss_selection == "owner_chooses":  # EAW-12.8: the lowest values first
                examples.append(LossesOrder(tuple(reversed(stack))))
        return examples

    def best_stack(self) -> tuple[str, ...]:
        """EAW-12.6's default as an example: the highest-valued army and empire cards, fast first."""
        cards = [self.data.card(c) for c in self.player.hand]
        fighting = [c for c in cards if c.kind != eaw.PERSONALITY]
        fighting.sort(key=lambda c: (c.speed != eaw.FAST, -c.value, c.id))
        return tuple(c.id for c in fighting[: eaw.OPEN_STACK])


def _plan_check() -> Any:
    """The actions' receipt of a plan line (checks.check_plan_line) as a yes/no, or None while it is not there."""
    try:
        from adjudicator.rulesets.empires.checks import check_plan_line
    except ImportError:
        return None

    def accepts(template: Template, line: PlanLine) -> bool:
        play = Play(template.state.copy(), template.data, template.options, GivenDice(values=[]))
        return bool(check_plan_line(play, template.seat, line).accepted)

    return accepts
