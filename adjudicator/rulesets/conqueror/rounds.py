"""The round (ER-4): which step is due, and the steps that resolve without orders: New Year (ER-4.4), Taxation
(ER-5.2), the end of the round (ER-4.6, ER-10) and elimination (ER-4.7).

The mail pace (at most two mails per player per round): per round one sealed "plans" step for every seat
(politics, preparation, the answers to New Year decisions and standing orders), then one campaign step per seat in
turn order. The steps without orders come between them: setup (once), New Year, Taxation, end of round.
"""

from __future__ import annotations

from typing import Final

from adjudicator.engine.steps import SETUP, Step
from adjudicator.engine.vocabulary import Event
from adjudicator.rulesets.conqueror import effects_triggers as fire
from adjudicator.rulesets.conqueror import seas
from adjudicator.rulesets.conqueror.battle_setup import temporary_capitals
from adjudicator.rulesets.conqueror.data import GameData, Options
from adjudicator.rulesets.conqueror.politics import cards_on
from adjudicator.rulesets.conqueror.setup import options_from_json
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_ACTIVE,
    DYNASTY_FLIPPED,
    DYNASTY_UNUSED,
    FOOD_IN_USE,
    FOOD_NONE,
    GameState,
    controlled_areas,
    food_supply,
    fort_count,
    fort_of,
    has_units,
    large_and_small_forts,
)

NEW_YEAR, TAXATION, PLANS, CAMPAIGN, END = "new_year", "taxation", "plans", "campaign", "end_of_round"
PURCHASES: Final = "purchases"  # ER-3.11: Conquest mode only, once, between setup and round 1 (purchases.py)
ENDED: Final = "ended"
WITHOUT_ORDERS: Final = (SETUP, NEW_YEAR, TAXATION, END)
FORTS_TO_WIN: Final = {"imperator": 6, "conquest": 5}  # ER-10.1
FOUR_DISTRICTS_BONUS: Final = 2  # ER-10.3


def due(state: GameState) -> Step | None:
    """The step due in `state` (None when the game has ended)."""
    number = state.steps_done + 1
    if state.ended:
        return None
    if state.phase in (PLANS, PURCHASES):
        return Step(number, state.phase, tuple(state.in_play()), sealed=True)
    if state.phase == CAMPAIGN:
        return Step(number, CAMPAIGN, (state.in_play()[state.campaign_index],))
    return Step(number, state.phase, ())


def steps_of_round(state: GameState) -> list[Step]:
    """The steps from the one due to the end of the round, as far as they are known now."""
    step = due(state)
    if step is None:
        return []
    phases = [NEW_YEAR, TAXATION, PLANS, CAMPAIGN, END]
    steps, number = [step], step.number
    rest = phases[phases.index(state.phase) + 1 :] if state.phase in phases else _round_1(state)
    if state.phase == CAMPAIGN:
        for seat in state.in_play()[state.campaign_index + 1 :]:
            number += 1
            steps.append(Step(number, CAMPAIGN, (seat,)))
    for phase in rest:
        if phase == CAMPAIGN:
            for seat in state.in_play():
                number += 1
                steps.append(Step(number, CAMPAIGN, (seat,)))
        else:
            number += 1
            sealed = phase in (PLANS, PURCHASES)
            steps.append(Step(number, phase, tuple(state.in_play()) if sealed else (), sealed=sealed))
    return steps


def next_steps(state: GameState, data: GameData) -> dict[str, int]:
    """Each faction in play -> the next step it orders in: its step left in this round, else the plans step of the
    next round (ER-4.1; New Year and taxation take no orders, ER-4.4), unless this round is the last (ER-10.2)."""
    steps = steps_of_round(state)
    found: dict[str, int] = {}
    for step in steps:
        for seat in step.seats:
            found.setdefault(seat, step.number)
    if steps and state.round < data.tracks.rounds.get(state.mode, 10):
        plans = steps[-1].number + [NEW_YEAR, TAXATION, PLANS].index(PLANS) + 1  # the phases after the end (ER-4.6)
        for seat in state.in_play():
            found.setdefault(seat, plans)
    return found


def _round_1(state: GameState) -> list[str]:
    """The phases after setup or the purchases: the purchases in Conquest mode (ER-3.11), then round 1 (ER-4.5)."""
    first = [PURCHASES] if state.phase == SETUP and state.mode == "conquest" else []
    new_year = [NEW_YEAR] if options_from_json(state.options).chronicle_in_round1(state.mode) else []
    return [*first, *new_year, TAXATION, PLANS, CAMPAIGN, END]


def after_setup(state: GameState, options: Options) -> None:
    """ER-3.11: in Conquest mode the purchases come before round 1 (purchases.py); else round 1 begins."""
    state.phase = PURCHASES if state.mode == "conquest" else first_phase(state, options)


