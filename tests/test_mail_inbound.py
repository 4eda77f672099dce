"""Reading order mail: sender, Message-ID, the order text in every common mail shape, mbox and Maildir sources."""

from __future__ import annotations

import base64
import mailbox
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import default as default_policy
from pathlib import Path

import pytest

from adjudicator.mail import (
    Delivery,
    Incoming,
    MailError,
    MailSourceError,
    from_bytes,
    from_maildir,
    from_mbox,
    html_to_text,
    read_message,
)
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.orders import Move, Press

HEADER = "GAME rome1 TURN 3 PLAYER Egyptus PASSWORD s3cret"
ORDERS = [
    HEADER,
    "MOVE G1 WITH 2 INF: Ägypten -> ALX",
    "PRESS TO Macedonia: la città è bella, Ägypten bleibt ägyptisch",
    "ANSWER battle.NAR.1.retreat: retreat to ITA",
]
ORDER_TEXT = "\n".join(ORDERS)


def mail(body: str = ORDER_TEXT, *, charset: str = "utf-8", cte: str | None = None, **headers: str) -> EmailMessage:
    """A plain text mail with the usual headers."""
    m = EmailMessage()
    m["From"] = headers.pop("sender", "Kleopatra <Kleo@Example.ORG>")
    m["To"] = "moderator@example.net"
    m["Subject"] = headers.pop("subject", "orders")
    m["Message-ID"] = headers.pop("message_id", "<orders-1@example.org>")
    for name, value in headers.items():
        m[name.replace("_", "-")] = value
    m.set_content(body, charset=charset, cte=cte)
    return m


def text_of(message: EmailMessage | MIMEMultipart | MIMEText) -> str:
    return read_message(message.as_bytes(policy=default_policy)).text


# ---------------------------------------------------------------- the message and its sender


def test_plain_mail_gives_sender_id_subject_text_and_raw() -> None:
    data = mail(subject="Befehle für città").as_bytes()
    got = read_message(data)
    assert got == Incoming(
        message_id="<orders-1@example.org>",
        sender="kleo@example.org",
        sender_name="Kleopatra",
        subject="Befehle für città",
        text=ORDER_TEXT,
        raw=data.decode("utf-8"),
    )


def test_order_text_survives_the_order_parser_with_non_ascii_names() -> None:
    parsed = parse_orders(text_of(mail(cte="8bit")), load_ruleset("coe-classic"))
    assert parsed.errors == ()
    assert parsed.header is not None and parsed.header.player == "Egyptus"
    move, press = parsed.orders[0], parsed.orders[1]
    assert isinstance(move, Move) and "EGY" in repr(move)  # Ägypten is an alias of EGY
    assert isinstance(press, Press) and "la città è bella, Ägypten bleibt ägyptisch" in repr(press)


def test_encoded_display_name_and_upper_case_address() -> None:
    got = read_message(mail(sender="=?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <JUERGEN@Example.DE>").as_bytes())
    assert (got.sender, got.sender_name) == ("juergen@example.de", "Jürgen Müller")


def test_missing_message_id_gets_a_stable_one_from_the_bytes() -> None:
    m = mail()
    del m["Message-ID"]
    data = m.as_bytes()
    first, again = read_message(data), read_message(data)
    assert first.message_id == again.message_id
    assert first.message_id.startswith("<sha256:") and first.message_id.endswith("@pbem>")
    assert len(first.message_id) == len("<sha256:@pbem>") + 64
    assert read_message(data + b"\n").message_id != first.message_id


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty message"),
        (b"   \r\n\r\n", "empty message"),
        (b"\x00\x17\xff\xfe\x89PNG garbage\n\x01\x02", "no header fields"),
        (b"just some words\nwithout any header\n", "no header fields"),
        (b"From: a@example.org\nSubject: orders\nMessage-I", "truncated or garbled"),
        (b"Subject: orders\nMessage-ID: <x@y>\n\n" + HEADER.encode(), "no From: header"),
        (b"From: undisclosed-recipients:;\nSubject: x\n\n" + HEADER.encode(), "no usable address"),
        (b"From: nobody\nSubject: x\n\n" + HEADER.encode(), "no usable address"),
    ],
)
def test_garbage_is_a_mail_error_with_a_reason(data: bytes, reason: str) -> None:
    with pytest.raises(MailError, match=reason):
        read_message(data)


