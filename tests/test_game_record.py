"""A game's record (services/game_record.py): once the game is over by its rules, `pbem site` writes every turn's
orders, answers, keys and positions, and a player's `pbem verify --from-reports` replays the whole game from it and
holds it to the chain heads his reports printed while the game ran. The games are real: the Conqueror demo (a whole
game by mail), the Empires demo, and a Classic game that one turn ends (C-5.31, C-8.8)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.verify_rows import orm_rows
from adjudicator.cli import app
from adjudicator.engine.chance import turn_dice
from adjudicator.errors import PbemError
from adjudicator.services.chain import chain_hash
from adjudicator.services.game_reads import game_ruleset
from adjudicator.services.game_record import game_record
from adjudicator.services.positions import stored_state
from adjudicator.services.turn import play, replayed_fields, seat_texts
from tests.conftest import read_eml
from tests.test_orders_commitment import CAPTURE, caesar_capture_game
from tests.test_verify_reports import check, kept_mails, problems


def pbem(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def publish(data: Path, out: Path, *options: str) -> Path:
    """The moderator's `pbem site` of the game demo of data folder `data`."""
    published = pbem("site", "demo", "--out", str(out), "--data", str(data), *options)
    assert published.exit_code == 0, published.output
    return out


def archive_turns(data: Path) -> list[db.TurnRow]:
    with Archive.in_folder(data).session() as session:
        return db.turns(session, db.find_game(session, "demo"))


def record_line(result: Result, where: str = ".+", game: str = "demo") -> re.Match[str] | None:
    """The line of a record (`where`: the file, or the mail and its attachment) that replays and is held to the
    reports."""
    return re.search(
        rf"^ok +game {game}: its record \(({where})\) replays: (\d+) turn\(s\) resolved again from every seat's "
        r"orders, answers and keys, (\d+) hidden draw\(s\) dealt again from the seed; it is the game of the (\d+) "
        r"turn\(s\) your reports printed$",
        result.output,
        re.M,
    )


def last_mail(data: Path, seat: str) -> Path:
    return max((data / "mail").glob(f"*-{seat}@*.eml"), key=lambda p: int(p.name.split("-")[0]))


def test_the_record_of_a_game_over_replays_every_turn_and_is_held_to_the_reports_the_player_kept(
    demo: Path, tmp_path: Path
) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    result = check(kept)  # his mails alone: the last report mail carries the record
    assert result.exit_code == 0, result.output
    line = record_line(result, re.escape(f"{last_mail(demo, 'aurel').name} (record.json.gz)"))
    assert line, result.output
    turns = archive_turns(demo)
    assert int(line.group(2)) == len(turns) - 1  # every turn but the setup, which is held to the setup rules
    # every hidden draw of the game (the decks' shuffles, the cards dealt), counted in the archive
    assert int(line.group(3)) == sum(len(json.loads(row.hidden_dice_json or "[]")) for row in turns) > 10
    printed = {int(n) for n in re.findall(r"^ok +game demo turn (\d+):", result.output, re.M)}
    assert int(line.group(4)) == len(printed) > 20
    # what the record settles is no longer named as unchecked
    assert "no hidden draws read" not in result.output
    assert "which the replay of the record (" in result.output
    shutil.copy(publish(demo, tmp_path / "site") / "record.json", kept / "record.json")
    both = check(kept)  # the site's copy is the same record: replayed once
    assert both.exit_code == 0 and record_line(both, "record.json").groups()[1:] == line.groups()[1:], both.output
    assert len(re.findall(r"its record \(", both.output)) == 1


def test_only_the_last_report_mail_carries_the_record_and_says_so_in_the_players_language(demo: Path) -> None:
    for seat in ("aurel", "kesh", "thal"):
        mails = sorted((demo / "mail").glob(f"*-{seat}@*.eml"), key=lambda p: int(p.name.split("-")[0]))
        carrying = [m for m in mails if "record.json.gz" in m.read_text(encoding="utf-8")]
        assert carrying == [mails[-1]], seat
        message = read_eml(mails[-1])
        attached = {part.get_filename(): part for part in message.iter_attachments()}
        record = json.loads(gzip.decompress(attached["record.json.gz"].get_payload(decode=True)))
        assert record["turns"][-1]["chain"] == archive_turns(demo)[-1].chain  # the game to its last turn
        text = message.get_body(("plain",)).get_content()
        assert "Attached is its record (record.json.gz)" in text
        assert "You order next" not in text  # ER-10: the game has ended, no orders are asked any more


