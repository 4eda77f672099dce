"""`pbem demo --ruleset conqueror-er`: bot players play a whole game by mail on the example data (ER-3 to ER-10),
through the moderator's operations, into a fresh folder on the embedded SQLite archive; the archive verifies."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.cli import app
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.services import bot_demo
from adjudicator.services.game_reads import game_ruleset
from adjudicator.services.positions import stored_state


def test_ER_10_the_conqueror_demo_plays_a_conquest_game_by_mail_to_its_final_score_and_verifies(
    conqueror_demo: tuple[Path, Result],
) -> None:
    folder, result = conqueror_demo  # `pbem demo --ruleset conqueror-er --mode conquest`, run once a session
    runner = CliRunner()
    assert result.exit_code == 0, result.output
    output = result.output
    assert output.startswith("Created game demo (conqueror-er, conquest mode, data ")
    assert "step 2 (purchases) resolved" in output  # ER-3.11: Conquest mode's purchases come first
    mailed = re.findall(r"^  (\w+) +mails \d+ order line\(s\) for step (\d+): (.+)$", output, re.MULTILINE)
    assert mailed and all(outcome == "orders stored" for _, _, outcome in mailed)
    assert {seat for seat, _, _ in mailed} == {"kesh", "aurel", "thal"}

    with Archive.in_folder(folder).session() as session:
        game = db.find_game(session, "demo")
        turns = db.turns(session, game)
        last = json.loads(turns[-1].state_json)
        (won,) = [e for e in json.loads(turns[-1].events_json) if e["kind"] == "game_won"]
    assert last["public"]["ended"] and last["public"]["round"] <= 5  # ER-10.4: Conquest lasts 5 rounds at most
    winners, scores = won["data"]["winners"], won["data"]["scores"]
    assert f"Final score (winner: {', '.join(winners)}):" in output
    for seat, vp in scores.items():
        assert re.search(rf"^  {seat} +{vp} VP$", output, re.MULTILINE), (seat, vp)

    games = folder / "games" / "demo"
    # ER-10.2, ER-10.3: the last public report and snapshot give every player's final score item by item
    final = games / f"turn-{turns[-1].number:04d}"
    sheets = json.loads((final / "snapshot.json").read_text(encoding="utf-8"))["public"]["final_scores"]
    assert {seat: sum(row["vp"] for row in sheet.values()) for seat, sheet in sheets.items()} == scores
    report = (final / "report.txt").read_text(encoding="utf-8")
    assert "=== Final scores (ER-10.3) ===" in report
    assert all(f"  {seat}: {vp} VP\n" in report for seat, vp in scores.items())
    for row in turns[1:]:
        turn = games / f"turn-{row.number:04d}"
        assert (turn / "report.txt").is_file() and (turn / "snapshot.json").is_file(), turn
        assert all((turn / f"report-{seat}.txt").is_file() for seat in scores), turn
    assert (folder / "site" / "index.html").is_file()
    receipts = [p for p in (folder / "mail").glob("*.eml") if "Receipt for turn" in p.read_text(encoding="utf-8")]
    assert len(receipts) == len(mailed)  # every mailed order set got its receipt
    verified = runner.invoke(app, ["verify", "demo", "--data", str(folder)])
    checks = re.search(r"Verified by replay: (\d+) checks passed, 0 problems", output)
    assert checks and int(checks.group(1)) > len(turns)  # every turn replayed, and the chain
    assert verified.exit_code == 0 and f"{checks.group(1)} checks passed, 0 problems" in verified.output


def test_the_scripted_classic_demo_takes_no_bot_options(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--seats", "4", "--data", str(tmp_path / "demo")])
    assert result.exit_code == 1 and "the coe-classic demo is scripted" in result.output
    assert not (tmp_path / "demo").exists()


def test_ER_3_2_a_bot_demo_with_a_seat_count_the_game_does_not_take_is_refused_with_its_reason(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--ruleset", "conqueror-er", "--seats", "9", "--data", str(folder)])
    assert result.exit_code == 1 and "is for 3 to 6 players (ER-3.2), not 9" in result.output
    assert not folder.exists()  # nothing made


def test_a_bot_demo_of_a_game_its_bots_never_end_stops_after_the_steps_asked_and_verifies(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--ruleset", "coe-1984", "--turns", "4", "--data", str(folder)])
    assert result.exit_code == 0, result.output
    assert "Stopped after 4 steps, as asked: the game goes on" in result.output
    assert len(list((folder / "games" / "demo").glob("turn-*"))) >= 4
    assert (folder / "site" / "index.html").exists()


class Scripted:
    """The ruleset's bot, but where `written(seat, header)` gives an order text, the players mail that instead."""

    def __init__(self, bot: Any, written: Callable[[str, str], str | None]) -> None:
        self.bot, self.written = bot, written

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def orders(self, ruleset: Any, state: Any, seat: str, header: str, rng: Any) -> str:
        return self.written(seat, header) or self.bot.orders(ruleset, state, seat, header, rng)


