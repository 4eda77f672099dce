"""Reports a player can rely on: decision notices that stop where the decision is needed, public
outputs that hold only what was carried out, private reports with the seat's own decisions, losses, prisoners
and standing orders, and battle reports that tell every event as a sentence."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

from adjudicator.archive.models import DecisionRow, GameRow
from adjudicator.engine.chance import GivenDice
from adjudicator.rulesets import load_ruleset
from adjudicator.services.reports import write_decision_notices
from adjudicator.services.turn import play
from tests.conftest import SEATS, Pbem
from tests.helpers import legion, start
from tests.test_decisions_cli import contested_position, new_from

Write = Callable[[str, str | bytes], Path]
FACE_WORDS = re.compile(r"\b[1-6]=(inf|cav|cat|gal|blank)\b")


# -- a decision notice shows the turn up to the decision point only ----------------------------------------


def big_defence(pbem: Pbem, write: Write) -> Path:
    """The contested position, but Egyptus has G1 with 5 INF 3 CAV in Thracia: 8 units and one leader make a
    battle legion of 6 (C-6.5), so Egyptus must choose it before any die is rolled (C-15.5)."""
    snapshot = json.loads(contested_position(pbem, write).read_text())
    snapshot["areas"]["THR"]["units"]["Egyptus"].update(infantry=5, cavalry=3)
    return write("big.json", json.dumps(snapshot))


def test_C_15_5_notice_before_the_first_roll_shows_no_die_and_asks_nothing_later(pbem: Pbem, write: Write) -> None:
    new_from(pbem, big_defence(pbem, write), "--decisions", "ask")
    first = pbem("adjudicate", "rome1")
    waiting = re.findall(r"Waiting for (\w+): (\S+) ", first.output)
    assert waiting == [("Egyptus", "battle.THR.1.legion")], first.output  # no later question: its existence
    outbox = pbem.data / "games/rome1/outbox"  # would tell how the dice fell
    assert sorted(p.name for p in outbox.glob("decisions-*")) == ["decisions-turn-0001-Egyptus.txt"]
    notice = (outbox / "decisions-turn-0001-Egyptus.txt").read_text()
    assert "Land battle in THR: Macedonia (G1; 4 INF 2 CAV) attacks Egyptus (G1; 5 INF 3 CAV)" in notice
    assert "ANSWER battle.THR.1.legion:" in notice
    assert not FACE_WORDS.search(notice) and "Round 1" not in notice and "rolls:" not in notice
    assert "Phase 3" not in notice and "conquers" not in notice and "Next:" not in notice
    assert "the same dice will be used" not in notice
    header = f"GAME rome1 TURN 1 PLAYER Egyptus PASSWORD {pbem.passwords['Egyptus']}"
    answer = write("a.txt", f"{header}\nANSWER battle.THR.1.legion: cav, inf\n")
    assert pbem("answer", "rome1", str(answer)).exit_code == 0
    done = pbem("adjudicate", "rome1", "--defaults")
    assert "Turn 1 (Macedonia) resolved" in done.output
    private = (pbem.data / "games/rome1/turn-0001/report-Egyptus.txt").read_text()
    assert "Egyptus decides (answer, C-15.5)" in private
    assert pbem("verify", "rome1").exit_code == 0


def mid_round() -> tuple[object, str]:
    """Macedonia's G1 with 4 INF 2 CAV attacks Egyptus's G1 with 3 INF 2 CAV in Thracia: every unit fights."""
    state = start()
    legion(state, "MOE", 1, inf=4, cav=2)
    legion(state, "THR", 1, inf=3, cav=2, seat="Egyptus")
    return state, "GAME test TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 4 INF 2 CAV: MOE -> THR\n"


def test_C_15_6_notice_mid_round_shows_the_attackers_roll_but_not_the_defenders(tmp_path: Path) -> None:
    from adjudicator.services.turn import questions_now

    ruleset = load_ruleset("coe-classic")
    state, orders = mid_round()
    attack, defence = [3, 3, 1, 6, 6, 6], [2, 2, 3, 3, 5]  # 3 hits on Egyptus, then 4 on Macedonia
    result = play(ruleset, state, orders, GivenDice(values=attack + defence + [3] * 20), ask=True)
    asked = questions_now(result.pending)
    assert [(q.seat, q.key) for q in asked] == [("Egyptus", "battle.THR.1.losses")]
    assert any(p.seat == "Macedonia" for p in result.pending)  # a later question, not asked now
    game = GameRow(id=1, name="test", ruleset=ruleset.name, seed="", commitment="", created="", decision_hours=48)
    waiting = [
        DecisionRow(
            game_id=1,
            turn=1,
            seat=q.seat,
            key=q.key,
            question=q.question,
            default=q.default,
            rule=q.rule,
            asked="",
        )
        for q in asked
    ]
    [path] = write_decision_notices(tmp_path, ruleset, game, 1, result, waiting, {})
    notice = path.read_text()
    assert "3=cav 3=cav 1=inf 6=blank 6=blank 6=blank" in notice  # the roll that made the hits: seen at a table
    assert "2=inf" not in notice and "5=gal" not in notice  # the defender's own roll comes after his choice
    assert "Round 1" not in notice and "loses" not in notice and "battle.THR.1.losses:" in notice
    assert len(FACE_WORDS.findall(notice)) == len(attack)  # not even the count of later rolls


# -- the public outputs hold what was carried out, never a seat's own order text --------------------------

SECRETS = (
    "RETREAT FROM MOE TO MAC WHEN UNITS < 2",
    "CAPTIVES KILL",
    "LOSSES CAV, INF",
    "# my secret plan",
    "press to Egyptus only",
)


def test_standing_orders_comments_and_priorities_stay_out_of_every_public_output(
    pbem: Pbem, write: Write, tmp_path: Path
) -> None:
    new_from(pbem, contested_position(pbem, write))
    lines = (
        "MOVE G1 WITH 4 INF 2 CAV: MOE -> THR   # my secret plan",
        "RETREAT FROM MOE TO MAC WHEN UNITS < 2",
        "CAPTIVES KILL",
        "LOSSES CAV, INF",
        "PRESS TO Egyptus: press to Egyptus only",
    )
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, *lines))).exit_code == 0
    assert "turn 1 (Macedonia) resolved" in pbem("tick").output
    assert pbem("send", "--eml-dir", str(tmp_path / "eml")).exit_code == 0
    assert pbem("site", "rome1", "--out", str(tmp_path / "site")).exit_code == 0
    turn = pbem.data / "games/rome1/turn-0001"
    public = [turn / "report.txt", turn / "map.svg", *(tmp_path / "site").iterdir()]
    mails = {}
    for eml in (tmp_path / "eml").rglob("*.eml"):
        message = message_from_bytes(eml.read_bytes(), policy=default_policy)
        mails.setdefault(message["To"], []).append(message.get_body(("plain",)).get_content())
    for path in [*public, turn / "report-Hispania.txt"]:
        text = path.read_text()
        assert not [s for s in SECRETS if s in text], path
    addressee = (turn / "report-Egyptus.txt").read_text()
    assert not [s for s in SECRETS[:4] if s in addressee] and "press to Egyptus only" in addressee
    for address in ("egy@example.org", "his@example.org"):
        assert not [s for s in SECRETS[:4] if s in "".join(mails[address])], address
    assert "press to Egyptus only" in "".join(mails["egy@example.org"])  # press reaches its addressee
    own = (turn / "report-Macedonia.txt").read_text()
    assert all(s in own for s in SECRETS[:4])
    assert "RETREAT FROM MOE TO MAC WHEN UNITS < 2" in own.split("standing orders in force")[1]
    assert all(s in "".join(mails[SEATS["Macedonia"]]) for s in SECRETS[:4])


def test_C_15_a_question_past_its_waiting_time_takes_its_default_and_later_ones_are_still_asked(
    pbem: Pbem, write: Write
) -> None:
    from datetime import UTC, datetime, timedelta

    from adjudicator.archive import Archive
    from adjudicator.services.adjudication import adjudicate_locked
    from adjudicator.services.clock import FixedClock
    from adjudicator.services.game_reads import current_game

    new_from(pbem, big_defence(pbem, write), "--decisions", "ask")
    archive, asked, start_time = Archive.open(pbem.data, pbem.db), set(), datetime.now(UTC)
    for step in range(1, 30):
        with archive.session() as session:
            game, ruleset, state = current_game(session, "rome1", lock=True)
            done = adjudicate_locked(
                session, game, ruleset, state, clock=FixedClock(start_time + timedelta(hours=49 * step))
            )
            waiting = [(d.seat, d.key) for d in done.waiting]
            resolved = [row.events_json for row in done.turns]
        if resolved:
            break
        assert waiting and not set(waiting) & asked  # each time a new question: the late one took its default
        asked |= set(waiting)
    [events] = resolved
    defaulted = {
        (e["seat"], e["data"]["key"])
        for e in json.loads(events)
        if e["kind"] == "decision" and e["data"]["source"] == "default"
    }
    assert ("Egyptus", "battle.THR.1.legion") in defaulted and defaulted <= asked  # no default without a question


# -- prisoners, the 1984 template, battle reports and the private report -----------------------------------


def resolve_position(folder: Path, state: object, orders: str, dice: str = "") -> Path:
    """`pbem resolve` of the active seat's turn from `state` (a GameState), with a dice file; the out folder."""
    from typer.testing import CliRunner

    from adjudicator.cli import app
    from adjudicator.rulesets import load_ruleset
    from adjudicator.rulesets.coe.economy import tribute_value
    from adjudicator.rulesets.coe.state import GameState, snapshot_text

    assert isinstance(state, GameState)
    for seat, player in state.players.items():  # the tribute markers as the board sets them (C-9.1)
        player.tribute = tribute_value(load_ruleset(state.ruleset), state, seat)
    folder.mkdir(exist_ok=True)
    (folder / "state.json").write_text(snapshot_text(state))
    (folder / "orders.txt").write_text(orders)
    (folder / "dice.txt").write_text(dice or "1")
    result = CliRunner().invoke(
        app,
        [
            "resolve",
            "--state",
            str(folder / "state.json"),
            "--orders",
            str(folder / "orders.txt"),
            "--out",
            str(folder / "out"),
            *(["--dice", str(folder / "dice.txt")] if dice else []),
        ],
    )
    assert result.exit_code == 0, result.output
    return folder / "out"


