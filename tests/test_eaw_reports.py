"""The reports of Empires of the Ancient World (templates/empires/): the public position, the scoring tables, the
options named, the seat's private part, and the generic event sentences, rendered through the shared layouts from
positions built with tests/eaw_helpers.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.engine.protocol import PUBLIC
from adjudicator.engine.vocabulary import Event, visible_to
from adjudicator.render import render
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import GameData, Options, Pieces
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.state import ENDED, GameState
from tests.eaw_helpers import position, small_data


def bound(data: GameData, options: Options | None = None) -> EmpiresGame:
    """The ruleset bound to `data` and the game's options (default: the data's), as the services play with it."""
    return EmpiresGame(load_ruleset("empires-aw").info, data, options or data.options)


def reports(
    state: GameState, data: GameData, events: list[Event] | None = None, options: Options | None = None
) -> dict[str, str]:
    """The public report and every seat's private report of `state`, each from its own view of the snapshot, as
    services/reports.py renders them."""
    game = bound(data, options)
    turn = {"number": 7, "seat": None, "round": 1, "turn_key": "k", "senders": [], "silent": [], "events": events or []}
    turn |= {"results": [], "orders_hash": "h", "dice": [], "chain": "", "ordering": [], "lines_of": {}, "bots": []}
    common = {"ruleset": game, "title": game.title, "game": "t", "turns": [turn], "commitment": "c"}
    common["seats"] = list(state.seats)
    found = {"public": render("report.txt.j2", **common, state=game.snapshot(state, PUBLIC))}
    for seat in state.seats:
        own = game.snapshot(state, seat)
        found[seat] = render("report-seat.txt.j2", seat=seat, **common, state=own, **game.report_context(state))
    return found


def middle_game(**options: Any) -> tuple[GameState, GameData]:
    data = small_data(**options)
    state = position(
        data,
        control={"GAL": ("red", 2), "ITA": "blue", "MCE": "green", "AFR": "green"},
        forts={"GAL": "red"},
        trade={"GAL": {"red": 1, "blue": 2}, "MCE": {"green": 3}},
        hands={"red": ["blade", "guard_a", "guard_a#2"], "blue": ["catapult", "horse_d"], "green": []},
        personalities={"red": ["general"], "green": ["trader", "trader#2"]},
        warehouse={"red": 3, "blue": 1},
        display=["archer", "envoy", "galley"],
        deck=["rider", "camel", "pike"],
        game_round=2,
    )
    state.steps_done = 7
    state.players["red"].home_group = "A"
    state.players["red"].half, state.players["blue"].half = "north", "south"
    state.turn = 1  # red has acted in this action round: blue is next (EAW-4.2)
    state.players["red"].plunder = {"blue": 2}
    state.players["red"].plan = [{"line": 4, "text": "TRADE ITA DISPLACE blue", "alternatives": []}]
    state.players["red"].standing = {"defend": {"GAL": "siege"}, "ambush": {"*": True}, "losses": ["blade"]}
    state.players["blue"].plan = [{"line": 2, "text": "RECRUIT catapult", "alternatives": []}]
    return state, data


def test_public_report_shows_the_map_display_and_every_players_counts() -> None:
    public = reports(*middle_game())["public"]
    assert "Game round II of 4; next: the actions." in public
    assert "GAL Gallia (3 VP): red, 2 control markers; fort of red; trade markers blue 2, red 1" in public
    assert "MCE Mare Centrale (8 VP): green, 1 control marker; trade markers green 3" in public
    assert "Archer [archer]: archer, fast, value 3, against mounted 5" in public
    assert "Deck: 3 cards; discards: 0 cards." in public
    assert "Start player: red; action order red, blue, green (EAW-4.2).\nNext to act: blue.\n" in public
    red = "red (north): 0 VP; warehouse 3 trade markers; plunder 2 (blue 2); cards in hand 3\n"
    assert red + "    personalities (face up, EAW-7.22): General (military leader)\n" in public
    blue = "blue (south): 0 VP; warehouse 1 trade markers; plunder 0; cards in hand 2\n"
    assert blue + "    actions taken this round: 0 of 9\n  green" in public
    assert "green: 0 VP; warehouse 0 trade markers; plunder 0; cards in hand 0\n" in public
    assert "personalities (face up, EAW-7.22): Trader (merchant), Trader (merchant)" in public


def test_public_report_shows_no_hidden_card_plan_or_standing_plan() -> None:
    state, data = middle_game()
    public = reports(state, data)["public"]
    for hidden in ("blade", "guard_a", "catapult", "horse_d", "rider", "camel", "home army", "TRADE ITA", "RECRUIT"):
        assert hidden not in public, hidden
    assert "siege" not in public and "blade" not in public


def test_seat_report_shows_its_hand_with_values_its_plan_and_standing_plans_and_nobody_elses() -> None:
    found = reports(*middle_game())
    red, blue = found["red"], found["blue"]
    assert "Your hand (3 cards):" in red
    assert "Blade [blade]: sword, slow, melee, value 5, upkeep 1 VP" in red
    assert "Horse D [horse_d]: mounted, fast, value 3, home army D" in found["blue"]  # no second "mounted"
    assert "Guard A [guard_a]: spear, slow, melee, value 3, home army A" in red
    assert "Your home army is group A (EAW-3.8)" in red
    assert "Your plan for this round, 1 action left, taken in order (EAW-12.2):\n  TRADE ITA DISPLACE blue" in red
    assert "when attacked in GAL: siege (EAW-12.4)" in red
    assert "ambush when attacked: yes (EAW-12.5)" in red
    assert "losses, first given up: blade (EAW-12.8)" in red
    assert "catapult" not in red and "RECRUIT catapult" not in red  # blue's hand and plan
    assert "Catapult [catapult]: artillery, slow, value 2, against galley 6, upkeep 2 VP" in blue
    assert "blade" not in blue and "TRADE ITA DISPLACE blue" not in blue
    assert "\n--- Your orders for step " in red and "\nGAME t TURN " in red  # the orders template, at the end
    assert "# To take back orders you sent for a step, mail WITHDRAW alone on a line below the order header." in red
    assert "--- Your orders" not in reports(*middle_game())["public"]


def test_EAW_12_2_seat_report_says_when_its_plan_ran_out() -> None:
    state, data = middle_game()
    state.players["green"].plan, state.players["green"].planned = [], True  # sent a plan, used it up
    green = reports(state, data)["green"]
    assert "Your plan for this round is used up: when your next action comes, the game waits for your mail" in green
    assert "Your hand (0 cards): none" in green
    state.players["green"].planned = False
    assert (
        "You sent no plan this round: each of your actions is the default action (EAW-12.2)"
        in (reports(state, data)["green"])
    )
    assert "Your standing battle plans (EAW-12.4 to EAW-12.8), kept until you replace them: none" in green


def test_EAW_11_7_every_report_names_the_options_that_differ_and_the_resolutions_in_force() -> None:
    found = reports(*middle_game(trade_reach="controlled_only", upkeep_timing="every_round"))
    for text in found.values():
        assert "Game options set by the moderator (EAW-11.7): trade_reach = controlled_only, " in text
        assert "Plunder scores 0 VP: the moderator has not set plunder_vp (EAW-10.6)" in text
    public = found["public"]
    assert "(EAW-11.7): trade_reach = controlled_only, upkeep_timing = every_round." in public
    assert "Plunder scores 0 VP: the moderator has not set plunder_vp (EAW-10.6)" in public
    assert "tie_break = shared (EAW-10.8)" in public and "loss_selection = random (EAW-8.8)" in public
    assert "Also resolved (EAW-10.9): combat markers start in the centre (EAW-8.3); a short stack" in public
    limits = "Pieces per player (EAW-1.2): unlimited control markers, unlimited trade markers, unlimited forts; "
    assert limits + "hand limit: none." in public


def test_EAW_4_3_the_action_rounds_and_EAW_1_2_the_stock_follow_the_games_options_and_pieces() -> None:
    data = small_data(pieces=Pieces(control_markers=9, trade_markers=20, forts=2))
    state, _ = middle_game()
    state.players["red"].stock_control, state.players["red"].stock_forts = 4, 1
    state.players["red"].actions_taken = 2
    public = reports(state, data, options=replace(data.options, action_rounds_first=5))["public"]
    assert "Action round 1 of 4 (EAW-4.3)." in public  # round II: one fewer than the game's first, not the data's
    assert "Game options set by the moderator (EAW-11.7): action_rounds_first = 5." in public
    assert "    in stock (EAW-1.2): 4 control markers, 1 fort\n    actions taken this round: 2 of 4\n" in public
    assert "  blue (south): 0 VP; warehouse 1 trade markers; plunder 0; cards in hand 2\n    actions taken" in public


def test_EAW_10_9_defaults_are_named_as_the_rules_resolutions_and_a_set_plunder_vp_as_its_rate() -> None:
    public = reports(*middle_game(plunder_vp=1))["public"]
    assert "Game options set by the moderator (EAW-11.7): plunder_vp = 1." in public
    assert "Plunder scores 1 VP per marker (plunder_vp, EAW-10.6)." in public
    plain = reports(*middle_game())["public"]
    assert "Game options: the rules' resolutions throughout (EAW-11.7)." in plain


def sheet(round: int, control: dict[str, int], trade: dict[str, int], plunder: int, upkeep: int) -> dict[str, Any]:
    """A score sheet as scoring.py writes it (plunder_vp unset: plunder scores 0)."""
    found = {
        "round": round,
        "control": {"vp": sum(control.values()), "areas": control},
        "trade": {"vp": sum(trade.values()), "areas": trade},
        "plunder": {"markers": plunder, "rate": None, "vp": 0},
        "upkeep": {"vp": -upkeep},
    }
    return found | {"total": found["control"]["vp"] + found["trade"]["vp"] - upkeep}


def test_EAW_10_7_scoring_table_per_player_item_and_area() -> None:
    state, data = middle_game()
    state.players["red"].scores = [sheet(2, {"GAL": 3}, {"GAL": 1}, 2, 1)]
    state.players["blue"].scores = [sheet(2, {"ITA": 4}, {}, 0, 2), sheet(3, {"ITA": 4, "SIC": 3}, {"SIC": 1}, 0, 0)]
    public = reports(state, data)["public"]
    assert "=== Scoring 1 (EAW-10.7): control, trade, plunder, upkeep ===" in public
    first = "red: 3 VP in game round II: control 3, trade 1, plunder 0 (2 markers, plunder_vp unset), upkeep -1"
    assert f"{first}\n    GAL Gallia (3 VP): control 3, trade 1\n" in public
    assert (
        "blue: 2 VP in game round II: control 4, trade 0, plunder 0 (0 markers, plunder_vp unset), upkeep -2" in public
    )
    second = public.split("=== Scoring 2 (EAW-10.7)")[1]
    assert "blue: 8 VP in game round III: control 7, trade 1" in second and "red:" not in second
    assert "    ITA Italia (4 VP): control 4\n    SIC Sicilia (3 VP): control 3, trade 1\n" in second


def test_EAW_10_8_final_scores_and_a_shared_win() -> None:
    state, data = middle_game()
    state.phase, state.winners = ENDED, ["red", "green"]
    for seat, vp in (("red", 30), ("blue", 21), ("green", 30)):
        state.players[seat].vp = vp
    public = reports(state, data)["public"]
    assert "=== Final scores (EAW-10.8) ===\n  red: 30 VP\n  blue: 21 VP\n  green: 30 VP" in public
    assert "the winners share the win: red, green (EAW-10.8)" in public


def test_EAW_0_4_roll_sentences_name_the_purpose_the_target_and_the_result() -> None:
    state, data = middle_game(threshold="gt")
    events = [
        Event(
            "roll",
            "red",
            {"purpose": "sea_move", "value": 3, "bonus": 1, "needed": 4, "success": True, "rule": "EAW-7.3"},
        ),
        Event(
            "roll",
            "blue",
            {
                "purpose": "crossing",
                "value": 1,
                "bonus": 0,
                "needed": 2,
                "success": False,
                "rule": "EAW-7.2",
                "threshold": "gt",
            },
        ),
        Event("roll", None, {"purpose": "revolt table", "value": 5, "rule": "EAW-5.1"}),
        Event("roll", "red", {"purpose": "card slinger", "value": 4, "rule": "EAW-8.5"}),
    ]
    public = reports(state, data, events)["public"]
    assert "red rolls 3+1 for the sea movement, needing 4+: success (EAW-7.3)." in public
    assert "blue rolls 1 for the mountain or strait crossing, needing more than 2: failure (EAW-7.2)." in public
    assert "Roll for the revolt table: 5 (EAW-5.1)." in public
    assert "red rolls 4 for the card slinger (EAW-8.5)." in public


def test_EAW_12_decisions_refusals_and_options_are_worded_and_a_decision_stays_private() -> None:
    state, data = middle_game()
    decision = {"key": "siege.GAL", "question": "siege or open battle in GAL?", "choice": "siege"}
    events = [
        Event("decision", "red", decision | {"source": "standing order", "rule": "EAW-12.4"}, visible_to(["red"])),
        Event("order_refused", "blue", {"text": "FORT ITA", "reason": "4 trade markers needed", "rule": "EAW-7.25"}),
        Event("option_applied", None, {"option": "last_province", "value": "all", "rule": "EAW-2.8"}),
    ]
    found = reports(state, data, events)
    line = "red decides (standing order, EAW-12.4): siege or open battle in GAL? siege"
    assert line in found["red"] and line not in found["public"] and line not in found["blue"]
    assert 'blue\'s order "FORT ITA" cannot be carried out: 4 trade markers needed (EAW-7.25).' in found["public"]
    assert "The game option last_province = all applies (EAW-2.8)." in found["public"]
