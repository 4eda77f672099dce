"""Setup (ER-3): the game options, the state before the first step (`initial_state`) and the setup step, which
resolves without orders so that every shuffle comes from the game's committed key chain (ER-0.5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any, Final

from adjudicator.engine.chance import Dice
from adjudicator.engine.vocabulary import Event
from adjudicator.errors import PbemError
from adjudicator.rulesets.conqueror.data import MODES, OPTION_BOUNDS, PLAYER_COUNTS, GameData, Options, frozen
from adjudicator.rulesets.conqueror.seas import new_seas
from adjudicator.rulesets.conqueror.state import (
    INDEPENDENT,
    UPGRADES,
    Army,
    Decks,
    GameState,
    Player,
    Supply,
)

MODE_SYNONYMS = {"imperator": "imperator", "emperor": "imperator", "conquest": "conquest"}  # ER-3.13
CONQUEST_COINS = 10  # ER-3.11 (its Resolution: the lost icon is coins)
CHRONICLES_PER_LEVEL = {"imperator": (3, 3, 3), "conquest": (2, 2, 1)}  # ER-3.6: levels I, II, III


class SetupError(PbemError, ValueError):
    """The setup rules refuse a seat list, a mode or an option: the message names it."""


# -- options (ER-13.5) ------------------------------------------------------------------------------------------


def mode_of(text: str) -> str:
    """ER-3.13: the mode identifier (`imperator`, with `emperor` its synonym, or `conquest`)."""
    mode = MODE_SYNONYMS.get(text.strip().casefold())
    if mode is None:
        raise SetupError(f"unknown mode {text!r}: choose imperator (Emperor mode; 'emperor' also) or conquest (ER-3.1)")
    return mode


def game_options(data: GameData, mode: str | None = None, pairs: dict[str, str] | None = None) -> Options:
    """The data's options with the mode and `--option key=value` pairs applied; every wrong pair named at once."""
    options = data.options if mode is None else replace(data.options, mode=mode_of(mode))
    kinds = {f.name: f for f in fields(Options) if f.name != "mode"}
    problems, changes = [], {}
    for key, text in (pairs or {}).items():
        if not isinstance(text, str):  # a damaged stored option (ER-13.5): options are the texts --option gave
            problems.append(f"{key}={text!r}: not a text")
        elif key == "mode":
            changes["mode"] = mode_of(text)
        elif key not in kinds:
            problems.append(f"{key}: no such option (options: mode, {', '.join(sorted(kinds))})")
        else:
            try:
                current = getattr(data.options, key)
                changes[key] = (
                    _rounds(current, text) if key == "dynasty_first_round" else _option_value(key, current, text)
                )
                _within(key, changes[key])
            except ValueError as wrong:
                problems.append(f"{key}={text}: {wrong}")
    if problems:
        raise SetupError("game options: " + "; ".join(problems))
    return replace(options, **changes)


def _within(key: str, value: Any) -> None:
    """ER-13.5: a number option within its bound (data.py), as the data check holds game-data.toml's options."""
    if key in OPTION_BOUNDS:
        low, high = OPTION_BOUNDS[key]
        if not all(low <= n <= high for n in (value.values() if isinstance(value, Mapping) else (value,))):
            raise ValueError(_beyond(key))


def _beyond(key: str) -> str:
    low, high = OPTION_BOUNDS[key]
    what = "a round" if key == "dynasty_first_round" else "a whole number"
    return f"write {what} from {low} to {high}"


def _rounds(current: Mapping[str, int], text: str) -> Mapping[str, int]:
    """ER-11.5's option: one round for both modes ("3"), or per mode ("imperator:3,conquest:2")."""
    word = text.strip().casefold()
    if word.isdigit():
        return frozen({mode: _whole(word, "dynasty_first_round") for mode in MODES})
    found = dict(current)
    for part in word.split(","):
        mode, _, number = part.partition(":")
        if mode.strip() not in MODES or not number.strip().isdigit():
            raise ValueError("write a round number, or mode:round pairs such as imperator:3,conquest:2")
        found[mode.strip()] = _whole(number, "dynasty_first_round")
    return frozen(found)


