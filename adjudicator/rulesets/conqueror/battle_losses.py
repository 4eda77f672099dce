"""Losses and step 5 of a battle: who removes which units (ER-8.11, ER-8.22, ER-8.23, ER-8.33, ER-14.13,
ER-14.16, ER-14.17), the casualties of each side with shields and unblockable hits (ER-8.20, ER-8.21,
ER-8.32), and the conquest with retreats (ER-8.24, ER-8.25, ER-12.14, ER-15.6, ER-15.15), the cards after the
battle (ER-8.27) and the tactic draws (ER-8.28, ER-8.29, ER-8.35)."""

from __future__ import annotations

from adjudicator.rulesets.conqueror.battle_field import CASUALTY_WHEN, Field, Group, other
from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    INDEPENDENT,
    INDEPENDENT_LOSSES,
    KINDS,
    LOSS_PRIORITY,
    BattleOutcome,
    Casualties,
    FollowUp,
    Move,
    Neighbour,
    Pending,
)
from adjudicator.rulesets.conqueror.data import Automa

SHIP_CASUALTIES = 1  # ER-8.23, ER-12.15: per player per battle
BATTLE_OPS = frozenset(
    {
        "strength",
        "unit_strength",
        "casualties",
        "shields",
        "self_removal",
        "archer_dice",
        "archer_hit_on",
        "reroll",
        "defence_bonus",
        "unit_flag",
        "manual",
    }
)


# -- removing units -------------------------------------------------------------------------------------------
def assign(field: Field, side: str, n: int, rule: str) -> int:
    """Remove `n` units of `side`: an independent army loses its weakest first (ER-8.33); else the opposing
    principal hands them to players (ER-8.22, ER-14.16; against an independent army the attacking principal
    does), each player removes by its loss priority (ER-14.13, ER-14.17). Units beyond those left are
    ignored (ER-15.15). Returns the units removed."""
    main = field.main(side)
    assert main is not None
    if main.player == INDEPENDENT:
        return remove_in_order(field, [main], INDEPENDENT_LOSSES, n, rule)
    assigner = field.principal(other(side))
    if assigner == INDEPENDENT:
        assigner = field.principal(ATTACKER)
    removed = 0
    for player in assignment_order(field, side, assigner):
        groups = [g for g in field.own(player) if g.side == side]
        # ER-14.17 orders losses by kind only; the spec is silent between a player's two armies: our default takes
        # the reinforcing army's unit first (it stays in its own area, ER-8.6; the army that moves keeps its units)
        groups.sort(key=lambda g: g.main)
        priority = complete(field.standing(player).loss_priority)
        removed += remove_in_order(field, groups, priority, n - removed, rule)
    return removed


def assignment_order(field: Field, side: str, assigner: str) -> list[str]:
    """ER-14.16: the assigner's standing order first, then the default: principal, then allies in order."""
    players = field.players(side)
    wanted = [p for p in field.standing(assigner).assign_order if p in players]
    return wanted + [p for p in players if p not in wanted]


def complete(priority: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*[k for k in priority if k in KINDS], *LOSS_PRIORITY)))


def remove_in_order(field: Field, groups: list[Group], priority: tuple[str, ...], n: int, rule: str) -> int:
    removed = 0
    for kind in priority:
        for group in groups:
            while removed < n and group.units[kind] > 0 and ship_allowed(field, group, kind):
                group.remove(kind)
                if kind == "ship":
                    field.ships_lost[group.player] = field.ships_lost.get(group.player, 0) + 1
                removed += 1
                field.say(rule, "unit_lost", player=group.player, kind=kind, area=group.army.area)
    return removed


def ship_allowed(field: Field, group: Group, kind: str) -> bool:
    return kind != "ship" or field.ships_lost.get(group.player, 0) < SHIP_CASUALTIES


