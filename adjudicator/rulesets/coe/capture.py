"""Conquest, capture of leaders, elimination and victory (C-5.28 to C-5.31, C-8, C-14.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.engine.vocabulary import N_
from adjudicator.rulesets.coe.decisions import bad_answer, decide, standing
from adjudicator.rulesets.coe.economy import refresh_tribute, shared_units
from adjudicator.rulesets.coe.state import Captive, Force, GameState
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS, WORDS, leader_name

if TYPE_CHECKING:
    pass


def others_with_units(state: GameState, code: str, seat: str) -> list[str]:
    area = state.areas.get(code)
    return [s for s, f in area.units.items() if s != seat and f.units] if area else []


def end_of_movement(turn: Turn) -> None:
    """Lone leaders are captured (C-5.31); provinces held alone by the mover are conquered (C-5.28)."""
    ruleset = turn.rules
    seat = turn.seat
    for code in sorted(turn.state.areas):
        area = turn.state.areas[code]
        mine = area.units.get(seat)
        if mine is None or not mine.units or not ruleset.board.is_land(code):  # is_land asked last: it costs most
            continue
        for other, force in list(area.units.items()):
            if other != seat and not force.units and force.leaders:
                capture_leaders(turn, seat, code, other, force.leaders, ruleset.rule("5.31"))
        if not others_with_units(turn.state, code, seat) and area.owner != seat:
            conquer(turn, seat, code, ruleset.rule("5.28"))


def conquer(turn: Turn, seat: str, code: str, rule: str) -> None:
    """The effects of a conquest (C-8.1): control, tribute, other galleys destroyed, other leaders captured."""
    ruleset = turn.rules
    area = turn.state.area(code)
    previous = area.owner
    area.owner = seat
    turn.event(
        "conquered", seat, area=code, previous=previous, value=ruleset.board.value(code), city=area.city, rule=rule
    )
    if ruleset.edition("roads_survive_conquest", True) is False:
        remove_roads(turn, code)
    destroy_galleys(turn, code, [s for s in area.units if s != seat], ruleset.rule("8.1"))
    for other, force in list(area.units.items()):
        if other != seat and force.leaders and not force.units:
            capture_leaders(turn, seat, code, other, force.leaders, ruleset.rule("8.1"))
    refresh_tribute(turn)


def remove_roads(turn: Turn, code: str) -> None:
    """1984 (O-6.22, O-15.15): a conquest removes every road leading to the province; the city stays."""
    area = turn.state.area(code)
    if not area.roads:
        return
    for other in area.roads:
        turn.state.area(other).roads.remove(code)
    turn.event("roads_removed", turn.seat, area=code, roads=sorted(area.roads), rule=turn.rules.rule("8.1"))
    area.roads = []


def destroy_galleys(turn: Turn, code: str, seats: list[str], rule: str) -> None:
    """Galleys of `seats` in a land province are destroyed (C-6.23, C-6.24, C-8.1)."""
    area = turn.state.area(code)
    for seat in seats:
        force = area.units.get(seat)
        if force and force.galleys:
            turn.event("galleys_destroyed", seat, area=code, galleys=sorted(force.galleys), rule=rule)
            remove_galleys(turn.state, seat, force, list(force.galleys))
    area.prune()


def remove_galleys(state: GameState, seat: str, force: Force, galleys: list[int]) -> None:
    for number in galleys:
        force.galleys.remove(number)
        force.galley_coasts.pop(number, None)
        force.aboard.pop(number, None)
    _spend_inherited(state, seat, "galley", len(galleys))


def remove_units(state: GameState, seat: str, force: Force, kind: str, count: int) -> None:
    """Combat units leave the board and return to their supply (C-1.4, C-6.11)."""
    setattr(force, kind, getattr(force, kind) - count)
    _spend_inherited(state, seat, kind, count)


def _spend_inherited(state: GameState, seat: str, kind: str, count: int) -> None:
    """Pieces taken over leave the board first, so they never return to anybody's supply (C-1.7)."""
    inherited = state.players[seat].inherited
    if inherited.get(kind):
        inherited[kind] = max(0, inherited[kind] - count)
        if not inherited[kind]:
            del inherited[kind]


