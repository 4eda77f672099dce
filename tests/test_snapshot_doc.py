"""docs/snapshot.md and docs/snapshot.schema.json describe the snapshot as it is: real
snapshots from self-play in both editions must match the schema, which allows no undocumented field, and the
documented relations (TURN header, turn order, a prisoner's place) must hold."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.bot import play_game, seats_in_play
from adjudicator.rulesets.coe.snapshot_check import schema_problems as problems
from adjudicator.rulesets.coe.snapshot_check import snapshot_problems
from adjudicator.rulesets.coe.snapshot_check import snapshot_schema as schema
from adjudicator.rulesets.coe.state import snapshot_text
from tests.helpers import classic, play, start

DOCS = Path(__file__).resolve().parent.parent / "docs"


@cache
def self_played(ruleset: str) -> list[dict[str, Any]]:
    """Every position of a 4-seat self-played game of 80 player-turns, as snapshot JSON."""
    game = play_game(ruleset, seats_in_play(load_ruleset(ruleset), 4), 1, 80)
    return [json.loads(snapshot_text(turn.state)) for turn in game.turns]


@pytest.mark.parametrize("ruleset", ["coe-classic", "coe-1984"])
def test_self_played_snapshots_match_the_documented_schema(ruleset: str) -> None:
    snapshots = self_played(ruleset)
    for snapshot in snapshots:
        assert problems(snapshot, schema(), schema()) == [], snapshot["turn"]
        assert snapshot_problems(snapshot, load_ruleset(ruleset)) == [], snapshot["turn"]  # and the ruleset's bounds
    text = json.dumps(snapshots)
    for part in ('"aboard"', '"galley_coasts"', '"captives": [{', '"retreat"', '"losses"', '"ransom_accept"'):
        assert part in text  # the game shows the optional parts, so that they are checked too


def test_the_schema_refuses_what_it_does_not_document() -> None:
    snapshot = json.loads(json.dumps(self_played("coe-classic")[0]))
    snapshot["players"]["Macedonia"]["secret"] = 1
    snapshot["areas"]["MAC"]["city"] = "castle"
    assert sorted(problems(snapshot, schema(), schema())) == [
        'snapshot.areas.MAC.city: \'castle\' is not one of null, "city", "fortified"',
        "snapshot.players.Macedonia.secret: not documented",
    ]


def test_documented_relations_hold_turn_header_turn_order_and_empty_areas() -> None:
    ruleset = load_ruleset("coe-classic")
    for snapshot in self_played("coe-classic"):
        seats = list(snapshot["players"])
        assert seats == [s for s in ruleset.seat_names if s in seats]  # turn order = order of `players`
        for area in snapshot["areas"].values():  # an empty area is absent
            assert area["owner"] or area["city"] or area["roads"] or area["units"]
    doc = (DOCS / "snapshot.md").read_text()
    for words in (
        "`turn` + 1",
        "order of `players`",
        "absent",
        "O-7.2",
        "`standing`",
        "`aboard`",
        "`galley_coasts`",
        "`captives`",
        "snapshot.schema.json",
    ):
        assert words in doc, words


def test_O_7_2_a_prisoners_place_is_read_from_the_snapshot(tmp_path: Path) -> None:
    """The 1984 prisoner lies in the captor's home (O-7.2): players[holder].home; the public report says so."""
    from tests.test_reports import captive_g1, resolve_position

    out = resolve_position(tmp_path, captive_g1("coe-1984"), "GAME test TURN 1 PLAYER Macedonia PASSWORD x\n")
    snapshot = json.loads((out / "snapshot.json").read_text())
    holder = next(s for s, p in snapshot["players"].items() if {"owner": "Macedonia", "general": 1} in p["captives"])
    home = snapshot["players"][holder]["home"]
    assert f"{holder} holds prisoner: Macedonia's G1 (in {home}, O-7.2)" in (out / "report.txt").read_text()
    header = re.search(r"TURN (\d+) PLAYER Egyptus", (out / "report-Egyptus.txt").read_text())
    assert header and int(header.group(1)) == snapshot["turn"] + 1  # Egyptus moves next: TURN = turn + 1


def test_C_6_9_a_standing_order_with_counts_is_kept_in_the_documented_form() -> None:
    orders = parse_orders("GAME test TURN 1 PLAYER Macedonia PASSWORD x\nLOSSES 4 INF, CAV\n", classic())
    snapshot = json.loads(snapshot_text(play(start(), *orders.orders).state))
    assert snapshot["players"]["Macedonia"]["standing"]["losses"][:2] == [{"kind": "infantry", "count": 4}, "cavalry"]
    assert problems(snapshot, schema(), schema()) == []
