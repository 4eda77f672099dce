"""Tiny positions of Empires of the Ancient World for rule tests: a small map of our own (not the example data, so
that a change of the example data changes no rule test), a few cards of every kind, and helpers that build a state
and a Play with given dice.

The test map (north: GAL RAE GER ITA SIC; south: AFR NUM EGY CRE; seas: MOC MCE MOR are the Mediterranean ones,
PON is a named sea outside it):

    GER -mountain- RAE -land- GAL        GAL -mountain- ITA        RAE -mountain- ITA
    ITA -strait+sea lane (across MCE)- SIC       AFR -sea lane (across MCE)- SIC
    AFR -land- NUM -land- EGY       EGY -sea lane (across MOR)- CRE
    coasts: GAL-MOC, ITA-MCE, SIC-MCE, AFR-MCE, AFR-MOC, EGY-MOR, CRE-MOR, GER-PON
    seas:   MOC-MCE, MCE-MOR (water)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from adjudicator.engine.chance import GivenDice
from adjudicator.rulesets.empires.data import (
    ARMY,
    COAST,
    EMPIRE,
    LAND,
    MOUNTAIN,
    NORTH,
    PERSONALITY,
    PROVINCE,
    SEA,
    SEA_LANE,
    SOUTH,
    STRAIT,
    WATER,
    Area,
    Card,
    Connection,
    Effect,
    GameData,
    GameMap,
    Options,
    Pieces,
    RevoltTables,
)
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import ACTION, Control, GameState, Player

SEATS = ("red", "blue", "green")


def _province(id: str, name: str, half: str, value: int, **more: Any) -> Area:
    return Area(id, name, PROVINCE, value, half=half, **more)


def _sea(id: str, name: str, value: int, **more: Any) -> Area:
    return Area(id, name, SEA, value, **more)


AREAS = (
    _province("GAL", "Gallia", NORTH, 3, mediterranean_coast=True),
    _province("RAE", "Raetia", NORTH, 2, northern_edge=True),
    _province("GER", "Germania", NORTH, 2, northern_edge=True),
    _province("ITA", "Italia", NORTH, 4, mediterranean_coast=True, amphora=True),
    _province("SIC", "Sicilia", NORTH, 3, mediterranean_coast=True),
    _province("AFR", "Africa", SOUTH, 4, mediterranean_coast=True, amphora=True),
    _province("NUM", "Numidia", SOUTH, 2),
    _province("EGY", "Aegyptus", SOUTH, 5, mediterranean_coast=True),
    _province("CRE", "Creta", SOUTH, 3, mediterranean_coast=True),
    _sea("MOC", "Mare Occidentale", 8, mediterranean=True),
    _sea("MCE", "Mare Centrale", 8, mediterranean=True),
    _sea("MOR", "Mare Orientale", 8, mediterranean=True),
    _sea("PON", "Pontus", 3),
)


def _link(a: str, b: str, *kinds: str, sea: str | None = None) -> Connection:
    return Connection(a, b, frozenset(kinds), sea)


CONNECTIONS = (
    _link("GER", "RAE", MOUNTAIN),
    _link("RAE", "GAL", LAND),
    _link("GAL", "ITA", MOUNTAIN),
    _link("RAE", "ITA", MOUNTAIN),
    _link("ITA", "SIC", STRAIT, SEA_LANE, sea="MCE"),
    _link("AFR", "SIC", SEA_LANE, sea="MCE"),
    _link("AFR", "NUM", LAND),
    _link("NUM", "EGY", LAND),
    _link("EGY", "CRE", SEA_LANE, sea="MOR"),
    _link("GAL", "MOC", COAST),
    _link("ITA", "MCE", COAST),
    _link("SIC", "MCE", COAST),
    _link("AFR", "MCE", COAST),
    _link("AFR", "MOC", COAST),
    _link("EGY", "MOR", COAST),
    _link("CRE", "MOR", COAST),
    _link("GER", "PON", COAST),
    _link("MOC", "MCE", WATER),
    _link("MCE", "MOR", WATER),
)


def _card(id: str, kind: str = ARMY, **more: Any) -> Card:
    return Card(id, id.replace("_", " ").title(), kind, **more)


CARDS = (
    # general deck: army cards
    _card("pike", category="spear", speed="slow", melee=True, value=4, count=3),
    _card("blade", category="sword", speed="slow", melee=True, value=5, vp_cost=1, count=2),
    _card("archer", category="archer", speed="fast", value=3, value_vs={"mounted": 5}, count=2),
    _card("rider", category="mounted", speed="fast", mounted=True, value=4, label="N", count=2),
    _card("camel", category="mounted", speed="fast", mounted=True, value=3, label="S"),
    _card("catapult", category="artillery", speed="slow", value=2, value_vs={"galley": 6}, vp_cost=2),
    _card("galley", category="galley", speed="slow", value=3, count=3),
    _card("slinger", category="foot", speed="fast", value=1, roll_mod=0),  # value 1 + d6 (EAW-8.5)
    # personalities (EAW-9.1), with the effects of EAW-11.6
    _card(
        "general",
        PERSONALITY,
        personality="leader",
        vp_cost=1,
        effects=(Effect("stack_order_free"), Effect("ambush"), Effect("card_value", {"n": 1})),
    ),
    _card(
        "builder", PERSONALITY, personality="engineer", effects=(Effect("fort_cost", {"n": 2}), Effect("capture_fort"))
    ),
    _card(
        "envoy",
        PERSONALITY,
        personality="diplomat",
        count=2,
        effects=(
            Effect("diplomacy_takeover", {"cost": 1, "roll": 0}),
            Effect("diplomacy_remove", {"target": 6, "per_marker": 1, "max_markers": 3}),
        ),
    ),
    _card(
        "trader",
        PERSONALITY,
        personality="merchant",
        count=2,
        effects=(
            Effect("trade_income", {"n": 1}),
            Effect("trade_place", {"n": 1}),
            Effect("roll_mod", {"roll": "displace", "n": 1}),
        ),
    ),
    # home armies A-F (EAW-1.4 a): two empire cards each
    *(
        _card(f"guard_{g.lower()}", EMPIRE, category="spear", melee=True, value=3 + i % 2, home_group=g, count=2)
        for i, g in enumerate("ABCDEF")
    ),
    *(
        _card(f"horse_{g.lower()}", EMPIRE, category="mounted", speed="fast", mounted=True, value=3, home_group=g)
        for g in "ABCDEF"
    ),
)

REVOLTS = RevoltTables(
    table_of={1: NORTH, 2: NORTH, 3: NORTH, 4: SOUTH, 5: SOUTH, 6: SOUTH},
    tables={
        NORTH: {1: ("GAL",), 2: ("RAE", "GER"), 3: ("ITA",), 4: ("SIC",), 5: ("GAL", "ITA"), 6: ()},
        SOUTH: {1: ("AFR",), 2: ("NUM",), 3: ("EGY", "CRE"), 4: ("CRE",), 5: ("AFR", "NUM"), 6: ()},
    },
)


def small_data(options: Options | None = None, pieces: Pieces | None = None, **changes: Any) -> GameData:
    """The test map's data; `changes` replace options by name (e.g. trade_reach="controlled_only")."""
    chosen = replace(options or Options(), **changes)
    return GameData(
        example=False,
        map=GameMap({a.id: a for a in AREAS}, CONNECTIONS),
        revolts=REVOLTS,
        cards={c.id: c for c in CARDS},
        pieces=pieces or Pieces(),
        options=chosen,
    )