# -- step 5: casualties (ER-8.20 to ER-8.23) ----------------------------------------------------------------
def casualties(field: Field, automa: Automa | None) -> dict[str, Casualties]:
    """Both sides' casualties are worked out before any unit is removed (ER-8.21); self-removals come first
    and are not casualties (ER-8.20), then the net casualties are assigned."""
    found = {side: inflicted_on(field, side, automa) for side in (ATTACKER, DEFENDER)}
    for side in (ATTACKER, DEFENDER):
        self_removal(field, side)
        assign(field, side, found[side].net, "ER-8.22")
        field.say(
            "ER-8.21",
            "casualties",
            side=side,
            blockable=found[side].blockable,
            unblockable=found[side].unblockable,
            shields=found[side].shields,
            net=found[side].net,
        )
    field.casualties = found
    return found


def inflicted_on(field: Field, side: str, automa: Automa | None) -> Casualties:
    """ER-8.20, ER-8.21, ER-8.32, ER-9.4: casualties the opposing side inflicts on `side`, and its shields."""
    enemy = other(side)
    blockable, unblockable = int(field.winner == enemy), 0  # ER-8.19: no defeat casualty on a tie (ER-15.7)
    for _source, effect in field.effects(enemy, frozenset({"casualties"}), CASUALTY_WHEN):
        if effect.args.get("unblockable", False):
            unblockable += effect.number("n")
        else:
            blockable += effect.number("n")
    blockable += aggression(field, enemy)
    if automa is not None and enemy == DEFENDER:  # ER-8.32
        if automa.unblockable:
            unblockable += automa.casualties
        else:
            blockable += automa.casualties
    shields = sum(e.number("n") for _s, e in field.effects(side, frozenset({"shields"}), CASUALTY_WHEN))
    shields += discipline(field, side)
    removal = sum(e.number("n") for _s, e in field.effects(side, frozenset({"self_removal"}), CASUALTY_WHEN))
    return Casualties(blockable, unblockable, shields, removal)


def aggression(field: Field, side: str) -> int:
    """ER-9.4 Aggression (the principal's, ER-8.17): 1 casualty with a cavalry unit of its own in the battle,
    1 more on a win by 4 or more (the Resolution for the margin; none on a tie, ER-15.7)."""
    principal = field.principal(side)
    groups = [g for g in field.own(principal) if g.side == side]
    if principal == INDEPENDENT or not groups or "aggression" not in groups[0].army.upgrades:
        return 0
    if field.count(groups, "cavalry") == 0:
        return 0
    return 1 + int(field.winner == side and field.margin >= 4)


def discipline(field: Field, side: str) -> int:
    """ER-9.4 Discipline (the principal's): 1 shield with one of its own infantry units in the battle."""
    principal = field.principal(side)
    groups = [g for g in field.own(principal) if g.side == side]
    if principal == INDEPENDENT or not groups or "discipline" not in groups[0].army.upgrades:
        return 0
    return int(field.count(groups, "infantry") > 0)


def self_removal(field: Field, side: str) -> None:
    """ER-8.20, ER-9.2: units the side's own effects make it remove (standard units of the type first)."""
    for source, effect in field.effects(side, frozenset({"self_removal"}), CASUALTY_WHEN):
        kind = str(effect.args["type"])
        groups = [g for g in field.own(source.player) if g.side == side]
        kinds = (kind,) if kind in KINDS else LOSS_PRIORITY
        done = remove_in_order(field, groups, kinds, effect.number("n"), "ER-8.20")
        field.self_removed[source.player] = field.self_removed.get(source.player, 0) + done