def captive_g1(ruleset: str) -> object:
    """Turn 0, but Egyptus holds Macedonia's G1 prisoner (C-8.4, O-7.2)."""
    from adjudicator.rulesets.coe.state import Captive

    state = start(ruleset=ruleset)
    home = state.players["Macedonia"].home
    state.force(home, "Macedonia").generals.remove(1)
    state.players["Egyptus"].captives.append(Captive("Macedonia", 1))
    return state


def template_part(report: str) -> str:
    return report.split("--- ")[1]


def test_C_8_5_prisoners_in_the_public_report_and_both_private_reports(tmp_path: Path) -> None:
    out = resolve_position(tmp_path, captive_g1("coe-classic"), "GAME test TURN 1 PLAYER Macedonia PASSWORD x\n")
    assert "Egyptus holds prisoner: Macedonia's G1 (off the board, C-8.5)" in (out / "report.txt").read_text()
    assert "Your prisoners: Macedonia's G1" in (out / "report-Egyptus.txt").read_text()
    macedonia = (out / "report-Macedonia.txt").read_text()
    assert "Your G1 is held prisoner by Egyptus" in macedonia
    assert "G1" not in template_part(macedonia)  # no order suggested for a captured general
    assert "MOVE " in template_part(macedonia)  # but one for a leader on the board


