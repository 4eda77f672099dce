"""The orders template at the end of a seat's private report and welcome (templates/conqueror/seat-position.txt.j2):
the order forms the seat can use in its next step, filled with its choices as the position stands now, and one
example line per form. The step kinds differ: Conquest mode's purchases before round 1 (ER-3.11), the sealed plans
step (New Year answers, Politics ER-5, Preparation ER-6, standing orders ER-14) and the campaign turn (ER-7, ER-8).

Every line comes in the reader's language: keywords as he writes them (grammar/keywords.toml), notes through
gettext. An example is a concrete order: it is kept only if the real checks of its step accept it now (with the
other examples of the same mail), so that a player can send it as it stands."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import TYPE_CHECKING, Final, Protocol, TypeVar

from adjudicator.orders.keywords import written
from adjudicator.render.i18n import N_, gettext, keywords_written, plural_gettext
from adjudicator.rulesets import EXTRA_FOLDERS
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.card_text import card_words, effects_words
from adjudicator.rulesets.conqueror.data import RULESET
from adjudicator.rulesets.conqueror.movement import active, kind_of_step
from adjudicator.rulesets.conqueror.politics import board_of
from adjudicator.rulesets.conqueror.preparation import hero_price
from adjudicator.rulesets.conqueror.state import FOOD_HELD, INDEPENDENT, food_limit, fort_of, standard_units

if TYPE_CHECKING:
    from adjudicator.engine.steps import Step
    from adjudicator.orders.sets import OrderSet
    from adjudicator.rulesets.conqueror.data import GameData, MapSide, Options
    from adjudicator.rulesets.conqueror.game import ConquerorGame
    from adjudicator.rulesets.conqueror.state import GameState

UNIT_KEYWORDS: Final = {  # ER-0.3, in the order a report lists them
    "cavalry": "CAVALRY",
    "infantry": "INFANTRY",
    "archer": "ARCHER",
    "elite": "ELITE",
    "ship": "SHIP",
    "siege": "SIEGE",
}
KEYWORD: Final = re.compile(r"\{([A-Z]+)\}")
# ER-0.3: the independent army as a reader is told of it; also the word engine_text gives a stored odds line's
# "independent 2 CAV" (attack_odds.battle_texts) in the reader's language. Never an order's word: orders name seats.
INDEPENDENT_WORD: Final = N_("independent")
SURCHARGE: Final = 2  # ER-5.12, ER-5.19: the second space of a district or upgrade type


class _Lined(Protocol):
    """An order or an order error: what a line number is kept in."""

    @property
    def line(self) -> int: ...


Lined = TypeVar("Lined", bound=_Lined)


@dataclass
class Section:
    """A heading and its lines, in the reader's language."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass
class OrdersTemplate:
    """What the template shows for one seat: its next step, what that step is, the sections of choices and the
    example lines (each accepted by the step's checks now)."""

    step: int
    phase: str
    what: str
    sections: list[Section]
    examples: list[str]


@dataclass
class _Marching:
    """What the campaign template's examples have shown so far: one move, one attack, the cards left to plan with."""

    hand: list[str]
    moved: bool = False
    attacked: bool = False


class TemplateMaker:
    """`orders_template(seat, language)` for the report templates (report_context): None when the seat orders in
    no step of this round (its next step is the plans step of the next round, ER-4.1)."""

    def __init__(self, game: ConquerorGame, state: GameState) -> None:
        self.game, self.state = game, state

    @cached_property  # one maker serves every seat of a turn's reports
    def steps(self) -> list[Step]:
        return rounds.steps_of_round(self.state)

    @cached_property
    def options(self) -> Options:
        from adjudicator.rulesets.conqueror.setup import options_from_json

        return options_from_json(self.state.options)

    def __call__(self, seat: str, language: str = "en") -> OrdersTemplate | None:
        step = next((s for s in self.steps if seat in s.seats), None)
        if step is None or seat not in self.state.players:
            return None
        return Template(self.game, self.state, seat, language, self.options).make(step.number, step.phase)