def test_truncated_multipart_is_a_mail_error() -> None:
    m = mail()
    m.add_alternative(f"<p>{HEADER}</p>", subtype="html")
    data = m.as_bytes()
    with pytest.raises(MailError, match="truncated"):
        read_message(data[: data.rindex(b"--==")])  # cut before the closing boundary
    with pytest.raises(MailError, match="truncated"):
        read_message(data[: data.index(b"\n\n") + 2] + b"a preamble and nothing else\n")


def test_truncated_base64_is_a_mail_error() -> None:
    data = mail(cte="base64").as_bytes().rstrip()
    assert isinstance(read_message(data), Incoming)
    with pytest.raises(MailError, match="base64 part ends early"):
        read_message(data[:-3])


def test_mail_error_is_a_value_error() -> None:
    assert issubclass(MailError, ValueError)


# ---------------------------------------------------------------- encodings and charsets


def test_quoted_printable_with_soft_line_breaks() -> None:
    long_line = "SAIL GALLEY 1: EGY -> ALX CARRYING G1 WITH 4 INF  # a long line that quoted-printable has to wrap =="
    m = mail(f"{HEADER}\n{long_line}\nPRESS TO Hispania: città\n", cte="quoted-printable")
    data = m.as_bytes()
    assert b"=\n" in data and b"citt=C3=A0" in data
    assert read_message(data).text == f"{HEADER}\n{long_line}\nPRESS TO Hispania: città"


def test_base64_body() -> None:
    data = mail(cte="base64").as_bytes()
    assert b"Content-Transfer-Encoding: base64" in data and base64.b64encode(HEADER.encode()[:30]) in data
    assert read_message(data).text == ORDER_TEXT


@pytest.mark.parametrize("cte", ["8bit", "quoted-printable", "base64"])
def test_latin_1_body(cte: str) -> None:
    data = mail(charset="iso-8859-1", cte=cte).as_bytes()
    if cte == "8bit":
        assert "Ägypten".encode("latin-1") in data
        assert read_message(data).raw == data.decode("latin-1")
    assert read_message(data).text == ORDER_TEXT


def test_windows_1252_and_mislabelled_charsets() -> None:
    body = f"{HEADER}\nPRESS TO Macedonia: “città” – Ägypten"
    m = MIMEText(body.encode("cp1252"), "plain", "us-ascii")  # declared ASCII, sent as Windows-1252
    m.replace_header("Content-Transfer-Encoding", "8bit")
    m.set_payload(body.encode("cp1252"))
    m["From"] = "a@example.org"
    assert read_message(m.as_bytes()).text == body
    unknown = mail(cte="8bit").as_bytes().replace(b'charset="utf-8"', b'charset="x-unknown-8"')
    assert read_message(unknown).text == ORDER_TEXT


def test_crlf_line_ends_as_imap_sends_them() -> None:
    data = mail().as_bytes().replace(b"\n", b"\r\n")
    got = read_message(data)
    assert got.text == ORDER_TEXT
    assert got.raw.endswith("\r\n")


def test_format_flowed_lines_are_joined() -> None:
    body = (
        "Hello,\n\n"
        f"{HEADER}\n"
        "SAIL GALLEY 1: EGY -> ALX -> CYP \n"
        "CARRYING G1 WITH 4 INF\n"
        " From here on nothing more\n"
        "-- \n"
        "Kleo\n"
    )
    m = mail(body, cte="8bit")
    m.set_param("format", "flowed")
    assert text_of(m) == f"{HEADER}\nSAIL GALLEY 1: EGY -> ALX -> CYP CARRYING G1 WITH 4 INF\nFrom here on nothing more"
    m.set_param("delsp", "yes")
    assert "ALX -> CYPCARRYING" in text_of(m)


# ---------------------------------------------------------------- mail shapes


def test_multipart_alternative_prefers_the_plain_part() -> None:
    m = mail()
    m.add_alternative("<p>GAME other TURN 9 PLAYER Italia PASSWORD x</p>", subtype="html")
    assert text_of(m) == ORDER_TEXT