# -- conquest and retreat (ER-8.24, ER-8.25, ER-8.33, ER-12.14) ---------------------------------------------
def conquest(field: Field) -> tuple[list[Move], bool, bool]:
    """The moves after the battle, whether the attacker now holds the area, whether the independent army is
    removed."""
    battle, attacking, defending = field.battle, field.main(ATTACKER), field.main(DEFENDER)
    assert attacking is not None and defending is not None
    moves: list[Move] = []
    if field.winner != ATTACKER:  # ER-8.24: lost or tie; ER-8.33 an independent army stays
        if attacking.total:
            moves.append(Move(attacking.player, survivors(attacking), battle.area, attacking.army.area, "ER-8.24"))
        gone = defending.player == INDEPENDENT and defending.total == 0
        return moves, False, gone
    removed = False
    if defending.player == INDEPENDENT:  # ER-8.33: a beaten independent army leaves the game
        removed = True
        if defending.total:
            moves.append(Move(INDEPENDENT, survivors(defending), battle.area, None, "ER-8.33"))
    elif defending.total:  # ER-15.15: no survivors, no retreat
        moves += retreat(field, defending)
    entering = survivors(attacking)
    left = field.plan(ATTACKER).leave_behind
    # ER-8.24: 1 unit may stay behind, but "the winner controls the area" and control needs a unit (ER-2.3)
    if left and entering.get(left, 0) and sum(entering.values()) >= 2:
        entering[left] -= 1
        field.say("ER-8.24", "left_behind", kind=left, area=attacking.army.area)
    entering = {k: v for k, v in entering.items() if v}
    if entering:
        moves.append(Move(attacking.player, entering, attacking.army.area, battle.area, "ER-8.24"))
        moves += [  # ER-12.14, ER-15.19: ships on a wharf are lost with its area, though they did not fight
            Move(owner, {"ship": n}, battle.area, None, "ER-15.19")
            for owner, n in sorted(battle.wharf_ships.items())
            if n and owner != attacking.player
        ]
    else:
        field.say("ER-8.25", "area_left_empty")
    return moves, bool(entering), removed


def survivors(group: Group) -> dict[str, int]:
    return {kind: n for kind, n in group.units.items() if n}


def retreat(field: Field, defending: Group) -> list[Move]:
    """ER-8.24, ER-14.18: the beaten defending army retreats together to one adjacent area the defender
    controls or that is empty and uncontrolled (from land not to sea); no such area: eliminated (ER-15.6).
    Ships retreat apart by ER-12.14 and ER-14.19."""
    battle, player = field.battle, defending.player
    units = survivors(defending)
    moves: list[Move] = []
    ships = units.pop("ship", 0)
    if ships:
        to, options = ship_haven(field, player)
        moves.append(Move(player, {"ship": ships}, battle.area, to, "ER-12.14", options))
    if units:
        to, options = haven(field, player)
        moves.append(Move(player, units, battle.area, to, "ER-8.24" if to else "ER-15.6", options))
    return moves


def open_to(n: Neighbour, player: str) -> bool:
    return n.controller == player or (n.controller is None and not n.independent)


def haven(field: Field, player: str) -> tuple[str | None, tuple[str, ...]]:
    """ER-14.18: the standing retreat list first; else the controlled area with most own units, then the empty
    area with the lowest id."""
    battle = field.battle
    options = [n for n in battle.neighbours if open_to(n, player) and (n.land or not battle.land)]
    codes = tuple(sorted(n.code for n in options))
    for wanted in field.standing(player).retreat:
        if wanted in codes:
            return wanted, codes
    held = sorted((n for n in options if n.controller == player), key=lambda n: (-n.units, n.code))
    empty = sorted(n.code for n in options if n.controller is None)
    return (held[0].code if held else empty[0] if empty else None), codes


def ship_haven(field: Field, player: str) -> tuple[str | None, tuple[str, ...]]:
    """ER-12.14, ER-14.19: an adjacent sea area held by the owner or empty (standing list, else lowest id),
    else the owner's adjacent wharf if not enemy-held; else the ships are eliminated."""
    seas = sorted(n.code for n in field.battle.neighbours if not n.land and open_to(n, player))
    wharves = sorted(n.code for n in field.battle.neighbours if n.wharf_of == player and open_to(n, player))
    options = tuple(seas or wharves)
    for wanted in field.standing(player).ship_retreat:
        if wanted in options:
            return wanted, options
    return (options[0] if options else None), options


# -- after the battle (ER-8.27 to ER-8.29) ---------------------------------------------------------------
def losses(field: Field) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = {}
    for group in field.groups:
        mine = found.setdefault(group.player, dict.fromkeys(KINDS, 0))
        for kind, n in group.lost.items():
            mine[kind] += n
    return found


def area_losses(field: Field) -> dict[tuple[str, str], dict[str, int]]:
    """The units lost by each army in the battle, keyed by (owner, the area it fought from)."""
    found: dict[tuple[str, str], dict[str, int]] = {}
    for group in field.groups:
        mine = found.setdefault((group.player, group.army.area), dict.fromkeys(KINDS, 0))
        for kind, n in group.lost.items():
            mine[kind] += n
    return found


