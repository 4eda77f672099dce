"""Between the game state and the battle (ER-8): the state -> the battle's typed inputs (battle_types.Battle, the
principals' plans, the standing orders), and the BattleOutcome -> the state (losses, retreats, conquest, cards,
draws, automa deck, follow-up effects, temporary capital ER-11.1 to ER-11.3).

The attacking units are lifted out of their area before the battle (they are on their way, ER-8.3); the
outcome's moves put the survivors back or into the conquered area (ER-8.24)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.chance import Dice
from adjudicator.engine.vocabulary import N_, Event
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror.data import GameData, Options, Units
from adjudicator.rulesets.conqueror.effects_apply import lasting
from adjudicator.rulesets.conqueror.effects_triggers import cards_played, gained
from adjudicator.rulesets.conqueror.movement import put
from adjudicator.rulesets.conqueror.orders import BattlePlan, Reinforce, Troops
from adjudicator.rulesets.conqueror.seas import wharf_of, wharf_ships
from adjudicator.rulesets.conqueror.standing import battle_standing, defence_plan, reinforcements
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_FLIPPED,
    INDEPENDENT,
    GameState,
    capital_owner,
    controlled_areas,
    controller,
    food_supply,
    fort_of,
    large_and_small_forts,
)


@dataclass(frozen=True)
class Attack:
    """One attack as the campaign step makes it: `seat`'s `units` from `origin` into `target`; `via` the sea
    area of a transport (ER-12.12: an attack from the sea); the plan sent with the order (ER-14.10, ER-14.14)."""

    seat: str
    origin: str
    target: str
    units: dict[str, int]
    plan: BattlePlan
    via: str | None = None


# -- the state -> the battle ------------------------------------------------------------------------------------
def battle_army(state: GameState, data: GameData, owner: str, area: str, units: dict[str, int]) -> bt.Army:
    """`owner`'s `units` fighting from `area`, with what the battle reads of the owner (ER-8.16, ER-9)."""
    player = state.players[owner]
    faction = data.factions[owner]
    board = faction.board(player.board) or faction.standard
    side = data.map_for(state.players_count)
    large, small = large_and_small_forts(state, side, owner)
    heroes = {hero: 0 for hero in player.heroes_down} | dict(player.heroes_up)  # ER-8.12: uses so far
    effects = board.ability + (faction.dynasty_back if player.dynasty == DYNASTY_FLIPPED else ())  # ER-11.6
    facts = {
        "food": food_supply(state, side, owner),
        "round": state.round,
        "stored_food": int(player.stored_food != "none"),
        "large_forts": large,
        "small_forts": small,
    }
    return bt.Army(
        owner,
        area,
        cavalry=units.get("cavalry", 0),
        infantry=units.get("infantry", 0),
        archer=units.get("archer", 0),
        elite=board.elite if units.get("elite") else None,
        ship=units.get("ship", 0),
        siege=units.get("siege", 0),
        upgrades=frozenset(player.upgrades) & frozenset(bt.UPGRADES),
        effects=effects,
        heroes=heroes,
        hand=tuple(player.hand),
        facts=facts,
    )


def neighbours(state: GameState, data: GameData, area: str) -> tuple[bt.Neighbour, ...]:
    """The areas next to `area` as the retreat rules read them (ER-8.24, ER-12.14)."""
    side = data.map_for(state.players_count)
    found = []
    for code in sorted(side.board.neighbours(area)):
        held_by = controller(state, side, code)
        army = state.army.get(code)
        units = army.total if army is not None and held_by not in (None, INDEPENDENT) else 0
        found.append(
            bt.Neighbour(
                code,
                side.areas[code].land,
                controller=None if held_by == INDEPENDENT else held_by,
                independent=held_by == INDEPENDENT,
                units=units,
                wharf_of=wharf_of(state, side, code),  # ER-12.14 (seas.py)
            )
        )
    return tuple(found)


def fort_kind(state: GameState, data: GameData, area: str) -> str:
    """ER-2.6, ER-2.7: the fort as the battle reads it (a built fort marker is `built`, a small fort)."""
    if area in state.fort_markers:
        return "built"
    return fort_of(state, data.map_for(state.players_count), area)


Decide = Callable[[str, "tuple[Reinforce, bt.Reinforcement] | None"], "bt.Reinforcement | None"]


