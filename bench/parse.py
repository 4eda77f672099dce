"""Order parsing as a moderator's server pays it: realistic order mails of about 8 orders each, for every ruleset
whose orders the shared parser reads (coe-classic, coe-1984, conqueror-er, empires-aw), within the product's limits
(services/mailbox.py: at most 300 orders a mail).

The mails are the rulesets' bots' orders from seeded in-memory self-play (varied: every kind of order the bot writes,
real areas and pieces, conditions, purchases), a seat's orders of consecutive steps joined where one step's are
fewer than 8, then written as players write them: some lines in lower case, spaces doubled, a comment, blank lines,
a PRESS line now and then, END and a signature. Every mail must parse without an error.

Two figures per ruleset, each the median of --runs rounds run interleaved (every ruleset in turn each round, after a
warm-up round), with the spread and the load:
- "many mails": every mail parsed once per round by a parser already built: what a long-running process (the
  listener, a tick) pays per mail. Judged in orders a CPU second (CPU time swings less than wall time on this
  shared machine; both are printed); target at least 20,000.
- "one mail, parser built": one mail with the parser built first from Lark's on-disk grammar cache, with the
  keyword tables built anew: what a one-shot `pbem ingest` process pays to parse its one mail (its imports and the
  rest of its start-up are in bench/cli_startup.py). No target of its own.

Run from the repository root: python -m bench.parse [--mails 200] [--runs 7] [--way fused|public|lark]
--way picks the loop each line goes through in the "many mails" figure (orders/lalr.py): the fused loop (what the
parser uses), Lark's public API alone (PublicParser: what it falls back to), or Lark.parse.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from adjudicator.engine.chance import turn_dice
from adjudicator.engine.steps import resolve_step
from adjudicator.orders import builder as order_builder
from adjudicator.orders import keywords, parse_orders
from adjudicator.orders import parser as order_parser
from adjudicator.orders.lalr import PublicParser
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.mailbox import MAX_ORDERS
from adjudicator.services.selfplay import header, playable, step_rng
from bench.measure import Call, Figures, interleave, print_load

TARGET = 20_000  # orders per second, many mails through a built parser
RULESETS = ("coe-classic", "coe-1984", "conqueror-er", "empires-aw")
ORDERS_A_MAIL = 8
SEATS = 4
MAX_STEPS = 400  # of one self-play game before another is started


@dataclass(frozen=True)
class Mails:
    ruleset: Ruleset
    texts: list[str]
    orders: int  # order lines of all the texts (what the parser turns into orders)


def order_lines(text: str) -> list[str]:
    """The bot's order lines of one of its texts (its header and blank lines left out)."""
    return [line for line in text.splitlines()[1:] if line.strip()]