def _whole(word: str, key: str) -> int:
    """The number `word` (digits); one of over six digits is beyond every option's bound (and int() refuses over
    4300 digits), named with the bound of option `key`."""
    digits = word.strip()
    if len(digits) > 6 or not digits.isascii():
        raise ValueError(_beyond(key))
    return int(digits)


def _option_value(key: str, current: Any, text: str) -> Any:
    word = text.strip().casefold()
    if isinstance(current, bool) or current is None:
        if word in ("on", "true", "yes"):
            return True
        if word in ("off", "false", "no"):
            return False
        if current is None and word == "auto":
            return None
        raise ValueError("write on or off")
    if isinstance(current, int):
        if not word.isdigit():
            raise ValueError("write a whole number from 0")
        return _whole(word, key)
    if not word:
        raise ValueError("write a value")
    return word


def options_json(options: Options) -> dict[str, Any]:
    return {f.name: _plain(getattr(options, f.name)) for f in fields(Options)}


def options_from_json(data: dict[str, Any]) -> Options:
    return Options(**{key: value for key, value in data.items() if key in OPTION_NAMES})


OPTION_NAMES: Final = frozenset(f.name for f in fields(Options))  # read for every step, check and orders template


def _plain(value: Any) -> Any:
    return dict(value) if hasattr(value, "items") else value


# -- the state before the first step ----------------------------------------------------------------------------


def factions_for(data: GameData, count: int) -> tuple[str, ...]:
    """ER-3.3: the factions in play at `count` players (ER-3.2: 3 to 6)."""
    if count not in PLAYER_COUNTS:
        raise SetupError(f"Empire Rises takes 3 to 6 players, not {count} (ER-3.2)")
    return data.setup.factions_by_players[count]


def initial_state(data: GameData, options: Options, game: str, seats: list[str]) -> GameState:
    """The position of ER-3 before its shuffles: factions, pieces, independents, supply, turn order."""
    if options.mode not in MODES:
        raise SetupError(f"unknown mode {options.mode!r} (ER-3.1)")
    wanted = factions_for(data, len(seats))
    if sorted(seats) != sorted(wanted):
        raise SetupError(
            f"at {len(seats)} players the factions are {', '.join(wanted)} (ER-3.3), not {', '.join(seats)}"
        )
    order = tuple(f for f in data.setup.turn_order if f in wanted)  # ER-3.9
    count = len(seats)
    state = GameState(
        game=game,
        mode=options.mode,
        players_count=count,
        seating=order,  # ER-3.10's Resolution: seating = the initial turn order
        turn_order=list(order),
        hourglass=data.setup.start_player if data.setup.start_player in wanted else order[0],  # ER-3.9
        players={faction: Player(faction) for faction in order},  # ER-3.7: trade marker on space 1
        options=options_json(options),
    )
    state.supply = Supply(  # ER-3.5: N of each
        districts={kind: count for kind in ("granary", "bazaar", "academy")},
        upgrades=dict.fromkeys(UPGRADES, count),
        fort_markers=count,
        food_markers=count,
    )
    if options.seas_of_destiny:  # ER-0.8, ER-3.12: ER-12.1 and ER-12.2 (the ships and siege engines: SEAS_BARRACKS)
        state.seas = new_seas(data, count)
    for faction, board in chosen_boards(data, options, order).items():  # ER-3.7, ER-12.3
        state.players[faction].board = board
    _place_start(state, data)
    _place_independents(state, data)
    return state


def chosen_boards(data: GameData, options: Options, factions: tuple[str, ...]) -> dict[str, str]:
    """ER-3.7, ER-14.1: the boards the moderator assigns (option boards = "faction:board,..."); an alternative
    board only with Seas of Destiny (ER-12.3, ER-0.8). Every wrong entry is named at once."""
    chosen, problems = {}, []
    for entry in (e.strip() for e in options.boards.split(",") if e.strip()):
        faction, _, name = entry.partition(":")
        board = data.factions[faction].board(name) if faction in factions else None
        if faction not in factions:
            problems.append(f"{entry}: {faction} is no faction of this game")
        elif board is None:
            boards = ", ".join(b.id for b in data.factions[faction].boards)
            problems.append(f"{entry}: {faction} has no board {name!r} (boards: {boards})")
        elif board.kind == "alternative" and not options.seas_of_destiny:
            problems.append(f"{entry}: alternative boards need Seas of Destiny (ER-12.3, ER-0.8)")
        else:
            chosen[faction] = name
    if problems:
        raise SetupError("option boards: " + "; ".join(problems))
    return chosen


