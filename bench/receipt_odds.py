"""What the odds lines add to a receipt and to a decision notice: in this process (a `pbem check`, `ingest` or
`pbem serve` pays the same once the ruleset is loaded), the ruleset's attack_odds of an order set beside its
check_orders of the same orders (the receipt's verdicts, the baseline run in the same round), interleaved, CPU
medians, with the load and each case's ratio of odds to verdicts. No target: it tells what a receipt with 3
attacks costs a moderator's machine.

- conqueror-er: a campaign turn of 3 attacks by 3 armies (one on a faction's small fort, whose defender holds the
  one tactic card of the setup, weighed over every card he could hold; two on independent armies: each card of the
  automa deck taken by its share), then the same with the first one 10 v 8 units, then with the defender holding
  2 cards (55 sets of cards), then 4 (692 sets: the largest hand of the full deck a receipt weighs), then 2 cards
  and 2 heroes face down (each pair of his faction's 5 heroes weighed);
- empires-aw: a plan of 3 attacks on another player's areas in a self-played game of 4 seats (round II's plans step,
  the example data), each defender's stack over every home army he could hold;
- empires-aw: the odds of a defender's siege decision (both choices);
- the questions asked in the middle of a battle (each answer's odds, from the point the question keeps):
  coe-classic, the legions a defender of 6 INF 3 CAV 2 CAT in a fortified city could form against 10 INF 3 CAV
  1 CAT and two leaders (12 legions); conqueror-er, a third player's reinforcement (3 answers) and an attacker's
  losses after one volley die (6 orders of 3 kinds); empires-aw, a marker move (2 answers, 6 stacks weighed).

Run from the repository root: python -m bench.receipt_odds [--rounds 15]
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from adjudicator.engine.chance import KeyedDice
from bench.measure import Call, interleave, load_text, print_rows

NO_DICE = KeyedDice(key=bytes(32))


def conqueror(big: bool, hand: int = 1, heroes: int = 0) -> tuple[Any, Any, Any, str]:
    """Aurel's campaign turn: AUR -> SOL (thal, a small fort, `hand` tactic cards in his hand and `heroes` face
    down), BRE -> VAL and ILS -> GAR (independent armies)."""
    from adjudicator.rulesets.conqueror.state import Army
    from tests.test_conqueror_campaign import campaign_of, orders

    rules, state = campaign_of("aurel")
    dealt = len(state.players["thal"].hand)
    state.players["thal"].hand += state.decks.tactics[: hand - dealt]
    del state.decks.tactics[: hand - dealt]
    state.players["thal"].heroes_down = sorted(h.id for h in rules.data.cards.heroes if h.faction == "thal")[:heroes]
    state.army["SOL"] = Army(
        "thal", {"cavalry": 3, "infantry": 3, "archer": 2} if big else {"cavalry": 1, "infantry": 2}
    )
    state.army["BRE"] = Army("aurel", {"cavalry": 2, "infantry": 3, "archer": 1})
    state.army["ILS"] = Army("aurel", {"cavalry": 1, "infantry": 2})
    first = "ATTACK 4 CAV 4 INF 2 ARC: AUR -> SOL" if big else "ATTACK 1 CAV 2 INF 1 ARC: AUR -> SOL TACTICS rally"
    if big:
        state.army["AUR"].units = {"cavalry": 4, "infantry": 4, "archer": 2}
    lines = (first, "ATTACK 2 CAV 3 INF 1 ARC: BRE -> VAL", "ATTACK 1 CAV 2 INF: ILS -> GAR")
    return rules, state, orders("aurel", *lines), "aurel"


def empires() -> tuple[Any, Any, Any, str]:
    """A seeded self-played game of 4 seats to round II's plans step; the first seat with 3 attacks to make."""
    from adjudicator.engine.chance import turn_dice
    from adjudicator.engine.steps import resolve_step
    from adjudicator.orders import parse_orders
    from adjudicator.rulesets import load_ruleset
    from adjudicator.rulesets.empires.board import attack_route, is_last_province
    from adjudicator.rulesets.empires.bot import BOT
    from adjudicator.services.selfplay import playable

    rules, _ = playable(load_ruleset("empires-aw"), None, None, {})
    state = rules.initial_state("g", ["red", "blue", "green", "yellow"])
    while (step := rules.due(state)) is not None and not (step.phase == "plans" and state.round == 2):
        given = {
            seat: parse_orders(
                BOT.orders(rules, state, seat, f"GAME g TURN {step.number} PLAYER {seat}", random.Random(step.number)),
                rules,
            )
            for seat in step.seats
        }
        state = resolve_step(rules, state, step, given, turn_dice(b"k", str(step.number), b"h")).state
    for seat in state.seats:
        attacks = [
            f"ATTACK {target} FROM {origin}"
            for target, held in sorted(state.control.items())
            if held.seat != seat and not is_last_province(state, rules.data.map, target)
            for origin in state.controlled(seat)[:1]
            if attack_route(rules.data.map, origin, target) is not None
        ][:3]
        if len(attacks) == 3:
            text = "\n".join([f"GAME g TURN {step.number} PLAYER {seat} PASSWORD x", *attacks]) + "\n"
            return rules, state, parse_orders(text, rules), seat
    raise SystemExit("no seat has 3 attacks to make")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    options = parser.parse_args()
    cases = {
        "conqueror-er, 3 attacks": conqueror(big=False),
        "conqueror-er, 3 attacks, one 10 v 8": conqueror(big=True),
        "conqueror-er, 3 attacks, a hand of 2": conqueror(big=False, hand=2),
        "conqueror-er, 3 attacks, a hand of 4": conqueror(big=False, hand=4),
        "conqueror-er, 3 attacks, a hand of 2, 2 heroes": conqueror(big=False, hand=2, heroes=2),
        "empires-aw, 3 attacks": empires(),
    }
    measures: dict[str, Call] = {}
    for name, (rules, state, orders, seat) in cases.items():
        found = rules.attack_odds(state, seat, 0, orders)
        print(f"{name}: {len(found)} odds lines; " + "; ".join(f"{o.area} {100 * o.wins:.1f}%" for o in found))
        measures[f"{name}: verdicts"] = Call(
            lambda run, r=rules, s=state, o=orders, seat=seat: r.check_orders(s, seat, 0, o, NO_DICE)
        )
        measures[f"{name}: odds"] = Call(
            lambda run, r=rules, s=state, o=orders, seat=seat: r.attack_odds(s, seat, 0, o)
        )
    rules, state, orders, seat = cases["empires-aw, 3 attacks"]
    target = orders.orders[0].alternatives[0].target
    defender = state.controller(target)
    measures["empires-aw, a siege decision's 2 choices"] = Call(
        lambda run: rules.decision_odds(_acting(state, seat), defender, f"siege.{target}")
    )
    for name, (rules, state, seat, pending) in questions().items():
        print(f"{name}: {len(rules.decision_odds(state, seat, pending.key, pending.position))} answers with odds")
        measures[name] = Call(
            lambda run, r=rules, s=state, seat=seat, p=pending: r.decision_odds(s, seat, p.key, p.position)
        )
    rows = interleave(measures, options.rounds)
    print(load_text())
    print_rows(rows)
    for name in cases:
        odds, verdicts = rows[f"{name}: odds"].cpus, rows[f"{name}: verdicts"].cpus
        ratio = statistics.median(o / v for o, v in zip(odds, verdicts, strict=True))
        print(f"{name}: the odds cost {ratio:.0f}x the verdicts (CPU, median of the rounds' ratios)")


