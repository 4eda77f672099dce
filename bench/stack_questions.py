"""What the odds of Empires' stack questions (EAW-12.6) cost a decision notice, on the questions real games ask: the
bots play games of the example data in ask mode (4 seats, the winner choosing its marker moves: the games of
tests/test_decision_odds_selfplay.py), and every stack question a step asks has its answers' odds reckoned where it
arose (Ruleset.decision_odds with the question's point), timed in CPU. No target: a notice is written once per
question, when the turn stops for it.

Prints the questions met, how many got the default's line alone (ranking every stack would weigh more than
attack_odds.MOST_STACK_PAIRS pairs), the median and the largest CPU a question, and the load.

Run from the repository root: python -m bench.stack_questions [--games 3] [--steps 80]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from bench.measure import load_text
from tests.test_decision_odds_selfplay import questions_met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--steps", type=int, default=80)
    options = parser.parse_args()
    seconds: list[float] = []
    lines: Counter[int] = Counter()
    for rules, state, pending in questions_met("empires-aw", options.games, options.steps):
        if pending.key.startswith("stack."):
            began = time.process_time()
            found = rules.decision_odds(state, pending.seat, pending.key, pending.position)
            seconds.append(time.process_time() - began)
            lines[len(found)] += 1
    if not seconds:
        print("no stack question was asked")
        return
    print(f"empires-aw stack questions: {len(seconds)} in {options.games} games; {load_text()}")
    print(f"  answers given a line: {', '.join(f'{n}: {count}' for n, count in sorted(lines.items()))}")
    print(f"  the default's line alone: {lines[1]} (ranking them all would weigh too many pairs, or one stack)")
    print(f"  CPU a question: median {statistics.median(seconds) * 1000:.1f} ms, largest {max(seconds) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
