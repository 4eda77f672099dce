"""Reports a player can rely on (issue 11): decision notices that stop where the decision is needed, public
outputs that hold only what was carried out, private reports with the seat's own decisions, losses, prisoners
and standing orders, and battle reports that tell every event as a sentence."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

from adjudicator.archive.models import Decision, Game
from adjudicator.engine.dice import GivenDice
from adjudicator.moderator import play, write_decision_notices
from adjudicator.rulesets import load_ruleset
from tests.conftest import SEATS, Pbem
from tests.helpers import legion, start
from tests.test_decisions_cli import contested_position, new_from

Write = Callable[[str, str | bytes], Path]
FACE_WORDS = re.compile(r"\b[1-6]=(inf|cav|cat|gal|blank)\b")


# -- item 1: a decision notice shows the turn up to the decision point only --------------------------------

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
    outbox = pbem.data / "games/rome1/outbox"                              # would tell how the dice fell
    assert sorted(p.name for p in outbox.glob("decisions-*")) == ["decisions-turn-0001-Egyptus.txt"]
    notice = (outbox / "decisions-turn-0001-Egyptus.txt").read_text()
    assert "Land battle in THR" in notice and "ANSWER battle.THR.1.legion:" in notice
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
    from adjudicator.moderator import questions_now

    ruleset = load_ruleset("coe-classic")
    state, orders = mid_round()
    attack, defence = [3, 3, 1, 6, 6, 6], [2, 2, 3, 3, 5]  # 3 hits on Egyptus, then 4 on Macedonia
    result = play(ruleset, state, orders, GivenDice(values=attack + defence + [3] * 20), ask=True)
    asked = questions_now(result.pending)
    assert [(q["seat"], q["key"]) for q in asked] == [("Egyptus", "battle.THR.1.losses")]
    assert any(p["seat"] == "Macedonia" for p in result.pending)  # a later question, not asked now
    game = Game(id=1, name="test", ruleset=ruleset.name, seed="", commitment="", created="", decision_hours=48)
    waiting = [Decision(game_id=1, turn=1, seat=q["seat"], key=q["key"], question=q["question"], default=q["default"],
                        rule=q["rule"], asked="") for q in asked]
    [path] = write_decision_notices(tmp_path, ruleset, game, 1, result, waiting, {})
    notice = path.read_text()
    assert "3=cav 3=cav 1=inf 6=blank 6=blank 6=blank" in notice  # the roll that made the hits: seen at a table
    assert "2=inf" not in notice and "5=gal" not in notice  # the defender's own roll comes after his choice
    assert "Round 1" not in notice and "loses" not in notice and "battle.THR.1.losses:" in notice
    assert len(FACE_WORDS.findall(notice)) == len(attack)  # not even the count of later rolls


# -- item 2: the public outputs hold what was carried out, never a seat's own order text ------------------

SECRETS = ("RETREAT FROM MOE TO MAC WHEN UNITS < 2", "CAPTIVES KILL", "LOSSES CAV, INF", "# my secret plan",
           "press to Egyptus only")


def test_standing_orders_comments_and_priorities_stay_out_of_every_public_output(pbem: Pbem, write: Write,
                                                                                 tmp_path: Path) -> None:
    new_from(pbem, contested_position(pbem, write))
    lines = ("MOVE G1 WITH 4 INF 2 CAV: MOE -> THR   # my secret plan", "RETREAT FROM MOE TO MAC WHEN UNITS < 2",
             "CAPTIVES KILL", "LOSSES CAV, INF", "PRESS TO Egyptus: press to Egyptus only")
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
    assert "RETREAT FROM MOE TO MAC IF UNITS < 2" in own.split("standing orders in force")[1]
    assert all(s in "".join(mails[SEATS["Macedonia"]]) for s in SECRETS[:4])
