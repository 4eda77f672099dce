"""map.png beside map.svg in the mails that carry the map (report and welcome mails), in every ruleset that draws
a map: read back from the .eml files `pbem send` writes, the PNG decodes as a PNG of the map's proportions, drawn
with the shipped fonts (the names show), and drawn once for all the seats that get the same map."""

from __future__ import annotations

import re
import struct
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest
import resvg_py

from adjudicator.archive import Archive
from adjudicator.archive.models import OutboxRow
from adjudicator.mail.outbound import build_message, send_outbox
from adjudicator.render.pngmap import PNG_WIDTH, map_png
from adjudicator.resources import resource_dir
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from tests.conftest import Pbem

CLASSIC_SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def mails_sent(archive: Archive, folder: Path) -> list[EmailMessage]:
    """What `pbem send --eml-dir` delivers, read back with the email package."""
    report = send_outbox(archive, None, folder)
    assert report.failed == 0, report.errors
    return [message_from_bytes(path.read_bytes(), policy=default_policy) for path in sorted(folder.glob("*.eml"))]  # type: ignore[misc]


def attachments(message: EmailMessage) -> dict[str, EmailMessage]:
    return {str(part.get_filename()): part for part in message.iter_attachments()}  # type: ignore[misc]


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk, which must come first after the signature."""
    assert png[:8] == PNG_SIGNATURE and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def assert_map_attached_as_png(message: EmailMessage) -> bytes:
    """The mail carries map.svg and map.png; the PNG is PNG_WIDTH wide, as tall as the SVG's proportions give."""
    attached = attachments(message)
    assert attached["map.svg"].get_content_type() == "image/svg+xml"
    assert attached["map.png"].get_content_type() == "image/png"
    svg = attached["map.svg"].get_content()
    svg = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    png = attached["map.png"].get_content()
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    assert box is not None
    width, height = png_size(png)
    assert width == PNG_WIDTH and abs(height - PNG_WIDTH * float(box[2]) / float(box[1])) <= 1
    return png