def position(
    data: GameData | None = None,
    *,
    seats: Iterable[str] = SEATS,
    control: Mapping[str, str | tuple[str, int]] | None = None,
    forts: Mapping[str, str] | None = None,
    trade: Mapping[str, Mapping[str, int]] | None = None,
    hands: Mapping[str, Iterable[str]] | None = None,
    personalities: Mapping[str, Iterable[str]] | None = None,
    warehouse: Mapping[str, int] | None = None,
    display: Iterable[str] = (),
    deck: Iterable[str] = (),
    game_round: int = 1,
    phase: str = ACTION,
) -> GameState:
    """A state in the middle of game round `game_round`: `control` area -> seat (one marker) or (seat, markers)."""
    order = list(seats)
    state = GameState(game="t", seats=order, players={s: Player(s) for s in order})
    state.phase, state.round, state.action_round, state.start_player = phase, game_round, 1, order[0]
    state.first_setup_player = order[0]
    for area, held in (control or {}).items():
        seat, markers = (held, 1) if isinstance(held, str) else held
        state.control[area] = Control(seat, markers)
    state.forts = dict(forts or {})
    state.trade = {area: dict(by) for area, by in (trade or {}).items()}
    for seat, cards in (hands or {}).items():
        state.players[seat].hand = list(cards)
    for seat, cards in (personalities or {}).items():
        state.players[seat].personalities = list(cards)
    for seat, count in (warehouse or {}).items():
        state.players[seat].warehouse = count
    state.display, state.deck = list(display), list(deck)
    if data is not None:
        state.options = {}  # the options are the Play's (data.options unless a test gives others)
    return state


def play(state: GameState, data: GameData | None = None, dice: Iterable[int] = (), **decisions: Any) -> Play:
    """A Play of `state` with the given dice (a test that rolls more than it gives fails with DiceError)."""
    data = data or small_data()
    return Play(state, data, data.options, GivenDice(values=list(dice)), **decisions)
