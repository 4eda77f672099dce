"""Many seeded actions of every kind keep the state whole (every piece counted, one owner per area, trade within
capacity, no card twice, the display at most 6, one personality of a kind but merchants; EAW-1.2, EAW-2.4, EAW-2.5,
EAW-2.6, EAW-7.20, EAW-7.22): a soak test of the actions and the battles they start, on the small test map of
tests/eaw_helpers.py."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.rulesets.empires import actions
from adjudicator.rulesets.empires.data import DISPLAY_SIZE, MERCHANT, GameData, Pieces
from adjudicator.rulesets.empires.orders import (
    Action,
    Attack,
    BuildFort,
    Diplomacy,
    Disband,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    TradeTarget,
)
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import GameState
from tests.eaw_helpers import position, small_data

PIECES = Pieces(control_markers=8, trade_markers=14, forts=2, hand_limit=7)
HOME = ("guard_a", "guard_a#2", "horse_a", "guard_d", "guard_d#2", "guard_b")
CARDS = ("pike", "blade", "archer", "rider", "galley", "slinger", "envoy", "trader", "builder", "general", "best")


def problems(state: GameState, data: GameData) -> list[str]:
    """What the actions must never break (the flow's snapshot.problems checks more, on a whole game)."""
    found = []
    for seat, player in state.players.items():
        markers = sum(c.markers for c in state.control.values() if c.seat == seat)
        forts = sum(1 for owner in state.forts.values() if owner == seat)
        trade = sum(by.get(seat, 0) for by in state.trade.values())
        taken = sum(p.plunder.get(seat, 0) for p in state.players.values())
        if (player.stock_control or 0) + markers != PIECES.control_markers:
            found.append(f"{seat}: control markers {markers} + {player.stock_control}")
        if (player.stock_forts or 0) + forts != PIECES.forts:
            found.append(f"{seat}: forts {forts} + {player.stock_forts}")
        if (player.stock_trade or 0) + player.warehouse + trade + taken != PIECES.trade_markers:
            found.append(f"{seat}: trade {player.stock_trade} + {player.warehouse} + {trade} + {taken}")
        if min(player.stock_control or 0, player.stock_trade or 0, player.stock_forts or 0, player.warehouse) < 0:
            found.append(f"{seat}: a count below 0")
        kinds = [data.card(c).personality for c in player.personalities]
        if any(kinds.count(k) > 1 for k in kinds if k != MERCHANT):
            found.append(f"{seat}: two personalities of a kind {kinds}")
    found += [f"control {a}" for a, held in state.control.items() if held.markers < 1]
    found += [f"fort {a}" for a in state.forts if not data.map.areas[a].is_province]
    found += [f"trade {a}" for a, by in state.trade.items() if sum(by.values()) > data.map.areas[a].value]
    found += [f"trade {a}" for a, by in state.trade.items() if not by or min(by.values()) < 1]
    cards = [*state.display, *state.deck, *state.discards]
    cards += [c for p in state.players.values() for c in (*p.hand, *p.personalities)]
    if sorted(cards) != sorted([*data.general_deck, *HOME]):
        found.append("cards lost or doubled")
    if len(state.display) > DISPLAY_SIZE:
        found.append("display over 6")
    return found


def some_action(rng: random.Random, areas: list[str], near: list[str], held: list[str], seats: list[str]) -> Action:
    area, other, own = rng.choice(near or areas), rng.choice(areas), rng.choice(held or areas)
    return rng.choice(
        [
            Attack(area, rng.choice([other, ""]), (), (PlaceControl(area),) if rng.random() < 0.5 else ()),
            Diplomacy(area, rng.random() < 0.5, rng.choice([None, 0, 1, 2, 3])),
            Recruit(tuple(rng.sample(CARDS, 2)), rng.choice(["no", "yes", "if_none"])),
            Disband(rng.choice(CARDS[:6])),
            BuildFort(own),
            PlaceTrade(tuple(TradeTarget(rng.choice(areas), rng.choice([None, "", *seats])) for _ in range(3))),
            PlaceControl(own),
        ]
    )


@pytest.mark.parametrize("seed", range(12))
def test_EAW_7_seeded_actions_keep_the_pieces_and_cards_whole(seed: int) -> None:
    data = small_data(pieces=PIECES)
    rng = random.Random(seed)
    general = list(data.general_deck)
    rng.shuffle(general)
    state = position(
        data,
        control={"GAL": "red", "AFR": "blue", "GER": "green", "EGY": "blue", "SIC": "red"},
        hands={"red": list(HOME[:3]), "blue": list(HOME[3:5]), "green": list(HOME[5:])},
        display=general[:6],
        deck=general[6:],
        warehouse={"red": 6, "blue": 6, "green": 6},
    )
    for seat, player in state.players.items():
        player.stock_control = PIECES.control_markers - sum(c.markers for c in state.control.values() if c.seat == seat)
        player.stock_trade, player.stock_forts = PIECES.trade_markers - 6, PIECES.forts
    areas = sorted(data.map.areas)
    dice = KeyedDice(key=seed.to_bytes(4, "big"), hidden_key=b"hidden")
    for turn in range(60):
        seat = state.seats[turn % 3]
        p = Play(state, data, data.options, dice)
        held = state.controlled(seat)
        near = sorted({n for a in held for n in data.map.neighbours(a)} - set(held))
        alternatives = tuple(some_action(rng, areas, near, held, state.seats) for _ in range(rng.randint(0, 3)))
        actions.take_action(p, seat, PlanLine(alternatives, line=1, text="") if alternatives else None)
        if turn % 9 == 8:
            for player in state.players.values():  # income (EAW-6.1), as the flow pays it
                moved = min(5, player.stock_trade or 0)
                player.stock_trade, player.warehouse = (player.stock_trade or 0) - moved, player.warehouse + moved
        found = problems(state, data)
        assert found == [], (turn, seat, alternatives, found, [(e.kind, e.data) for e in p.events])