def reinforcement(
    state: GameState, data: GameData, attack: Attack, defender: str | None, decide: Decide | None = None
) -> tuple[bt.Reinforcement, ...]:
    """ER-8.4, ER-14.12: the attacker's own reinforcement named in its plan (checked by campaign.py), then, in
    the order defender, other players in turn order, each one's first standing reinforcement that applies; with
    `decide` (the campaign's decisions), each player who could reinforce takes the decision: answer, else that
    standing reinforcement, else the default (none)."""
    found: list[bt.Reinforcement] = []
    wish = attack.plan.reinforce
    if wish is not None:
        units = reinforcing_units(state, wish.origin, wish.troops)
        found.append(bt.Reinforcement(battle_army(state, data, attack.seat, wish.origin, units), bt.ATTACKER))
    others = [f for f in state.in_play() if f not in (attack.seat, defender)]
    for faction in ([defender] if defender is not None else []) + others:
        standing = standing_reinforcement(state, data, attack, defender, faction)
        if decide is not None and can_reinforce(state, data, attack, defender, faction):
            joined = decide(faction, standing)
        else:
            joined = standing[1] if standing is not None else None
        if joined is not None:
            found.append(joined)
    return tuple(found)


def standing_reinforcement(
    state: GameState, data: GameData, attack: Attack, defender: str | None, faction: str
) -> tuple[Reinforce, bt.Reinforcement] | None:
    """ER-14.12 (SO): `faction`'s first standing reinforcement that fits this battle (`fits`), with the army it
    adds."""
    for wish in reinforcements(state, data, faction, attack.target if faction == defender else None):
        joined = fits(state, data, attack, defender, faction, wish)
        if isinstance(joined, bt.Reinforcement):
            return wish, joined
    return None


def fits(
    state: GameState, data: GameData, attack: Attack, defender: str | None, faction: str, wish: Reinforce
) -> bt.Reinforcement | str:
    """Whether `faction`'s reinforcement `wish` fits this battle: it names a principal (its side, or with VS the
    other side), its area is next to the battle and holds the seat's active units (ER-8.4, ER-8.5); never the
    independent army's side (ER-8.8), an ally never against a seat it traded with this round (ER-5.10b, ER-15.4),
    no ships in a land battle (ER-12.13); a defender only joins its own side. The army it adds, or why not."""
    side = data.map_for(state.players_count)
    principals = {attack.seat: bt.ATTACKER, **({defender: bt.DEFENDER} if defender else {})}
    if wish.seat not in principals:
        return N_("%(seat)s is no principal of the battle at %(target)s (ER-8.4)", seat=wish.seat, target=attack.target)
    joins = principals[wish.seat]
    if wish.against:
        joins = bt.DEFENDER if joins == bt.ATTACKER else bt.ATTACKER
    if joins == bt.DEFENDER and defender is None:
        return N_("an independent army is never reinforced (ER-8.8)")
    if faction == defender and joins != bt.DEFENDER:
        return N_("the defender reinforces only its own side (ER-8.4)")
    enemy = defender if joins == bt.ATTACKER else attack.seat
    if faction != defender and enemy in getattr(state.players[faction], "trade_bans", []):
        return N_(
            "%(faction)s traded with %(enemy)s this round and may not fight it (ER-5.10b)", faction=faction, enemy=enemy
        )
    army = state.army.get(wish.origin or "")
    if wish.origin not in side.board.neighbours(attack.target) or army is None or army.owner != faction:
        return N_(
            "%(faction)s has no units in %(origin)s next to %(target)s (ER-8.4)",
            faction=faction,
            origin=wish.origin,
            target=attack.target,
        )
    units = reinforcing_units(state, wish.origin, wish.troops)
    if side.areas[attack.target].land:
        units.pop("ship", None)
    if not units or any(army.count(k) - army.exhausted.get(k, 0) < n for k, n in units.items()):
        return N_("a reinforcing army's units must all be active, in %(origin)s (ER-8.4)", origin=wish.origin)
    return bt.Reinforcement(battle_army(state, data, faction, wish.origin, units), joins)


def can_reinforce(state: GameState, data: GameData, attack: Attack, defender: str | None, faction: str) -> bool:
    """ER-8.4, ER-14.12: whether `faction` has an active unit next to the battle that may join a side (a decision
    to take)."""
    side = data.map_for(state.players_count)
    bans = getattr(state.players[faction], "trade_bans", [])
    sides = [defender is not None and (faction == defender or attack.seat not in bans)]
    sides.append(faction != defender and (defender is None or defender not in bans))
    if not any(sides):
        return False
    land = side.areas[attack.target].land
    for area in side.board.neighbours(attack.target):
        army = state.army.get(area)
        if army is None or army.owner != faction or area == attack.origin:
            continue
        if any(n - army.exhausted.get(k, 0) > 0 for k, n in army.units.items() if not (land and k == "ship")):
            return True
    return False


