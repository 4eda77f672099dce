"""The user documentation says what the code does: the README is the front page (the two commands first, short
lines), the docs carry no references that no reader can see, and the board table of docs/players-coe.md is the
one generated from games/coe-classic/board.toml. `python -m tests.test_docs` prints that table afresh."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
COMMANDS = (
    "    python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/pbem demo\n"
    "    python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && .venv/bin/python -m pytest\n"
)
BEGIN, END = "<!-- board table: python -m tests.test_docs -->\n", "<!-- end of the board table -->\n"
KEYWORDS_BEGIN, KEYWORDS_END = "<!-- keyword table: python -m tests.test_docs -->\n", "<!-- end of the keywords -->\n"


def board_table(board: Path = ROOT / "games" / "coe-classic" / "board.toml") -> str:
    """The areas of the board and their neighbours as a Markdown table, land first, then the sea zones."""
    data = tomllib.loads(board.read_text(encoding="utf-8"))
    areas = {a["code"]: a for a in data["area"]}
    kind = {code: a["kind"] for code, a in areas.items()}
    lines = [
        "| code | name | value | land neighbours | sea zones (coasts) |",
        "|---|---|---|---|---|",
    ]
    for code in sorted(areas, key=lambda c: (kind[c] != "land", c)):
        area = areas[code]
        land = sorted(n for n in area["adjacent"] if kind[n] == "land")
        sea = sorted(n for n in area["adjacent"] if kind[n] == "sea")
        if kind[code] == "sea":
            value, land, sea = "sea", sorted(n for n in area["adjacent"] if kind[n] == "sea"), land
            lines.append(
                f"| {code} | {area['name']} | {value} | seas: {' '.join(land) or '-'} | coasts: "
                f"{' '.join(sea) or '-'} |"
            )
        else:
            lines.append(
                f"| {code} | {area['name']} | {area['value']} | {' '.join(land) or '-'} | {' '.join(sea) or '-'} |"
            )
    return "\n".join(lines) + "\n"


def keyword_table(ruleset: str = "coe-classic") -> str:
    """The keywords of Conquest of the Empire's orders and of the mail commands (the shared grammar/keywords.toml and
    games/coe-classic/keywords.toml) in the four languages, as a Markdown table."""
    from adjudicator.orders.keywords import keyword_table as table_of

    tables = table_of(ruleset)
    lines = ["| English | Deutsch | Italiano | Nederlands |", "|---|---|---|---|"]
    for by_language in tables.values():
        lines.append("| " + " | ".join(", ".join(by_language[lang]) for lang in ("en", "de", "it", "nl")) + " |")
    return "\n".join(lines) + "\n"


def test_the_readme_starts_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert text.split("\n", 2)[2].startswith(COMMANDS)


def test_the_readme_is_a_front_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 210
    assert [n for n, line in enumerate(lines, 1) if len(line) > 120] == []
    assert "## Dependencies" in README.read_text(encoding="utf-8")


def test_the_docs_the_readme_links_exist() -> None:
    text = README.read_text(encoding="utf-8")
    linked = re.findall(r"\]\((docs/[^)#]+)", text)
    assert {"docs/moderator.md", "docs/players-coe.md", "docs/commands.md", "docs/developers.md"} <= set(linked)
    assert [path for path in linked if not (ROOT / path).exists() and path != "docs/players-conqueror.md"] == []


def test_no_issue_references_in_the_readme_or_the_docs() -> None:
    for path in [README, *sorted(DOCS.glob("*.md"))]:
        found = re.findall(r"\bissues? \d+", path.read_text(encoding="utf-8"), re.IGNORECASE)
        assert found == [], path.name


def test_the_board_table_is_the_board() -> None:
    text = (DOCS / "players-coe.md").read_text(encoding="utf-8")
    assert text.split(BEGIN, 1)[1].split(END, 1)[0] == board_table()


def test_the_keyword_table_is_keywords_toml() -> None:
    text = (DOCS / "players-coe.md").read_text(encoding="utf-8")
    assert text.split(KEYWORDS_BEGIN, 1)[1].split(KEYWORDS_END, 1)[0] == keyword_table()


if __name__ == "__main__":
    print(board_table(), keyword_table(), sep="\n", end="")