def test_O_7_2_a_prisoner_lies_in_the_captors_home_and_the_1984_template_explains_targets(tmp_path: Path) -> None:
    out = resolve_position(tmp_path / "1984", captive_g1("coe-1984"), "GAME test TURN 1 PLAYER Macedonia PASSWORD x\n")
    home = "EGY"
    assert f"Egyptus holds prisoner: Macedonia's G1 (in {home}, O-7.2)" in (out / "report.txt").read_text()
    macedonia = (out / "report-Macedonia.txt").read_text()
    assert f"Your G1 is held prisoner by Egyptus (in {home}, O-7.2)" in macedonia
    template = template_part(macedonia)
    assert "TARGETS CAT, CAV, INF, GAL" in template and "(O-14.4" in template and "LOSSES" not in template
    classic = template_part(
        (
            resolve_position(tmp_path / "classic", start(), "GAME test TURN 1 PLAYER Macedonia PASSWORD x\n")
            / "report-Macedonia.txt"
        ).read_text()
    )
    assert "LOSSES INF, CAV, CAT" in classic and "TARGETS" not in classic


def test_C_6_9_a_battle_report_names_the_leaders_tells_hits_rolled_and_applied_and_the_seats_losses(
    tmp_path: Path,
) -> None:
    state = start()
    legion(state, "MOE", 1, inf=6)
    legion(state, "THR", seat="Egyptus", inf=2)
    orders = (
        "GAME test TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 6 INF: MOE -> THR\n"
        "RETREAT FROM THR WHEN UNITS < 2\n"
    )
    out = resolve_position(tmp_path, state, orders, dice="1 1 1 1 1 1 6 6")
    report = (out / "report.txt").read_text()
    assert "Land battle in THR: Macedonia (G1; 6 INF) attacks Egyptus (2 INF)" in report  # the leaders by name
    assert "Macedonia rolls 1=inf 1=inf 1=inf 1=inf 1=inf 1=inf: 6 hit(s), 2 applied; Egyptus loses 2 INF" in report
    assert "Egyptus rolls 6=blank 6=blank: 0 hit(s); Macedonia loses nothing" in report
    assert "Phase 3: collect tribute" in report
    phases = re.findall(r"Phase (\d):", report)
    assert phases == ["1", "2", "3", "4", "5"]  # phase 5 covers buying and placing (phases 5 and 6)
    egyptus = (out / "report-Egyptus.txt").read_text()
    assert "Your losses: 2 INF; provinces THR" in egyptus
    macedonia = (out / "report-Macedonia.txt").read_text()
    assert "Your standing orders in force:\n  RETREAT FROM THR WHEN UNITS < 2\n" in macedonia


