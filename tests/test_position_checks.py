"""Every position is checked wherever it is read: its shape (the documented schema), then the ruleset's rules.

A Conqueror position edited in the archive (its hash recomputed) and a snapshot file given to `pbem check --state`,
`pbem resolve` or `pbem new --from-snapshot` are refused with a message naming the field path; nothing is stored,
and no Python exception reaches the moderator. ER-n.m: games/conqueror-er/rules.md; C-n.m:
games/coe-classic/rules.md.

One game of each ruleset is played once per module into a real SQLite archive; each case works on a copy."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from adjudicator.cli import app
from adjudicator.engine.envelope import envelope_text

EXAMPLE = Path(__file__).resolve().parent.parent / "games/conqueror-er/example-data"
ER_SEATS = ("kesh", "aurel", "thal")
CLASSIC_SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}

Snapshot = dict[str, Any]
Change = Callable[[Snapshot], None]


def pbem(data: Path | None, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, *(["--data", str(data)] if data is not None else [])])


def refused(result: Result, message: str) -> None:
    """Exit status 1, the field named, and no Python exception (only the CLI's own exit)."""
    assert result.exit_code == 1 and message in result.output, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output and "__init__" not in result.output and "KeyError" not in result.output


# -- the stored game ---------------------------------------------------------------------------------------------


def latest(data: Path) -> tuple[int, Snapshot]:
    with sqlite3.connect(data / "archive.sqlite") as connection:
        number, text = connection.execute("SELECT number, state_json FROM turn ORDER BY number DESC").fetchone()
    return number, json.loads(text)


def turns(data: Path) -> int:
    with sqlite3.connect(data / "archive.sqlite") as connection:
        return int(connection.execute("SELECT count(*) FROM turn").fetchone()[0])


def edit_stored(data: Path, change: Change, text: Callable[[Snapshot], str]) -> None:
    """Change the latest stored position with SQL, its hash recomputed, as somebody with access to the database."""
    number, snapshot = latest(data)
    change(snapshot)
    edited = text(snapshot)
    with sqlite3.connect(data / "archive.sqlite") as connection:
        connection.execute(
            "UPDATE turn SET state_json = ?, state_hash = ? WHERE number = ?",
            (edited, hashlib.sha256(edited.encode()).hexdigest(), number),
        )


# -- Conqueror: Empire Rises -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def er_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-seat game from the example data, its setup resolved: the plans step of round 1 is due."""
    base = tmp_path_factory.mktemp("er")
    shutil.copytree(EXAMPLE, base / "game-data")
    seats = [a for seat in ER_SEATS for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem(base / "m", "new", "er1", "--ruleset", "conqueror-er", *seats, "--game-data", str(base / "game-data"))
    assert made.exit_code == 0, made.output
    done = pbem(base / "m", "adjudicate", "er1", "--now")
    assert done.exit_code == 0, done.output
    return base


def _army(area: str, **values: Any) -> Change:
    return lambda s: s["public"]["army"][area].update(values)


def _units(area: str, kind: str, count: Any) -> Change:
    return lambda s: s["public"]["army"][area]["units"].__setitem__(kind, count)


def _faction(faction: str, key: str, value: Any) -> Change:
    return lambda s: s["public"]["factions"][faction].__setitem__(key, value)


def _hand(faction: str, *cards: str) -> Change:
    def change(snapshot: Snapshot) -> None:
        snapshot["private"][faction]["hand"] += cards
        snapshot["public"]["factions"][faction]["hand_size"] += len(cards)

    return change


def _hero_down(faction: str, hero: str) -> Change:
    def change(snapshot: Snapshot) -> None:
        snapshot["private"][faction]["heroes_down"].append(hero)
        snapshot["public"]["factions"][faction]["heroes_down_count"] += 1

    return change


def _moved_army(area: str, to: str) -> Change:
    return lambda s: s["public"]["army"].__setitem__(to, s["public"]["army"].pop(area))


# id (the rule) -> (the change to the position due, what the refusal names)
ER_MUTATIONS: dict[str, tuple[Change, str]] = {
    "ER-2.1-unknown-area": (_moved_army("KES", "ZZZ"), "snapshot.public.army key 'ZZZ': no area of the 3-4 board"),
    "ER-0.3-owner-no-faction": (
        _army("KES", owner="zorg"),
        "snapshot.public.army.KES.owner: 'zorg' is no faction of this game nor independent (ER-0.3)",
    ),
    "ER-0.3-unit-type-dragon": (_units("KES", "dragon", 1), "snapshot.public.army.KES.units: 'dragon' is not one of"),
    "ER-1.2-card-not-in-data": (
        _hand("thal", "joker"),
        "snapshot.private.thal.hand[1]: card 'joker' is not in the game data (ER-1.2)",
    ),
    "ER-1.2-more-copies-than-deck": (
        _hand("thal", *["ambush"] * 10),
        "a copy of 'ambush' beyond the deck's 3 (ER-1.2)",
    ),
    "ER-6.10-hero-of-another-faction": (
        _hero_down("thal", "kesh-1"),
        "snapshot.private.thal.heroes_down[0]: 'kesh-1' is not a hero of thal (ER-6.10)",
    ),
    "ER-0.3-negative-count": (_units("KES", "infantry", -1), "snapshot.public.army.KES.units.infantry: -1 is below 1"),
    "ER-1.1-absurd-count": (
        _units("KES", "infantry", 10**9),
        "snapshot.public.army.KES.units.infantry: 1000000000 is above 100000",
    ),
    "ER-1.1-over-the-barracks": (
        _units("KES", "infantry", 50),
        "snapshot: kesh has more infantry on the map than its barracks hold (ER-1.1)",
    ),
    "ER-1.3-negative-coins": (_faction("kesh", "coins", -5), "snapshot.public.factions.kesh.coins: -5 is below 0"),
    "ER-1.3-coins-a-string": (
        _faction("kesh", "coins", "5"),
        "snapshot.public.factions.kesh.coins: '5' is not of type integer",
    ),
    "ER-3.7-unknown-field": (_faction("kesh", "bogus", 1), "snapshot.public.factions.kesh.bogus: not documented"),
    "ER-4.2-turn-order-no-faction": (
        lambda s: s["public"]["turn_order"].append("zorg"),
        "snapshot.public.turn_order: kesh, aurel, thal, zorg are not the factions in play",
    ),
    "ER-4.4.1-hourglass-no-faction": (
        lambda s: s["public"].__setitem__("hourglass", "zorg"),
        "snapshot.public.hourglass: 'zorg' is not a faction of this game (ER-4.4.1)",
    ),
    "ER-3.6-chronicle-not-in-data": (
        lambda s: s["public"]["decks"].__setitem__("chronicle", "joker"),
        "snapshot.public.decks.chronicle: 'joker' is not a chronicle card of the game data (ER-3.6)",
    ),
    "ER-3.7-board-of-no-faction": (
        _faction("kesh", "board", "zorg"),
        "snapshot.public.factions.kesh.board: 'zorg' is not a board of kesh",
    ),
    "ER-5.14-fort-marker-off-the-board": (
        lambda s: s["public"]["fort_markers"].append("ZZZ"),
        "snapshot.public.fort_markers[0]: 'ZZZ' is no area of the 3-4 board (ER-2.1)",
    ),
    "ER-7.2-more-exhausted-than-present": (
        lambda s: s["public"]["army"]["KES"]["exhausted"].__setitem__("infantry", 5),
        "snapshot.public.army.KES.exhausted.infantry: 5, more than the infantry units there (ER-7.2)",
    ),
}
ER_IDS = list(ER_MUTATIONS)


def er_file(er_game: Path, tmp_path: Path, name: str) -> Path:
    """The position due as a whole snapshot file, changed by the mutation `name`."""
    _, snapshot = latest(er_game / "m")
    ER_MUTATIONS[name][0](snapshot)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(snapshot), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ER_IDS)
def test_ER_13_an_edited_stored_position_is_refused_by_adjudicate_naming_the_field(
    er_game: Path, tmp_path: Path, name: str
) -> None:
    shutil.copytree(er_game, tmp_path / "g")
    data = tmp_path / "g" / "m"
    change, message = ER_MUTATIONS[name]
    edit_stored(data, change, envelope_text)
    before = turns(data)
    refused(pbem(data, "adjudicate", "er1", "--now"), message)
    assert turns(data) == before  # nothing new stored


@pytest.mark.parametrize("name", ER_IDS)
def test_ER_13_check_state_refuses_a_position_naming_the_field(er_game: Path, tmp_path: Path, name: str) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME er1 TURN 3 PLAYER kesh PASSWORD x\n", encoding="utf-8")
    state = er_file(er_game, tmp_path, name)
    checked = pbem(None, "check", "--state", str(state), str(orders), "--game-data", str(er_game / "game-data"))
    refused(checked, ER_MUTATIONS[name][1])


@pytest.mark.parametrize("name", ER_IDS)
def test_ER_13_resolve_refuses_a_position_naming_the_field_and_writes_nothing(
    er_game: Path, tmp_path: Path, name: str
) -> None:
    state, out = er_file(er_game, tmp_path, name), tmp_path / "out"
    silent = [a for seat in ER_SEATS for a in ("--no-orders", seat)]
    resolved = pbem(None, "resolve", "--state", str(state), *silent, "--out", str(out), "--game-data",
                    str(er_game / "game-data"))  # fmt: skip
    refused(resolved, ER_MUTATIONS[name][1])
    assert not out.exists()


@pytest.mark.parametrize("name", ER_IDS)
def test_ER_13_new_from_snapshot_refuses_a_position_naming_the_field_and_stores_nothing(
    er_game: Path, tmp_path: Path, name: str
) -> None:
    state, data = er_file(er_game, tmp_path, name), tmp_path / "m"
    seats = [a for seat in ER_SEATS for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem(data, "new", "er2", "--ruleset", "conqueror-er", *seats, "--from-snapshot", str(state),
                "--game-data", str(er_game / "game-data"))  # fmt: skip
    refused(made, ER_MUTATIONS[name][1])
    assert not (data / "games" / "er2").exists()
    if (data / "archive.sqlite").exists():
        with sqlite3.connect(data / "archive.sqlite") as connection:
            assert connection.execute("SELECT count(*) FROM turn").fetchone()[0] == 0


@pytest.mark.parametrize("view", ["snapshot.json", "snapshot-kesh.json"])
def test_ER_6_10_new_from_snapshot_refuses_a_public_or_one_seats_view(er_game: Path, tmp_path: Path, view: str) -> None:
    """A game cannot go on without the hands and the decks' order, which only the whole snapshot holds."""
    number, _ = latest(er_game / "m")
    state, data = er_game / "m" / "games" / "er1" / f"turn-{number:04d}" / view, tmp_path / "m"
    seats = [a for seat in ER_SEATS for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem(data, "new", "er2", "--ruleset", "conqueror-er", *seats, "--from-snapshot", str(state),
                "--game-data", str(er_game / "game-data"))  # fmt: skip
    refused(made, "the position is a public or one seat's snapshot: a game starts from the whole snapshot")
    assert not (data / "games" / "er2").exists()


def test_ER_13_tick_refuses_an_edited_stored_position_and_verify_names_it(er_game: Path, tmp_path: Path) -> None:
    shutil.copytree(er_game, tmp_path / "g")
    data = tmp_path / "g" / "m"
    change, message = ER_MUTATIONS["ER-1.2-card-not-in-data"]
    edit_stored(data, change, envelope_text)
    with sqlite3.connect(data / "archive.sqlite") as connection:  # the deadline has passed: the step is due
        connection.execute("UPDATE game SET deadline = '2000-01-01T00:00:00+00:00'")
    before = turns(data)
    ticked = pbem(data, "tick")
    assert "er1: FAILED" in ticked.output and message in ticked.output, ticked.output
    assert "Traceback" not in ticked.output
    assert turns(data) == before
    checked = pbem(data, "verify", "er1")
    assert checked.exit_code == 1 and message in checked.output


def test_ER_13_the_unchanged_position_is_taken_by_every_entry_point(er_game: Path, tmp_path: Path) -> None:
    """The checks refuse what is wrong, not a position the game itself wrote."""
    _, snapshot = latest(er_game / "m")
    state, orders = tmp_path / "state.json", tmp_path / "orders.txt"
    state.write_text(json.dumps(snapshot), encoding="utf-8")
    orders.write_text("GAME er1 TURN 3 PLAYER kesh PASSWORD x\n", encoding="utf-8")
    game_data = str(er_game / "game-data")
    assert pbem(None, "check", "--state", str(state), str(orders), "--game-data", game_data).exit_code == 0
    seats = [a for seat in ER_SEATS for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem(tmp_path / "m", "new", "er2", "--ruleset", "conqueror-er", *seats, "--from-snapshot", str(state),
                "--game-data", game_data)  # fmt: skip
    assert made.exit_code == 0, made.output
    shutil.copytree(er_game, tmp_path / "g")
    assert pbem(tmp_path / "g" / "m", "adjudicate", "er1", "--now").exit_code == 0


# -- Conquest of the Empire (Classic) ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def classic_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3-seat Classic game at turn 0 in a real SQLite archive (the data folder)."""
    data = tmp_path_factory.mktemp("classic") / "m"
    seats = [a for seat, mail in CLASSIC_SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    made = pbem(data, "new", "rome1", "--ruleset", "coe-classic", *seats)
    assert made.exit_code == 0, made.output
    return data


def _road(a: str, b: str) -> Change:
    def change(snapshot: Snapshot) -> None:
        for one, other in ((a, b), (b, a)):
            area = snapshot["areas"].setdefault(one, {"owner": None, "city": None, "roads": [], "units": {}})
            area["roads"].append(other)

    return change


CLASSIC_MUTATIONS: dict[str, tuple[Change, str]] = {
    "C-4.1-no-seat-due": (
        lambda s: s.__setitem__("active", None),
        "snapshot.active: null, yet no winner: a game that has not ended names the seat whose player-turn comes next",
    ),
    "C-9.7-road-between-non-cities": (
        _road("THR", "MAC"),
        "snapshot.areas.MAC.roads: the road to THR is not one between two cities that both list it (C-9.7)",
    ),
    "C-9.1-area-deleted": (
        lambda s: s["areas"].pop("MAC"),
        "snapshot.players.Macedonia.tribute: 15 is not the provinces and cities Macedonia controls (0) (C-9.1)",
    ),
    "C-12.8-road-to-an-unknown-area": (
        lambda s: s["areas"]["MAC"]["roads"].append("ZZZ"),
        "snapshot.areas.MAC.roads: 'ZZZ' is not a province with a land border to MAC (C-12.8)",
    ),
    "C-1.1-negative-count": (
        lambda s: s["areas"]["MAC"]["units"]["Macedonia"].__setitem__("infantry", -1),
        "snapshot.areas.MAC.units.Macedonia.infantry: -1 is below 0",
    ),
}
CLASSIC_IDS = list(CLASSIC_MUTATIONS)


def classic_file(classic_game: Path, tmp_path: Path, name: str) -> Path:
    _, snapshot = latest(classic_game)
    CLASSIC_MUTATIONS[name][0](snapshot)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(snapshot), encoding="utf-8")
    return path


def classic_text(snapshot: Snapshot) -> str:
    return json.dumps(snapshot, indent=1)  # the seats stay in turn order (C-4.1)


@pytest.mark.parametrize("name", CLASSIC_IDS)
def test_C_an_edited_stored_position_is_refused_by_adjudicate_naming_the_field(
    classic_game: Path, tmp_path: Path, name: str
) -> None:
    data = tmp_path / "m"
    shutil.copytree(classic_game, data)
    change, message = CLASSIC_MUTATIONS[name]
    edit_stored(data, change, classic_text)
    before = turns(data)
    refused(pbem(data, "adjudicate", "rome1", "--now"), message)
    assert turns(data) == before


@pytest.mark.parametrize("name", CLASSIC_IDS)
def test_C_check_state_and_resolve_refuse_what_new_from_snapshot_refuses(
    classic_game: Path, tmp_path: Path, name: str
) -> None:
    state, message = classic_file(classic_game, tmp_path, name), CLASSIC_MUTATIONS[name][1]
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nBUY 1 INF\n", encoding="utf-8")
    refused(pbem(None, "check", "--state", str(state), str(orders)), message)
    out = tmp_path / "out"
    refused(pbem(None, "resolve", "--state", str(state), "--orders", str(orders), "--out", str(out)), message)
    assert not out.exists()
    seats = [a for seat, mail in CLASSIC_SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    refused(pbem(tmp_path / "m", "new", "copy", "--from-snapshot", str(state), *seats), message)
    assert not (tmp_path / "m" / "games" / "copy").exists()


def test_C_14_a_position_with_a_winner_and_no_seat_due_is_an_ended_game() -> None:
    """`active: null` means the game has ended only when it names its winner (C-4.1, C-14)."""
    from adjudicator.rulesets import load_ruleset

    ruleset = load_ruleset("coe-classic")
    snapshot = ruleset.snapshot(ruleset.initial_state("rome1", list(CLASSIC_SEATS)))
    ended = copy.deepcopy(snapshot) | {"active": None, "winner": "Macedonia"}
    assert ruleset.due(ruleset.read_snapshot(ended)) is None