def test_html_only_mail() -> None:
    html = (
        "<html><head><title>orders</title><style>p { color: red }</style></head><body>"
        "<div>Dear moderator,</div>"
        f"<p>{HEADER}<br>"
        "MOVE G1 WITH 2 INF: &Auml;gypten -&gt; ALX<br/>\n"
        "BUY 4 INF,&nbsp;1 GALLEY AT   EGY</p>"
        "<div>PRESS TO Macedonia: la citt&agrave; &amp; the &quot;Nile&quot;</div>"
        "<script>alert('MOVE nothing')</script>"
        "<blockquote>GAME rome1 TURN 2 PLAYER Egyptus PASSWORD old</blockquote>"
        "<div>-- </div><div>Kleo</div>"
        "</body></html>"
    )
    m = mail()
    m.set_content(html, subtype="html")
    assert text_of(m) == "\n".join(
        [
            HEADER,
            "MOVE G1 WITH 2 INF: Ägypten -> ALX",
            "BUY 4 INF, 1 GALLEY AT EGY",
            'PRESS TO Macedonia: la città & the "Nile"',
        ]
    )


def test_an_empty_plain_alternative_falls_back_to_the_html_part() -> None:
    m = mail("\n")
    m.add_alternative(f"<div>{HEADER}</div><div>MOVE G1: EGY -&gt; ALX</div>", subtype="html")
    assert text_of(m) == f"{HEADER}\nMOVE G1: EGY -> ALX"


def test_html_to_text_keeps_pre_and_breaks_blocks() -> None:
    assert html_to_text("<div>a</div><div>b<br>c</div><pre>x\n  y</pre>") == "a\nb\nc\nx\n  y"
    assert html_to_text("<p>a</p><p>&nbsp;</p><p> b <i>c</i></p>x<br><br>y") == "a\n\nb c\nx\n\ny"


def test_gmail_style_html_reply() -> None:
    html = (
        f'<div dir="ltr">{HEADER}<div>MOVE G1 WITH 2 INF: EGY -&gt; ALX</div></div><br>'
        '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, 3 Jun 2024 at 10:00, '
        "Moderator &lt;gm@example.net&gt; wrote:<br></div>"
        '<blockquote class="gmail_quote">Your orders for turn 3 are due.</blockquote></div>'
    )
    m = mail()
    m.set_content("<html><body>" + html + "</body></html>", subtype="html")
    assert text_of(m) == f"{HEADER}\nMOVE G1 WITH 2 INF: EGY -> ALX"


def test_txt_attachment_with_a_game_line_is_preferred() -> None:
    m = mail("Hello, my orders are attached.\n\nGAME is fun\n-- \nKleo\n")
    m.add_attachment(ORDER_TEXT.encode("utf-8"), maintype="text", subtype="plain", filename="Orders.TXT")
    assert text_of(m) == ORDER_TEXT


def test_txt_attachment_as_octet_stream_in_latin_1() -> None:
    outer = MIMEMultipart()
    outer["From"] = "Kleo <kleo@example.org>"
    outer.attach(MIMEText("see the file", "plain", "utf-8"))
    part = MIMEApplication(("Hallo\n" + ORDER_TEXT + "\n").encode("latin-1"), Name="befehle.txt")
    part["Content-Disposition"] = 'attachment; filename="befehle.txt"'
    part.set_param("charset", "iso-8859-1")
    outer.attach(part)
    assert text_of(outer) == ORDER_TEXT


def test_body_orders_win_over_an_attachment_without_a_game_line() -> None:
    m = mail()
    m.add_attachment(b"just notes", maintype="text", subtype="plain", filename="notes.txt")
    assert text_of(m) == ORDER_TEXT


def test_attachment_without_game_line_is_used_when_the_body_is_empty() -> None:
    m = mail("\n")
    m.add_attachment(b"MOVE G1: EGY -> ALX\n", maintype="text", subtype="plain", filename="orders.txt")
    assert text_of(m) == "MOVE G1: EGY -> ALX"


# ---------------------------------------------------------------- cutting


def test_text_before_the_game_line_is_dropped_and_localised_headers_count() -> None:
    for header in (
        "SPIEL rome1 ZUG 3 SPIELER Egyptus PASSWORT x",
        "partita rome1 TURNO 3 GIOCATORE Egyptus PAROLA x",
        "  Spel rome1 BEURT 3 SPELER Egyptus WACHTWOORD x",
    ):
        assert text_of(mail(f"Hi!\nHere they are:\n\n{header}\nMOVE G1: EGY -> ALX\n")) == (
            f"{header}\nMOVE G1: EGY -> ALX"
        )


def test_a_greeting_that_starts_with_game_is_not_the_header() -> None:
    body = f"Game on! Here you are.\n{HEADER}\nMOVE G1: EGY -> ALX\n"
    assert text_of(mail(body)) == f"{HEADER}\nMOVE G1: EGY -> ALX"
    body = "Spieler sind wir alle.\nMOVE G1: EGY -> ALX\n"  # SPIELER is PLAYER, not GAME: nothing is dropped
    assert text_of(mail(body)) == body.strip()