def as_a_player_writes(lines: list[str], head: str, seats: list[str], rng: random.Random) -> str:
    """One mail: the header and `lines` dressed as players write (case, spaces, a comment, a PRESS line, blank
    lines, END and a signature)."""
    body = []
    for line in lines:
        if rng.random() < 0.25:
            line = line.lower()
        if rng.random() < 0.2:
            line = line.replace(" ", "  ", 1)
        body.append(line)
    if rng.random() < 0.5:
        body.insert(rng.randrange(len(body) + 1), "# the plan for this turn")
    if rng.random() < 0.3:
        body.append(f"PRESS TO {rng.choice(seats)}: shall we keep the peace on our border this year?")
    if rng.random() < 0.3:
        body.insert(len(body) // 2, "")
    return "\n".join([head, *body, "", "END", "-- ", "sent from my tablet", ""])


def mails_of(name: str, count: int, seed: int) -> Mails:
    """`count` mails of `name` from seeded in-memory self-play: each seat's bot orders step after step, a mail
    holding about ORDERS_A_MAIL of them (a seat's orders of consecutive steps joined), a new game where one ends."""
    rules, _ = playable(load_ruleset(name))
    bot = rules.bot
    texts: list[str] = []
    orders = 0
    game = 0
    while len(texts) < count:
        game += 1
        rng = random.Random(f"bench-parse:{name}:{seed}:{game}")
        seats = bot.seats(rules, SEATS)
        state = rules.initial_state(f"g{game}", seats)
        waiting: dict[str, list[str]] = {}
        steps = 0
        while (step := rules.due(state)) is not None and steps < MAX_STEPS and len(texts) < count:
            bots = step_rng(seed + game, step.number)
            parsed: dict[str, Any] = {}
            for seat in step.seats:
                text = bot.orders(rules, state, seat, header(f"g{game}", step.number, seat, "pw"), bots)
                parsed[seat] = parse_orders(text, rules)
                waiting.setdefault(seat, []).extend(order_lines(text))
                if len(waiting[seat]) >= ORDERS_A_MAIL - 2:
                    lines, waiting[seat] = waiting[seat][: ORDERS_A_MAIL + 2], []
                    others = [s for s in seats if s != seat]
                    head = header(f"g{game}", step.number, seat, f"pw{rng.randrange(10**6)}")
                    texts.append(as_a_player_writes(lines, head, others, rng))
            dice = turn_dice(f"bench-parse:{seed}:{game}:{step.number}".encode(), str(step.number), b"hidden")
            state = resolve_step(rules, state, step, parsed, dice).state
            steps += 1
    texts = texts[:count]
    for text in texts:
        parsed_mail = parse_orders(text, rules)
        if parsed_mail.errors:
            raise SystemExit(f"{name}: a bench mail does not parse: {parsed_mail.errors[0]}\n{text}")
        if len(parsed_mail.orders) > MAX_ORDERS:
            raise SystemExit(f"{name}: a bench mail has more than the product's {MAX_ORDERS} orders")
        orders += len(parsed_mail.orders)
    return Mails(rules, texts, orders)


class _LarkParse:
    """A line parser that calls Lark.parse (the custom lexer's lex, Lark's own loop)."""

    def __init__(self, public: PublicParser) -> None:
        self.lark, self.described = public.lark, public.described

    def parse(self, line: str, start: str) -> Any:
        return self.lark.parse(line, start=start)


def use_way(ruleset: Ruleset, way: str) -> None:
    """Make the parser send `ruleset`'s lines through the loop `way` names (the parser's cache, for this run)."""
    if way == "fused":
        return
    _, lark, fused = order_parser._entry(ruleset)
    public = PublicParser(lark, fused.described)
    order_parser._PARSERS[id(ruleset)] = (ruleset, lark, public if way == "public" else _LarkParse(public))


def forget_parsers(ruleset: Ruleset) -> None:
    """Drop what a new process would not have: the built parser of `ruleset` and the order modules' caches (the
    grammar text, keyword tables, spellings); Lark's on-disk grammar cache stays, as it does between processes."""
    order_parser._PARSERS.pop(id(ruleset), None)
    modules: tuple[ModuleType, ...] = (order_parser, keywords, order_builder)
    for module in modules:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def parse_all(mails: Mails) -> None:
    for text in mails.texts:
        parse_orders(text, mails.ruleset)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mails", type=int, default=200, help="mails per ruleset (default 200)")
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7, after one warm-up)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--way", choices=["fused", "public", "lark"], default="fused")
    parser.add_argument("--ruleset", action="append", choices=RULESETS, help="only these rulesets (default: all)")
    options = parser.parse_args(argv)
    chosen = options.ruleset or list(RULESETS)
    corpus = {name: mails_of(name, max(1, options.mails), options.seed) for name in chosen}
    for mails in corpus.values():
        use_way(mails.ruleset, options.way)
    many = interleave(
        {name: Call(lambda run, mails=mails: parse_all(mails)) for name, mails in corpus.items()},
        runs=max(1, options.runs),
    )
    single = interleave(
        {
            name: Call(
                lambda run, mails=mails: parse_orders(mails.texts[run % len(mails.texts)], mails.ruleset),
                prepare=lambda run, mails=mails: forget_parsers(mails.ruleset),
            )
            for name, mails in corpus.items()
        },
        runs=max(1, options.runs),
    )
    print_load()
    way = "" if options.way == "fused" else f" ({options.way} loop)"
    print(f"many mails{way}, parser built (a long-running process); target >= {TARGET:,} orders a CPU second:")
    width = max(len(name) for name in corpus)
    for name, mails in corpus.items():
        got: Figures = many[name]
        per_mail = got.wall / len(mails.texts)
        rate, cpu_rate = mails.orders / got.wall, mails.orders / got.cpu
        print(
            f"  {name:{width}}  {len(mails.texts)} mails, {mails.orders / len(mails.texts):.1f} orders a mail: "
            f"{per_mail * 1000:.3f} ms a mail (cpu {got.cpu / len(mails.texts) * 1000:.3f} ms), {rate:,.0f} orders/s "
            f"wall, {cpu_rate:,.0f} orders/s cpu (median of {len(got.walls)} rounds, spread {got.spread:.0%})  "
            f"target (cpu): {'met' if cpu_rate >= TARGET else 'NOT met'}"
        )
    print("one mail, parser built first (what a one-shot `pbem ingest` pays to parse; no target):")
    for name in corpus:
        got = single[name]
        print(
            f"  {name:{width}}  {got.wall * 1000:.1f} ms a mail (cpu {got.cpu * 1000:.1f} ms; median of "
            f"{len(got.walls)} runs, spread {got.spread:.0%})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