def first_phase(state: GameState, options: Options) -> str:
    """ER-4.5: in round 1 a chronicle is drawn only with the option `chronicle_round1` (by mode by default)."""
    return NEW_YEAR if options.chronicle_in_round1(state.mode) else TAXATION


# -- New Year (ER-4.4) -----------------------------------------------------------------------------------------


def hourglass_holder(state: GameState, data: GameData) -> str:
    """ER-4.4.1: fewest forts, then the lowest food supply; still tied, the first tied player clockwise (in
    seating order) after the current holder, who is reached last (its Resolution)."""
    side = data.map_for(state.players_count)
    playing = state.in_play()
    key = {f: (fort_count(state, side, f), food_supply(state, side, f)) for f in playing}
    best = min(key.values())
    tied = [f for f in playing if key[f] == best]
    seating = [f for f in state.seating if f in state.players]
    start = seating.index(state.hourglass) if state.hourglass in seating else -1
    clockwise = seating[start + 1 :] + seating[: start + 1]
    return next(f for f in clockwise if f in tied)


def chosen_turn_order(state: GameState, wish: list[str] | None) -> list[str]:
    """ER-4.4.2: the holder's order, any permutation of the players in play (its Resolution); none given, or not
    a permutation: the previous order unchanged (ER-14.3)."""
    playing = state.in_play()
    if wish is not None and sorted(wish) == sorted(playing) and len(set(wish)) == len(wish):
        return list(wish)
    return playing


def may_trigger_dynasty(state: GameState, data: GameData, options: Options, faction: str) -> bool:
    """ER-11.5: once per game, from the round `dynasty_first_round`, with at most 1 large and 2 small forts."""
    player = state.players[faction]
    large, small = large_and_small_forts(state, data.map_for(state.players_count), faction)
    first = options.dynasty_first_round.get(state.mode, 2)
    return player.dynasty == DYNASTY_UNUSED and state.round >= first and large <= 1 and small <= 2


def play_new_year(
    state: GameState, data: GameData, options: Options, wishes: dict[str, list[str]], triggers: set[str]
) -> list[Event]:
    """ER-4.4 in its order: hourglass, turn order, agents home, chronicle, dynasty window. In round 1 (ER-4.5)
    only the chronicle is drawn. `wishes`: each seat's turn order should it hold the hourglass; `triggers`: the
    seats that trigger their dynasty card (ER-14.4: default none). The chronicle drawn applies to every player
    (ER-4.4.4), and every `new_year` effect in force (effects_triggers.py)."""
    events = phase_begins(state, data)  # ER-11.1
    if state.round > 1:
        holder = hourglass_holder(state, data)
        if holder != state.hourglass:
            events.append(Event("hourglass_passed", holder, {"from": state.hourglass}))
        state.hourglass = holder
        state.turn_order = chosen_turn_order(state, wishes.get(holder))
        events.append(Event("turn_order_set", holder, {"order": list(state.turn_order)}))
        for player in state.players.values():
            player.agent = None  # ER-4.4.3
    if state.decks.chronicle is not None:
        state.decks.chronicles_done.append(state.decks.chronicle)
        state.decks.chronicle = None
    drawn = bool(state.decks.chronicles)
    if drawn:  # ER-4.4.4: the top card
        state.decks.chronicle = state.decks.chronicles.pop(0)
        events.append(Event("chronicle_drawn", None, {"card": state.decks.chronicle, "round": state.round}))
    if state.round > 1:
        for faction in state.in_play():  # ER-4.4.5, ER-11.5
            if faction in triggers and may_trigger_dynasty(state, data, options, faction):
                state.players[faction].dynasty = DYNASTY_ACTIVE
                events.append(Event("dynasty_triggered", faction, {"round": state.round}))
    events += fire.new_year(state, data, drawn)
    state.phase = TAXATION
    return events


# -- Taxation (ER-5.2) -----------------------------------------------------------------------------------------


def income(state: GameState, data: GameData, faction: str) -> int:
    """ER-5.2's printed part: base income + coins of controlled areas + 2 per Bazaar + 1 for a temporary capital.
    The other income (abilities, chronicle, dynasty) and ER-5.3: effects_triggers.taxation."""
    side = data.map_for(state.players_count)
    player = state.players[faction]
    board = data.factions[faction].board(player.board) or data.factions[faction].standard
    coins = board.base_income + sum(side.areas[a].coins for a in controlled_areas(state, side, faction))
    coins += 2 * player.districts.get("bazaar", 0)
    coins += seas.temple_income(state, data, faction)  # ER-12.8 (Seas of Destiny)
    return coins + (1 if player.temporary_capital is not None else 0)