def test_game_names_with_punctuation_still_make_a_full_header() -> None:
    body = "Game over soon, I hope.\nGAME rome-1 TURN 3 PLAYER Egyptus PASSWORD x\nMOVE G1: EGY -> ALX\n"
    assert text_of(mail(body)) == "GAME rome-1 TURN 3 PLAYER Egyptus PASSWORD x\nMOVE G1: EGY -> ALX"


def test_text_without_a_game_line_is_kept() -> None:
    assert text_of(mail("MOVE G1: EGY -> ALX\nBUY 2 INF AT EGY\n")) == "MOVE G1: EGY -> ALX\nBUY 2 INF AT EGY"


@pytest.mark.parametrize("separator", ["-- ", "--", "--  "])
def test_signature_is_dropped(separator: str) -> None:
    body = f"{ORDER_TEXT}\n\n{separator}\nKleopatra VII\nQueen of the Nile\nMOVE nothing\n"
    assert text_of(mail(body, cte="quoted-printable")) == ORDER_TEXT


def test_a_dash_line_in_the_orders_is_not_a_signature() -> None:
    body = f"{HEADER}\n---\nMOVE G1: EGY -> ALX\n--- end ---\n"
    assert text_of(mail(body)) == body.strip()


def test_top_posted_reply_drops_attribution_and_quotes() -> None:
    body = (
        f"{ORDER_TEXT}\n\n"
        "On Mon, 3 Jun 2024 at 10:00, Moderator <gm@example.net> wrote:\n"
        "> GAME rome1 TURN 2 PLAYER Egyptus PASSWORD old\n"
        ">> MOVE G2: EGY -> LIB\n"
        "   > indented quote\n"
        ">\n"
    )
    assert text_of(mail(body)) == ORDER_TEXT


def test_bottom_posted_reply_and_a_two_line_attribution() -> None:
    body = (
        "Am Mo., 3. Juni 2024 um 10:00 Uhr schrieb Moderator\n"
        "<gm@example.net>:\n"
        "> Your orders, please.\n"
        "> GAME rome1 TURN 3 PLAYER Egyptus PASSWORD old\n"
        "\n"
        f"{ORDER_TEXT}\n"
        "\n"
        "Il giorno lun 3 giu 2024 alle ore 10:00 Moderator ha scritto:\n"
        "> more quotes\n"
    )
    assert text_of(mail(body)) == ORDER_TEXT


def test_trailing_attribution_without_quotes() -> None:
    body = f"{ORDER_TEXT}\n\nOn Mon, 3 Jun 2024, Moderator <gm@example.net> wrote:\n\n"
    assert text_of(mail(body)) == ORDER_TEXT


def test_outlook_reply_history_is_dropped() -> None:
    body = f"{ORDER_TEXT}\n\n-----Original Message-----\nFrom: gm@example.net\nGAME old\n"
    assert text_of(mail(body)) == ORDER_TEXT
    body = f"{ORDER_TEXT}\n________________________________\nFrom: Moderator\nSent: Monday\nGAME old\n"
    assert text_of(mail(body)) == ORDER_TEXT + "\n________________________________"


def test_line_breaks_are_kept_and_trailing_spaces_go() -> None:
    body = f"{HEADER}   \n\nMOVE G1: EGY -> ALX\t\n\n\n# a comment\nBUY 1 INF AT EGY\n\n"
    assert text_of(mail(body)) == f"{HEADER}\n\nMOVE G1: EGY -> ALX\n\n\n# a comment\nBUY 1 INF AT EGY"


# ---------------------------------------------------------------- sources: bytes, mbox, Maildir


def test_from_bytes_reads_an_eml_file(tmp_path: Path) -> None:
    eml = tmp_path / "orders.eml"
    eml.write_bytes(mail().as_bytes())
    [delivery] = list(from_bytes(eml.read_bytes()))
    assert isinstance(delivery, Delivery)
    got, done = delivery
    assert isinstance(got, Incoming) and got.text == ORDER_TEXT
    done()  # nothing to mark, and no harm


def test_from_bytes_reports_garbage_with_where() -> None:
    [(got, _)] = list(from_bytes(b"\x00garbage", where="stdin"))
    assert isinstance(got, MailError)
    assert str(got).startswith("stdin: ") and got.data == b"\x00garbage"