class Template:
    """The template of one seat in one language."""

    def __init__(self, game: ConquerorGame, state: GameState, seat: str, language: str, options: Options) -> None:
        self.game, self.state, self.seat, self.language = game, state, seat, language
        self.options = options  # the game's (ER-13.5): read by the checks and by two sections
        self.folders = os.environ.get(EXTRA_FOLDERS, "")  # read once: spoken() asks it for every line
        self.data: GameData = game.data
        self.side: MapSide = game.data.map_for(state.players_count)
        self.player = state.players[seat]

    @cached_property  # a section and the examples ask
    def may_trigger_dynasty(self) -> bool:
        return rounds.may_trigger_dynasty(self.state, self.data, self.options, self.seat)

    # -- words ------------------------------------------------------------------------------------------------------
    def spoken(self, order: str) -> str:
        """An order written with {KEYWORD} names, in the reader's keywords."""
        return spoken(self.language, order, self.folders)

    def units(self, counts: dict[str, int]) -> str:
        """Units as orders write them: 2 {INFANTRY} 1 {CAVALRY}; the elite is one unit (ER-1.4)."""
        parts = [f"{n} {{{UNIT_KEYWORDS[k]}}}" for k, n in sorted(counts.items(), key=_unit_order) if n > 0]
        return " ".join(parts)

    # -- the whole --------------------------------------------------------------------------------------------------
    def make(self, number: int, phase: str) -> OrdersTemplate:
        """The template of step `number` of kind `phase`: its sections, and the examples its checks accept."""
        if phase == rounds.PURCHASES:
            what = gettext(self.language, "purchases before round 1 (ER-3.11)")
            sections, examples = self.purchases()
        elif phase == rounds.PLANS:
            what = gettext(self.language, "the sealed plans of round %(round)s (ER-4.1)", round=self.state.round)
            sections, examples = self.plans()
        else:
            what = gettext(self.language, "your campaign turn of round %(round)s (ER-7.1)", round=self.state.round)
            sections, examples = self.campaign()
        kept = self.accepted(phase, examples)
        return OrdersTemplate(number, phase, what, sections, [self.spoken(line) for line in kept])

    def accepted(self, phase: str, examples: list[str | tuple[str, ...]]) -> list[str]:
        """The examples the step's checks accept as the position stands, judged together as one mail. An example
        given as a tuple is a list of variants, the first preferred: a refused variant gives way to the next."""
        from adjudicator.rulesets.conqueror import campaign, plans, purchases

        options = self.options
        variants = [list(e) if isinstance(e, tuple) else [e] for e in examples]
        for _ in range(8):  # an order refused may have been what made another fail: judge the rest again
            kept = [v[0] for v in variants]
            parsed = _parsed(
                f"GAME g TURN 1 PLAYER {self.seat} PASSWORD x",
                [spoken("en", line, self.folders) for line in kept],
                self.game,
            )
            if phase == rounds.PURCHASES:
                results = purchases.check_purchases(self.state, self.data, options, self.seat, parsed)
            elif phase == rounds.PLANS:
                results = plans.check_plans(self.state, self.data, options, self.seat, parsed)
            else:
                results = campaign.check_campaign(self.state, self.data, options, self.seat, parsed.orders)
            bad = {e.line for e in parsed.errors} | {r.line for r in results if not r.accepted}
            if not bad:
                return kept
            if phase == rounds.PLANS and _stores_nothing(parsed, bad) and all(len(variants[i - 2]) == 1 for i in bad):
                return [line for i, line in enumerate(kept, 2) if i not in bad]  # what judging again would keep
            variants = [v[1:] if i in bad else v for i, v in enumerate(variants, 2)]
            variants = [v for v in variants if v]
        return []

    def coins(self, price: int) -> str:
        """A price: "1 coin", "3 coins" in the reader's language."""
        return plural_gettext(self.language, "%(price)s coin", "%(price)s coins", price, price=price)

    def coins_line(self) -> str:
        coins = self.player.coins
        return plural_gettext(
            self.language, "You hold %(coins)s coin now.", "You hold %(coins)s coins now.", coins, coins=coins
        )

    # -- Conquest mode's purchases (ER-3.11) ------------------------------------------------------------------------
    def purchases(self) -> tuple[list[Section], list[str | tuple[str, ...]]]:
        choices = self.buildable()
        section = Section(
            gettext(
                self.language, "Up to 2 purchases in one %(kw_buy)s line, at the price of the build's number (ER-3.11):"
            ),
            [self.coins_line(), *(self.priced(order, price) for order, price in choices)],
        )
        coins = self.player.coins
        affordable = sorted((price, order) for order, price in choices if price <= coins)
        pairs = [
            f"{{BUY}} {a}, {b}"
            for i, (pa, a) in enumerate(affordable)
            for pb, b in affordable[i + 1 :]
            if pa + pb <= coins and a.split()[0] != b.split()[0]
        ]
        singles = [f"{{BUY}} {order}" for _price, order in affordable]
        examples: list[str | tuple[str, ...]] = [tuple(pairs[:2] + singles[:2])] if singles else []
        return [section], examples

    def priced(self, order: str, price: int) -> str:
        return f"{self.spoken(order)}: " + self.coins(price)

    @cached_property  # the plans step's sections and examples both list them
    def _buildable(self) -> list[tuple[str, int]]:
        return self.find_buildable()

    def buildable(self) -> list[tuple[str, int]]:
        """Districts, forts and upgrades the seat may buy, at the first space's price (ER-5.16, ER-5.22)."""
        return list(self._buildable)

    def find_buildable(self) -> list[tuple[str, int]]:
        from adjudicator.rulesets.conqueror.bot import purchases

        found = []
        for text, price in purchases(self.state, self.data, self.seat):
            order = re.sub(r"\b([A-Z]{3,})\b", lambda m: "{" + _keyword_name(m[1]) + "}", text)
            if text.startswith("FORTIFICATION AT "):
                for site in self.fort_sites():
                    found.append((f"{{FORTIFICATION}} {{AT}} {site}", price))
                continue
            found.append((order, price))
        return found

    def fort_sites(self) -> list[str]:
        """ER-5.14: controlled land areas without a fort."""
        from adjudicator.rulesets.conqueror.state import controlled_areas

        areas = controlled_areas(self.state, self.side, self.seat)
        return sorted(a for a in areas if self.side.areas[a].land and fort_of(self.state, self.side, a) == "none")

    # -- the sealed plans step (ER-4.1, ER-5, ER-6, ER-14) ----------------------------------------------------------
    def plans(self) -> tuple[list[Section], list[str | tuple[str, ...]]]:
        sections = [self.agent_section(), self.recruit_section(), self.new_year_section(), self.standing_section()]
        sections += [self.cards_section()]
        return [s for s in sections if s.lines], self.plans_examples()

    def partners(self) -> list[str]:
        """ER-5.7, ER-5.10: the other players in play, then the independents."""
        return [f for f in self.state.in_play() if f != self.seat] + ["{INDEPENDENTS}"]

    def agent_section(self) -> Section:
        lines = [
            self.coins_line(),
            self.spoken("{AGENT} {PASS}") + ": " + gettext(self.language, "the agent stays home (ER-5.4)"),
        ]
        trade = " | ".join(self.spoken(p) for p in self.partners())
        lines.append(self.spoken("{TRADE} {WITH} ") + trade + ": " + gettext(self.language, "free (ER-5.7)"))
        for order, price in self.buildable():
            lines.append(self.priced(order, price))
        if self.state.seas is not None:
            lines += self.megaproject_lines()
        return Section(
            gettext(
                self.language,
                "Agent actions (ER-5.4): one %(kw_agent)s line, choices joined by %(kw_else)s, tried in turn "
                "(ER-14.6); prices on the first space, %(kw_space)s 2 costs %(more)s more (ER-5.12):",
                more=SURCHARGE,
            ),
            lines,
        )

    def megaproject_lines(self) -> list[str]:
        """Seas of Destiny (ER-12.6, ER-12.9): the megaprojects left and the wharf, with their first-space price."""
        from adjudicator.rulesets.conqueror.seas import megaproject_price

        seas = self.state.seas
        assert seas is not None
        kinds = sorted({c.type for c in self.data.cards.megaprojects if c.id in seas.cards})
        lines = []
        for kind in kinds:
            price = megaproject_price(self.player, self.data, kind, f"megaproject:{kind}:1")
            lines.append(self.priced(f"{{{kind.upper()}}} {{SLOT}} {{DISTRICT}}|{{UPGRADE}}", price))
        if self.seat not in seas.wharves and seas.wharf_markers > 0:
            price = megaproject_price(self.player, self.data, "wharf", "megaproject:wharf:1")
            lines.append(
                self.priced(
                    "{WHARF} {AT} <"
                    + gettext(self.language, "coastal area")
                    + "> {SHIP} <"
                    + gettext(self.language, "sea")
                    + ">",
                    price,
                )
            )
        return lines

    def forts(self) -> list[tuple[str, str]]:
        """The seat's forts (and temporary capital, ER-11.2) where it may recruit (ER-6.3)."""
        from adjudicator.rulesets.conqueror.state import controlled_areas

        areas = controlled_areas(self.state, self.side, self.seat)
        found = [(a, fort_of(self.state, self.side, a)) for a in sorted(areas)]
        found = [(a, f) for a, f in found if f != "none"]
        capital = self.player.temporary_capital
        if capital and capital not in dict(found):
            found.append((capital, "large"))
        return found

    def recruit_section(self) -> Section:
        from adjudicator.rulesets.conqueror.bot import barracks_left

        lines = []
        room = food_limit(self.state, self.data, self.seat) - standard_units(self.state, self.seat)
        left = barracks_left(self.game, self.state, self.seat)
        lines.append(
            gettext(
                self.language,
                "Room under your food limit: %(room)s standard units; in your barracks: %(units)s (ER-6.4, ER-6.5).",
                room=max(room, 0),
                units=self.spoken(self.units(left)) or "-",
            )
        )
        for area, fort in self.forts():
            may = "1 {CAVALRY} | 2 {INFANTRY}/{ARCHER}" if fort == "large" else "1 {INFANTRY}/{ARCHER}"
            lines.append(f"{area}: " + self.spoken(may) + " " + gettext(self.language, "(free, ER-6.3, ER-6.6)"))
        board = board_of(self.state, self.data, self.seat)
        academy = self.player.districts.get("academy", 0) > 0
        if self.player.elite == "board" or (self.player.elite == "lost" and academy):
            words = effects_words(self.language, board.elite.effects) if board.elite.effects else ""
            lines.append(
                self.spoken("{ELITE}")
                + f" ({board.elite.name}): "
                + self.coins(board.elite.cost)
                + (f"; {words}" if words else "")
            )
        for hero in self.free_heroes():
            price = hero_price(self.state, self.data, self.seat, hero)
            lines.append(self.spoken("{HERO} ") + self.coins(price) + ": " + card_words(self.language, self.data, hero))
        food = (
            self.spoken("{FOOD} {STORE} | {FOOD} {NO} {STORE}")
            + ": "
            + gettext(self.language, "take a stored-food marker or not (ER-5.32)")
        )
        lines.append(food)
        if self.player.stored_food == FOOD_HELD:
            lines.append(
                self.spoken("{FOOD} {USE}") + ": " + gettext(self.language, "spend your stored food (ER-5.33)")
            )
        return Section(
            gettext(self.language, "Recruitment (ER-6): one %(kw_recruit)s line, items joined by commas:"), lines
        )

    def free_heroes(self) -> list[str]:
        """ER-6.10: the seat's heroes not recruited nor discarded."""
        held = {*self.player.heroes_down, *self.player.heroes_up, *self.player.heroes_discarded}
        return [h.id for h in self.data.cards.heroes if h.faction == self.seat and h.id not in held]

    def new_year_section(self) -> Section:
        lines = []
        if self.state.hourglass == self.seat:
            order = ", ".join(self.state.in_play())
            lines.append(
                self.spoken("{ORDER} ")
                + order
                + ": "
                + gettext(self.language, "you hold the hourglass: the turn order (ER-4.4.2)")
            )
        if self.may_trigger_dynasty:
            words = effects_words(self.language, self.data.factions[self.seat].dynasty)
            lines.append(self.spoken("{DYNASTY}") + ": " + words + " (ER-11.5)")
        others = [f for f in self.state.in_play() if f != self.seat]
        if others:
            lines.append(
                self.spoken("{PAY} 2 {TO} ")
                + others[0]
                + ": "
                + gettext(self.language, "give coins to a player (ER-0.7)")
            )
        return Section(gettext(self.language, "New Year and any time:"), lines)

    def standing_section(self) -> Section:
        """The standing orders in force (as the seat wrote them), then each form with what it does."""
        lines = [
            gettext(
                self.language,
                "In force: %(lines)s",
                lines="; ".join(self.standing_lines()) or gettext(self.language, "none"),
            )
        ]
        forms = [
            (
                "{DEFENCE} {AT} <area> {HERO} <hero> {TACTICS} <card> {REINFORCE} {FROM} <area>",
                N_("your plan when attacked there (ER-14.14)"),
            ),
            ("{LOSSES} {ARCHER}, {INFANTRY}, {CAVALRY}", N_("which of your units go first (ER-14.13)")),
            ("{EXCESS} {ARCHER}, {INFANTRY}, {CAVALRY}", N_("which units leave over the food limit (ER-6.2)")),
            ("{RETREAT} {FROM} <area> {TO} <area>, <area>", N_("where a beaten army retreats (ER-14.18)")),
            (
                "{REINFORCE} <seat> {FROM} <area> | {REINFORCE} {VS} <seat> {FROM} <area> | {REINFORCE} {NEVER}",
                N_("join a battle next door (ER-14.12)"),
            ),
            ("{CASUALTIES} <seat>, <seat>", N_("who of an opposing side takes hits first (ER-14.16)")),
            ("{CAPITAL} <area>, <area>", N_("where your temporary capital goes (ER-14.5)")),
        ]
        if self.blocks():
            forms.append(
                ("{BLOCK} <seat> {MAX} 4 {TO} <area> | {BLOCK} {NEVER}", N_("whom your board blocks (ER-14.11)"))
            )
        if self.free_men():
            forms.append(
                ("{FREEMEN} {USE} | {FREEMEN} {NEVER}", N_("your elite's Free Men in every battle (ER-14.15)"))
            )
        for form, note in forms:
            lines.append(self.spoken(self.placeholders(form)) + ": " + gettext(self.language, note))
        return Section(gettext(self.language, "Standing orders (kept until changed, ER-14):"), lines)

    def standing_lines(self) -> list[str]:
        """The seat's standing orders in force, kept as canonical English lines (plans.py store_standing), in the
        reader's keywords, as the report's sentence of the orders kept writes them."""
        return [keywords_written(self.language, line, RULESET) for line in self.player.standing.values()]

    @cached_property  # every form of two sections asks
    def _placeholder_words(self) -> dict[str, str]:
        return {
            "<area>": gettext(self.language, "area"),
            "<hero>": gettext(self.language, "hero"),
            "<card>": gettext(self.language, "card"),
            "<seat>": gettext(self.language, "seat"),
        }

    def placeholders(self, form: str) -> str:
        for name, word in self._placeholder_words.items():
            form = form.replace(name, f"<{word}>")
        return form

    def blocks(self) -> bool:
        from adjudicator.rulesets.conqueror.campaign import block_effects

        return bool(block_effects(self.state, self.data, self.seat))

    def free_men(self) -> bool:
        """ER-8.18: an elite that may remove an infantry unit for strength (a `self_removal` effect)."""
        board = board_of(self.state, self.data, self.seat)
        return any(e.op == "self_removal" for e in board.elite.effects)

    def cards_section(self) -> Section:
        """The cards the seat may name in a battle plan (ER-8.12, ER-8.13); what each does is listed above."""
        tactic = gettext(self.language, "tactic card")
        down, up = gettext(self.language, "hero, face down"), gettext(self.language, "hero, face up")
        cards = [f"{c} ({tactic})" for c in self.player.hand]
        cards += [f"{h} ({down})" for h in self.player.heroes_down]
        cards += [f"{h} ({up})" for h in self.player.heroes_up]
        lines = [", ".join(cards)] if cards else []
        return Section(
            gettext(self.language, "Your cards for %(kw_hero)s and %(kw_tactics)s (what each does: above):"), lines
        )

    def own_areas(self) -> list[str]:
        return sorted(a for a, army in self.state.army.items() if army.owner == self.seat and army.total > 0)

    def plans_examples(self) -> list[str | tuple[str, ...]]:
        """One example per form of the plans step, each concrete; variants where the coins may not stretch."""
        examples: list[str | tuple[str, ...]] = []
        choices = [order for order, price in self.buildable() if price <= self.player.coins]
        trade = f"{{TRADE}} {{WITH}} {self.partners()[0]}"
        examples.append(tuple(f"{{AGENT}} {c} {{ELSE}} {trade}" for c in choices[:2]) + (f"{{AGENT}} {trade}",))
        items, extras = self.recruit_items(), self.recruit_extras()
        recruits = [[*items, extra] for extra in extras] + [items] + [[extra] for extra in extras]
        recruits = [r for r in recruits if r]
        if recruits:
            examples.append(tuple("{RECRUIT} " + ", ".join(r) for r in recruits))
        examples.append("{FOOD} {USE}" if self.player.stored_food == FOOD_HELD else "{FOOD} {STORE}")
        if self.state.hourglass == self.seat:
            examples.append("{ORDER} " + ", ".join(self.state.in_play()))
        if self.may_trigger_dynasty:
            examples.append("{DYNASTY}")
        others = [f for f in self.state.in_play() if f != self.seat]
        if others and self.player.coins >= 1:
            examples.append(f"{{PAY}} 1 {{TO}} {others[0]}")
        return examples + self.standing_examples(others)

    def standing_examples(self, others: list[str]) -> list[str | tuple[str, ...]]:
        """One concrete line per standing order of ER-14 the seat can give."""
        from adjudicator.rulesets.conqueror.state import controlled_areas

        examples: list[str | tuple[str, ...]] = []
        areas = self.own_areas()
        cards = [*self.player.heroes_down, *self.player.heroes_up]
        if areas and (self.player.hand or cards):
            plan = f" {{HERO}} {cards[0]}" if cards else f" {{TACTICS}} {self.player.hand[0]}"
            examples.append(f"{{DEFENCE}} {{AT}} {areas[0]}{plan}")
        examples += ["{LOSSES} {ARCHER}, {INFANTRY}, {CAVALRY}", "{EXCESS} {ARCHER}, {INFANTRY}, {CAVALRY}"]
        for area in areas:
            near = sorted(n for n in self.side.board.neighbours(area) if self.side.areas[n].land)
            if near:
                examples.append(f"{{RETREAT}} {{FROM}} {area} {{TO}} {near[0]}")
                break
        if others and areas:
            examples.append(f"{{REINFORCE}} {others[0]} {{FROM}} {areas[0]}")
        if len(others) > 1:
            examples.append("{CASUALTIES} " + ", ".join(others))
        land = [a for a in controlled_areas(self.state, self.side, self.seat) if self.side.areas[a].land]
        sites = [a for a in sorted(land) if self.side.areas[a].capital != self.seat]
        if sites:
            examples.append("{CAPITAL} " + ", ".join(sites[:2]))
        if self.blocks() and others:
            examples.append(f"{{BLOCK}} {others[0]} {{MAX}} 4")
        if self.free_men():
            examples.append("{FREEMEN} {USE}")
        return examples

    def recruit_extras(self) -> list[str]:
        """The elite and the cheapest free hero, as recruit items (ER-6.7, ER-6.10)."""
        extras = []
        if self.player.elite == "board" or (self.player.elite == "lost" and self.player.districts.get("academy", 0)):
            extras.append("{ELITE}")
        heroes = sorted(self.free_heroes(), key=lambda h: hero_price(self.state, self.data, self.seat, h))
        if heroes:
            extras.append(f"{{HERO}} {heroes[0]}")
        return extras

    def recruit_items(self) -> list[str]:
        """One concrete recruitment: an infantry in a fort if room and barracks allow (ER-6.3 to ER-6.5)."""
        from adjudicator.rulesets.conqueror.bot import barracks_left

        room = food_limit(self.state, self.data, self.seat) - standard_units(self.state, self.seat)
        left = barracks_left(self.game, self.state, self.seat)
        forts = self.forts()
        if room > 0 and left.get("infantry", 0) > 0 and forts:
            return [f"1 {{INFANTRY}} {{AT}} {forts[0][0]}"]
        return []

    # -- the campaign turn (ER-7, ER-8, ER-12.11, ER-12.12) ----------------------------------------------------------
    def campaign(self) -> tuple[list[Section], list[str | tuple[str, ...]]]:
        armies = Section(
            gettext(self.language, "Your armies, the units that may still move, and where they may go (ER-7):")
        )
        examples, carried = self.transport_examples() if self.state.seas is not None else ([], {})
        marching = _Marching(hand=list(self.player.hand))
        for area in self.own_areas():
            army = self.state.army[area]
            ready = {k: active(army, k) for k in army.units}
            at_sea = not self.side.areas[area].land  # ships at sea move to seas (ER-12.11); land units to land
            near = sorted(n for n in self.side.board.neighbours(area) if self.side.areas[n].land != at_sea)
            armies.lines.append(self.army_line(area, ready, near))
            # the unit the transport example carries stays out of the other examples
            land = {k: n - (k == carried.get(area)) for k, n in ready.items() if k != "ship"}
            examples += self.march_examples(area, {k: n for k, n in land.items() if n > 0}, near, marching)
        standing = Section(
            gettext(self.language, "Your standing orders in force for the battles (changed in the plans step, ER-14):"),
            self.standing_lines() or [gettext(self.language, "none")],
        )
        sections = [armies, self.cards_section(), standing, self.campaign_forms()]
        return [s for s in sections if s.lines], examples

    def army_line(self, area: str, ready: dict[str, int], near: list[str]) -> str:
        """An army's line: its units ready to move, and where they may go, attacks named with their owner."""
        targets = []
        for n in near:
            step = kind_of_step(self.state, self.data, self.seat, n)
            owner = self.state.army[n].owner if n in self.state.army and self.state.army[n].total else ""
            named = gettext(self.language, INDEPENDENT_WORD) if owner == INDEPENDENT else owner
            attack = gettext(self.language, "attack: %(owner)s", owner=named)
            targets.append(n + (f" ({attack})" if step == "attack" and owner else ""))
        units = self.spoken(self.units(ready)) or gettext(self.language, "none ready")
        return f"{area}: {units} -> " + ", ".join(targets)

    def march_examples(self, area: str, land: dict[str, int], near: list[str], marching: _Marching) -> list[str]:
        """The template's first move and first attack, from the first armies that can make them."""
        examples = []
        steps = [(n, kind_of_step(self.state, self.data, self.seat, n)) for n in near if self.side.areas[n].land]
        free = [n for n, step in steps if step != "attack"]
        enemy = [n for n, step in steps if step == "attack"]
        if land and free and not marching.moved:  # one unit of the largest group moves (ER-7.4)
            kind = max(sorted(land, key=lambda k: _unit_order((k, 0))), key=lambda k: land[k])
            examples.append(f"{{MOVE}} {self.units({kind: 1})}: {area} -> {free[0]}")
            land = {**land, kind: land[kind] - 1}
            marching.moved = True
        land = {k: n for k, n in land.items() if n > 0}
        if land and enemy and not marching.attacked:  # the rest attacks, with a card of the seat's (ER-8.12, ER-8.13)
            heroes = [*self.player.heroes_down, *self.player.heroes_up]
            plan = f" {{HERO}} {heroes[0]}" if heroes else ""
            plan += f" {{TACTICS}} {marching.hand.pop(0)}" if marching.hand else ""
            examples.append(f"{{ATTACK}} {self.units(land)}: {area} -> {enemy[0]}{plan}")
            marching.attacked = True
        return examples

    def transport_examples(self) -> tuple[list[str | tuple[str, ...]], dict[str, str]]:
        """ER-12.12 (Seas of Destiny): one unit carried by the seat's ships from a coast of their sea to another, with
        the area and kind of the unit it takes (so that the other examples leave it)."""
        for sea in self.own_areas():
            if self.side.areas[sea].land or active(self.state.army[sea], "ship") <= 0:
                continue
            coast = sorted(n for n in self.side.board.neighbours(sea) if self.side.areas[n].land)
            for start in coast:
                army = self.state.army.get(start)
                if army is None or army.owner != self.seat:
                    continue
                kinds = [k for k in ("infantry", "archer", "cavalry") if active(army, k)]
                ends = [end for end in coast if end != start]
                if kinds and ends:
                    one = self.units({kinds[0]: 1})
                    return [tuple(f"{{TRANSPORT}} {one}: {start} -> {sea} -> {end}" for end in ends)], {start: kinds[0]}
        return [], {}

    def campaign_forms(self) -> Section:
        forms = [
            ("{MOVE} <units>: <area> -> <area>", N_("move into your own or an empty area (ER-7.4)")),
            (
                "{ATTACK} <units>: <area> -> <area> {LEAVING} 1 {INFANTRY} {HERO} <hero> {TACTICS} <card> "
                "{REINFORCE} {FROM} <area>",
                N_("attack, with your battle plan (ER-8.4, ER-8.12, ER-8.13, ER-8.24)"),
            ),
        ]
        if self.free_men():
            forms[1] = (forms[1][0] + " {FREEMEN}", forms[1][1])
        if self.state.seas is not None:
            forms.append(
                ("{TRANSPORT} <units>: <area> -> <sea> -> <area>", N_("by your ships, 2 units each (ER-12.12)"))
            )
        names = {"<units>": "2 {INFANTRY} 1 {CAVALRY}", "<sea>": "<" + gettext(self.language, "sea") + ">"}
        lines = []
        for form, note in forms:
            for name, text in names.items():
                form = form.replace(name, text)
            lines.append(self.spoken(self.placeholders(form)) + ": " + gettext(self.language, note))
        lines.append(gettext(self.language, "Lines are carried out in the order written (ER-7.11)."))
        return Section(gettext(self.language, "Orders of the campaign turn:"), lines)