def reinforcing_units(state: GameState, origin: str, troops: Troops | None) -> dict[str, int]:
    """The units a reinforcement names, or (none named) every active unit in `origin` (ER-8.4, ER-8.5)."""
    army = state.army[origin]
    if troops is None:
        return {k: n - army.exhausted.get(k, 0) for k, n in army.units.items() if n - army.exhausted.get(k, 0) > 0}
    units = {kind: troops.of(kind) for kind in ("cavalry", "infantry", "archer", "ship", "siege")}
    units["elite"] = int(troops.elite)
    return {k: n for k, n in units.items() if n}


def build_battle(
    state: GameState, data: GameData, options: Options, attack: Attack, decide: Decide | None = None
) -> bt.Battle:
    """ER-8.1, ER-8.3: the battle of `attack`: the defending army is every unit in the target, active or
    exhausted; a player's capital without units is defended by its owner with no unit (ER-15.1)."""
    side = data.map_for(state.players_count)
    area = side.areas[attack.target]
    held = state.army.get(attack.target)
    defender: bt.Army | None = None
    independent: Units | None = None
    if held is not None and held.owner == INDEPENDENT:
        independent = Units(held.count("cavalry"), held.count("infantry"), held.count("archer"))
    else:
        owner = held.owner if held is not None else capital_owner(state, side, attack.target)
        assert owner is not None and owner != attack.seat, f"no battle at {attack.target}"
        units = dict(held.units) if held else {}
        if area.land:  # ER-12.13: ships on a wharf take no part in the land battle
            units.pop("ship", None)
        defender = battle_army(state, data, owner, attack.target, units)
    temporary = next((f for f, p in state.players.items() if p.temporary_capital == attack.target), None)
    capital = area.capital if area.capital in state.players else None
    return bt.Battle(
        area=attack.target,
        land=area.land,
        attacker=battle_army(state, data, attack.seat, attack.origin, attack.units),
        defender=defender,
        independent=independent,
        fort=fort_kind(state, data, attack.target),
        capital_of=capital,
        temporary_capital_of=temporary,
        europe=area.europe,
        from_sea=attack.via is not None or not side.areas[attack.origin].land,
        reinforcements=reinforcement(state, data, attack, defender.player if defender is not None else None, decide),
        neighbours=neighbours(state, data, attack.target),
        cards=data.cards,
        options=options,
        automa_deck=tuple(state.decks.automa),
        automa_discards=tuple(state.decks.automa_discards),
        wharf_ships=wharf_ships(state, side, attack.target),  # ER-15.19
    )


def leave_kind(plan: BattlePlan) -> str | None:
    """ER-8.24: the kind of the one unit to leave in the area attacked from (ER-14.10: nobody by default)."""
    if plan.leave is None:
        return None
    if plan.leave.elite:
        return "elite"
    return next((k for k in ("cavalry", "infantry", "archer", "ship", "siege") if plan.leave.of(k)), None)


def plans(state: GameState, data: GameData, battle: bt.Battle, plan: BattlePlan) -> dict[str, bt.Plan]:
    """The attacker's sealed plan sent with the attack (ER-8.15, ER-14.14); the defender's standing defence
    plan, else play nothing (ER-14.14's default)."""
    mine = bt.Plan(plan.heroes, plan.tactics, free_men=plan.free_men, leave_behind=leave_kind(plan))
    found = {battle.attacker.player: mine}
    if battle.defender is not None:
        found[battle.defender.player] = defence_plan(state, data, battle.defender.player, battle.area)
    return found


def standing_of(state: GameState, data: GameData, battle: bt.Battle) -> dict[str, bt.Standing]:
    """Every player's standing orders of battle for this area (ER-14.13, ER-14.16 to ER-14.19)."""
    players = {battle.attacker.player, *(r.army.player for r in battle.reinforcements)}
    players |= {battle.defender.player} if battle.defender is not None else set()
    return {p: battle_standing(state, data, p, battle.area) for p in sorted(players)}


