"""Self-play, odds and the file interface through the Ruleset protocol alone: `pbem selfplay`
plays any ruleset that has a bot (the test ruleset sealed_bids here, sealed steps and all) through the services, the
invariants checked after each step and every archive verified; a ruleset without a bot or odds gets a clear message;
`pbem resolve` takes one orders file per seat for a sealed step. B-n: tests/rulesets/sealed_bids/game.py."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.errors import PbemError
from adjudicator.rulesets import load_ruleset
from adjudicator.services.selfplay import play_archived_game
from adjudicator.services.verification import verify
from tests.conftest import Pbem
from tests.rulesets.sealed_bids.game import BidsState, SealedBids

RULESETS = Path(__file__).parent / "rulesets"


@pytest.fixture
def bids_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_RULESETS", str(RULESETS))


@pytest.fixture
def fixed_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games' secret seeds made from a counter, so that a game's dice (and the bot's orders) repeat."""
    made = iter(range(10_000))
    monkeypatch.setattr(
        "adjudicator.services.games.secrets.token_bytes",
        lambda n=32: hashlib.sha256(f"seed{next(made)}".encode()).digest()[:n],
    )


def stored_states(pbem: Pbem, game: str) -> list[tuple[int, str, str, dict[str, object]]]:
    """Each stored step of `game`: number, seats, order text and whole snapshot."""
    archive = Archive.open(pbem.data, pbem.db)
    with archive.session() as session:
        rows = db.turns(session, db.find_game(session, game))
        return [(r.number, r.seat or "", r.orders_text, json.loads(r.state_json)) for r in rows]


@pytest.mark.parametrize("seats", [2, 3])
def test_selfplay_plays_sealed_bids_games_with_sealed_steps_to_the_end_and_every_archive_verifies(
    bids_rulesets: None, pbem: Pbem, seats: int
) -> None:
    played = pbem("selfplay", "--ruleset", "sealed-bids", "--games", "5", "--seats", str(seats), "--seed", "4")
    assert played.exit_code == 0, played.output
    ruleset = load_ruleset("sealed-bids")
    names = ruleset.seat_names[:seats]
    silent = 0
    for number in range(1, 6):
        game = f"selfplay-{number}"
        assert f"Game {game}: 3 player-turns played" in played.output
        verified = pbem("verify", game)
        assert verified.exit_code == 0 and ", 0 problems" in verified.output, verified.output
        steps = stored_states(pbem, game)
        # the setup, the deal (B-1, nobody orders), then two sealed bid steps of every seat (B-2)
        assert [(n, s) for n, s, _, _ in steps] == [(0, ""), (1, ""), *((k, ", ".join(names)) for k in (2, 3))]
        for _, seat_list, text, snapshot in steps:
            state = ruleset.read_snapshot(snapshot)
            assert ruleset.broken_invariants(state) == []
            silent += sum(f"PLAYER {seat} " not in text for seat in seat_list.split(", ") if seat)
        final = ruleset.read_snapshot(steps[-1][3])
        assert final.revealed and ruleset.due(final) is None  # B-6: played to the end, every hand shown
        assert pbem("status", game).exit_code == 0 and "ended" in pbem("status", game).output
    rejected = sum(" rejected" in line and " 0 rejected" not in line for line in played.output.splitlines())
    assert rejected > 0  # the bot's hasty bids met refusals (B-2, B-5)
    assert silent == 0  # a seat that sends nothing still sends its header, as a mail would


def test_selfplay_of_sealed_bids_counts_the_verdicts_the_archive_holds(
    bids_rulesets: None, tmp_path: Path, archive: Archive
) -> None:
    steps = play_archived_game(archive, tmp_path, "bids", "sealed-bids", ["North", "East", "South"], 9, 10)
    assert [s.number for s in steps] == [1, 2, 3] and steps[0].seat == "" and steps[1].seat == "North, East, South"
    for step in steps[1:]:
        bids = step.orders.count("\nBID ")
        assert step.accepted + step.rejected == bids  # every BID line has its verdict, seat after seat
        assert step.battles == 0
    passed, problems = verify(archive, "bids")
    assert problems == [] and len(passed) == len(steps) + 3  # the setup, the steps, the chain head, the rows outside it