def parse_captive_choice(text: str) -> str:
    """KILL or RANSOM in any keyword language (the reader is told his own words, C-8.4), or HOLD."""
    from adjudicator.orders.keywords import in_english, keyword_of

    word = text.strip().casefold()
    keyword = keyword_of(WORDS).get(word)
    if keyword not in ("KILL", "RANSOM") and word != "hold":
        raise bad_answer(N_("answer %(kw_kill)s or %(kw_ransom)s", **in_english("kill", "ransom", ruleset=WORDS)))
    return "kill" if keyword == "KILL" else "ransom"


def capture_leaders(
    turn: Turn, captor: str, code: str, owner: str, leaders: list[int], rule: str, force: Force | None = None
) -> None:
    """Leaders of `owner` are taken from `force` (default: his force in `code`) by `captor` (C-8.3 to C-8.6)."""
    ruleset = turn.rules
    state = turn.state
    force = force if force is not None else state.area(code).units[owner]
    for number in sorted(n for n in leaders if n):
        force.generals.remove(number)
        standing_choice = standing(turn, captor, "captives") or {}
        preset = standing_choice.get(owner, standing_choice.get("*"))
        choice = decide(
            turn,
            captor,
            f"captive.{owner}.G{number}",
            N_("kill %(owner)s's captured general G%(general)s or hold him for ransom?", owner=owner, general=number),
            "ransom",
            preset,
            parse_captive_choice,
            ruleset.rule("15.11"),
        )
        turn.event("captured", captor, owner=owner, leader=leader_name(number), area=code, choice=choice, rule=rule)
        if choice == "ransom":
            state.players[captor].captives.append(Captive(owner, number))  # C-8.4, C-8.5
    if 0 in leaders:
        force.caesar = 0
        turn.event("captured", captor, owner=owner, leader="Caesar", area=code, choice="", rule=rule)
        state.area(code).prune()
        eliminate(turn, owner, captor)  # C-8.6
    else:
        state.area(code).prune()


def eliminate(turn: Turn, loser: str, captor: str) -> None:
    """The captor of a Caesar takes over everything the loser had (C-8.7, C-8.8, C-8.9)."""
    ruleset = turn.rules
    state = turn.state
    lost, winner = state.players[loser], state.players[captor]
    lost.eliminated, lost.captor = True, captor
    turn.event(
        "eliminated", loser, captor=captor, treasury=lost.treasury, tribute=lost.tribute, rule=ruleset.rule("8.8")
    )
    winner.treasury += lost.treasury
    lost.treasury = 0
    renumber = _renumber_generals(state, loser, captor, ruleset.data["limits"]["generals"])
    for _, area in sorted(state.areas.items()):
        if area.owner == loser:
            area.owner = captor
        force = area.units.pop(loser, None)
        if force is None:
            continue
        _merge_force(state, area.force(captor), force, captor, renumber, shared_units(ruleset))
        area.prune()
    freed = []
    for captive in lost.captives:  # the loser's prisoners: the captor's own generals among them go free
        if captive.owner == captor:
            freed.append(captive.general)
        else:
            winner.captives.append(captive)
    lost.captives = []
    for seat, player in state.players.items():
        for captive in list(player.captives):
            if captive.owner == loser:
                player.captives.remove(captive)
                if seat == captor:
                    freed.append(renumber[captive.general])
                else:
                    player.captives.append(Captive(captor, renumber[captive.general]))
    for pending in state.inflation_pending:
        if pending["seat"] == loser:
            pending["seat"] = captor
    for general in freed:
        place_freed_general(turn, captor, general)
    lost.tribute = 0
    refresh_tribute(turn)
    check_victory(turn)