def _place_start(state: GameState, data: GameData) -> None:
    """ER-3.7: the starting units of the mode and player count, from the barracks of the player's board."""
    for faction in state.turn_order:
        board = data.factions[faction].board(state.players[faction].board) or data.factions[faction].standard
        for start in board.start.get((state.mode, state.players_count), ()):
            army = state.army.setdefault(start.area, Army(faction))
            if army.owner != faction:
                raise SetupError(f"{faction} and {army.owner} both start in {start.area} (ER-2.4)")
            for kind in ("cavalry", "infantry", "archer"):
                if start.units.of(kind):
                    army.add(kind, start.units.of(kind))


def _place_independents(state: GameState, data: GameData) -> None:
    """ER-3.8: the independent armies of the player count (the data's composition; its Resolution otherwise)."""
    for independent in data.map_for(state.players_count).independents.get(state.players_count, ()):
        if independent.area in state.army:
            raise SetupError(f"an independent army and {state.army[independent.area].owner} in {independent.area}")
        army = Army(INDEPENDENT)
        for kind in ("cavalry", "infantry", "archer"):
            if independent.units.of(kind):
                army.add(kind, independent.units.of(kind))
        state.army[independent.area] = army


# -- the setup step: shuffles and the first card (no orders) ----------------------------------------------------


def play_setup(state: GameState, data: GameData, options: Options, chance: Dice) -> list[Event]:
    """The setup step, in ER-0.5's order: the chronicle deck per level (ER-3.6), the tactic deck and one card to
    each player in turn order (ER-3.5), the automa deck (ER-3.5); then ER-3.11's coins in Conquest mode. Every
    shuffle is hidden: no seat may learn a deck's order or another's card."""
    events: list[Event] = []
    state.decks = Decks(chronicles=_chronicle_deck(data, state.mode, chance))
    tactics = [t.id for t in data.cards.tactics for _ in range(t.count)]
    state.decks.tactics = chance.shuffle(tactics, "tactic deck", hidden=True)
    for faction in state.turn_order:
        card = state.decks.tactics.pop(0)
        state.players[faction].hand.append(card)
        name = next(t.name for t in data.cards.tactics if t.id == card)
        events.append(Event("tactic_drawn", faction, {"card": card, "name": name}, visible_to=frozenset({faction})))
    events.append(Event("tactics_dealt", None, {"each": 1, "deck": len(state.decks.tactics)}))
    state.decks.automa = chance.shuffle([a.id for a in data.cards.automa], "automa deck", hidden=True)
    if state.mode == "conquest":  # ER-3.11 (its purchases are the next step: purchases.py)
        for faction in state.turn_order:
            state.players[faction].coins += CONQUEST_COINS
        events.append(Event("coins_given", None, {"coins": CONQUEST_COINS, "rule": "ER-3.11"}))
    events.append(
        Event("setup_done", None, {"mode": state.mode, "players": state.players_count, "order": state.turn_order})
    )
    return events


def _chronicle_deck(data: GameData, mode: str, chance: Dice) -> list[str]:
    """ER-3.6: k random cards of each level, level I on top, then II, then III; the rest leave the game."""
    deck: list[str] = []
    for level, take in zip((1, 2, 3), CHRONICLES_PER_LEVEL[mode], strict=True):
        cards = [c.id for c in data.cards.chronicles if c.level == level]
        if len(cards) < take:
            raise SetupError(f"the data has {len(cards)} level {level} chronicle cards; {mode} needs {take} (ER-3.6)")
        deck += chance.shuffle(cards, f"chronicles level {level}", hidden=True)[:take]
    return deck
