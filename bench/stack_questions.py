"""What the odds of Empires' stack questions (EAW-12.6) cost a decision notice, on the questions real games ask: the
bots play games of the example data in ask mode (4 seats, the winner choosing its marker moves), and every stack
question a step asks has its answers' odds reckoned where it arose (Ruleset.decision_odds with the question's
point), timed in CPU. No target: a notice is written once per question, when the turn stops for it.

Prints the questions met, how many got the default's line alone (ranking every stack would weigh more than
attack_odds.MOST_STACK_PAIRS pairs), the median and the largest CPU a question, and the load.

Run from the repository root: python -m bench.stack_questions [--games 3] [--steps 80]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from adjudicator.engine.chance import turn_dice
from adjudicator.engine.steps import resolve_step
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.services.selfplay import bot_of, header, playable, step_rng
from bench.measure import load_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--steps", type=int, default=80)
    options = parser.parse_args()
    rules, _ = playable(load_ruleset("empires-aw"), None, None, {"marker_choice": "winner_chooses"})
    bot = bot_of(rules)
    seconds: list[float] = []
    lines: Counter[int] = Counter()
    for game in range(options.games):
        state = rules.initial_state(f"g{game}", bot.seats(rules, 4))
        for number in range(options.steps):
            step = rules.due(state)
            if step is None:
                break
            texts = {
                s: bot.orders(rules, state, s, header("g", step.number, s, "x"), step_rng(game, step.number))
                for s in step.seats
            }
            given = {s: parse_orders(text, rules) for s, text in texts.items()}
            key = f"game {game} step {number}".encode().ljust(32, b".")
            result = resolve_step(rules, state, step, given, turn_dice(key, str(number), key), ask=True)
            for pending in result.pending:
                if pending.key.startswith("stack."):
                    began = time.process_time()
                    found = rules.decision_odds(state, pending.seat, pending.key, pending.position)
                    seconds.append(time.process_time() - began)
                    lines[len(found)] += 1
            state = resolve_step(rules, state, step, given, turn_dice(key, str(number), key)).state
    if not seconds:
        print("no stack question was asked")
        return
    print(f"empires-aw stack questions: {len(seconds)} in {options.games} games; {load_text()}")
    print(f"  answers given a line: {', '.join(f'{n}: {count}' for n, count in sorted(lines.items()))}")
    print(f"  the default's line alone: {lines[1]} (ranking them all would weigh too many pairs, or one stack)")
    print(f"  CPU a question: median {statistics.median(seconds) * 1000:.1f} ms, largest {max(seconds) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