# -- the outcome -> the state -------------------------------------------------------------------------------------
def apply_outcome(
    state: GameState, data: GameData, attack: Attack, battle: bt.Battle, outcome: bt.BattleOutcome, chance: Dice
) -> list[Event]:
    """Put the battle's result into the state, in the order of ER-8.23 to ER-8.28 and ER-8.36 (the temporary
    capitals follow: `temporary_capitals`)."""
    events = battle_events(attack, battle, outcome)
    remove_losses(state, data, attack, outcome)
    events += carry_out_moves(state, data, attack, outcome)
    events += cards_after(state, data, outcome, chance)
    state.decks.automa = list(outcome.automa_deck) if outcome.automa_card or outcome.automa_deck else state.decks.automa
    state.decks.automa_discards = (
        list(outcome.automa_discards) if outcome.automa_card is not None else state.decks.automa_discards
    )
    events += follow_ups(state, data, outcome, chance)
    return events + cards_played(state, data, battle, outcome)  # ER-8.14: card effects outside battle


def remove_losses(state: GameState, data: GameData, attack: Attack, outcome: bt.BattleOutcome) -> None:
    """ER-8.23: removed units go back to the barracks (they are simply off the map); a lost elite is out
    (`lost`) until an Academy lets it be recruited again (ER-6.9). The attacking army is not on the map: its
    survivors come back by the outcome's moves."""
    for (owner, area), lost in outcome.area_losses.items():
        if owner != INDEPENDENT and lost.get("elite"):
            state.players[owner].elite = "lost"
        if owner == attack.seat and area == attack.origin:
            continue
        army = state.army.get(area)
        if army is None or army.owner != owner:
            continue
        reinforcing = area != attack.target  # its units fought exhausted (ER-8.6): the lost ones were exhausted
        for kind, n in lost.items():
            if n:
                tired = army.exhausted.get(kind, 0) - n if reinforcing else army.count(kind) - n
                army.exhausted[kind] = max(0, min(army.exhausted.get(kind, 0), tired))
                army.add(kind, -n)
                army.exhausted = {k: v for k, v in army.exhausted.items() if v and army.count(k)}
        if army.total == 0:
            del state.army[area]


def attack_survivors(attack: Attack, outcome: bt.BattleOutcome) -> dict[str, int]:
    lost = outcome.area_losses.get((attack.seat, attack.origin), {})
    return {k: n - lost.get(k, 0) for k, n in attack.units.items() if n - lost.get(k, 0) > 0}


def carry_out_moves(state: GameState, data: GameData, attack: Attack, outcome: bt.BattleOutcome) -> list[Event]:
    """ER-8.24, ER-8.33, ER-12.14, ER-15.6: the defender's survivors retreat (or are eliminated), a beaten
    independent army leaves the game, then the attacker's survivors enter or go back to the area attacked from.
    Retreating and advancing do not change exhaustion (ER-8.24's Resolution): the attackers stay exhausted."""
    events: list[Event] = []
    survivors = attack_survivors(attack, outcome)
    for move in outcome.moves:
        if move.player == attack.seat:
            continue
        army = state.army.get(move.source)
        if army is None:
            continue
        units = {k: min(n, army.count(k)) for k, n in move.units.items() if n}
        tired = {k: min(n, army.exhausted.get(k, 0)) for k, n in units.items()}
        for kind, n in units.items():
            army.add(kind, -n)
            army.exhausted[kind] = max(0, army.exhausted.get(kind, 0) - tired[kind])
        army.exhausted = {k: v for k, v in army.exhausted.items() if v and army.count(k)}
        if army.total == 0:
            del state.army[move.source]
        if move.to is not None:
            put(state, move.to, move.player, units, tired)
            events.append(Event("battle_retreat", move.player, {"units": units, "from": move.source, "to": move.to}))
        else:
            if move.player != INDEPENDENT and units.get("elite"):
                state.players[move.player].elite = "lost"  # ER-6.9
            events.append(
                Event("battle_eliminated", move.player, {"units": units, "area": move.source, "rule": move.why})
            )
    entering = next((m for m in outcome.moves if m.player == attack.seat and m.to == attack.target), None)
    moved_in = dict(entering.units) if entering is not None else {}
    back = {k: n - moved_in.get(k, 0) for k, n in survivors.items() if n - moved_in.get(k, 0) > 0}
    if moved_in:
        assert attack.target not in state.army or state.army[attack.target].owner == attack.seat, "ER-2.4"
        put(state, attack.target, attack.seat, moved_in, moved_in)
        events.append(Event("battle_conquest", attack.seat, {"area": attack.target, "units": moved_in}))
    if back:  # the one unit left behind (the battle reports it, ER-8.24), or the survivors of a failed attack
        put(state, attack.origin, attack.seat, back, back)
        if not moved_in:
            events.append(Event("battle_returned", attack.seat, {"area": attack.origin, "units": back}))
    return events


