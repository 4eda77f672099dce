"""The snapshot of a game of Empires of the Ancient World (schema 2, engine/envelope.py) and the invariants every
step keeps.

- public: seats, phase, rounds, start players, the map (control markers, forts, trade markers), the display,
  discards, the deck's size, the undrawn home-army groups' count, each player's public holdings (warehouse,
  plunder, stocks, face-up personalities, VP, score sheets, hand size, plan size) and the winners;
- private, per seat: its hand, its home-army group, its plan and its standing battle plans (EAW-12);
- secret: the deck's order and the home-army groups not drawn (EAW-3.5, EAW-3.8).

`read_state` reads the whole back, checking every field's type and naming its path; `problems` checks the position
against the game's data and the rules (areas and cards of the data, piece counts, EAW-2.4 to EAW-2.6, EAW-7.22)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import fields
from typing import Any, Final

from adjudicator.errors import PbemError
from adjudicator.rulesets.empires.data import (
    DISPLAY_SIZE,
    EMPIRE,
    GAME_ROUNDS,
    HOME_GROUPS,
    MERCHANT,
    NORTH,
    OPTION_CHOICES,
    PLAYERS,
    SOUTH,
    GameData,
    Options,
)
from adjudicator.rulesets.empires.orders import PlanLine, canonical
from adjudicator.rulesets.empires.setup import options_from_json
from adjudicator.rulesets.empires.state import (
    ACTION,
    DEAL,
    ENDED,
    PLACEMENT,
    PLANS,
    REVOLT,
    SCORING,
    Control,
    GameState,
    Player,
)

PHASES = (DEAL, PLACEMENT, REVOLT, PLANS, ACTION, SCORING, ENDED)


class SnapshotError(PbemError, ValueError):
    """A snapshot that is not a position of this game: names the field path."""


# -- writing ----------------------------------------------------------------------------------------------------


def public_part(state: GameState, options: Options, data: GameData | None = None) -> dict[str, Any]:
    """`action_rounds`: the action rounds of the current game round under the game's options (EAW-4.3), for the
    reports; the reader derives it again."""
    return {
        "seats": list(state.seats),
        "options": dict(state.options),
        "phase": state.phase,
        "round": state.round,
        "action_round": state.action_round,
        "action_rounds": options.action_rounds(state.round) if state.round else 0,
        "turn": state.turn,
        "first_setup_player": state.first_setup_player,
        "start_player": state.start_player,
        "control": {area: {"seat": c.seat, "markers": c.markers} for area, c in sorted(state.control.items())},
        "forts": dict(sorted(state.forts.items())),
        "trade": {area: dict(sorted(by.items())) for area, by in sorted(state.trade.items()) if by},
        "display": list(state.display),
        "discards": list(state.discards),
        "deck": len(state.deck),
        "home_groups": {half: len(groups) for half, groups in sorted(state.home_groups.items())},
        "home_group_names": {half: list(groups) for half, groups in HOME_GROUPS.items()},  # EAW-1.4: public facts
        "players": {seat: _public_player(p, data) for seat, p in state.players.items()},
        "winners": list(state.winners),
    }


def _public_player(player: Player, data: GameData | None) -> dict[str, Any]:
    """`known`: the cards of its hand everybody knows: those not of its home army (each was taken face up from the
    display, EAW-7.20) and those a battle revealed (`revealed`, EAW-8.4); the rest of the home army, drawn unseen
    (EAW-3.8), stays private."""
    return {
        "known": sorted(known_cards(player, data)),
        "revealed": list(player.revealed),
        "half": player.half,
        "personalities": list(player.personalities),
        "warehouse": player.warehouse,
        "plunder": dict(sorted(player.plunder.items())),
        "stock_control": player.stock_control,
        "stock_trade": player.stock_trade,
        "stock_forts": player.stock_forts,
        "vp": player.vp,
        "scores": [dict(s) for s in player.scores],
        "actions_taken": player.actions_taken,
        "planned": player.planned,
        "hand": len(player.hand),  # the count is public, the cards are not
        "plan": len(player.plan),
    }


def known_cards(player: Player, data: GameData | None) -> list[str]:
    """The cards of the player's hand everybody knows (the public `known`, in hand order)."""
    return [c for c in player.hand if c in player.revealed or (data is not None and _general(data, c))]


def _general(data: GameData, card: str) -> bool:
    return card.split("#")[0] in data.cards and data.card(card).kind != EMPIRE