def _renumber_generals(state: GameState, loser: str, captor: str, own: int) -> dict[int, int]:
    """The loser's generals become the captor's, numbered after the captor's own (C-8.8)."""
    used = {g for a in state.areas.values() if captor in a.units for g in a.units[captor].generals}
    used |= {c.general for p in state.players.values() for c in p.captives if c.owner == captor}
    used |= set(range(1, own + 1))  # the captor's own numbers (4 Classic, 6 in 1984: O-1.1)
    theirs = sorted(
        {g for a in state.areas.values() if loser in a.units for g in a.units[loser].generals}
        | {c.general for p in state.players.values() for c in p.captives if c.owner == loser}
    )
    numbers = iter(n for n in range(max(used) + 1, max(used) + 2 + len(theirs)))
    return {g: next(numbers) for g in theirs}


def _merge_force(
    state: GameState, target: Force, force: Force, captor: str, renumber: dict[int, int], shared: bool = False
) -> None:
    """The loser's pieces in one area join the captor's. Pieces of the loser's colour are recorded as taken over
    (C-1.7); uncoloured units of the shared pools (1984, O-1.10) simply change owner."""
    inherited = state.players[captor].inherited
    for kind in UNIT_KINDS:
        count = getattr(force, kind)
        setattr(target, kind, getattr(target, kind) + count)
        if count and not shared:
            inherited[kind] = inherited.get(kind, 0) + count
    target.generals += [renumber[g] for g in force.generals]
    used = {g for a in state.areas.values() if captor in a.units for g in a.units[captor].galleys}
    for number in sorted(force.galleys):
        new = next(n for n in range(1, 100) if n not in used and n not in target.galleys)
        target.galleys.append(new)
        used.add(new)
        if number in force.galley_coasts:
            target.galley_coasts[new] = force.galley_coasts[number]
        if number in force.aboard:
            cargo = force.aboard[number]
            cargo.generals = [renumber[g] for g in cargo.generals]
            cargo.caesar = 0
            target.aboard[new] = cargo
    if force.galleys:
        inherited["galley"] = inherited.get("galley", 0) + len(force.galleys)


def place_freed_general(turn: Turn, seat: str, general: int) -> None:
    """A player's own leader (a general, or the Caesar: 0) freed by C-8.8/C-8.13 goes home, or where C-15.12
    says (C-8.9)."""
    ruleset = turn.rules
    state = turn.state
    home = state.players[seat].home
    held = [c for c, a in state.areas.items() if a.owner == seat and ruleset.board.is_land(c)]
    if home in held:
        where = home
    else:
        by_units = sorted(held, key=lambda c: (-state.area(c).units.get(seat, Force()).units, c))
        free = [c for c, a in ruleset.board.areas.items() if a.is_land and not others_with_units(state, c, seat)]
        options = by_units or free

        def parse(text: str) -> str:
            code = text.strip().upper()
            if code not in options:
                raise bad_answer(
                    N_("%(area)s is not a place for a freed leader: %(areas)s", area=code, areas=", ".join(options))
                )
            return code

        wished = [c for c in standing(turn, seat, "freed") or [] if c in options]
        name = leader_name(general)
        where = decide(
            turn,
            seat,
            f"freed.{name}",
            N_("where to place your freed %(leader)s?", leader=name),
            options[0],
            wished[0] if wished else None,
            parse,
            ruleset.rule("15.12"),
        )
    if general:
        state.force(where, seat).generals.append(general)
    else:
        state.force(where, seat).caesar = 1
    turn.event("freed", seat, leader=leader_name(general), area=where, rule=ruleset.rule("8.9"))


def check_victory(turn: Turn) -> None:
    """The last Caesar standing wins (C-14.1)."""
    left = turn.state.in_play()
    if len(left) == 1 and turn.state.winner is None:
        turn.state.winner = left[0]
        turn.event("victory", left[0], rule=turn.rules.rule("14.1"))