def test_a_broken_invariant_stops_selfplay_naming_the_game_and_step(
    bids_rulesets: None, tmp_path: Path, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_after_the_first_bid(self: SealedBids, state: BidsState) -> list[str]:
        return ["North holds a card twice"] if state.round >= 1 else []  # a faulty ruleset

    monkeypatch.setattr(SealedBids, "broken_invariants", broken_after_the_first_bid)
    with pytest.raises(PbemError, match=r"game faulty, step 2: invariant broken: North holds a card twice"):
        play_archived_game(archive, tmp_path, "faulty", "sealed-bids", ["North", "East"], 1, 10)


def a_ruleset_without_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of sealed_bids named quiet_bids whose ruleset.toml names no bot (and no odds, as sealed_bids)."""
    folder = tmp_path / "rulesets" / "quiet_bids"
    shutil.copytree(RULESETS / "sealed_bids", folder, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    toml = (folder / "ruleset.toml").read_text()
    toml = toml.replace('name = "sealed_bids"', 'name = "quiet_bids"').replace('"sealed-bids", "bids"', '"quiet"')
    (folder / "ruleset.toml").write_text("\n".join(line for line in toml.splitlines() if not line.startswith("bot =")))
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path / "rulesets"))


def test_a_ruleset_without_a_bot_is_refused_clearly_and_nothing_is_stored(
    pbem: Pbem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a_ruleset_without_bot(tmp_path, monkeypatch)
    assert load_ruleset("quiet").bot is None
    refused = pbem("selfplay", "--ruleset", "quiet", "--seats", "2")
    assert refused.exit_code == 1
    assert refused.output == "error: quiet_bids has no bot: `pbem selfplay` plays only rulesets that have one\n"
    assert pbem.dump() == []  # refused before anything was stored


def test_selfplay_refuses_a_seat_count_the_ruleset_does_not_take(bids_rulesets: None, pbem: Pbem) -> None:
    refused = pbem("selfplay", "--ruleset", "sealed-bids", "--seats", "4")
    assert refused.exit_code == 1 and "sealed_bids is for 2 to 3 players, not 4" in refused.output
    assert pbem("selfplay", "--games", "0").output == "error: --games 0: play at least one game\n"


def test_odds_of_a_ruleset_without_odds_get_a_clear_message(bids_rulesets: None, pbem: Pbem) -> None:
    refused = pbem("odds", "--ruleset", "sealed-bids", "--attacker", "3 INF", "--defender", "2 INF", data=False)
    assert refused.exit_code == 1
    assert "sealed_bids computes no battle odds" in refused.output


def test_odds_go_through_the_rulesets_member(pbem: Pbem, write) -> None:  # type: ignore[no-untyped-def]
    """1 INF against 1 INF (Classic): each die hits on its infantry faces, 1 and 2 (C-6.5), so a round ends the battle
    with 5/9: the attacker alone hits 2/9, the defender alone 2/9, both 1/9. Worked by hand: 40% / 40% / 20%, 9/5
    rounds. The CLI prints what the ruleset's member computes from the texts it reads."""
    ruleset = load_ruleset("coe-classic")
    assert ruleset.odds is not None
    forces = ruleset.odds.read_forces(ruleset, "1 INF", "1 INF", False)
    never = ruleset.odds.read_standing(ruleset, "a.txt", "RETREAT NEVER\n")
    text = ruleset.odds.battle_text(ruleset, forces, (never, None), None)
    assert "Attacker wins     40.0%" in text and "(attacker eliminated 40.0%, both eliminated 20.0%)" in text
    assert "Expected rounds  1.80" in text
    orders = write("never.txt", "RETREAT NEVER\n")
    shown = pbem("odds", "--attacker", "1 INF", "--defender", "1 INF", "--attacker-orders", str(orders), data=False)
    assert shown.exit_code == 0 and shown.output == text + "\n"
    with pytest.raises(PbemError, match=r"a.txt: line 2, column 9: unexpected 'SOMETIMES'"):
        ruleset.odds.read_standing(ruleset, "a.txt", "RETREAT SOMETIMES\n")


def test_coe_selfplay_answers_the_decisions_a_game_that_asks_waits_for_C_15(
    tmp_path: Path, archive: Archive, fixed_secrets: None
) -> None:
    steps = play_archived_game(
        archive, tmp_path, "asks", "coe-classic", ["Macedonia", "Egyptus", "Hispania"], 3, 40, decisions="ask"
    )
    assert len(steps) == 40
    with archive.session() as session:
        game = db.find_game(session, "asks")
        asked = [d for number in range(1, 41) for d in db.decisions(session, game, number)]
    assert asked and all(d.answer == d.default for d in asked)  # the bot answers what the notice suggests
    passed, problems = verify(archive, "asks")
    assert problems == [] and len(passed) == 43


# -- pbem resolve: one orders file per seat of a sealed step --------------------------------------------------------


@pytest.fixture
def bids_files(bids_rulesets: None, tmp_path: Path) -> dict[str, Path]:
    """A sealed-bids position before the deal, as a moderator who keeps the game in files has it (the whole
    snapshot), a dice file for the deal's shuffle (B-1) and each seat's bid file for step 2."""
    ruleset = load_ruleset("sealed-bids")
    state = tmp_path / "state.json"
    state.write_text(ruleset.snapshot_text(ruleset.initial_state("b1", ["North", "East"])))
    files = {"state": state, "dice": tmp_path / "dice.txt"}
    files["dice"].write_text("1 " * 11 + "\n")  # each draw takes the first card left: the deck stays in order
    for seat, lines in {"North": "BID Eagle\nBOD x\n", "East": "BID Hound\n", "South": "BID Fox\n"}.items():
        files[seat] = tmp_path / f"{seat.lower()}.txt"
        files[seat].write_text(f"GAME b1 TURN 2 PLAYER {seat} PASSWORD unchecked\n{lines}")
    return files


def resolve(pbem: Pbem, files: dict[str, Path], *seats: str, out: Path) -> object:
    orders = [a for seat in seats for a in ("--orders", str(files[seat]))]
    return pbem(
        "resolve", "--state", str(files["state"]), *orders, "--dice", str(files["dice"]), "--out", str(out), data=False
    )


def test_B_2_resolve_takes_one_orders_file_per_seat_of_a_sealed_step(
    pbem: Pbem, bids_files: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    done = resolve(pbem, bids_files, "North", "East", out=out)
    assert done.exit_code == 0, done.output  # type: ignore[attr-defined]
    assert "Turn 1 resolved\nTurn 2 (North, East) resolved\n" in done.output  # type: ignore[attr-defined]
    assert "warning: North, orders file line 3: not understood" in done.output  # type: ignore[attr-defined]
    snapshot = json.loads((out / "snapshot.json").read_text())
    # every draw 1 (B-1, the shuffle of engine/chance.py): North is dealt Eagle, Bull, Wolf and East Bear, Boar, Stag
    assert snapshot["private"] == {"North": {"hand": ["Bull", "Wolf"]}, "East": {"hand": ["Bear", "Boar"]}}
    # North bids Eagle; East's Hound is no card of its hand (B-2), so it bids its lowest, Stag (B-4); Eagle wins (B-3)
    assert snapshot["public"]["played"] == [{"North": "Eagle", "East": "Stag"}]
    assert snapshot["public"]["scores"] == {"North": 1, "East": 0}
    report = (out / "report.txt").read_text()
    assert "=== Turn 1 ===" in report and "=== Turn 2: North, East (round 0) ===" in report
    assert "Hound is not in your hand" in report and "a second header" not in report
    # the next step again from the snapshot written: files chain as the archive's steps do
    bids_files["state"] = out / "snapshot.json"
    for seat, card in (("North", "Bull"), ("East", "Bear")):
        bids_files[seat].write_text(f"GAME b1 TURN 3 PLAYER {seat} PASSWORD unchecked\nBID {card}\n")
    last = resolve(pbem, bids_files, "East", "North", out=tmp_path / "last")
    assert last.exit_code == 0 and "Turn 3 (North, East) resolved" in last.output  # type: ignore[attr-defined]
    final = json.loads((tmp_path / "last/snapshot.json").read_text())["public"]
    assert final["scores"] == {"North": 2, "East": 0} and final["hands"] == {"North": ["Wolf"], "East": ["Boar"]}


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (("North",), "no orders file for East: turn 2 is sealed, so every seat of it (North, East) gives one"),
        (("North", "East", "South"), "south.txt line 1: South does not order in turn 2 (its seats: North, East)"),
        (("North", "North", "East"), "north.txt: a second orders file for North (the first is"),
    ],
)
def test_resolve_names_the_missing_or_surplus_seats_file_and_writes_nothing(
    pbem: Pbem, bids_files: dict[str, Path], tmp_path: Path, seats: tuple[str, ...], message: str
) -> None:
    refused = resolve(pbem, bids_files, *seats, out=tmp_path / "out")
    assert refused.exit_code == 1 and message in refused.output  # type: ignore[attr-defined]
    assert not (tmp_path / "out").exists()


def test_resolve_takes_one_turn_file_for_a_step_in_turn_order(pbem: Pbem, write, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pbem.new_game()
    state = pbem.data / "games/rome1/turn-0000/snapshot.json"
    first = write("a.txt", "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nBUY 1 INF\n")
    second = write("b.txt", "GAME rome1 TURN 2 PLAYER Egyptus PASSWORD x\nBUY 1 INF\n")
    args = ("resolve", "--state", str(state), "--orders", str(first), "--orders", str(second))
    refused = pbem(*args, "--out", str(tmp_path / "out"), data=False)
    assert refused.exit_code == 1
    assert f"{second}: one orders file per seat is for a sealed step, and the step due is turn 1, Macedonia's" in (
        refused.output
    )
    assert not (tmp_path / "out").exists()