def questions() -> dict[str, tuple[Any, Any, str, Any]]:
    """The questions of the notices measured: (ruleset, position before the step, the asked seat, its Pending)."""
    from adjudicator.engine.steps import resolve_step
    from adjudicator.orders import parse_orders
    from adjudicator.rulesets import load_ruleset
    from adjudicator.rulesets.coe.economy import tribute_value
    from tests.helpers import place, start
    from tests.test_conqueror_asks import ask
    from tests.test_conqueror_campaign import FOUR, ONE, campaign_of, kesh_in
    from tests.test_decision_odds_empires import RULES, marker_battle

    coe = load_ruleset("coe-classic")
    state = start()
    place(state, "MAC", "Macedonia", infantry=10, cavalry=3, catapult=1)
    place(state, "THR", "Egyptus", infantry=6, cavalry=3, catapult=2)
    state.areas["THR"].city = "fortified"
    for seat, player in state.players.items():
        player.tribute = tribute_value(coe, state, seat)
    move = parse_orders(
        "GAME g TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1, G2 WITH 10 INF, 3 CAV, 1 CAT: MAC -> THR\n", coe
    )
    result = resolve_step(coe, state, coe.due(state), {"Macedonia": move}, NO_DICE, ask=True)
    found = {
        "coe-classic, a defender's battle legion": (coe, state, "Egyptus", _asked(result.pending, "Egyptus", ".legion"))
    }
    conqueror_rules, oro = campaign_of("aurel")
    kesh_in(oro, "ORO", infantry=2)
    oro.army["BRE"] = oro.army.pop("AUR")
    asked = ask(conqueror_rules, oro, "aurel", [ONE, FOUR, ONE], {}, "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO").pending
    found["conqueror-er, a reinforcement"] = (conqueror_rules, oro, "thal", _asked(asked, "thal", ".reinforce"))
    conqueror_rules, mir = campaign_of("aurel")
    del mir.army["MIR"]
    kesh_in(mir, "MIR", infantry=1, archer=1)
    asked = ask(
        conqueror_rules, mir, "aurel", [FOUR, ONE, FOUR, ONE], {}, "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR"
    ).pending
    found["conqueror-er, losses after a volley die"] = (
        conqueror_rules,
        mir,
        "aurel",
        _asked(asked, "aurel", ".losses"),
    )
    marker_state, markers = marker_battle()
    found["empires-aw, a marker move"] = (RULES, marker_state, "blue", markers[0])
    return found


def _asked(pending: list[Any], seat: str, ending: str) -> Any:
    return next(p for p in pending if p.seat == seat and p.key.endswith(ending))


def _acting(state: Any, seat: str) -> Any:
    """The position with `seat`'s action due (the decision's attacker)."""
    acting = state.copy()
    acting.phase, acting.start_player, acting.turn, acting.action_round = "action", seat, 0, 1
    return acting


if __name__ == "__main__":
    main()