# Order lines in a reader's keywords: (PBEM_RULESETS, language, line with {KEYWORD} names) -> the line. Every
# report of a step writes the same forms for each seat; the keyword table depends on where the rulesets are found.
_SPOKEN: dict[tuple[str, str, str], str] = {}
SPOKEN_KEPT = 4096


def spoken(language: str, order: str, folders: str | None = None) -> str:
    """An order written with {KEYWORD} names, in the keywords of a reader of `language`; `folders`: PBEM_RULESETS
    as the caller read it (read here when None; a template reads it once for its hundreds of lines)."""
    if folders is None:
        folders = os.environ.get(EXTRA_FOLDERS, "")
    key = (folders, language, order)
    found = _SPOKEN.get(key)
    if found is None:
        found = _SPOKEN[key] = KEYWORD.sub(lambda m: _keyword(folders, language, m[1]), order)
        if len(_SPOKEN) > SPOKEN_KEPT:
            del _SPOKEN[next(iter(_SPOKEN))]
    return found


@cache  # the lines vary (areas, coins), their keywords do not
def _keyword(folders: str, language: str, name: str) -> str:
    """Keyword `name` as a reader of `language` writes it, with PBEM_RULESETS `folders` (part of the key)."""
    return written(language, name, RULESET)


# The examples' order lines as parsed for the checks: (game's id, header, line) -> (the game, the parsed order set of
# that line alone under the header, as its line 2, whose orders are frozen values). The parser reads an order set
# line by line, and a line's number is in nothing it makes but the `line` of its orders and errors: the set of
# several lines is the union of theirs, each renumbered. The seats' templates repeat most lines from step to step,
# at another number where an example before them was left out or added. Oldest first, bounded.
_PARSED: dict[tuple[int, str, str], tuple[ConquerorGame, OrderSet]] = {}
PARSED_KEPT = 2048
FIRST_LINE = 2  # of an example below the header


