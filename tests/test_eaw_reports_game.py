"""The reports and map of a whole game of Empires of the Ancient World, played through the real steps (deal,
placement, revolts, plans, actions, battles, scorings) with keyed dice on the test map: what each report shows
after each step, and that the public report and the map never show a hidden card."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import pytest

from adjudicator.engine.chance import KeyedDice
from adjudicator.engine.protocol import EVERYONE, PUBLIC
from adjudicator.engine.steps import resolve_step
from adjudicator.engine.vocabulary import Event
from adjudicator.orders.sets import OrderSet
from adjudicator.render import render
from adjudicator.render.site import SiteTurn, battles
from adjudicator.render.svgmap import render_map
from adjudicator.rulesets.empires.data import EMPIRE, Pieces, base_id
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.mapping import EmpiresMap
from adjudicator.rulesets.empires.orders import (
    Attack,
    FortChoice,
    PlaceChoice,
    PlaceTrade,
    PlanLine,
    Recruit,
    StartChoice,
    TradeTarget,
)
from adjudicator.rulesets.empires.state import ENDED, GameState
from tests.eaw_helpers import small_data
from tests.test_eaw_reports import bound

SEATS = ("red", "blue", "green")
# the attacks a plan line tries in turn (the first that can be made is, EAW-12.2): every connection of the test map
ATTACKS = [
    (t, o)
    for a, b in (("ITA", "SIC"), ("AFR", "SIC"), ("AFR", "NUM"), ("NUM", "EGY"), ("GAL", "ITA"))
    for t, o in ((a, b), (b, a))
]
DATA = small_data(pieces=Pieces(control_markers=12, trade_markers=25, forts=2), action_rounds_first=3)


class Step(NamedTuple):
    number: int
    state: GameState
    events: list[Event]


def keyed(number: int) -> KeyedDice:
    return KeyedDice(key=bytes([number % 256]) * 32, orders_hash=f"h{number}", hidden_key=b"s" * 32)


def orders_for(phase: str, seat: str) -> OrderSet | None:
    """Red and blue choose their start and plan recruiting and trade; green sends nothing (the defaults)."""
    if phase == "placement" and seat != "green":
        return OrderSet(None, (StartChoice(("ITA", "AFR", "EGY")), PlaceChoice(("MCE", "SIC")), FortChoice(("ITA",))))
    if phase == "plans" and seat != "green":
        recruit = PlanLine((Recruit(("best",)),), line=2, text="RECRUIT BEST")
        trade = PlanLine((PlaceTrade((TradeTarget("MCE"), TradeTarget("SIC"))),), line=3, text="TRADE MCE, SIC")
        attack = PlanLine((*(Attack(target, origin) for target, origin in ATTACKS), Recruit(("best",))), line=4)
        return OrderSet(None, (recruit, trade, attack, attack))
    return None


@pytest.fixture(scope="module")
def game() -> EmpiresGame:
    return bound(DATA)


@pytest.fixture(scope="module")
def steps(game: EmpiresGame) -> list[Step]:
    state, found = game.initial_state("g", list(SEATS)), []
    while (step := game.due(state)) is not None:
        result = resolve_step(game, state, step, {s: orders_for(step.phase, s) for s in step.seats}, keyed(step.number))
        state = result.state
        found.append(Step(step.number, state, list(result.events)))
    return found


def reports(game: EmpiresGame, step: Step) -> dict[str, str]:
    """The public and private reports after one step, as services/reports.py renders them."""
    turn: dict[str, Any] = {"number": step.number, "seat": None, "round": step.state.round, "turn_key": "k"}
    turn |= {"senders": [], "silent": [], "events": step.events, "results": [], "orders_hash": "h", "dice": []}
    turn |= {"chain": "", "ordering": [], "lines_of": {}, "bots": []}
    common = {"ruleset": game, "title": game.title, "game": "g", "turns": [turn], "commitment": "c"}
    common["seats"] = list(SEATS)
    found = {"public": render("report.txt.j2", **common, state=game.snapshot(step.state, PUBLIC))}
    for seat in SEATS:
        own = game.snapshot(step.state, seat)
        found[seat] = render("report-seat.txt.j2", seat=seat, **common, state=own, **game.report_context(step.state))
    return found


@pytest.fixture(scope="module")
def rendered(game: EmpiresGame, steps: list[Step]) -> list[dict[str, str]]:
    return [reports(game, step) for step in steps]


def home_army_cards(steps: list[Step]) -> set[str]:
    """Every empire card a player holds: drawn unseen (EAW-3.8), never in the display, so never public until
    revealed in a battle."""
    return {c for s in steps for p in s.state.players.values() for c in p.hand if DATA.card(c).kind == EMPIRE}


def test_EAW_10_8_the_game_ends_and_its_last_report_gives_three_scorings_and_the_final_scores(
    steps: list[Step], rendered: list[dict[str, str]]
) -> None:
    last, public = steps[-1].state, rendered[-1]["public"]
    assert last.phase == ENDED and last.winners
    assert public.count("(EAW-10.7): control, trade, plunder, upkeep ===") == 3
    for seat, player in last.players.items():
        assert f"\n  {seat}: {player.vp} VP\n" in public.split("=== Final scores (EAW-10.8) ===")[1]
        for n, sheet in enumerate(player.scores):
            assert f"  {seat}: {sheet['total']} VP in game round {('II', 'III', 'IV')[n]}: control " in public
    assert f"the winner: {last.winners[0]} (EAW-10.8)" in public or "share the win" in public


def test_EAW_11_7_every_report_of_the_game_names_its_option_and_the_unset_plunder_rate(
    rendered: list[dict[str, str]],
) -> None:
    for found in rendered:
        for text in found.values():
            assert "Game options set by the moderator (EAW-11.7): action_rounds_first = 3." in text
            assert "the moderator has not set plunder_vp (EAW-10.6)" in text
            assert (
                "Pieces per player (EAW-1.2): 12 control markers, 25 trade markers, 2 forts; hand limit: none." in text
            )


def test_EAW_3_8_no_public_report_shows_a_home_army_card_and_each_seat_sees_its_own(
    steps: list[Step], rendered: list[dict[str, str]]
) -> None:
    hidden = home_army_cards(steps)
    assert hidden
    revealed = {e.data["card"] for s in steps for e in s.events if e.kind == "card_revealed" and e.public}
    for step, found in zip(steps, rendered, strict=True):
        for card in (c for c in hidden if base_id(c) not in revealed):  # a reveal names the card (EAW-13.17)
            name = base_id(card)  # a copy is named by its card (EAW-13.17)
            assert f"[{name}]" not in found["public"] and f" {name}," not in found["public"], (step.number, card)
        for seat, player in step.state.players.items():
            for card in player.hand:
                assert f"[{base_id(card)}]: " in found[seat], (step.number, seat, card)
                others = [found[o] for o in SEATS if o != seat]
                if base_id(card) not in {base_id(c) for o in SEATS if o != seat for c in step.state.players[o].hand}:
                    assert all(f"[{base_id(card)}]: " not in text for text in others), (step.number, card)


def test_the_public_position_counts_each_players_hand_and_the_deck(
    steps: list[Step], rendered: list[dict[str, str]]
) -> None:
    for step, found in zip(steps, rendered, strict=True):
        for seat, player in step.state.players.items():
            line = re.search(rf"\n  {seat}( \((north|south)\))?: .*; cards in hand (\d+)\n", found["public"])
            assert line is not None and int(line[3]) == len(player.hand), (step.number, seat)
        assert f"Deck: {len(step.state.deck)} cards; discards: {len(step.state.discards)} cards." in found["public"]


def test_the_map_of_every_step_shows_control_and_no_hidden_card(game: EmpiresGame, steps: list[Step]) -> None:
    layers = EmpiresMap(DATA)
    hidden = home_army_cards(steps) | {c for s in steps for c in s.state.deck}
    for step in steps[::4] + steps[-1:]:
        events = [e.to_json() for e in step.events]
        svg = render_map(layers.board, game.snapshot(step.state, EVERYONE), events, layers=layers)
        for area, held in step.state.control.items():
            assert f'id="area-{area}" class="area ' in svg
            assert f'data-owner="{held.seat}"' in svg.split(f'id="area-{area}"', 1)[1].split(">", 1)[0]
        assert not any(f">{card}<" in svg or f"{card}]" in svg for card in hidden)


def test_EAW_8_a_battle_is_told_in_the_public_report_and_each_stack_only_to_its_owner(
    steps: list[Step], rendered: list[dict[str, str]]
) -> None:
    at = next(i for i, s in enumerate(steps) if any(e.kind == "battle_begins" for e in s.events))
    begins = next(e for e in steps[at].events if e.kind == "battle_begins")
    public = rendered[at]["public"]
    assert f"{begins.seat} attacks {begins.data['area']}, held by {begins.data['defender']}" in public
    for event in steps[at].events:
        if event.kind == "stack_formed":
            line = f"  {render('_sentence.txt.j2', event=event, ruleset_templates='empires').strip()}\n"
            assert line in rendered[at][event.seat]
            assert all(line not in rendered[at][other] for other in ("public", *SEATS) if other != event.seat)


def test_EAW_8_the_sites_account_of_a_battle_runs_from_the_attack_on_the_area_to_its_outcome(
    steps: list[Step],
) -> None:
    step = next(s for s in steps if any(e.kind == "battle_begins" for e in s.events))
    public = [e for e in step.events if e.public]
    turn = SiteTurn(step.number, None, step.state.round, "", "", public, "k", "h", [], "keyed")
    [account] = battles(turn, "en", "empires")
    begins = next(e for e in public if e.kind == "battle_begins")
    assert account[0].startswith(f"{begins.seat} attacks {begins.data['area']}, held by {begins.data['defender']}")
    assert any("wins the battle" in line for line in account)
    assert not any(line.startswith(f"{begins.seat} rolls") for line in account)  # the attack's rolls came before
