"""`pbem verify --from-reports DIR`: a player checks the moderator from the reports he kept, with no archive
(services/verify_reports.py). The reports are real: the mails and the site of the Conqueror demo, a whole game
played by mail by the tool (tests/conftest.py conqueror_demo), and of short games of the other rulesets; the
moderator's edits are made to a copy of its archive and re-published with `pbem site`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.cli import app
from adjudicator.engine.chance import KeyedDice, orders_commitment
from adjudicator.services.chain import chain_hash
from adjudicator.services.turn import step_seats
from tests.conftest import SEATS, Pbem

SEAT = "aurel"  # the player whose mails are kept


def check(folder: Path) -> Result:
    return CliRunner().invoke(app, ["verify", "--from-reports", str(folder)])


def kept_mails(demo: Path, into: Path, seat: str = SEAT) -> Path:
    """The mails one player received, as he saved them."""
    into.mkdir(parents=True, exist_ok=True)
    for mail in (demo / "mail").glob(f"*-{seat}@*.eml"):
        shutil.copy(mail, into / mail.name)
    return into


def problems(result: Result) -> list[str]:
    return [line.removeprefix("PROBLEM").strip() for line in result.output.splitlines() if line.startswith("PROBLEM")]


def turn_with_draws(demo: Path) -> int:
    """A turn whose public report prints draws (a battle's dice)."""
    with Archive.in_folder(demo).session() as session:
        turns = db.turns(session, db.find_game(session, "demo"))
        return next(row.number for row in turns if json.loads(row.dice_json))


def test_an_honest_game_passes_from_a_players_mails_with_every_draw_recomputed_and_the_seed_checked(
    demo: Path, tmp_path: Path
) -> None:
    result = check(kept_mails(demo, tmp_path / "kept"))
    assert result.exit_code == 0, result.output
    assert not problems(result)
    turns = re.findall(r"^ok +game demo turn (\d+): (.*)$", result.output, re.MULTILINE)
    numbers = [int(n) for n, _ in turns]
    assert numbers == sorted(numbers) and numbers[-1] > 20
    drawn = sum(int(m) for _, said in turns for m in re.findall(r"(\d+) draw\(s\) recomputed", said))
    assert drawn > 5  # the battles' dice, recomputed from each turn's key, orders hash and the printed purposes
    assert all("hashes down to" in said for n, said in turns if int(n) > 0)
    # the game ended: its last report reveals the seed, which makes the commitment
    assert "game demo: the revealed seed makes the dice commitment and every turn key read" in result.output


def test_the_public_report_prints_each_draw_with_its_purpose_and_faces(demo: Path) -> None:
    number = turn_with_draws(demo)
    report = (demo / "games" / "demo" / f"turn-{number:04d}" / "report.txt").read_text()
    draws = re.findall(r"^      draw (\d+) of 1-(\d+): (\d+) \((.+)\)$", report, re.MULTILINE)
    rolls = re.search(r"; rolls: ([\d ]+)$", report, re.MULTILINE)
    assert draws and rolls
    assert [int(value) for _, _, value, _ in draws] == [int(v) for v in rolls.group(1).split()]
    assert [int(n) for n, _, _, _ in draws] == list(range(1, len(draws) + 1))


def test_the_site_a_player_saved_and_the_turn_files_pass_too(demo: Path) -> None:
    assert check(demo / "site").exit_code == 0
    assert check(demo / "games").exit_code == 0


def test_at_the_games_end_the_site_shows_the_hidden_draws_and_the_check_recomputes_them_from_the_seed(
    demo: Path, tmp_path: Path
) -> None:
    result = check(demo / "site")
    assert result.exit_code == 0, result.output
    recomputed = re.search(
        r"^ok +game demo: (\d+) hidden draw\(s\) of \d+ turn\(s\) recomputed from the revealed seed",
        result.output,
        re.M,
    )
    assert recomputed and int(recomputed.group(1)) > 10  # the decks' shuffles of the setup
    saved = Path(shutil.copytree(demo / "site", tmp_path / "saved"))
    page = next(p for p in sorted(saved.glob("turn-*.html")) if 'id="hidden-draws"' in p.read_text())
    lines = page.read_text().splitlines()
    at = next(i for i, text in enumerate(lines) if text.startswith("draw "))
    drawn = re.match(r"(draw \d+ of 1-(\d+): )(\d+)", lines[at])
    other = int(drawn.group(3)) % int(drawn.group(2)) + 1  # another face of the same die
    lines[at] = lines[at].replace(drawn.group(0), f"{drawn.group(1)}{other}", 1)
    page.write_text("\n".join(lines) + "\n")
    found = problems(check(saved))
    assert any(
        p.startswith(f"{page.name}:{at + 1}: game demo turn ") and "gives" in p and "revealed seed" in p for p in found
    ), found


def test_mails_in_any_order_and_with_gaps_pass_and_the_gap_is_named(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    mails = sorted(kept.glob("*.eml"), key=lambda p: int(p.name.split("-")[0]))
    for mail in mails[len(mails) // 3 : len(mails) // 2]:  # a player who lost some mails
        mail.unlink()
    for mail in kept.glob("*.eml"):  # and saved the others under other names
        mail.rename(kept / f"saved-{len(mail.name) % 7}-{mail.name}")
    result = check(kept)
    assert result.exit_code == 0, result.output
    assert re.search(r"no report of turn\(s\) \d+", result.output)


def republish(demo: Path, tmp_path: Path) -> Path:
    """The moderator publishes the game's site again, from his archive as it now stands."""
    site = tmp_path / "republished"
    published = CliRunner().invoke(app, ["site", "demo", "--out", str(site), "--data", str(demo)])
    assert published.exit_code == 0, published.output
    return site


def test_reports_in_every_language_are_read_and_a_die_changed_in_one_is_caught(demo: Path, tmp_path: Path) -> None:
    number = turn_with_draws(demo)
    folder = tmp_path / "languages"
    folder.mkdir()
    for language in ("en", "de", "it", "nl"):
        shown = CliRunner().invoke(
            app, ["report", "demo", "--turn", str(number), "--language", language, "--data", str(demo)]
        )
        assert shown.exit_code == 0, shown.output
        (folder / f"report-{language}.txt").write_text(shown.output)
    result = check(folder)
    assert result.exit_code == 0, result.output
    assert re.search(rf"^ok +game demo turn {number}: .*[1-9] draw\(s\) recomputed, 4 copies read", result.output, re.M)
    german = folder / "report-de.txt"
    text = german.read_text()
    drawn = re.search(r"^      Wurf 1 von 1-6: (\d)", text, re.M)
    assert drawn
    german.write_text(text.replace(drawn.group(0), drawn.group(0)[:-1] + str(int(drawn.group(1)) % 6 + 1)))
    found = problems(check(folder))
    assert any(p.startswith("report-de.txt:") and f"turn {number}: draw 1 (" in p and "gives" in p for p in found), (
        found
    )


def test_a_die_changed_in_the_archive_after_the_reports_went_out_is_caught_naming_the_turn(
    demo: Path, tmp_path: Path
) -> None:
    number = turn_with_draws(demo)
    with Archive.in_folder(demo).session() as session:
        game = db.find_game(session, "demo")
        row = next(r for r in db.turns(session, game) if r.number == number)
        dice = json.loads(row.dice_json)
        dice[0][1] = dice[0][1] % 6 + 1  # another face
        row.dice_json = json.dumps(dice)
        session.add(row)
        session.commit()
    kept = kept_mails(demo, tmp_path / "player")
    shutil.copytree(republish(demo, tmp_path), kept / "site")
    result = check(kept)
    assert result.exit_code == 1
    found = problems(result)
    assert any(f"game demo turn {number}: the reports do not agree on its rolls" in p for p in found), found
    # the re-published page's draw does not follow from the turn's key: named with its file and line
    assert any(
        re.search(rf"site/turn-{number:04d}\.html:\d+: game demo turn {number}: draw 1 .* gives", p) for p in found
    )
    assert re.search(rf"^FAILED +game demo turn {number}: ", result.output, re.MULTILINE)
    assert re.search(rf"^ok +game demo turn {number - 1}: ", result.output, re.MULTILINE)


def test_a_turns_orders_rewritten_with_consistent_dice_and_chain_are_caught_by_the_kept_mails(
    demo: Path, tmp_path: Path
) -> None:
    """A moderator who holds the seed rewrites a turn's orders, re-rolls its dice from the new orders hash and
    re-links the archive's chain from there on: the archive agrees with itself, and its site with the dice; the
    mails the player kept do not."""
    number = turn_with_draws(demo)
    with Archive.in_folder(demo).session() as session:
        game = db.find_game(session, "demo")
        turns = db.turns(session, game)
        previous = game.commitment
        for row in turns:
            if row.number == number:
                row.orders_text += "\n# an order the moderator slipped in\n"
                row.orders_hash = orders_commitment(bytes.fromhex(row.orders_key), [row.orders_text])
                dice = KeyedDice(key=bytes.fromhex(row.turn_key), orders_hash=row.orders_hash)
                faces = json.loads(row.dice_faces)
                row.dice_json = json.dumps(
                    [
                        [purpose, dice.roll(purpose, count)]
                        for (purpose, _), count in zip(json.loads(row.dice_json), faces, strict=True)
                    ]
                )
            if row.number >= number:
                row.chain = chain_hash(previous, row, game.chain_version)
                session.add(row)
            previous = row.chain
        game.chain_head = previous
        session.add(game)
        session.commit()
    site = republish(demo, tmp_path)
    # the game's record, which the site offers at the end, replays as the moderator's own verify does: with dice
    # that give another battle, the turn is named by both (dice that give the same battle make a consistent rewrite)
    own = problems(CliRunner().invoke(app, ["verify", "demo", "--data", str(demo)]))
    replayed = problems(check(site))
    differs = any(p.startswith(f"turn {number} (") and "replay differs" in p for p in own)
    assert differs == any(
        p.startswith(f"record.json: game demo: turn {number} (") and "replay differs" in p for p in replayed
    )
    (site / "record.json").unlink()
    assert check(site).exit_code == 0  # the rewritten site alone agrees with itself and with the dice
    kept = kept_mails(demo, tmp_path / "player")
    shutil.copytree(site, kept / "site")
    result = check(kept)
    assert result.exit_code == 1
    found = problems(result)
    assert any(f"game demo turn {number}: the reports do not agree on its orders hash" in p for p in found), found
    assert any(f"game demo turn {number}: the reports do not agree on its archive chain head" in p for p in found)
    assert any(f"game demo turn {number + 1}: the reports do not agree on its archive chain head" in p for p in found)
    assert not any(f"turn {number - 1}:" in p for p in found)  # the turns before the edit agree


def test_the_heads_follow_from_turn_to_turn_and_a_turn_republished_alone_breaks_the_next_link(
    demo: Path, tmp_path: Path
) -> None:
    """Each head is SHA-256 of the head before it and the turn's digest, both printed: a moderator who changes a
    turn and publishes it again with its new head, but not the heads after it, is caught by the site alone."""
    site = republish(demo, tmp_path)
    honest = check(site)
    assert honest.exit_code == 0, honest.output
    assert re.search(r"game demo: (\d+) chain link\(s\) followed", honest.output)
    number = turn_with_draws(demo)
    with Archive.in_folder(demo).session() as session:
        game = db.find_game(session, "demo")
        turns = {row.number: row for row in db.turns(session, game)}
        row = turns[number]
        row.results_json += " "  # stored otherwise than it was: the turn's digest changes
        row.chain = chain_hash(turns[number - 1].chain, row, game.chain_version)
        session.add(row)
        session.commit()
    result = check(republish(demo, tmp_path / "again"))
    assert result.exit_code == 1
    found = problems(result)
    assert any(
        f"game demo turn {number + 1}: its chain head does not follow from turn {number}'s head and its digest" in p
        for p in found
    ), found
    assert not any(f"turn {number}: its chain head does not follow" in p for p in found)  # its own link holds


def test_a_digest_changed_in_one_copy_is_caught(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "player")
    number = turn_with_draws(demo)
    text = (demo / "games" / "demo" / f"turn-{number:04d}" / "report.txt").read_text()
    digest = re.search(r"Turn digest: ([0-9a-f]{64})", text).group(1)
    (kept / "report.txt").write_text(text.replace(digest, "0" * 64))
    result = check(kept)
    assert result.exit_code == 1
    found = problems(result)
    assert any(f"game demo turn {number}: the reports do not agree on its turn digest" in p for p in found), found


def test_the_moderators_verify_names_a_turn_whose_stored_faces_were_edited(demo: Path) -> None:
    """The faces stored beside the dice are what the reports print: a replay makes them again."""
    number = turn_with_draws(demo)
    assert CliRunner().invoke(app, ["verify", "demo", "--data", str(demo)]).exit_code == 0
    with Archive.in_folder(demo).session() as session:
        row = next(r for r in db.turns(session, db.find_game(session, "demo")) if r.number == number)
        row.dice_faces = json.dumps([7 for _ in json.loads(row.dice_faces)])
        session.add(row)
        session.commit()
    result = CliRunner().invoke(app, ["verify", "demo", "--data", str(demo)])
    assert result.exit_code == 1
    assert f"turn {number} (" in result.output and "replay differs in dice_faces" in result.output


def test_a_report_file_rewritten_is_caught_naming_the_turn_and_both_places(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "player")
    number = turn_with_draws(demo)
    page = demo / "site" / f"turn-{number:04d}.html"
    text = page.read_text()
    head = re.search(r"Archive chain after this turn: ([0-9a-f]{64})", text).group(1)
    (kept / page.name).write_text(text.replace(head, "0" * 64))
    result = check(kept)
    assert result.exit_code == 1
    (found,) = [p for p in problems(result) if "agree on its archive chain head" in p]
    assert f"game demo turn {number}:" in found and f"{page.name}:" in found and ".eml (mail text):" in found


def test_a_truncated_or_garbled_report_is_named_with_its_line_not_a_crash(demo: Path, tmp_path: Path) -> None:
    number = turn_with_draws(demo)
    report = (demo / "games" / "demo" / f"turn-{number:04d}" / "report.txt").read_text().splitlines()
    key_line = next(i for i, line in enumerate(report) if line.startswith("Dice: turn key "))
    draw_line = next(i for i, line in enumerate(report) if line.startswith("      draw 1 of"))
    folder = tmp_path / "files"
    folder.mkdir()
    garbled = list(report)
    garbled[key_line] = garbled[key_line][:-10] + "zz" + garbled[key_line][-8:]
    (folder / "garbled.txt").write_text("\n".join(garbled))
    (folder / "truncated.txt").write_text("\n".join(report[: draw_line + 1]) + "\n      draw 2 of 1-")
    (folder / "cut-short.txt").write_text("\n".join(report[: key_line + 1]))
    heading = next(i for i, line in enumerate(report) if line.startswith(f"=== Turn {number}"))
    (folder / "headed.txt").write_text("\n".join(report[: heading + 3]))  # cut before its dice line
    far = list(report)  # a garbled turn number: named at once, not walked down a chain it is not on
    far[heading] = far[heading].replace(f"Turn {number}", "Turn 99999999", 1)
    (folder / "far.txt").write_text("\n".join(far))
    result = check(folder)
    assert result.exit_code == 1
    found = problems(result)
    assert f"garbled.txt:{key_line + 1}: turn {number}'s key is garbled: " in "\n".join(found)
    assert any(p.startswith(f"truncated.txt:{draw_line + 2}: turn {number}'s draw line is garbled") for p in found)
    assert any(p.startswith("cut-short.txt:") and "ends before its orders hash line" in p for p in found)
    assert f"headed.txt:{heading + 1}: game demo turn {number}: the report ends before its dice line" in found
    assert f"far.txt:{heading + 1}: game demo: turn 99999999 is beyond the dice chain (10000 keys)" in found


def test_a_key_that_does_not_follow_the_chain_is_caught(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "player")
    number = turn_with_draws(demo)
    text = (demo / "games" / "demo" / f"turn-{number:04d}" / "report.txt").read_text()
    key = re.search(r"Dice: turn key ([0-9a-f]{64})", text).group(1)
    forged = ("f" if key[0] != "f" else "e") + key[1:]
    (kept / "report.txt").write_text(text.replace(key, forged))  # a report file with another key
    result = check(kept)
    assert result.exit_code == 1
    found = problems(result)
    assert any(f"game demo turn {number}: the reports do not agree on its turn key" in p for p in found), found
    assert any(
        p.startswith("report.txt:") and f"turn {number}: its key does not hash down to turn {number - 1}'s key" in p
        for p in found
    )


@pytest.mark.parametrize(("ruleset", "seat"), [("coe-1984", "macedonia"), ("empires-aw", "red")])
def test_every_ruleset_s_mails_pass(ruleset: str, seat: str, tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    played = CliRunner().invoke(app, ["demo", "--ruleset", ruleset, "--turns", "24", "--data", str(folder)])
    assert played.exit_code == 0, played.output
    result = check(kept_mails(folder, tmp_path / "kept", seat))
    assert result.exit_code == 0, result.output
    assert re.search(r"game demo turn \d+: its key hashes down", result.output)
    # a game that goes on has no record yet: the reports' texts wait for it
    waits = r"^note +game demo: its \d+ report\(s\) are not held to the game's record: the folder holds none \("
    assert re.search(waits, result.output, re.M), result.output


def test_verify_needs_a_game_or_a_folder_and_a_folder_that_is_not_there_is_a_problem(tmp_path: Path) -> None:
    neither = CliRunner().invoke(app, ["verify"])
    assert neither.exit_code != 0 and "--from-reports" in neither.output
    missing = check(tmp_path / "nowhere")
    assert missing.exit_code == 1 and "not a folder" in missing.output
    (tmp_path / "empty").mkdir()
    empty = check(tmp_path / "empty")
    assert empty.exit_code == 1 and "no report of any game found" in empty.output


def test_the_scripted_classic_games_turn_files_pass(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    assert CliRunner().invoke(app, ["demo", "--data", str(folder)]).exit_code == 0
    result = check(folder / "games")
    assert result.exit_code == 0, result.output
    assert re.search(r"game demo turn \d+: its key hashes down to turn \d+'s key, [1-9]\d* draw", result.output)


def sealed_turns(demo: Path) -> list[int]:
    """The demo's steps of several seats (ER-5's sealed plans), which commit to each seat's orders apart."""
    with Archive.in_folder(demo).session() as session:
        return [row.number for row in db.turns(session, db.find_game(session, "demo")) if "," in (row.seat or "")]


def test_at_the_end_the_players_receipts_confirm_each_turn_he_ordered_in_sealed_steps_too(
    demo: Path, tmp_path: Path
) -> None:
    with Archive.in_folder(demo).session() as session:
        turns = db.turns(session, db.find_game(session, "demo"))
        mine = [row.number for row in turns if SEAT in step_seats(row)]
    sealed = sealed_turns(demo)
    result = check(kept_mails(demo, tmp_path / "kept"))
    assert result.exit_code == 0, result.output
    said = re.search(
        r"game demo: (\d+) turn\(s\) resolved with the orders your last receipt of each confirmed"
        r"(?:; (\d+) turn\(s\) of your seat with no receipt resolved with no orders)?",
        result.output,
    )
    assert said, result.output
    assert int(said.group(1)) + int(said.group(2) or 0) == len(mine) and int(said.group(1)) > len(sealed) > 2


def test_a_seats_commitment_changed_in_a_report_no_longer_makes_the_steps_orders_hash(
    demo: Path, tmp_path: Path
) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    number = sealed_turns(demo)[0]
    report = (demo / "games" / "demo" / f"turn-{number:04d}" / "report.txt").read_text()
    line = re.search(rf"^      orders commitment of {SEAT}: ([0-9a-f]{{64}})$", report, re.M)
    assert line, report
    edited = tmp_path / "kept" / "report.txt"  # the report file, one digit of his commitment changed
    edited.write_text(report.replace(line.group(1), line.group(1)[:-1] + ("0" if line.group(1)[-1] != "0" else "1")))
    found = problems(check(kept))
    assert any(
        p.startswith("report.txt:") and f"turn {number}: its orders hash is not SHA-256 of its seats' commitments" in p
        for p in found
    ), found
    assert any(f"turn {number}: the reports do not agree on its seats' commitments" in p for p in found), found


def test_the_moderators_verify_names_a_sealed_step_whose_seats_texts_were_edited(demo: Path) -> None:
    number = sealed_turns(demo)[0]
    with Archive.in_folder(demo).session() as session:
        row = next(r for r in db.turns(session, db.find_game(session, "demo")) if r.number == number)
        texts = json.loads(row.seat_orders)
        texts[SEAT] += "# added\n"
        row.seat_orders = json.dumps(texts)
        session.add(row)
        session.commit()
    verified = CliRunner().invoke(app, ["verify", "demo", "--data", str(demo)])
    assert verified.exit_code == 1
    assert f"turn {number}: its seats' order texts do not make its orders text: the turn was edited" in verified.output


def test_an_event_that_begins_like_a_draw_line_in_german_is_read_as_an_event(
    empires_demo: Path, tmp_path: Path
) -> None:
    """German "Wurf für den Startspieler: 3 (EAW-3.11)." begins as a draw line ("Wurf 1 von 1-3: 3 (...)") does:
    a draw line is read only below its turn's dice line."""
    folder = tmp_path / "german"
    folder.mkdir()
    for number in (1, 2, 3):
        shown = CliRunner().invoke(
            app, ["report", "demo", "--turn", str(number), "--language", "de", "--data", str(empires_demo)]
        )
        assert shown.exit_code == 0, shown.output
        (folder / f"report-{number}.txt").write_text(shown.output)
    assert re.search(r"^  Wurf für ", (folder / "report-2.txt").read_text(), re.M)  # the event
    result = check(folder)
    assert result.exit_code == 0 and not problems(result), result.output
    assert re.search(r"^ok +game demo turn 2: .*[1-9] draw\(s\) recomputed", result.output, re.M), result.output


def test_a_mail_part_in_an_unknown_charset_is_read_as_utf8_not_a_crash(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    mail = sorted(kept.glob("*.eml"))[0]
    raw = mail.read_bytes()
    assert b'charset="utf-8"' in raw
    mail.write_bytes(raw.replace(b'charset="utf-8"', b'charset="x-bogus"'))
    result = check(kept)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0 and not problems(result), result.output


def test_a_game_begun_from_an_imported_position_reports_it_as_its_setup_and_the_players_check_passes(
    pbem: Pbem, tmp_path: Path
) -> None:
    """`pbem new --from-snapshot`: no turn was played to reach the position, so its report is the game's setup (the
    seats, the dice commitment), not a turn of a dice file with an empty orders hash."""
    pbem.new_game()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0
    assert pbem("adjudicate", "rome1").exit_code == 0
    position = pbem.data / "games" / "rome1" / "turn-0001" / "snapshot.json"
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    assert pbem("new", "s", "--from-snapshot", str(position), *seats).exit_code == 0
    assert "=== Turn 1: setup ===" in (pbem.data / "games" / "s" / "turn-0001" / "report.txt").read_text("utf-8")
    mails, kept = tmp_path / "mails", tmp_path / "kept"
    assert pbem("send", "--eml-dir", str(mails)).exit_code == 0
    kept.mkdir()
    for mail in mails.rglob("*.eml"):
        if mail.name.endswith(f"-{SEATS['Egyptus']}.eml") and "Subject: [s] " in mail.read_text("utf-8"):
            shutil.copy(mail, kept / mail.name)
    result = check(kept)
    assert result.exit_code == 0, result.output
    assert re.search(r"^ok +game s turn 1: the setup", result.output, re.M), result.output