def _parsed(header: str, lines: list[str], game: ConquerorGame) -> OrderSet:
    """parse_orders of the header and `lines` below it (numbered from 2), put together from each line's parse."""
    from adjudicator.orders.sets import OrderSet

    found = [_parsed_line(header, line, game) for line in lines or [""]]
    orders = tuple(_numbered(o, n) for n, one in enumerate(found, FIRST_LINE) for o in one.orders)
    errors = (_numbered(e, n) for n, one in enumerate(found, FIRST_LINE) for e in one.errors)
    ordered = tuple(sorted(errors, key=lambda e: (e.line, e.column)))
    return OrderSet(found[0].header, orders, ordered, "\n".join([header, *lines]) + "\n")


def _parsed_line(header: str, line: str, game: ConquerorGame) -> OrderSet:
    from adjudicator.orders.parser import parse_orders

    key = (id(game), header, line)
    kept = _PARSED.get(key)
    if kept is not None and kept[0] is game:
        return kept[1]
    parsed = parse_orders(f"{header}\n{line}\n", game)
    _PARSED[key] = (game, parsed)
    if len(_PARSED) > PARSED_KEPT:
        del _PARSED[next(iter(_PARSED))]
    return parsed


def _numbered(item: Lined, number: int) -> Lined:
    """An order or error of a line parsed as line 2, as parsed at line `number` (the header's stay on line 1)."""
    return item if number == FIRST_LINE or item.line != FIRST_LINE else replace(item, line=number)  # type: ignore[type-var]


def _stores_nothing(parsed: OrderSet, bad: set[int]) -> bool:
    """Whether the refused lines `bad` are all FOOD STORE lines that parsed: refused, such a line changes nothing,
    as the default without it stores nothing either, for the same reason (ER-5.32, ER-14.9), and it comes last in
    the seat's Preparation: the other lines' verdicts stand without it (the plans step judged again would say the
    same)."""
    from adjudicator.rulesets.conqueror.orders import Food

    if any(e.line in bad for e in parsed.errors):
        return False
    refused = [o for o in parsed.orders if getattr(o, "line", 0) in bad]
    return {getattr(o, "line", 0) for o in refused} == bad and all(
        isinstance(o, Food) and o.action == "store" for o in refused
    )


def _unit_order(item: tuple[str, int]) -> int:
    return list(UNIT_KEYWORDS).index(item[0]) if item[0] in UNIT_KEYWORDS else len(UNIT_KEYWORDS)


def _keyword_name(word: str) -> str:
    """The keyword table's name of an English word the bot's price list writes (BAZAAR, UPGRADE, CAVALRY ...)."""
    from adjudicator.orders.keywords import keyword_of

    return keyword_of(RULESET).get(word.casefold(), word)