def private_part(player: Player) -> dict[str, Any]:
    """A plan line is written as its text and its JSON as one text (`order`): an order is no item, so that a word of it
    ("no", an area it names) is not taken for a hidden card (the leak test reads single words as items)."""
    return {
        "hand": list(player.hand),
        "home_group": player.home_group,
        "plan": [_written(line) for line in player.plan],
        "standing": dict(player.standing),
    }


def _written(line: dict[str, Any]) -> dict[str, str]:
    text = line.get("text") or ""
    if not text:
        try:
            text = canonical(PlanLine.from_json(line))
        except (KeyError, TypeError, ValueError):
            text = "?"
    return {"text": text, "order": json.dumps(line, ensure_ascii=False, sort_keys=True, separators=(",", ":"))}


def _plan_line(value: Any, where: str) -> dict[str, Any]:
    """A plan line as `_written` wrote it (or as its JSON object)."""
    if isinstance(value, dict) and isinstance(value.get("order"), str):
        try:
            value = json.loads(value["order"])
        except json.JSONDecodeError as bad:
            raise SnapshotError(f"{where}.order: not JSON ({bad.msg})") from None
    if not isinstance(value, dict):
        raise SnapshotError(f"{where}: not a plan line")
    return value


def secret_part(state: GameState) -> dict[str, Any]:
    return {"deck": list(state.deck), "home_groups": {h: list(g) for h, g in sorted(state.home_groups.items())}}


# -- reading: every field's type, named by its path --------------------------------------------------------------


def _get(part: Mapping[str, Any], key: str, kind: Any, where: str, optional: bool = False) -> Any:
    if key not in part:
        raise SnapshotError(f"{where}.{key}: missing")
    value = part[key]
    if optional and value is None:
        return None
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise SnapshotError(f"{where}.{key}: {value!r} is not {_kind_name(kind)}")
    return value


def _kind_name(kind: Any) -> str:
    return {int: "a whole number", str: "a text", list: "a list", dict: "an object", bool: "true or false"}.get(
        kind, str(kind)
    )