def test_C_6_9_a_seats_losses_of_units_alone_end_without_a_separator(tmp_path: Path) -> None:
    """Both sides hit with every die: Macedonia loses 2 INF and nothing else, a line that ends with the units."""
    state = start()
    legion(state, "MOE", 1, inf=6)
    legion(state, "THR", seat="Egyptus", inf=2)
    orders = "GAME test TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 6 INF: MOE -> THR\n"
    out = resolve_position(tmp_path, state, orders, dice="1 1 1 1 1 1 1 1")
    assert "\n  Your losses: 2 INF\n" in (out / "report-Macedonia.txt").read_text()


def test_O_6_22_removed_roads_are_told_as_a_sentence(tmp_path: Path) -> None:
    from tests.helpers import road

    state = start(ruleset="coe-1984")
    legion(state, "MOE", 1, inf=2)
    road(state, "THR", "MAC")
    state.area("THR").owner = "Egyptus"
    out = resolve_position(
        tmp_path, state, "GAME test TURN 1 PLAYER Macedonia PASSWORD x\nMOVE G1 WITH 2 INF: MOE -> THR\n"
    )
    report = (out / "report.txt").read_text()
    assert "The roads from THR to MAC are removed [O-" in report
    assert "roads_removed" not in report and "{" not in report


def test_C_6_9_a_standing_priority_with_counts_is_written_back_in_the_private_report(pbem: Pbem) -> None:
    pbem.new_game()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "LOSSES 2 INF, CAV"))).exit_code == 0
    assert pbem("adjudicate", "rome1", "--now").exit_code == 0
    own = (pbem.data / "games/rome1/turn-0001/report-Macedonia.txt").read_text()
    assert "Your standing orders in force:\n  LOSSES 2 INF, CAV\n" in own