def cards_after(state: GameState, data: GameData, outcome: bt.BattleOutcome, chance: Dice) -> list[Event]:
    """ER-8.27: heroes played a first time go face up, a second time are discarded; played tactic cards are
    discarded (public: they were revealed, ER-8.14). ER-8.28: the draws, in their order, from the secret deck."""
    events: list[Event] = []
    for owner, heroes in outcome.heroes_face_up.items():
        player = state.players[owner]
        for hero in heroes:
            player.heroes_down.remove(hero)
            player.heroes_up[hero] = 1
    for owner, heroes in outcome.heroes_discarded.items():
        player = state.players[owner]
        for hero in heroes:
            player.heroes_up.pop(hero, None)
            player.heroes_discarded.append(hero)
    for owner, tactics in outcome.tactics_discarded.items():
        for tactic in tactics:
            state.players[owner].hand.remove(tactic)
            state.decks.tactic_discards.append(tactic)
    for owner, n in outcome.draws:
        events += draw_tactics(state, owner, n, chance, "ER-8.28")
    return events


def draw_tactics(state: GameState, owner: str, n: int, chance: Dice, rule: str) -> list[Event]:
    """`owner` draws `n` tactic cards from the top of the deck; an empty deck is the shuffled discards (ER-8.28's
    Resolution; the shuffle is hidden: nobody may learn the new order); none left, no draw. The card drawn is
    the drawer's private news; everyone learns how many."""
    drawn: list[str] = []
    for _ in range(n):
        if not state.decks.tactics and state.decks.tactic_discards:
            state.decks.tactics = chance.shuffle(state.decks.tactic_discards, "tactic deck reshuffled", hidden=True)
            state.decks.tactic_discards = []
        if not state.decks.tactics:
            break
        drawn.append(state.decks.tactics.pop(0))
    state.players[owner].hand += drawn
    private = Event("tactics_drawn", owner, {"cards": drawn, "rule": rule}, visible_to=frozenset({owner}))
    return [Event("tactics_drawn_count", owner, {"count": len(drawn), "rule": rule}), private]


FOLLOW_UPS = ("coins", "vp", "draw_tactic")  # the follow-up effects the state applies itself


def follow_ups(state: GameState, data: GameData, outcome: bt.BattleOutcome, chance: Dice) -> list[Event]:
    """ER-13.6: the after-battle effects of the cards and abilities in play: coins, VP and tactic draws are
    applied; any other (a ban, a look at a hand, ...) is named for the moderator in the report."""
    events: list[Event] = []
    for follow in outcome.follow_ups:
        effect = follow.effect
        n = effect.number("n") if "n" in effect.args else 0  # look_hand, forbid_attack, ... carry no number
        n *= follow.amount if effect.counter("per") is not None else 1
        player = state.players.get(follow.player)
        if player is None:
            continue
        coins = player.coins
        if effect.op == "coins":
            player.coins = max(0, player.coins + n)
        elif effect.op == "vp":
            player.vp += n
        elif effect.op == "draw_tactic":
            events += draw_tactics(state, follow.player, n, chance, "ER-13.6")
            continue
        applied = effect.op in FOLLOW_UPS or lasting(effect)  # a lasting ban is in force (ER-8.14 reading)
        data_: dict[str, Any] = {"source": follow.source, "op": effect.op, "n": n, "applied": applied}
        events.append(Event("battle_effect", follow.player, data_))
        # ER-13.6 on_gain_coins answers these coins as it answers taxes, trade and every effect's coins
        events += gained(state, data, follow.player, player.coins - coins)
    for pending in outcome.pending:  # after the result: the result stands, the moderator rules (ER-13.6)
        events.append(Event("battle_manual", pending.player, {"source": pending.source, "text": pending.text}))
    return events


Choose = Callable[[str, list[str], str, int], tuple[str, list[Event]]]