def test_report_mails_carry_the_map_as_png_drawn_once_for_every_seat(tmp_path: Path) -> None:
    archive = Archive.in_folder(tmp_path)
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", CLASSIC_SEATS)).passwords
    mails_sent(archive, tmp_path / "welcomes")  # sent first: only the turn's mails are read below
    submit(archive, "rome1", f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {passwords['Macedonia']}\nBUY 1 INF\n")
    adjudicate(archive, tmp_path, "rome1")
    map_png.cache_clear()
    reports = [m for m in mails_sent(archive, tmp_path / "turn1") if "Report" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in reports) == sorted(CLASSIC_SEATS.values())
    pngs = {assert_map_attached_as_png(message) for message in reports}
    assert len(pngs) == 1 and map_png.cache_info().misses == 1  # the same map for every seat: drawn once
    html = reports[0].get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert "map.png" in html and "<svg" in html


@pytest.mark.parametrize(
    ("ruleset", "seats", "extra"),
    [
        ("coe-classic", CLASSIC_SEATS, ()),
        ("coe-1984", {"Egyptus": "a@example.org", "Hispania": "b@example.org"}, ()),
        (
            "conqueror-er",
            {"kesh": "k@example.org", "aurel": "a@example.org", "thal": "t@example.org"},
            ("--game-data", str(resource_dir("games") / "conqueror-er" / "example-data")),
        ),
        (
            "empires-aw",
            {"red": "r@example.org", "blue": "b@example.org", "green": "g@example.org"},
            ("--game-data", str(resource_dir("games") / "empires-aw" / "example-data")),
        ),
    ],
)
def test_every_ruleset_that_draws_a_map_mails_it_as_png_too_and_its_site_has_a_map_per_turn(
    tmp_path: Path, ruleset: str, seats: dict[str, str], extra: tuple[str, ...]
) -> None:
    pbem = Pbem(tmp_path / "data")  # SQLite only: the archive plays no part in drawing the PNG
    seat_args = [a for seat, address in seats.items() for a in ("--seat", f"{seat}={address}")]
    created = pbem("new", "g1", "--ruleset", ruleset, *seat_args, *extra)
    assert created.exit_code == 0, created.output
    for _ in range(2):  # two steps without orders: reports with their maps
        resolved = pbem("adjudicate", "g1", "--now")
        assert resolved.exit_code == 0, resolved.output
    assert pbem("send", "--eml-dir", str(tmp_path / "eml")).exit_code == 0
    mails = [message_from_bytes(path.read_bytes(), policy=default_policy) for path in (tmp_path / "eml").glob("*.eml")]
    with_map = [m for m in mails if "map.svg" in attachments(m)]  # type: ignore[arg-type]
    assert {str(m["To"]) for m in with_map} == set(seats.values())
    assert any("Report" in str(m["Subject"]) for m in with_map)  # not the welcomes only
    for message in with_map:
        assert_map_attached_as_png(message)  # type: ignore[arg-type]
    assert pbem("site", "g1", "--out", str(tmp_path / "site")).exit_code == 0
    pages = sorted(path.stem for path in (tmp_path / "site").glob("turn-*.html"))
    maps = sorted(path.stem for path in (tmp_path / "site").glob("turn-*.svg"))
    assert len(pages) >= 3 and maps == pages  # turn 0 and the two steps, each with its map
    assert all("<svg" in (tmp_path / "site" / f"{stem}.svg").read_text(encoding="utf-8") for stem in maps)


def test_the_welcome_mail_names_both_map_files_it_carries(tmp_path: Path) -> None:
    """The welcome tells the player what each attachment opens in, in his language: both files are there."""
    archive = Archive.in_folder(tmp_path)
    new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", CLASSIC_SEATS, languages={"Egyptus": "de"}))
    welcomes = {str(m["To"]): m for m in mails_sent(archive, tmp_path / "eml")}
    english, german = welcomes["mac@example.org"], welcomes["egy@example.org"]
    assert sorted(attachments(english)) == sorted(attachments(german)) == ["map.png", "map.svg"]
    assert "map.svg opens in a web browser, and map.png" in english.get_body(("plain",)).get_content()
    assert "map.svg öffnet sich in einem Webbrowser, map.png" in german.get_body(("plain",)).get_content()


def test_the_png_shows_the_names_with_the_shipped_fonts(tmp_path: Path) -> None:
    """Drawn without any font, the map loses its names: the PNG mailed differs, so its text is drawn, and by the
    fonts shipped in fonts/ (the system's are not read)."""
    archive = Archive.in_folder(tmp_path)
    new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", CLASSIC_SEATS))
    svg = (tmp_path / "games" / "rome1" / "turn-0000" / "map.svg").read_text(encoding="utf-8")
    no_fonts = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=PNG_WIDTH, skip_system_fonts=True))
    assert png_size(no_fonts) == png_size(map_png(svg)) and no_fonts != map_png(svg)


def test_a_mail_without_a_map_carries_no_png() -> None:
    row = OutboxRow(to="a@example.org", subject="[rome1] Receipt", body="Orders stored.\n", created="2026-01-01")
    assert attachments(build_message(row, "pbem@example.org")) == {}


def test_send_no_png_mails_the_map_as_svg_only(tmp_path: Path) -> None:
    pbem = Pbem(tmp_path / "data")
    seat_args = [a for seat, address in CLASSIC_SEATS.items() for a in ("--seat", f"{seat}={address}")]
    assert pbem("new", "g1", "--ruleset", "coe-classic", *seat_args).exit_code == 0
    sent = pbem("send", "--eml-dir", str(tmp_path / "eml"), "--no-png")
    assert sent.exit_code == 0 and "3 sent" in sent.output, sent.output
    mails = [message_from_bytes(path.read_bytes(), policy=default_policy) for path in (tmp_path / "eml").glob("*.eml")]
    assert [sorted(attachments(m)) for m in mails] == [["map.svg"]] * 3  # type: ignore[arg-type]


def test_a_mail_queued_with_its_map_by_an_older_version_is_sent_with_that_map(tmp_path: Path) -> None:
    archive = Archive.in_folder(tmp_path)
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10"/></svg>'
    with archive.session() as session:  # as older versions queued a report: the map stored in the row
        session.add(OutboxRow(to="a@example.org", subject="[g1] Report", body="r\n", created="2026-01-01", map_svg=svg))
    (mail,) = mails_sent(archive, tmp_path / "eml")
    assert attachments(mail)["map.svg"].get_content().decode("utf-8") == svg
    assert png_size(attachments(mail)["map.png"].get_content()) == png_size(map_png(svg))
