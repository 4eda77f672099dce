"""Exact battle odds (pbem odds) for large battles. Target: under 50 ms for 20 vs 20 units.

Run from the repository root: python -m bench.odds [--repeat 5]
"First" is the first call in the process (it fills the dice tables); "best" the fastest of the repeats. The target
is judged on the first call (what one `pbem odds` command makes).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.odds import Odds, land_odds, naval_odds

TARGET = 0.050  # seconds, for every battle below
RETREATS = (
    {"losses": ["cavalry"], "retreat": [{"from": None, "condition": "units_below", "threshold": 6, "to": []}]},
    {"battlelegion": ["cavalry"], "retreat": [{"from": None, "condition": "below_enemy", "threshold": None, "to": []}]},
)
MIXED = (
    {"infantry": 10, "cavalry": 7, "catapult": 3, "leaders": 2},
    {"infantry": 12, "cavalry": 6, "catapult": 2, "leaders": 1, "fortified": True},
)
PLAIN = ({"infantry": 20, "leaders": 1}, {"infantry": 20, "leaders": 1})
BIG = (
    {"infantry": 8, "cavalry": 8, "catapult": 4, "leaders": 5},
    {"infantry": 8, "cavalry": 8, "catapult": 4, "leaders": 5},
)


def cases() -> list[tuple[str, Callable[[], Odds]]]:
    found: list[tuple[str, Callable[[], Odds]]] = []
    for ruleset in ("coe-classic", "coe-1984"):
        found += [
            (f"{ruleset} land 20 INF vs 20 INF", lambda r=ruleset: land_odds(r, *PLAIN)),
            (f"{ruleset} land 20 mixed vs 20 mixed, fortified", lambda r=ruleset: land_odds(r, *MIXED)),
            (f"{ruleset} land 20 vs 20, 5 leaders each", lambda r=ruleset: land_odds(r, *BIG)),
            (
                f"{ruleset} land 20 vs 20 with standing orders",
                lambda r=ruleset: land_odds(r, *MIXED, RETREATS[0], RETREATS[1]),
            ),
        ]
    found += [
        ("coe-classic naval 8 vs 8 galleys", lambda: naval_odds("coe-classic", 8, 8)),
        (
            "coe-classic naval 8 vs 8, 20 units aboard each",
            lambda: naval_odds(
                "coe-classic",
                [{"infantry": 3, "cavalry": 2, "generals": 1}] * 4 + [{}] * 4,
                [{"infantry": 4, "cavalry": 1, "generals": 1}] * 4 + [{}] * 4,
            ),
        ),
        ("coe-1984 naval 6 vs 6 galleys", lambda: naval_odds("coe-1984", 6, 6)),
        (
            "coe-1984 naval 6 vs 6, 20 units aboard each",
            lambda: naval_odds(
                "coe-1984",
                [{"infantry": 3, "cavalry": 1, "generals": 1}] * 4
                + [{"infantry": 2, "cavalry": 1, "catapult": 1, "generals": 1}] * 2,
                [{"infantry": 3, "cavalry": 1, "catapult": 1, "generals": 1}] * 2
                + [{"infantry": 4, "cavalry": 1, "generals": 1}] * 2
                + [{}] * 2,
            ),
        ),
    ]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    load_ruleset("coe-classic"), load_ruleset("coe-1984")  # data files: not part of the computation
    print(
        f"{'battle':58} {'first':>9} {'best':>9} {'states':>7}  P(attacker wins)  target < {TARGET * 1000:.0f} ms "
        "(first call)"
    )
    slowest = 0.0
    for name, run in cases():
        times = []
        for _ in range(max(1, repeat)):
            began = time.perf_counter()
            odds = run()
            times.append(time.perf_counter() - began)
        slowest = max(slowest, times[0])
        print(
            f"{name:58} {times[0] * 1000:7.1f}ms {min(times) * 1000:7.1f}ms {odds.states:7d}  "
            f"{float(odds.attacker_wins):.4f}            {'met' if times[0] < TARGET else 'NOT met'}"
        )
    print(
        f"slowest first call {slowest * 1000:.1f} ms (target < {TARGET * 1000:.0f} ms: "
        f"{'met' if slowest < TARGET else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