def test_a_record_attached_cut_short_is_named_with_its_mail(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    mail = kept / last_mail(demo, "aurel").name
    message = read_eml(mail)
    part = next(p for p in message.iter_attachments() if p.get_filename() == "record.json.gz")
    packed = part.get_payload(decode=True)
    part.set_content(packed[: len(packed) // 2], maintype="application", subtype="gzip", filename="record.json.gz")
    mail.write_bytes(message.as_bytes())
    found = problems(check(kept))
    assert found == [
        f"{mail.name} (record.json.gz): not a gzip file, or cut short or damaged (the compressed data ends before its "
        "end mark)"
    ], found


def test_the_record_is_written_once_the_game_is_over_and_not_a_turn_before(demo: Path, tmp_path: Path) -> None:
    over = publish(demo, tmp_path / "over")
    assert (over / "record.json").is_file()
    assert 'href="record.json"' in (over / "index.html").read_text(encoding="utf-8")
    assert not (publish(demo, tmp_path / "unasked", "--no-record") / "record.json").exists()
    last = archive_turns(demo)[-1].number
    rolled = pbem("gm", "rollback", "demo", "--to", str(last - 1), "--data", str(demo))
    assert rolled.exit_code == 0, rolled.output
    running = publish(demo, tmp_path / "running")
    assert not (running / "record.json").exists()  # it would give away the seed and every hidden card
    assert 'href="record.json"' not in (running / "index.html").read_text(encoding="utf-8")
    with Archive.in_folder(demo).session() as session:
        with pytest.raises(PbemError, match="not over by its rules"):
            game_record(orm_rows(session, "demo"))


def test_a_hidden_draw_changed_in_the_record_is_caught_by_the_replay_naming_the_turn(
    demo: Path, tmp_path: Path
) -> None:
    folder = kept_mails(demo, tmp_path / "kept")
    record = json.loads((publish(demo, tmp_path / "site") / "record.json").read_text(encoding="utf-8"))
    turn = next(t for t in record["turns"] if t["number"] > 0 and t["hidden_dice_json"])
    draws = json.loads(turn["hidden_dice_json"])
    faces = json.loads(turn["hidden_faces"])
    draws[0][1] = draws[0][1] % faces[0] + 1  # another card of the same deck
    turn["hidden_dice_json"] = json.dumps(draws)
    (folder / "record.json").write_text(json.dumps(record), encoding="utf-8")
    result = check(folder)
    assert result.exit_code == 1
    found = problems(result)
    assert any(
        re.match(rf"record\.json: game demo: turn {turn['number']}\b", p) and "replay differs in hidden_dice_json" in p
        for p in found
    ), found
    assert not record_line(result, "record.json") and record_line(result, ".+ \\(record.json.gz\\)")


def rewrite_from(data: Path, number: int, slipped: str) -> None:
    """A moderator who holds the seed slips a line into turn `number`'s orders and plays the game on from there with
    the rules: every later turn resolved again, every hash and link made anew. His archive agrees with itself."""
    with Archive.in_folder(data).session() as session:
        game = db.find_game(session, "demo")
        ruleset = game_ruleset(game)
        link, previous = game.commitment, None
        for row in db.turns(session, game):
            if row.number == number:
                row.orders_text += slipped
            if row.number >= number:
                keys = (bytes.fromhex(row.hidden_key), bytes.fromhex(row.orders_key))
                dice = turn_dice(bytes.fromhex(row.turn_key), row.orders_text, *keys, seat_texts(row))
                result = play(ruleset, previous, row.orders_text, dice, json.loads(row.answers_json))
                row.state_json = ruleset.snapshot_text(result.state)
                for name, value in replayed_fields(row.orders_text, result, dice, row.state_json).items():
                    setattr(row, name, value)
                row.dice_faces, row.hidden_faces = json.dumps(dice.faces_log), json.dumps(dice.hidden_faces_log)
                row.chain = chain_hash(link, row, game.chain_version)
                session.add(row)
            link, previous = row.chain, stored_state(ruleset, row.state_json)
        game.chain_head = link
        session.add(game)
        session.commit()


def test_a_game_played_on_anew_after_the_reports_went_out_replays_but_is_not_the_game_the_player_was_sent(
    demo: Path, tmp_path: Path
) -> None:
    number = next(row.number for row in reversed(archive_turns(demo)) if row.orders_text and "," not in row.seat)
    rewrite_from(demo, number, "\n# a line the moderator slipped in\n")
    site = publish(demo, tmp_path / "site")
    alone = check(site)  # the site and record he publishes agree with each other and replay
    assert alone.exit_code == 0 and record_line(alone), alone.output
    kept = kept_mails(demo, tmp_path / "kept")
    shutil.copy(site / "record.json", kept / "record.json")
    result = check(kept)
    assert result.exit_code == 1
    found = problems(result)
    assert any(
        p.startswith(f"record.json: game demo turn {number}: the record's chain head is not the one ")
        and "the record is not the game you were sent" in p
        for p in found
    ), found
    assert not any(f"turn {number - 1}:" in p for p in found)  # the turns before the rewrite are the game sent


def test_a_truncated_or_garbled_record_is_named_with_its_line_and_nothing_else_fails(
    demo: Path, tmp_path: Path
) -> None:
    text = (publish(demo, tmp_path / "site") / "record.json").read_text(encoding="utf-8")
    folder = kept_mails(demo, tmp_path / "kept")
    (folder / "record.json").write_text(text[: len(text) // 2], encoding="utf-8")
    record = json.loads(text)
    del record["turns"][3]["state_json"]
    (folder / "lacking-record.json").write_text(json.dumps(record), encoding="utf-8")
    record["turns"][3]["state_json"], record["turns"][0]["number"] = "{}", "0"
    (folder / "typed-record.json").write_text(json.dumps(record), encoding="utf-8")
    (folder / "other-record.json").write_text('{"format": "something else"}', encoding="utf-8")
    result = check(folder)
    assert result.exit_code == 1
    found = problems(result)
    assert any(re.fullmatch(r"record\.json: line \d+ column \d+: not JSON \(.+\); truncated\?", p) for p in found), (
        found
    )
    assert "lacking-record.json: its turn 3 lacks state_json" in found
    assert "typed-record.json: its turn 0's number is not a whole number: '0'" in found
    assert "other-record.json: not a game record (its format is not 'pbem game record')" in found
    assert len(found) == 4  # the mails themselves still pass


def test_a_record_of_another_game_is_not_taken_for_the_game_the_player_was_sent(
    demo: Path, empires_demo: Path, tmp_path: Path
) -> None:
    own = kept_mails(empires_demo, tmp_path / "red", "red")
    shutil.copy(empires_demo / "site" / "record.json", own / "record.json")
    honest = check(own)
    assert honest.exit_code == 0 and record_line(honest), honest.output
    kept = kept_mails(demo, tmp_path / "kept")
    shutil.copy(empires_demo / "site" / "record.json", kept / "record.json")  # also a game named demo
    found = problems(check(kept))
    assert "record.json: game demo: the record's dice commitment is not the one your reports printed" in found
    assert any("the record's chain head is not the one" in p for p in found), found


def test_C_8_8_a_classic_game_that_one_turn_ends_has_a_record_that_replays(tmp_path: Path) -> None:
    game = caesar_capture_game(tmp_path)
    sent = game("submit", "rome1", str(game.orders("Egyptus", 1, CAPTURE)))
    assert sent.exit_code == 0, sent.output
    assert game("adjudicate", "rome1").exit_code == 0
    site, mails = tmp_path / "site", tmp_path / "mails"
    assert game("site", "rome1", "--out", str(site)).exit_code == 0
    assert game("send", "--eml-dir", str(mails)).exit_code == 0
    for folder, where in ((site, "record.json"), (mails, r"\d+-[eh]@example\.org\.eml \(record\.json\.gz\)")):
        result = check(folder)
        assert result.exit_code == 0, result.output
        # the setup is an imported position (`pbem new --from-snapshot`), which is not replayed; turn 1 is, and the
        # record of each player's mail is the same: replayed once
        line = record_line(result, where, "rome1")
        assert line and line.group(2) == "1" and line.group(3) == "0", result.output


def ended_with(tmp_path: Path, *lines: str, options: tuple[str, ...] = ()) -> tuple[Path, Path, Result]:
    """The Classic game that Egyptus's capture ends (C-5.31, C-8.8), his orders holding `lines` too: its site, the
    players' mails, and the output of `pbem site`."""
    game = caesar_capture_game(tmp_path, *options)
    sent = game("submit", "rome1", str(game.orders("Egyptus", 1, CAPTURE, *lines)))
    assert sent.exit_code == 0, sent.output
    assert game("adjudicate", "rome1").exit_code == 0
    site, mails = tmp_path / "site", tmp_path / "mails"
    published = game("site", "rome1", "--out", str(site))
    assert published.exit_code == 0 and game("send", "--eml-dir", str(mails)).exit_code == 0
    return site, mails, published


@pytest.mark.parametrize(
    ("line", "options"),
    [
        ("PRESS TO Hispania: keep this between us", ()),
        ("preß to Hispania: keep this between us", ()),  # read as the parser reads it: case folded
        ("BROADCAST: an offer to all", ("--anonymous-press",)),
    ],
    ids=["private press", "private press spelt otherwise", "anonymous broadcast"],
)
def test_a_game_whose_orders_hold_private_press_gets_no_record_by_mail_or_on_the_site(
    tmp_path: Path, line: str, options: tuple[str, ...]
) -> None:
    site, mails, published = ended_with(tmp_path, line, options=options)
    assert not (site / "record.json").exists()
    assert "the orders of turn(s) 1 hold private press" in published.output
    assert list(mails.glob("*.eml"))
    assert not any("record.json" in mail.read_text(encoding="utf-8") for mail in mails.glob("*.eml"))


@pytest.mark.parametrize("line", ["BROADCAST: an offer to all", "PRESS: an offer to all", "# PRESS TO Hispania: no"])
def test_a_broadcast_signed_by_its_sender_is_public_and_the_record_is_made(tmp_path: Path, line: str) -> None:
    site, mails, _ = ended_with(tmp_path, line)
    assert (site / "record.json").is_file()
    assert any("record.json.gz" in mail.read_text(encoding="utf-8") for mail in mails.glob("*.eml"))


def test_records_damaged_in_any_way_are_named_never_a_crash(demo: Path, tmp_path: Path) -> None:
    text = (publish(demo, tmp_path / "site") / "record.json").read_text(encoding="utf-8")
    folder = tmp_path / "records"
    folder.mkdir()
    packed = bytearray(gzip.compress(text.encode()))
    packed[20] ^= 0xFF  # damaged in transit
    (folder / "damaged-record.json.gz").write_bytes(bytes(packed))
    (folder / "nested-record.json").write_text("[" * 100_000, encoding="utf-8")
    (folder / "digits-record.json").write_text("9" * 5_000, encoding="utf-8")
    record = json.loads(text)
    record["turns"][0]["hidden_dice_json"] = "5"  # the setup's, which no replay deals
    record["turns"][2]["state_json"] = "9" * 5_000
    (folder / "fields-record.json").write_text(json.dumps(record), encoding="utf-8")
    record["game"]["game_data"] = "{" + "9" * 5_000
    (folder / "data-record.json").write_text(json.dumps(record), encoding="utf-8")
    result = check(folder)
    assert result.exit_code == 1 and "Traceback" not in result.output
    found = problems(result)
    named = {p.split(":")[0] for p in found}
    assert named >= {f.name for f in folder.iterdir()}, found
    assert any(p.startswith("fields-record.json: game demo: turn 2:") for p in found), found


def strip_chain_lines(folder: Path) -> None:
    """The mails of a game begun by an older version: no turn digests, no chain heads."""
    for mail in folder.glob("*.eml"):
        message = read_eml(mail)
        body = message.get_body(("plain",))
        text = body.get_content()
        kept = [line for line in text.splitlines() if not line.startswith(("Turn digest:", "Archive chain after"))]
        body.set_content("\n".join(kept) + "\n", charset="utf-8")
        mail.write_bytes(message.as_bytes())


def test_without_chain_heads_a_rewritten_game_is_caught_by_the_orders_hash_its_reports_printed(
    demo: Path, tmp_path: Path
) -> None:
    number = next(row.number for row in reversed(archive_turns(demo)) if row.orders_text and "," not in row.seat)
    kept = kept_mails(demo, tmp_path / "kept")
    last = kept / last_mail(demo, "aurel").name  # its own record set aside: the moderator's new one is checked
    last.write_bytes(last.read_bytes().replace(b"record.json.gz", b"set-aside.gz"))
    strip_chain_lines(kept)
    rewrite_from(demo, number, "\n# a line the moderator slipped in\n")
    shutil.copy(publish(demo, tmp_path / "site") / "record.json", kept / "record.json")
    found = problems(check(kept))
    assert any(
        p.startswith(f"record.json: game demo turn {number}: the record's orders hash is not the one ") for p in found
    ), found


def test_turns_of_the_record_that_no_kept_report_prints_are_named(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    (kept / last_mail(demo, "aurel").name).unlink()  # the last report mail lost
    shutil.copy(publish(demo, tmp_path / "site") / "record.json", kept / "record.json")
    result = check(kept)
    last = archive_turns(demo)[-1].number
    untied = re.search(
        r"^note +game demo: turn\(s\) ([\d, -]+) of the record \(record\.json\): no report", result.output, re.M
    )
    assert result.exit_code == 0 and untied, result.output
    assert untied.group(1).endswith(str(last))


def test_a_record_attached_to_a_mail_of_another_game_is_named(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    mail = kept / last_mail(demo, "aurel").name
    mail.write_bytes(mail.read_bytes().replace(b"Subject: [demo]", b"Subject: [other]", 1))
    found = problems(check(kept))
    assert f"{mail.name} (record.json.gz): the record of game demo, attached to a mail of game other" in found, found


def mails_of(address: str, mails: Path, into: Path, client: bool = False) -> Path:
    """The mails of `mails` that one player got, as he keeps them; `client`: under the names a mail client gives,
    "<subject> (<n>).eml"."""
    into.mkdir()
    for mail in mails.glob(f"*-{address}.eml"):
        subject = str(read_eml(mail)["Subject"]).replace("/", "_")
        shutil.copy(mail, into / (f"{subject} ({mail.name.split('-')[0]}).eml" if client else mail.name))
    return into


def test_a_roll_back_of_the_games_end_drops_its_queued_reports_which_would_mail_the_seed_and_record(
    tmp_path: Path,
) -> None:
    game = caesar_capture_game(tmp_path)
    assert game("submit", "rome1", str(game.orders("Egyptus", 1, CAPTURE))).exit_code == 0
    assert game("adjudicate", "rome1").exit_code == 0
    with Archive.in_folder(game.data).session() as session:
        seed = db.find_game(session, "rome1").seed
    assert game("gm", "rollback", "rome1", "--to", "0").exit_code == 0  # before the mails went out
    mails = tmp_path / "mails"
    sent = game("send", "--eml-dir", str(mails))
    assert sent.exit_code == 0, sent.output  # nothing stays queued
    texts = [mail.read_text(encoding="utf-8") for mail in mails.glob("*.eml")]
    assert sum("Rolled back to turn 0" in text for text in texts) == 2  # each seat is told
    assert not any("Report, turn 1" in text for text in texts)
    assert not any(seed in text or "record.json" in text for text in texts)  # the game goes on: its seed is secret


@pytest.mark.parametrize("client", [False, True], ids=["pbem's names", "a mail client's names"])
def test_after_a_roll_back_the_withdrawn_turns_reports_are_set_aside_and_the_record_passes(
    tmp_path: Path, client: bool
) -> None:
    game = caesar_capture_game(tmp_path)
    mails = tmp_path / "mails"
    assert game("submit", "rome1", str(game.orders("Egyptus", 1))).exit_code == 0  # a turn 1 that ends nothing
    assert game("adjudicate", "rome1").exit_code == 0
    assert game("send", "--eml-dir", str(mails)).exit_code == 0
    assert game("gm", "rollback", "rome1", "--to", "0").exit_code == 0
    assert game("submit", "rome1", str(game.orders("Egyptus", 1, CAPTURE))).exit_code == 0
    assert game("adjudicate", "rome1").exit_code == 0
    assert game("send", "--eml-dir", str(mails)).exit_code == 0
    result = check(mails_of("e@example.org", mails, tmp_path / "egyptus", client))
    # the report of the turn withdrawn came before the roll-back's notice: set aside, not held against the new one
    assert result.exit_code == 0, result.output
    assert re.search(
        r"^note +game rome1: turn\(s\) 1: the reports and receipts of them sent before the roll-back notice",
        result.output,
        re.M,
    )
    assert record_line(result, r".+\.eml \(record\.json\.gz\)", "rome1"), result.output
    # the private reports too: the withdrawn turn 1's is set aside, the welcome's setup and the new turn 1's compared
    assert re.search(r"^ok +game rome1: 2 private report\(s\) for Egyptus \(turn\(s\) 0-1\)", result.output, re.M)


def notice(folder: Path, subject: str, first_line: str) -> None:
    """A mail as pbem sends them (its Message-ID names a place in the outbox after every other)."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "pbem@localhost", "aurel@example.org", subject
    message["Message-ID"] = "<pbem.99999.0123456789abcdef@localhost>"
    message.set_content(first_line + "\n")
    (folder / "99999-aurel@example.org.eml").write_bytes(message.as_bytes())


def rolled_back(to: int) -> str:
    """The notice's line of a roll-back to turn `to` of the two turns after it (services/gm.py)."""
    return (
        f"The moderator rolled the game back to the position after turn {to}; turns {to + 1}, {to + 2} are withdrawn. "
        "Orders for them must be sent again."
    )


def test_a_roll_back_notice_counts_only_as_the_moderators_notice_not_quoted_in_press(
    demo: Path, tmp_path: Path
) -> None:
    to = archive_turns(demo)[-1].number - 2
    quoted = kept_mails(demo, tmp_path / "quoted")
    notice(quoted, "[demo] Press from kesh", rolled_back(to))  # another player's press quoting a notice
    result = check(quoted)
    assert result.exit_code == 0 and "roll-back notice" not in result.output, result.output
    told = kept_mails(demo, tmp_path / "told")
    notice(told, f"[demo] Rolled back to turn {to}", rolled_back(to))
    said = check(told).output
    assert re.search(rf"^note +game demo: turn\(s\) {to + 1}-{to + 2}: the reports and receipts", said, re.M), said


def test_a_record_is_read_up_to_its_size_limit_and_not_a_byte_over(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small gzip file may unpack to gigabytes: the check unpacks a record up to the limit only."""
    from adjudicator.services import verify_reports

    kept = kept_mails(demo, tmp_path / "kept")
    message = read_eml(kept / last_mail(demo, "aurel").name)
    packed = next(p for p in message.iter_attachments() if p.get_filename() == "record.json.gz")
    size = len(gzip.decompress(packed.get_payload(decode=True)))
    monkeypatch.setattr(verify_reports, "RECORD_MOST_BYTES", size)
    assert record_line(check(kept))
    monkeypatch.setattr(verify_reports, "RECORD_MOST_BYTES", size - 1)
    found = problems(check(kept))
    assert found == [
        f"{last_mail(demo, 'aurel').name} (record.json.gz): over {size - 1} bytes, too large for a game's record: "
        "not read"
    ], found


def test_a_record_mailed_before_a_roll_back_of_the_games_end_is_set_aside(tmp_path: Path) -> None:
    game = caesar_capture_game(tmp_path)
    mails = tmp_path / "mails"
    for ending in ("# the first ending", "# the ending played again"):
        assert game("submit", "rome1", str(game.orders("Egyptus", 1, CAPTURE, ending))).exit_code == 0
        assert game("adjudicate", "rome1").exit_code == 0
        assert game("send", "--eml-dir", str(mails)).exit_code == 0  # each ending's mails carry its record
        if ending == "# the first ending":
            assert game("gm", "rollback", "rome1", "--to", "0").exit_code == 0
    result = check(mails_of("e@example.org", mails, tmp_path / "egyptus"))
    assert result.exit_code == 0, result.output
    assert re.search(
        r"^note +game rome1: the record attached to a mail before the roll-back notice", result.output, re.M
    )
    assert len(re.findall(r"its record \(", result.output)) == 1  # the record of the ending played again


def test_the_last_mails_of_an_empires_game_ask_for_no_more_orders(empires_demo: Path) -> None:
    for seat in ("blue", "green", "red"):
        mails = sorted((empires_demo / "mail").glob(f"*-{seat}@*.eml"), key=lambda p: int(p.name.split("-")[0]))
        text = read_eml(mails[-1]).get_body(("plain",)).get_content()
        assert "Attached is its record" in text and "You order next" not in text, seat