def press_only_on_step(step: int) -> Callable[[str, str], str | None]:
    """A player who, on one step, mails only press (C-13: no game orders, so none are stored for his turn)."""
    return lambda seat, header: f"{header}\nBROADCAST: Ave!\n" if header.split()[3] == str(step) else None


def test_a_bot_demo_goes_on_at_the_deadline_when_a_player_mailed_only_press(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = load_ruleset("coe-1984").bot
    monkeypatch.setattr(CoeRuleset, "bot", property(lambda self: Scripted(real, press_only_on_step(2))))
    folder = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--ruleset", "coe-1984", "--turns", "4", "--data", str(folder)])
    assert result.exit_code == 0, result.output
    assert "for step 2: no game orders: the stored orders stay" in result.output
    assert "step 2 (player-turn) resolved at the deadline" in result.output
    assert "Stopped after 4 steps, as asked: the game goes on" in result.output


def conceding_to(winner: str) -> Callable[[str, str], str | None]:
    """Every player but `winner` mails press to him and concedes him the game (O-14.15, C-14.2)."""
    return lambda seat, header: (
        None if seat == winner else f"{header}\nPRESS TO {winner}: you won\nCONCEDE TO {winner}\n"
    )


def test_C_14_2_a_bot_demo_that_ends_names_the_winner_and_why_its_site_has_no_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = load_ruleset("coe-1984").bot
    monkeypatch.setattr(CoeRuleset, "bot", property(lambda self: Scripted(real, conceding_to("Egyptus"))))
    result = CliRunner().invoke(app, ["demo", "--ruleset", "coe-1984", "--data", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert "The game has ended: Egyptus wins." in result.output
    assert "Stopped after" not in result.output
    # the players' press to Egyptus is part of their orders: the record would publish it
    assert re.search(
        r"^No record on the site: game demo: the orders of turn\(s\) 1, 3 hold private press", result.output, re.M
    )
    assert not (tmp_path / "demo" / "site" / "record.json").exists()


def test_a_bot_demo_whose_bots_do_not_end_the_game_stops_at_the_most_steps_and_finishes_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_demo, "MAX_STEPS", 3)
    result = CliRunner().invoke(app, ["demo", "--ruleset", "coe-1984", "--data", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert "Stopped after 3 steps, the most a demo plays: the bots did not end the game, which goes on" in result.output
    assert "The game has ended" not in result.output and "final score" not in result.output
    assert "Verified by replay" in result.output and (tmp_path / "demo" / "site" / "index.html").exists()
    assert len(list((tmp_path / "demo" / "mail").glob("*.eml"))) > 3


def test_a_bot_demo_of_no_steps_is_refused_before_anything_is_made(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--ruleset", "coe-1984", "--turns", "0", "--data", str(folder)])
    assert result.exit_code == 2 and "0 is not in the range x>=1" in result.output
    assert not folder.exists()


def test_ER_10_3_the_sites_standings_at_the_games_end_give_each_players_final_score(demo: Path) -> None:
    """Victory points in play are only part of a final score (ER-10.3): once the game has ended, the standings (the
    site's index) give the final score, the one the last report names."""
    with Archive.in_folder(demo).session() as session:
        game = db.find_game(session, "demo")
        last = db.turns(session, game)[-1]
    ruleset = game_ruleset(game)
    state = stored_state(ruleset, last.state_json)
    assert state.ended and state.final_scores
    shown = {row["seat"]: dict(row["figures"])["Victory points"] for row in ruleset.standings(state)}
    final = {seat: sum(item["vp"] for item in sheet.values()) for seat, sheet in state.final_scores.items()}
    assert shown == final and any(shown[seat] != state.players[seat].vp for seat in shown), (shown, final)