def draws(field: Field, lost: dict[str, dict[str, int]]) -> tuple[tuple[str, int], ...]:
    """ER-8.28: between players only (ER-8.29, ER-8.35): attacker, defender, then allies in turn order each
    draw by units lost (0-1: 1, 2-3: 2, 4+: 3)."""
    if field.principal(DEFENDER) == INDEPENDENT:
        return ()
    order = list(
        dict.fromkeys([field.principal(ATTACKER), field.principal(DEFENDER)] + [g.player for g in field.groups])
    )
    return tuple((p, draw_count(sum(lost.get(p, {}).values()))) for p in order)


def draw_count(lost: int) -> int:
    return 1 if lost <= 1 else 2 if lost <= 3 else 3


def follow_ups(field: Field, lost: dict[str, dict[str, int]]) -> list[FollowUp]:
    """Effects of the cards and abilities in play that the game state applies (coins, VP, draws, bans,
    looks at a hand, ...), their conditions checked now that the result is known."""
    found: list[FollowUp] = []
    for side in (ATTACKER, DEFENDER):
        for source in field.active(side):
            for effect in source.effects:
                if (
                    effect.op in BATTLE_OPS
                    or not effect.when.name.startswith("battle.")
                    or not field.holds(source, effect)
                ):
                    continue
                if effect.when.name == "battle.after_win" and field.winner != side:
                    continue
                counter = effect.counter("per")
                amount = (
                    inflicted(field, other(side), lost) if counter and counter.name == "casualties_inflicted" else 0
                )
                found.append(FollowUp(source.player, source.name, effect, amount))
    return found


def inflicted(field: Field, side: str, lost: dict[str, dict[str, int]]) -> int:
    """Units `side` lost to the enemy (volley and casualties; self-removals excluded)."""
    players = {g.player for g in field.side(side)}
    return sum(sum(lost.get(p, {}).values()) - field.self_removed.get(p, 0) for p in players)


def cards_after(field: Field, held: bool) -> tuple[dict[str, tuple[str, ...]], ...]:
    """ER-8.27: heroes played the first time go face up, the second time are discarded; tactic cards are
    discarded. If the council of war was not held (ER-8.26) no card was played."""
    face_up: dict[str, tuple[str, ...]] = {}
    gone: dict[str, tuple[str, ...]] = {}
    tactics: dict[str, tuple[str, ...]] = {}
    if not held:
        return face_up, gone, tactics
    for side in (ATTACKER, DEFENDER):
        main, plan = field.main(side), field.plan(side)
        if main is None or main.player == INDEPENDENT:
            continue
        uses = main.army.heroes
        face_up[main.player] = tuple(h for h in plan.heroes if uses.get(h, 0) == 0)
        gone[main.player] = tuple(h for h in plan.heroes if uses.get(h, 0) == 1)
        tactics[main.player] = plan.tactics
    return face_up, gone, tactics


def conclude(
    field: Field,
    strengths: dict[str, int],
    rolled: dict[str, int],
    automa: Automa | None,
    council_held: bool,
    pending: list[Pending],
) -> BattleOutcome:
    moves, conquered, removed = conquest(field)
    lost = losses(field)
    face_up, gone, tactics = cards_after(field, council_held)
    return BattleOutcome(
        finished=True,
        winner=field.winner,
        strengths=strengths,
        dice=rolled,
        volley_hits=dict(field.volley_hits),
        casualties=dict(field.casualties),
        losses=lost,
        area_losses=area_losses(field),
        heroes_face_up=face_up,
        heroes_discarded=gone,
        tactics_discarded=tactics,
        draws=draws(field, lost),
        automa_card=automa.id if automa is not None else None,
        automa_deck=field.automa_deck,
        automa_discards=field.automa_discards,
        moves=tuple(moves),
        conquered=conquered,
        independent_removed=removed,
        follow_ups=tuple(follow_ups(field, lost)),
        pending=tuple(p for p in pending if not p.blocking),
        events=tuple(field.events),
    )