def phase_begins(state: GameState, data: GameData) -> list[Event]:
    """ER-11.1's Resolution: a temporary capital is placed at once when the condition arises (after a battle,
    battle_setup.py) or at the start of any later phase while it holds, here (ER-11.3 likewise; where: ER-14.5,
    the standing CAPITAL list, else its default). Called as New Year, Taxation, the plans step, each campaign
    turn and the end of the round begin."""
    return temporary_capitals(state, data)


def play_taxation(state: GameState, data: GameData) -> list[Event]:
    """ER-5.2, simultaneous: every player in play receives its income, other income and ER-5.3 included; then the
    passive food effects are checked for the round (`on_food_le`, ER-11.6)."""
    events = phase_begins(state, data)  # ER-11.1
    for faction in state.in_play():
        coins, found = fire.taxation(state, data, faction, income(state, data, faction))
        state.players[faction].coins += coins
        events += found
        events.append(Event("taxes", faction, {"coins": coins, "total": state.players[faction].coins}))
        events += fire.gained(state, data, faction, coins)
    events += fire.food_passives(state, data)
    state.phase = PLANS
    return events


# -- end of the round (ER-4.6), victory (ER-10), elimination (ER-4.7) -------------------------------------------


def play_end_of_round(state: GameState, data: GameData) -> list[Event]:
    """ER-4.6 in its order: stored food expires, temporary capitals return, dynasty cards flip, the victory check,
    then final scoring after the last round or the next round."""
    side = data.map_for(state.players_count)
    events = phase_begins(state, data)  # ER-11.1
    for faction, player in state.players.items():
        if player.stored_food == FOOD_IN_USE:  # ER-5.33
            player.stored_food = FOOD_NONE
            state.supply.food_markers += 1
            events.append(Event("stored_food_used_up", faction, {}))
        if player.temporary_capital is not None and _regained_a_large_fort(state, data, faction):  # ER-11.4
            events.append(Event("temporary_capital_returned", faction, {"area": player.temporary_capital}))
            player.temporary_capital = None
    events += fire.end_of_round(state, data)  # ER-4.6 (3), ER-11.6: the loss, while the card is face up
    for faction, player in state.players.items():
        if player.dynasty == DYNASTY_ACTIVE:  # ER-11.6
            player.dynasty = DYNASTY_FLIPPED
            events.append(Event("dynasty_flipped", faction, {}))
        player.food_bonus = 0  # food for this round only (ER-5.30, ER-13.6 duration round)
    # ER-7.6, ER-15.3: nothing is readied here; units that reinforced after their owner's turn stay exhausted
    winners = fort_victory(state, data)  # ER-10.1
    last = data.tracks.rounds.get(state.mode, 10)
    if winners or state.round >= last:
        state.final_scores = score_sheets(state, data)  # ER-10.3, item by item: the last report and the snapshot
        scores = final_scores(state, data)
        state.winners = winners or best_by_score(state, data, scores, state.in_play())  # ER-10.2
        state.ended, state.phase = True, "ended"
        events.append(
            Event("game_won", None, {"winners": list(state.winners), "scores": scores, "forts": winners != []})
        )
        return events
    state.round += 1
    next_round = fire.next_round(state, data)  # its sources as in the round that ended
    fire.round_ended(state)  # card effects for a turn or a round end with it (ER-8.14 reading)
    if state.decks.chronicle is not None:  # its effect lasts this round only (ER-4.4.4)
        state.decks.chronicles_done.append(state.decks.chronicle)
        state.decks.chronicle = None
    state.phase, state.campaign_index = NEW_YEAR, 0
    events.append(
        Event(
            "round_begins",
            None,
            {"round": state.round, "forts": {f: fort_count(state, side, f) for f in state.in_play()}},
        )
    )
    return events + next_round


def _regained_a_large_fort(state: GameState, data: GameData, faction: str) -> bool:
    """ER-11.4: the player controls its capital again, or any large fort."""
    side = data.map_for(state.players_count)
    return any(
        fort_of(state, side, area) == "large" and area != state.players[faction].temporary_capital
        for area in controlled_areas(state, side, faction)
    )


def fort_victory(state: GameState, data: GameData) -> list[str]:
    """ER-10.1: the players with at least 6 (Imperator) or 5 (Conquest) forts at the end of the round; several:
    most forts, then victory points (ER-10.3), then ER-10.5."""
    side = data.map_for(state.players_count)
    forts = {f: fort_count(state, side, f) for f in state.in_play()}
    qualified = [f for f, n in forts.items() if n >= FORTS_TO_WIN[state.mode]]
    if not qualified:
        return []
    most = max(forts[f] for f in qualified)
    return best_by_score(state, data, final_scores(state, data), [f for f in qualified if forts[f] == most])