def temporary_capitals(state: GameState, data: GameData, choose: Choose | None = None) -> list[Event]:
    """ER-11.1: a player whose capital an enemy controls and who controls no large fort places its temporary
    capital at once (its Resolution); ER-11.3: an enemy captured it: it moves to another controlled land area,
    or back to the board. Where: ER-14.5, `choose` (the campaign's decision: answer, standing CAPITAL list,
    default) among the controlled land areas, else the first of the standing list that is one, else the default:
    the one with most own units, then the lowest area id."""
    side = data.map_for(state.players_count)
    events: list[Event] = []
    homes: dict[str, str] = {}  # side.capital_of of every faction, read in one pass
    for area in side.areas.values():
        if area.capital is not None:
            homes.setdefault(area.capital, area.code)
    for faction in state.in_play():
        player = state.players[faction]
        home = homes.get(faction)
        lost_home = home is not None and controller(state, side, home) not in (faction, None)
        if player.temporary_capital is not None and controller(state, side, player.temporary_capital) != faction:
            old, player.temporary_capital = player.temporary_capital, None  # ER-11.3
            events.append(Event("temporary_capital_lost", faction, {"area": old}))
        # the forts are counted only for a player whose capital is lost (every phase begins with this)
        if player.temporary_capital is None and lost_home and large_and_small_forts(state, side, faction)[0] == 0:
            sites = capital_sites(state, data, faction)
            area = temporary_capital_site(state, data, faction)
            if area is not None and choose is not None:
                area, decided = choose(faction, sites, area, len(events))
                events += decided
            elif area is not None:
                area = next((a for a in standing_sites(state, data, faction) if a in sites), area)
            if area is not None:
                player.temporary_capital = area
                events.append(Event("temporary_capital_placed", faction, {"area": area}))
    return events


def capital_sites(state: GameState, data: GameData, faction: str) -> list[str]:
    """ER-11.1: the land areas the faction controls, where its temporary capital may stand."""
    side = data.map_for(state.players_count)
    return sorted(a for a in controlled_areas(state, side, faction) if side.areas[a].land)


def standing_sites(state: GameState, data: GameData, faction: str) -> tuple[str, ...]:
    """ER-14.5 (SO): the seat's standing CAPITAL list (the first possible area), or none."""
    from adjudicator.rulesets.conqueror.orders import TemporaryCapital
    from adjudicator.rulesets.conqueror.standing import standing_orders

    return next((o.areas for o in standing_orders(state, data, faction) if isinstance(o, TemporaryCapital)), ())


def temporary_capital_site(state: GameState, data: GameData, faction: str) -> str | None:
    """ER-14.5's default: the controlled land area with most own units, then the lowest area id."""
    land = capital_sites(state, data, faction)

    def units(area: str) -> int:
        army = state.army.get(area)
        return army.total if army is not None and army.owner == faction else 0

    return min(land, key=lambda a: (-units(a), a)) if land else None


# -- the report ---------------------------------------------------------------------------------------------------
def battle_events(attack: Attack, battle: bt.Battle, outcome: bt.BattleOutcome) -> list[Event]:
    """The battle as public report events: who fought where and who reinforced which side (ER-8.4: at the table
    every reinforcement is seen; the decision behind it is the seat's own), each step's event (volley, council of
    war with the cards revealed, melee, casualties), the result."""
    events = [
        Event(
            "battle",
            attack.seat,
            {"area": battle.area, "from": attack.origin, "defender": battle.defender_id, "units": dict(attack.units)},
        )
    ]
    for joined in battle.reinforcements:
        army = joined.army
        units = {kind: army.count(kind) for kind in bt.KINDS if army.count(kind)}
        data = {"area": battle.area, "from": army.area, "side": joined.side, "units": units}
        events.append(Event("battle_reinforced", army.player, data))
    for said in outcome.events:
        events.append(Event(f"battle_{said.what}", None, {"rule": said.rule, **json_ready(dict(said.data))}))
    if outcome.automa_card is not None:
        events.append(Event("battle_automa", None, {"card": outcome.automa_card}))
    lost = {p: {k: n for k, n in kinds.items() if n} for p, kinds in outcome.losses.items()}
    events.append(
        Event(
            "battle_result",
            attack.seat,
            {"area": battle.area, "winner": outcome.winner, "losses": {p: k for p, k in lost.items() if k}},
        )
    )
    return events


def json_ready(value: Any) -> Any:
    """Tuples to lists, mappings to dicts: events are stored as JSON."""
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value