def _ints(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        raise SnapshotError(f"{where}: not an object of whole numbers")
    return dict(value)


def _texts(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SnapshotError(f"{where}: not a list of texts")
    return list(value)


def read_state(
    game: str, step: int, public: Mapping[str, Any], private: Mapping[str, Any], secret: Mapping[str, Any]
) -> GameState:
    """The state from a snapshot's parts (a seat's part or the secret may be missing in a view)."""
    where = "public"
    seats = _texts(_get(public, "seats", list, where), "public.seats")
    players_part = _get(public, "players", dict, where)
    if sorted(players_part) != sorted(seats):
        raise SnapshotError(f"public.players: seats {sorted(players_part)} are not public.seats {sorted(seats)}")
    players: dict[str, Player] = {}
    for seat in seats:
        at = f"public.players.{seat}"
        part = _get(players_part, seat, dict, "public.players")
        own = private.get(seat, {})
        if not isinstance(own, dict):
            raise SnapshotError(f"private.{seat}: not an object")
        scores = _get(part, "scores", list, at)
        if not all(isinstance(s, dict) for s in scores):
            raise SnapshotError(f"{at}.scores: not a list of objects")
        lines = own.get("plan", [])
        if not isinstance(lines, list):
            raise SnapshotError(f"private.{seat}.plan: not a list of plan lines")
        plan = [_plan_line(line, f"private.{seat}.plan[{n}]") for n, line in enumerate(lines)]
        standing = own.get("standing", {})
        if not isinstance(standing, dict):
            raise SnapshotError(f"private.{seat}.standing: not an object")
        home = own.get("home_group")
        if home is not None and not isinstance(home, str):
            raise SnapshotError(f"private.{seat}.home_group: {home!r} is not a text")
        players[seat] = Player(
            seat,
            half=_get(part, "half", str, at, optional=True),
            home_group=home,
            hand=_texts(own.get("hand", []), f"private.{seat}.hand"),
            personalities=_texts(_get(part, "personalities", list, at), f"{at}.personalities"),
            warehouse=_get(part, "warehouse", int, at),
            plunder=_ints(_get(part, "plunder", dict, at), f"{at}.plunder"),
            stock_control=_get(part, "stock_control", int, at, optional=True),
            stock_trade=_get(part, "stock_trade", int, at, optional=True),
            stock_forts=_get(part, "stock_forts", int, at, optional=True),
            vp=_get(part, "vp", int, at),
            scores=[dict(s) for s in scores],
            plan=[dict(line) for line in plan],
            standing=dict(standing),
            actions_taken=_get(part, "actions_taken", int, at),
            planned=_get(part, "planned", bool, at),
            revealed=_texts(part.get("revealed", []), f"{at}.revealed"),
        )
    control: dict[str, Control] = {}
    for area, held in _get(public, "control", dict, where).items():
        at = f"public.control.{area}"
        if not isinstance(held, dict):
            raise SnapshotError(f"{at}: not an object")
        control[area] = Control(_get(held, "seat", str, at), _get(held, "markers", int, at))
    forts = _get(public, "forts", dict, where)
    if not all(isinstance(v, str) for v in forts.values()):
        raise SnapshotError("public.forts: not an object of seats")
    trade = {area: _ints(by, f"public.trade.{area}") for area, by in _get(public, "trade", dict, where).items()}
    groups = secret.get("home_groups", {})
    if not isinstance(groups, dict):
        raise SnapshotError("secret.home_groups: not an object")
    state = GameState(
        game=game,
        seats=seats,
        players=players,
        options=dict(_get(public, "options", dict, where)),
        steps_done=step,
        phase=_get(public, "phase", str, where),
        round=_get(public, "round", int, where),
        action_round=_get(public, "action_round", int, where),
        turn=_get(public, "turn", int, where),
        first_setup_player=_get(public, "first_setup_player", str, where, optional=True),
        start_player=_get(public, "start_player", str, where, optional=True),
        control=control,
        forts=dict(forts),
        trade=trade,
        deck=_texts(secret.get("deck", []), "secret.deck"),
        display=_texts(_get(public, "display", list, where), "public.display"),
        discards=_texts(_get(public, "discards", list, where), "public.discards"),
        home_groups={h: _texts(g, f"secret.home_groups.{h}") for h, g in groups.items()},
        winners=_texts(_get(public, "winners", list, where), "public.winners"),
    )
    return state


# -- the invariants (checked after every step, and of every snapshot read) ---------------------------------------


def problems(state: GameState, data: GameData, whole: bool = True) -> list[str]:
    """What in `state` breaks the rules or does not fit the data; `whole`: the hands and the deck are all there (the
    counts of cards and home armies are checked only then)."""
    found: list[str] = []
    seats, areas = state.seats, data.map.areas
    if len(seats) not in PLAYERS or len(set(seats)) != len(seats):
        found.append(f"seats: {seats} are not 3 to 5 different seats (EAW-3.4)")
    found += _progress(state, data)
    for name, seat in (("first_setup_player", state.first_setup_player), ("start_player", state.start_player)):
        if seat is not None and seat not in seats:
            found.append(f"{name}: {seat!r} is not a seat")
    for area, held in state.control.items():
        if area not in areas:
            found.append(f"control.{area}: no such area in the game's data")
        if held.seat not in seats:
            found.append(f"control.{area}.seat: {held.seat!r} is not a seat (EAW-2.4)")
        if held.markers < 1:
            found.append(f"control.{area}.markers: {held.markers} (an area held has at least 1 marker, EAW-2.4)")
    for area, seat in state.forts.items():
        if area not in areas or not areas[area].is_province:
            found.append(f"forts.{area}: not a province of the game's data (EAW-2.5)")
        if seat not in seats:
            found.append(f"forts.{area}: {seat!r} is not a seat")
    for area, by_seat in state.trade.items():
        if area not in areas:
            found.append(f"trade.{area}: no such area in the game's data")
            continue
        if any(s not in seats or n < 1 for s, n in by_seat.items()):
            found.append(f"trade.{area}: {by_seat} names no seat or a count below 1")
        if sum(by_seat.values()) > areas[area].value:
            found.append(
                f"trade.{area}: {sum(by_seat.values())} markers, more than its value {areas[area].value} (EAW-2.6)"
            )
    found += _players(state, data)
    found += _pieces(state, data)
    found += _cards(state, data, whole)
    return found


def _progress(state: GameState, data: GameData) -> list[str]:
    """Phase, rounds and turn fit together (EAW-4.1, EAW-4.3), and the options are the game's (EAW-11.7)."""
    found = option_problems(state.options)
    if state.phase not in PHASES:
        return [*found, f"phase: {state.phase!r} is none of {', '.join(PHASES)}"]
    first = 0 if state.phase in (DEAL, PLACEMENT) else 1
    last = 0 if state.phase in (DEAL, PLACEMENT) else GAME_ROUNDS
    if not first <= state.round <= last:
        found.append(f"round: {state.round} is not {first} to {last} in the phase {state.phase} (EAW-4.1)")
    if state.phase == ACTION and not found:
        rounds = options_from_json(state.options, data.options).action_rounds(state.round)
        if not 1 <= state.action_round <= rounds:
            found.append(f"action_round: {state.action_round} is not 1 to {rounds} (EAW-4.3)")
    if not 0 <= state.turn < max(len(state.seats), 1):
        found.append(f"turn: {state.turn} is not a seat's turn (EAW-4.2)")
    if state.phase not in (DEAL, PLACEMENT) and (state.start_player is None or state.first_setup_player is None):
        found.append("start_player: none after the setup (EAW-3.6, EAW-3.11)")
    if any(seat not in state.seats for seat in state.winners) or (state.winners and state.phase != ENDED):
        found.append(f"winners: {state.winners} are not seats of an ended game (EAW-10.8)")
    return found


def option_problems(options: Mapping[str, Any]) -> list[str]:
    """Each option kept in the state is one of the game's with a value it takes (EAW-11.7)."""
    found = []
    known = {f.name for f in fields(Options)}
    for key, value in options.items():
        at = f"options.{key}"
        if key not in known:
            found.append(f"{at}: no such option")
        elif key in OPTION_CHOICES and value not in OPTION_CHOICES[key]:
            found.append(f"{at}: {value!r} is none of {', '.join(OPTION_CHOICES[key])}")
        elif key == "action_rounds_first" and not (_whole(value) and GAME_ROUNDS <= value <= 50):
            found.append(f"{at}: {value!r} is not a whole number from {GAME_ROUNDS} to 50 (EAW-4.3)")
        elif key == "plunder_vp" and not (value is None or (_whole(value) and 0 <= value <= 100)):
            found.append(f"{at}: {value!r} is not unset or a whole number from 0 to 100 (EAW-10.6)")
        elif key == "start_markers" and not (
            isinstance(value, dict)
            and all(k.isdigit() and _whole(v) and 1 <= v <= 50 for k, v in value.items() if isinstance(k, str))
            and all(isinstance(k, str) for k in value)
        ):
            found.append(f"{at}: {value!r} is not player counts with a number of markers (EAW-3.1)")
    return found


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


STANDING_SHAPES: Final = {
    "defend": lambda v: isinstance(v, dict) and all(x in ("siege", "open") for x in v.values()),
    "ambush": lambda v: isinstance(v, dict) and all(isinstance(x, bool) for x in v.values()),
    "stacks": lambda v: (
        isinstance(v, dict) and all(isinstance(x, list) and all(isinstance(c, str) for c in x) for x in v.values())
    ),
    "markers": lambda v: v in ("push", "pull"),
    "losses": lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v),
}
SCORE_ITEMS: Final = ("control", "trade", "plunder", "upkeep")


def _player_shape(seat: str, player: Player, data: GameData) -> list[str]:
    """The parts of a player that its rules read: half, home group, standing plans, score sheets, plan lines."""
    at = f"players.{seat}"
    found = []
    if player.half not in (None, NORTH, SOUTH):
        found.append(f"{at}.half: {player.half!r} is not north or south (EAW-2.10)")
    groups = HOME_GROUPS[player.half] if player.half in HOME_GROUPS else [g for h in HOME_GROUPS.values() for g in h]
    if player.home_group is not None and player.home_group not in groups:
        found.append(f"{at}.home_group: {player.home_group!r} is no group of its half (EAW-3.8)")
    for key, value in player.standing.items():
        if key not in STANDING_SHAPES or not STANDING_SHAPES[key](value):
            found.append(f"{at}.standing.{key}: not a standing battle plan (EAW-12)")
    for n, sheet in enumerate(player.scores):
        items = [sheet.get(item) for item in SCORE_ITEMS]
        if not all(isinstance(i, dict) and _whole(i.get("vp")) for i in items) or not _whole(sheet.get("total")):
            found.append(f"{at}.scores[{n}]: not a score sheet (EAW-10.7)")
    for n, line in enumerate(player.plan):
        try:
            PlanLine.from_json(line)
            named = [a.get(k) for a in line["alternatives"] for k in ("target", "origin", "area") if k in a]
        except Exception as wrong:  # noqa: BLE001 - whatever a damaged line raises, it is named
            found.append(f"{at}.plan[{n}]: not a plan line ({type(wrong).__name__}: {wrong})")
            continue
        unknown = [area for area in named if not isinstance(area, str) or area not in data.map.areas]
        if unknown:
            found.append(f"{at}.plan[{n}]: {unknown} are no areas of the map")
    return found


def _players(state: GameState, data: GameData) -> list[str]:
    found = []
    for seat, player in state.players.items():
        at = f"players.{seat}"
        found += _player_shape(seat, player, data)
        for name in ("warehouse", "stock_control", "stock_trade", "stock_forts", "actions_taken"):
            value = getattr(player, name)
            if value is not None and value < 0:
                found.append(f"{at}.{name}: {value} is below 0")
        if any(owner not in state.seats or owner == seat or n < 1 for owner, n in player.plunder.items()):
            found.append(f"{at}.plunder: {player.plunder} names no other seat or a count below 1 (EAW-8.13)")
        kinds = Counter(data.card(c).personality for c in player.personalities if c.split("#")[0] in data.cards)
        doubled = sorted(k for k, n in kinds.items() if n > 1 and k != MERCHANT and k is not None)
        if doubled:
            found.append(f"{at}.personalities: two of {', '.join(doubled)} (EAW-7.22)")
    return found


def _pieces(state: GameState, data: GameData) -> list[str]:
    """EAW-1.2: a player's pieces are in its stock, on the map, in its warehouse or another's plunder."""
    found = []
    pieces = data.pieces
    for seat, player in state.players.items():
        on_map = sum(c.markers for c in state.control.values() if c.seat == seat)
        if pieces.control_markers is not None and player.stock_control is not None:
            if player.stock_control + on_map != pieces.control_markers:
                found.append(
                    f"players.{seat}: {on_map} control markers on the map + {player.stock_control} in stock, "
                    f"not {pieces.control_markers} (EAW-1.2)"
                )
        if pieces.forts is not None and player.stock_forts is not None:
            built = sum(1 for owner in state.forts.values() if owner == seat)
            if player.stock_forts + built != pieces.forts:
                found.append(
                    f"players.{seat}: {built} forts built + {player.stock_forts} in stock, not {pieces.forts} (EAW-1.2)"
                )
        if pieces.trade_markers is not None and player.stock_trade is not None:
            placed = sum(by.get(seat, 0) for by in state.trade.values())
            taken = sum(p.plunder.get(seat, 0) for p in state.players.values())
            total = player.stock_trade + player.warehouse + placed + taken
            if total != pieces.trade_markers:
                found.append(
                    f"players.{seat}: {total} trade markers in stock, warehouse, map and plunder, "
                    f"not {pieces.trade_markers} (EAW-1.2)"
                )
    return found


def _cards(state: GameState, data: GameData, whole: bool) -> list[str]:
    found = []
    every = [*state.display, *state.discards, *(c for p in state.players.values() for c in p.personalities)]
    if whole:
        every += [*state.deck, *(c for p in state.players.values() for c in p.hand)]
    known = [c for c in every if c.split("#")[0] in data.cards]
    for card in sorted(set(every) - set(known)):
        found.append(f"cards: {card!r} is no card of the game's data")
    twice = sorted(c for c, n in Counter(every).items() if n > 1)
    if twice:
        found.append(f"cards: {', '.join(twice)} in two places")
    if len(state.display) > DISPLAY_SIZE:
        found.append(f"display: {len(state.display)} cards, more than {DISPLAY_SIZE} (EAW-7.20)")
    if not whole or state.phase == DEAL:
        return found
    general = [c for c in known if data.card(c).kind != EMPIRE]
    if sorted(general) != sorted(data.general_deck):
        missing = sorted(set(data.general_deck) - set(general))
        extra = sorted(set(general) - set(data.general_deck))
        found.append(f"cards: the general deck is not whole (missing {missing}, unknown {extra}) (EAW-1.4)")
    drawn = {p.home_group for p in state.players.values() if p.home_group is not None}
    undrawn = {g for groups in state.home_groups.values() for g in groups}
    if drawn & undrawn:
        found.append(f"home armies: {sorted(drawn & undrawn)} drawn and undrawn (EAW-3.8)")
    for seat, player in state.players.items():
        empire = sorted(c for c in player.hand if c.split("#")[0] in data.cards and data.card(c).kind == EMPIRE)
        expected = sorted(data.home_army(player.home_group)) if player.home_group else []
        if empire != expected:
            found.append(f"players.{seat}.hand: the empire cards {empire} are not its home army {expected} (EAW-8.8)")
    return found
