"""The shortcuts `pbem verify` takes do what the plain code they replace did: the chain heads are found in a report by
one search of its text, as reading it line by line finds them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.services.verify_published import Published, _chain_prefixes, _heads

PREFIXES = _chain_prefixes(frozenset(["en", "de"]))
HASH = "c8fa1012d904a66cbdc3d633ca3aae1f34a415c2de8f6ae82cc707cdd37aa8ef"


def heads_line_by_line(text: str, prefixes: tuple[str, ...]) -> Iterator[Published]:
    """_heads as it read every line of the text."""
    turn = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("==="):
            number = re.search(r"\d+", line)
            turn = int(number.group()) if number else None
        elif turn is not None and line.startswith(prefixes):
            head = line.rsplit(" ", 1)[-1]
            if re.fullmatch(r"[0-9a-f]{64}", head):
                yield Published(turn, head, "where", "file")


blanks = st.sampled_from(["", " ", "  ", "\t", "\xa0", "\u3000", "\x1f"])
breaks = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028"])
lines = st.one_of(
    st.builds(lambda n: f"=== Turn {n}: Egyptus (round 3) ===", st.integers(0, 300)),
    st.just("=== Position after turn 7 ==="),
    st.just("=== no number ==="),
    st.builds(lambda p, h: p + h, st.sampled_from([*PREFIXES, "Archive chain after this turn:"]), st.just(HASH)),
    st.sampled_from([*PREFIXES, "Archive chain after this turn:", f"{PREFIXES[0]}{HASH[:-1]}", "x === y", ""]),
    st.text(alphabet="abc =:0123456789\xa0\t", max_size=30),
)
reports = st.lists(st.tuples(blanks, lines, blanks, breaks), max_size=25).map(
    lambda parts: "".join(before + line + after + end for before, line, after, end in parts)
)


@given(reports)
def test_the_heads_of_a_report_are_found_as_by_reading_it_line_by_line(text: str) -> None:
    assert list(_heads(text, "where", "file", PREFIXES)) == list(heads_line_by_line(text, PREFIXES))


def test_a_report_with_heads_gives_them_with_their_turns() -> None:
    """Not only empty answers agree: a report of two sections gives each section's head."""
    text = f"=== Turn 4: Egyptus ===\n x\n  {PREFIXES[0]}{HASH}\n=== Turn 5 ===\n{PREFIXES[-1]}{HASH[::-1]} \nend"
    found = [(head.turn, head.chain) for head in _heads(text, "where", "file", PREFIXES)]
    assert found == [(4, HASH), (5, HASH[::-1])] == [(h.turn, h.chain) for h in heads_line_by_line(text, PREFIXES)]