def test_from_mbox(tmp_path: Path) -> None:
    path = tmp_path / "orders.mbox"
    box = mailbox.mbox(path)
    box.add(mail(message_id="<a@x>").as_bytes())
    box.add(b"\x01\x02 this is no mail\n")
    box.add(mail("From the Nile:\n" + ORDER_TEXT, message_id="<b@x>", charset="iso-8859-1", cte="8bit").as_bytes())
    box.flush()
    box.close()
    got = list(from_mbox(path))
    assert len(got) == 3
    first, bad, third = (d.incoming_or_error for d in got)
    assert isinstance(first, Incoming) and first.message_id == "<a@x>" and first.text == ORDER_TEXT
    assert isinstance(bad, MailError) and f"mbox {path} message 2" in str(bad)
    assert isinstance(third, Incoming) and third.message_id == "<b@x>" and third.text == ORDER_TEXT
    for d in got:
        d.mark_done()
    assert len(list(from_mbox(path))) == 3  # mbox keeps no seen state: the caller deduplicates


def test_from_mbox_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MailSourceError, match="no mbox file"):
        list(from_mbox(tmp_path / "nothing.mbox"))


def test_from_maildir_yields_unseen_and_marks_them_seen(tmp_path: Path) -> None:
    path = tmp_path / "Maildir"
    box = mailbox.Maildir(path)
    new_key = box.add(mail(message_id="<new@x>").as_bytes())
    unread = mailbox.MaildirMessage(mail(message_id="<cur-unread@x>").as_bytes())
    unread.set_subdir("cur")
    unread.set_flags("F")
    unread_key = box.add(unread)
    seen = mailbox.MaildirMessage(mail(message_id="<seen@x>").as_bytes())
    seen.set_subdir("cur")
    seen.set_flags("S")
    box.add(seen)
    box.add(b"garbage without headers\n")
    box.close()

    got = list(from_maildir(path))
    ids = sorted(d.incoming_or_error.message_id for d in got if isinstance(d.incoming_or_error, Incoming))
    assert ids == ["<cur-unread@x>", "<new@x>"]
    errors = [d.incoming_or_error for d in got if isinstance(d.incoming_or_error, MailError)]
    assert len(errors) == 1 and "no header fields" in str(errors[0])
    for d in got:
        d.mark_done()
        d.mark_done()  # twice does no harm
    assert list(from_maildir(path)) == []
    assert list((path / "new").iterdir()) == []

    box = mailbox.Maildir(path, create=False)
    assert box.get_message(new_key).get_subdir() == "cur" and box.get_message(new_key).get_flags() == "S"
    assert box.get_message(unread_key).get_flags() == "FS"
    assert len(box) == 3  # the garbage is set aside in rejected/
    assert [f.read_bytes() for f in (path / "rejected").iterdir()] == [b"garbage without headers\n"]


def test_from_maildir_mark_done_after_another_reader_moved_the_message(tmp_path: Path) -> None:
    path = tmp_path / "Maildir"
    box = mailbox.Maildir(path)
    key = box.add(mail().as_bytes())
    [delivery] = list(from_maildir(path))
    (path / "new" / key).rename(path / "cur" / f"{key}:2,R")  # a mail program read and answered it
    delivery.mark_done()
    assert [f.name for f in (path / "cur").iterdir()] == [f"{key}:2,RS"]


def test_from_maildir_not_a_maildir(tmp_path: Path) -> None:
    with pytest.raises(MailSourceError, match="no Maildir"):
        list(from_maildir(tmp_path))


def test_a_damaged_html_alternative_does_not_lose_the_orders_of_the_plain_part() -> None:
    """The orders are read from the plain part; a base64 HTML alternative cut short is never decoded."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "mac@example.org", "gm@example.org", "orders"
    message["Message-ID"] = "<alt@players.example.org>"
    message.set_content("GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nBUY 1 INF\n")
    message.add_alternative(
        "<p>GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x<br>BUY 1 INF</p>", subtype="html", cte="base64"
    )
    head, mark, rest = bytes(message).rpartition(b"Content-Transfer-Encoding: base64")
    end = rest.index(b"\n--", rest.index(b"\n\n") + 2)
    damaged = head + mark + rest[: end - 3] + rest[end:]  # the HTML part's base64 loses its last characters
    assert read_message(damaged).text == "GAME rome1 TURN 1 PLAYER Macedonia PASSWORD x\nBUY 1 INF"
