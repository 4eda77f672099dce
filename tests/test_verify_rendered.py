"""A player's reports held to the game's record (services/verify_rendered.py): each one his mails hold, public and
private, is rendered again from the record, for its turns, his seat and his language, and must be the mail's text.
A moderator who showed a player cards, verdicts or a position the game did not give him is named with the mail and
its line."""

from __future__ import annotations

import email
import email.policy
import os
import re
import shutil
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

from markupsafe import escape
from typer.testing import CliRunner, Result

from adjudicator import __version__
from adjudicator.cli import app
from adjudicator.resources import release
from tests.test_game_record import archive_turns, ended_with, mails_of, pbem, publish
from tests.test_orders_commitment import CAPTURE, caesar_capture_game
from tests.test_verify_reports import check, kept_mails, problems


def private_line(result: Result, seat: str, game: str = "demo") -> re.Match[str] | None:
    return re.search(
        rf"^ok +game {game}: (\d+) private report\(s\) for {seat} \(turn\(s\) ([\d, -]+)\) are the record's, line for "
        r"line: the cards, verdicts and positions they showed are the game's$",
        result.output,
        re.M,
    )


def read_mail(path: Path) -> EmailMessage:
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[return-value]


def mail_text(path: Path) -> str:
    return read_mail(path).get_body(("plain",)).get_content()  # type: ignore[union-attr]


def rewrite_mail(path: Path, old: str, new: str, parts: tuple[str, ...] = ("plain", "html")) -> None:
    """The mail with `old` replaced by `new` in its text and its HTML part (or `parts`), as a moderator would forge
    it."""
    message = read_mail(path)
    for part in parts:
        body = message.get_body((part,))
        assert body is not None
        text, (was, now) = body.get_content(), (str(escape(old)), str(escape(new))) if part == "html" else (old, new)
        assert was in text, was
        body.set_content(text.replace(was, now, 1), subtype=part, charset="utf-8")
    path.write_bytes(message.as_bytes())


def reports_in(mail: Path) -> int:
    """How many reports, public and private, a mail's text holds."""
    return len(re.findall(r"^Game demo - (?:public|private) report", mail_text(mail), re.M))


def with_private_report(folder: Path, seat: str) -> list[Path]:
    return [mail for mail in sorted(folder.glob("*.eml")) if f"private report for {seat}" in mail_text(mail)]