def final_scores(state: GameState, data: GameData) -> dict[str, int]:
    """ER-10.3: each player's victory points at the end of the game."""
    return {faction: sum(item["vp"] for item in sheet.values()) for faction, sheet in score_sheets(state, data).items()}


# ER-10.3's items in the order a score sheet lists them (and ER-5.8, ER-12.7, ER-12.8, ER-13.6's game_end effects)
SCORE_ITEMS: Final = (
    "vp_during_play",
    "game_end_effects",
    "capitals",
    "large_forts",
    "small_forts",
    "districts",
    "districts_bonus",
    "upgrades",
    "upgrades_bonus",
    "megaprojects",
    "coins",
    "last_trade_space",
    "temporary_capital",
)


def score_sheets(state: GameState, data: GameData) -> dict[str, dict[str, dict[str, int]]]:
    """ER-10.3 item by item: faction -> item (SCORE_ITEMS) -> {"count": what is counted, "vp": its VP}."""
    side = data.map_for(state.players_count)
    scoring = data.tracks.scoring
    trade = data.tracks.trade[state.mode]
    sheets = {}
    for faction in state.in_play():
        player = state.players[faction]
        extra_vp, extra_coins = fire.game_end_points(state, data, faction)  # `game_end` effects (ER-13.6)
        forts = {"capitals": 0, "large_forts": 0, "small_forts": 0}
        for area in controlled_areas(state, side, faction):
            fort = fort_of(state, side, area)
            if side.areas[area].capital is not None:  # ER-10.3: each capital, own or another's, whatever covers it
                forts["capitals"] += 1
            elif fort == "large":
                forts["large_forts"] += 1
            elif fort == "small":
                forts["small_forts"] += 1
        districts = sum(player.districts.values())  # ER-10.4: built forts are not districts
        districts += cards_on(state, faction, "district")  # ER-12.6: a megaproject card counts by its slot
        upgrades = len(player.upgrades) + cards_on(state, faction, "upgrade")
        upgrade_bonus = bool(scoring.upgrade_bonus_count) and upgrades >= scoring.upgrade_bonus_count
        coins = player.coins + extra_coins
        last_space = player.trade >= len(trade)  # ER-5.8: the last space's VP count once, at game end
        built = len(state.seas.built.get(faction, {})) if state.seas is not None else 0
        sheets[faction] = {
            "vp_during_play": {"count": player.vp, "vp": player.vp},
            "game_end_effects": {"count": extra_vp, "vp": extra_vp},
            "capitals": {"count": forts["capitals"], "vp": forts["capitals"] * 10},
            "large_forts": {"count": forts["large_forts"], "vp": forts["large_forts"] * 6},
            "small_forts": {"count": forts["small_forts"], "vp": forts["small_forts"] * 4},
            "districts": {"count": districts, "vp": districts * scoring.vp_per_district},
            "districts_bonus": {"count": int(districts >= 4), "vp": FOUR_DISTRICTS_BONUS if districts >= 4 else 0},
            "upgrades": {"count": upgrades, "vp": upgrades * scoring.vp_per_upgrade},
            "upgrades_bonus": {"count": int(upgrade_bonus), "vp": scoring.upgrade_bonus_vp if upgrade_bonus else 0},
            "megaprojects": {"count": built, "vp": seas.megaproject_vp(state, data, faction)},  # ER-12.7, ER-12.8
            "coins": {"count": coins, "vp": coins // 5},
            "last_trade_space": {"count": int(last_space), "vp": trade[-1].vp if last_space else 0},
            "temporary_capital": {
                "count": int(player.temporary_capital is not None),
                "vp": scoring.temporary_capital_vp if player.temporary_capital is not None else 0,
            },
        }
    return sheets


def best_by_score(state: GameState, data: GameData, scores: dict[str, int], among: list[str]) -> list[str]:
    """ER-10.5: most VP, then most forts, then most coins; still tied, a shared win."""
    side = data.map_for(state.players_count)

    def key(f: str) -> tuple[int, int, int]:
        return scores.get(f, 0), fort_count(state, side, f), state.players[f].coins

    best = max(key(f) for f in among)
    return [f for f in among if key(f) == best]


def eliminate(state: GameState, data: GameData) -> list[Event]:
    """ER-4.7: a player with no units and no area is out at once: removed from turn order, its cards leave play
    (tactic cards to the discard pile). Controlling its capital without units keeps it in."""
    side = data.map_for(state.players_count)
    events = []
    for faction in list(state.in_play()):
        if has_units(state, faction) or controlled_areas(state, side, faction):
            continue
        player = state.players[faction]
        player.eliminated = True
        state.decks.tactic_discards += player.hand
        player.hand, player.heroes_down, player.heroes_up = [], [], {}
        player.agent = None
        state.turn_order = [f for f in state.turn_order if f != faction]
        events.append(Event("eliminated", faction, {}))
    return events