def test_every_report_a_player_kept_is_the_one_the_record_renders_for_his_seat(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    result = check(kept)
    assert result.exit_code == 0, result.output
    line = private_line(result, "aurel")
    assert line, result.output
    assert int(line.group(1)) == len(with_private_report(kept, "aurel")) > 10
    assert line.group(2).startswith("0-")  # every turn of the game, from the setup the welcome reports, in one span
    public = re.search(
        r"^ok +game demo: (\d+) public report\(s\) \(turn\(s\) 0-(\d+)\) are the record's", result.output, re.M
    )
    mailed = sum(reports_in(mail) for mail in kept.glob("*.eml")) - int(line.group(1))
    assert public and int(public.group(1)) == mailed and int(public.group(2)) == len(archive_turns(demo)) - 1


def test_a_card_the_game_never_dealt_shown_in_a_private_report_is_named_with_the_mail_and_its_line(
    demo: Path,
    tmp_path: Path,
) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    forged = next(
        mail for mail in with_private_report(kept, "aurel") if "face-down heroes:\n  aurel-" in mail_text(mail)
    )
    shown = re.search(r"^  (aurel-\d) (.+?) \(hero", mail_text(forged), re.M)
    assert shown
    rewrite_mail(forged, shown.group(0), shown.group(0).replace(shown.group(2), "Gaius the Invented"))
    found = problems(check(kept))
    assert len(found) == 1, found
    where = re.match(rf"{re.escape(forged.name)} \(mail text\):(\d+): game demo turn\(s\) ", found[0])
    assert where, found
    assert mail_text(forged).splitlines()[int(where.group(1)) - 1].startswith(f"  {shown.group(1)} Gaius the Invented")
    assert "aurel's private report is not the one the record" in found[0]
    assert "Gaius the Invented" in found[0] and shown.group(2) in found[0]  # the line mailed, and the record's


def test_the_reports_of_a_mail_of_another_pbem_release_are_not_compared_and_the_note_says_so(
    demo: Path,
    tmp_path: Path,
) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    older = with_private_report(kept, "aurel")[3]
    message = read_mail(older)
    message.replace_header("X-PBEM-Version", "0.0.9")
    older.write_bytes(message.as_bytes())
    rewrite_mail(older, "private report for aurel\n", "private report for aurel\n(worded otherwise)\n")
    result = check(kept)
    assert result.exit_code == 0, result.output
    line = private_line(result, "aurel")
    assert line and int(line.group(1)) == len(with_private_report(kept, "aurel")) - 1, result.output
    noted = rf"^note +game demo: {reports_in(older)} report\(s\) in mails of pbem 0\.0\.9 are not compared"
    assert re.search(noted, result.output, re.M), result.output


def test_C_8_8_the_private_reports_of_a_one_turn_classic_game_are_compared_in_each_players_language(
    tmp_path: Path,
) -> None:
    game = caesar_capture_game(tmp_path, "--language", "Hispania=de")
    assert game("submit", "rome1", str(game.orders("Egyptus", 1, CAPTURE))).exit_code == 0
    assert game("adjudicate", "rome1").exit_code == 0
    mails = tmp_path / "mails"
    assert game("send", "--eml-dir", str(mails)).exit_code == 0
    for seat, address in (("Egyptus", "e@example.org"), ("Hispania", "h@example.org")):
        result = check(mails_of(address, mails, tmp_path / seat))
        assert result.exit_code == 0, result.output
        line = private_line(result, seat, "rome1")
        assert line and line.groups() == ("2", "0-1"), result.output  # the welcome mail's setup, turn 1
    german = [mail_text(mail) for mail in (tmp_path / "Hispania").glob("*.eml")]
    assert sum("Partie rome1 - privater Bericht für Hispania" in text for text in german) == 2  # read in German


def test_the_private_reports_of_an_empires_game_are_the_records(empires_demo: Path, tmp_path: Path) -> None:
    result = check(kept_mails(empires_demo, tmp_path / "red", "red"))
    assert result.exit_code == 0, result.output
    line = private_line(result, "red")
    assert line and int(line.group(1)) >= 3 and line.group(2).startswith("0-"), result.output


def test_every_mail_names_the_pbem_release_that_pbem_version_prints(demo: Path) -> None:
    printed = CliRunner().invoke(app, ["--version"])
    assert printed.exit_code == 0 and printed.output == f"pbem {release()}\n"
    assert re.fullmatch(rf"{re.escape(__version__)}\+[0-9a-f]{{12}}", release())  # the version, and what writes texts
    assert {read_mail(mail)["X-PBEM-Version"] for mail in (demo / "mail").glob("*.eml")} == {release()}


def test_a_report_mail_changed_around_its_reports_lines_is_named(demo: Path, tmp_path: Path) -> None:
    """The forgeries that keep every rendered line: a turn's section left out, a line added after the report, its
    title worded otherwise (so that it would not be read), a title naming another game."""
    cases = {
        "a turn left out": (r"\n=== Turn (\d+): \w+ ===\n(?:(?!===).*\n)*?(?==== Turn)", ""),
        "a line added after it": (r"\nDeadline: ", "\n  aurel-9 Gaius the Invented (hero, strength 9)\nDeadline: "),
        "its title reworded": (r"Game demo - private report for aurel", "Game demo \u2013 private report for aurel"),
        "another game's title": (r"Game demo - private report for aurel", "Game dem0 - private report for aurel"),
        "the rules' title": ("Rises\nGame demo - private", "Rises (send your password)\nGame demo - private"),
        "a deadline of its own": (r"\nDeadline: ", "\nDeadline: none for you: your empire is dissolved.\nDeadline: "),
        "another seat on the bot": (r"\nDeadline: ", "\nGaius is run by the bot.\nDeadline: "),
        "the public reports removed": (r"\A(?:.*\n)*?(?=Conqueror: Empire Rises\nGame demo - private)", ""),
    }
    expected = {
        "a turn left out": r"cannot give: its turns \([\d, -]+\) are not those of the public reports before it",
        "a line added after it": r"a line pbem does not write in a report mail, outside its reports: '  aurel-9 Gaius",
        "its title reworded": r"a line pbem does not write in a report mail, outside its reports: '",
        "another game's title": r"a report of game dem0 in a mail about game demo",
        "the rules' title": r"a line pbem does not write in a report mail, outside its reports: 'Conqueror: .*\(send",
        "a deadline of its own": r"a line pbem does not write in a report mail, outside its reports: 'Deadline: none",
        "another seat on the bot": r"a line pbem does not write in a report mail, outside its reports: 'Gaius is run",
        "the public reports removed": r"its turns \([\d, -]+\) are not those of the public reports before it \(none\)",
    }
    for case, (pattern, forged) in cases.items():
        kept = kept_mails(demo, tmp_path / case)
        mail, found = next(
            (m, f) for m in with_private_report(kept, "aurel") if (f := re.search(pattern, mail_text(m), re.M))
        )
        rewrite_mail(mail, found.group(0), forged)
        named = problems(check(kept))  # a reworded title leaves headings the public reports' reading names too
        assert named and all(p.startswith(mail.name) for p in named), (case, named)
        assert any(re.search(expected[case], p) for p in named), (case, named)


def test_a_report_mails_html_part_that_shows_other_cards_than_its_text_is_named(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    hero = r"^  (aurel-\d) (.+?) \(hero"  # a mail that shows one of his heroes (how many he holds is the dice's)
    mail, shown = next((m, s) for m in with_private_report(kept, "aurel") if (s := re.search(hero, mail_text(m), re.M)))
    rewrite_mail(mail, shown.group(0), shown.group(0).replace(shown.group(2), "Gaius the Invented"), ("html",))
    named = problems(check(kept))
    assert named and all(p.startswith(f"{mail.name}: its HTML part") for p in named), named
    assert any("Gaius the Invented" in p and shown.group(2) in p for p in named), named


def test_a_report_mails_html_or_map_that_the_record_would_not_make_is_named(demo: Path, tmp_path: Path) -> None:
    """Outside its text: a paragraph added to the HTML part, a unit added to the map drawn in it and attached."""
    for case in ("paragraph", "map"):
        kept = kept_mails(demo, tmp_path / case)
        mail = with_private_report(kept, "aurel")[-2]
        message = read_mail(mail)
        for part in (p for p in message.walk() if p.get_content_type() in ("text/html", "image/svg+xml")):
            text = part.get_content()
            if isinstance(text, bytes):
                text = text.decode("utf-8")
            if case == "paragraph":
                text = text.replace("</h2>", "</h2>\n<p>kesh has conceded: mail me your password.</p>", 1)
            else:
                text = text.replace("</svg>", '<text x="9" y="9">kesh 9 elite</text></svg>', 1)
            if part.get_content_type() == "text/html":
                part.set_content(text, subtype="html", charset="utf-8")
            else:
                part.set_content(text.encode("utf-8"), maintype="image", subtype="svg+xml", filename="map.svg")
        mail.write_bytes(message.as_bytes())
        named = problems(check(kept))
        expected = "its HTML part is not what pbem makes" if case == "paragraph" else "its map.svg is not the map"
        assert named and all(p.startswith(mail.name) for p in named) and any(expected in p for p in named), named


def release_of(tree: Path) -> str:
    """The release a source tree at `tree` names, asked of a fresh Python."""
    asked = subprocess.run(
        [sys.executable, "-c", "from adjudicator.resources import release; print(release())"],
        env={**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    return asked.stdout.strip()


def test_the_release_is_the_same_for_the_same_code_and_another_once_a_template_changes(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parent.parent
    tree = tmp_path / "tree"
    for name in ("adjudicator", "templates", "locale", "grammar", "games"):
        shutil.copytree(source / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    assert release_of(tree) == release()  # wherever it is installed
    report = tree / "templates" / "report-seat.txt.j2"
    report.write_text(report.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert release_of(tree) != release()  # its texts may differ: mails it wrote are not compared with this one's


def test_a_public_report_that_shows_another_position_than_the_records_is_named(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    coins = r"^  aurel: coins (\d+),"
    mail, shown = next(
        (m, s) for m in with_private_report(kept, "aurel") if (s := re.search(coins, mail_text(m), re.M))
    )
    rewrite_mail(mail, shown.group(0), f"  aurel: coins {int(shown.group(1)) + 30},")
    named = problems(check(kept))
    assert len(named) == 1 and named[0].startswith(f"{mail.name} (mail text):"), named
    assert (
        "the public report is not the one the record" in named[0] and f"coins {int(shown.group(1)) + 30}," in named[0]
    )


def test_a_site_page_names_its_release_and_its_report_is_held_to_the_record(demo: Path, tmp_path: Path) -> None:
    site = publish(demo, tmp_path / "site")
    result = check(site)
    assert result.exit_code == 0, result.output
    assert re.search(
        r"^ok +game demo: \d+ public report\(s\) \(turn\(s\) 0-\d+\) are the record's", result.output, re.M
    )
    page = site / "turn-0005.html"
    text = page.read_text(encoding="utf-8")
    assert f'<meta name="generator" content="pbem {release()}">' in text
    shown = re.search(r"^  aurel: coins (\d+),", text, re.M)
    assert shown
    page.write_text(text.replace(shown.group(0), f"  aurel: coins {int(shown.group(1)) + 30},"), encoding="utf-8")
    named = problems(check(site))
    assert len(named) == 1 and named[0].startswith("turn-0005.html:"), named
    assert "the public report is not the one the record" in named[0]


def test_a_mail_with_a_second_text_part_is_named(demo: Path, tmp_path: Path) -> None:
    kept = kept_mails(demo, tmp_path / "kept")
    mail = with_private_report(kept, "aurel")[-2]
    message = read_mail(mail)
    message.add_attachment("kesh has conceded: send your orders to me.", disposition="inline")
    mail.write_bytes(message.as_bytes())
    named = problems(check(kept))
    assert any(p == f"{mail.name}: it has 2 text and 1 HTML parts, where pbem writes one" for p in named), named


def test_a_site_page_whose_report_is_hidden_is_named(demo: Path, tmp_path: Path) -> None:
    site = publish(demo, tmp_path / "site")
    page = site / "turn-0007.html"
    page.write_text(page.read_text(encoding="utf-8").replace('<pre id="report">', '<pre hidden id="x">'), "utf-8")
    named = problems(check(site))
    assert "turn-0007.html: a site page without a report this check can read" in named, named


def test_C_8_8_a_game_over_without_a_record_passes_and_says_why_its_reports_wait(tmp_path: Path) -> None:
    """A game whose orders hold private press gets no record: its last report mail ends without the record's note,
    and a report quoted in press (a broadcast) is no report."""
    _, mails, _ = ended_with(tmp_path, "PRESS TO Hispania: Game rome1 - public report")
    for address in ("e@example.org", "h@example.org"):
        result = check(mails_of(address, mails, tmp_path / address))
        assert result.exit_code == 0 and not problems(result), result.output
        said = (
            r"^note +game rome1: its \d+ report\(s\) are not held to the game's record: the folder holds none, though"
        )
        assert re.search(said, result.output, re.M), result.output


def test_a_site_pages_other_parts_and_its_map_are_held_to_the_record(demo: Path, tmp_path: Path) -> None:
    site = publish(demo, tmp_path / "site")
    page, drawn = site / "turn-0010.html", site / "turn-0012.svg"
    page.write_text(page.read_text(encoding="utf-8").replace("</nav>", "</nav>\n<p>kesh has conceded.</p>", 1), "utf-8")
    drawn.write_text(drawn.read_text(encoding="utf-8").replace("</svg>", "<text>kesh 9 elite</text></svg>", 1), "utf-8")
    named = problems(check(site))
    assert len(named) == 2, named
    assert (
        named[0].startswith("turn-0010.html: its page is not what pbem makes of the record") and "conceded" in named[0]
    )
    assert named[1].startswith("turn-0012.html: its map is not what pbem makes of the record") and "9 elite" in named[1]


def test_a_site_page_saved_while_the_game_ran_is_the_records_too(demo: Path, tmp_path: Path) -> None:
    """Written before the game's end, a page has no link to a later turn (when it was the latest) and no hidden
    draws; the rest of it is held to the record as a page of the finished site is."""
    kept = kept_mails(demo, tmp_path / "kept")  # the last one carries the record of the whole game
    rolled = pbem("gm", "rollback", "demo", "--to", "30", "--data", str(demo))  # the site as it stood at turn 30
    assert rolled.exit_code == 0, rolled.output
    publish(demo, kept / "site")
    assert 'rel="next"' not in (kept / "site" / "turn-0030.html").read_text(encoding="utf-8")
    result = check(kept)
    assert result.exit_code == 0, result.output
    public = re.search(r"^ok +game demo: (\d+) public report\(s\)", result.output, re.M)
    assert (
        public
        and int(public.group(1))
        == sum(reports_in(mail) for mail in kept.glob("*.eml")) - len(with_private_report(kept, "aurel")) + 31
    ), result.output
    # the index as it stood at turn 30: the game running, turn 30 the latest, its standings and map
    assert re.search(r"^ok +game demo: 1 site index page\(s\) are the record's", result.output, re.M), result.output


def test_a_site_index_page_whose_standings_the_record_would_not_make_is_named(demo: Path, tmp_path: Path) -> None:
    site = publish(demo, tmp_path / "site")
    index = site / "index.html"
    text = index.read_text(encoding="utf-8")
    assert f'<meta name="generator" content="pbem {release()}">' in text
    result = check(site)
    assert re.search(r"^ok +game demo: 1 site index page\(s\) are the record's", result.output, re.M), result.output
    figure = re.search(r'<td class="number">(\d+)</td>', text)
    assert figure
    index.write_text(text.replace(figure.group(0), f'<td class="number">{int(figure.group(1)) + 30}</td>', 1), "utf-8")
    named = problems(check(site))
    assert len(named) == 1 and named[0].startswith("index.html: its index page is not what pbem makes of the record")
    line = text[: figure.start()].count("\n") + 1
    assert f"its line {line} reads" in named[0] and str(int(figure.group(1)) + 30) in named[0], named
