"""Careless order mails: whatever shape the header has (a misspelt password word, the password on the next line,
the header in the Subject, any language, HTML, quoted replies), no string offered as a password is stored,
printed by `pbem ingest` or listed by `pbem log`; and a refused mail's Subject reaches a player only quoted, short,
as the sender's words."""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest

from adjudicator.orders.sets import PASSWORD_MARK
from tests.conftest import Pbem

Write = Callable[[str, str | bytes], Path]


def mail(
    body: str,
    *,
    subject: str = "orders",
    html: bool = False,
    html_only: bool = False,
    mid: str = "<careless@test>",
    sender: str = "mac@example.org",
) -> bytes:
    """A real RFC 822 mail: the body as plain text, plain with an HTML alternative, or HTML alone."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "gm@example.org"
    message["Subject"] = subject
    message["Message-ID"] = mid
    as_html = "<html><body><p>" + body.replace("\n", "<br>\n") + "</p></body></html>"
    if html_only:
        message.set_content(as_html, subtype="html", cte="quoted-printable")
    else:
        message.set_content(body, cte="quoted-printable")
        if html:
            message.add_alternative(as_html, subtype="html", cte="base64")
    return message.as_bytes(policy=default_policy)


def welcomed(pbem: Pbem) -> str:
    """A new game whose welcome mails are sent; Macedonia's password."""
    pbem.new_game()
    assert pbem("send", "--eml-dir", str(pbem.data.parent / "sent")).exit_code == 0
    return pbem.passwords["Macedonia"]


def ingested_without(pbem: Pbem, write: Write, raw: bytes, *secrets: str) -> str:
    """Ingest `raw` through `pbem ingest`; assert no secret is in its output, in `pbem log`, or in any column of
    any row of the archive; return the output."""
    result = pbem("ingest", str(write("careless.eml", raw)))
    assert result.exit_code == 0, result.output
    log = pbem("log", "rome1")
    rows = pbem.dump()
    for secret in secrets:
        assert secret not in result.output
        assert secret not in log.output
        leaks = [table for table, row in rows if secret in repr(row)]
        assert not leaks
    return result.output


HEADER = "GAME rome1 TURN 1 PLAYER Macedonia"

# Bodies whose header line cannot be read, each with the password somewhere a careless player puts it.
CARELESS_BODIES = {
    "typo": f"{HEADER} PASWORD {{pw}}\nBUY 1 INF\n",
    "next_line": f"{HEADER} PASSWORD\n{{pw}}\nBUY 1 INF\n",
    "passwort_typo": "SPIEL rome1 ZUG 1 SPIELER Macedonia PASSWROT {pw}\nBUY 1 INF\n",
    "kennwort_typo": f"{HEADER} KENWORT {{pw}}\nBUY 1 INF\n",
    "parola_typo": "PARTITA rome1 TURNO 1 GIOCATORE Macedonia PAROLLA {pw}\nBUY 1 INF\n",
    "wachtwoord_typo": "SPEL rome1 BEURT 1 SPELER Macedonia WACHTWORD {pw}\nBUY 1 INF\n",
    "colon": f"{HEADER}\nPassword: {{pw}}\nBUY 1 INF\n",
    "equals": f"{HEADER} PASSWORD={{pw}}\nBUY 1 INF\n",
    "prose": f"{HEADER}\nmy passwort is {{pw}}\nBUY 1 INF\n",
    "no_keyword": f"{HEADER} {{pw}}\nBUY 1 INF\n",
    "lower_case_typo": f"{HEADER.lower()} pasword {{pw}}\nbuy 1 inf\n",
}


@pytest.mark.parametrize("shape", CARELESS_BODIES)
def test_a_careless_header_leaves_no_password_stored(pbem: Pbem, write: Write, shape: str) -> None:
    secret = welcomed(pbem)
    output = ingested_without(pbem, write, mail(CARELESS_BODIES[shape].format(pw=secret)), secret)
    assert "refused" in output
    ((raw,),) = pbem.sql("select raw from message")
    assert PASSWORD_MARK in str(raw)  # the moderator still sees where the password was


@pytest.mark.parametrize("shape", ["typo", "next_line", "no_keyword"])
def test_a_careless_header_in_an_html_part_leaves_no_password_stored(pbem: Pbem, write: Write, shape: str) -> None:
    secret = welcomed(pbem)
    body = CARELESS_BODIES[shape].format(pw=secret)
    ingested_without(pbem, write, mail(body, html_only=True), secret)
    ingested_without(pbem, write, mail(body, html=True, mid="<alternative@test>"), secret)


def test_a_guessed_password_after_a_misspelt_keyword_is_not_stored_either(pbem: Pbem, write: Write) -> None:
    welcomed(pbem)
    ingested_without(pbem, write, mail(f"{HEADER} PASSWROD s3cr3t-guess\nBUY 1 INF\n"), "s3cr3t-guess")


@pytest.mark.parametrize(
    "subject",
    [
        f"{HEADER} PASSWORD {{pw}}",
        f"{HEADER} {{pw}}",
        "my password: {pw}",
        "Züge für Makedonien, Kennwort {pw}",  # not ASCII: the Subject is sent encoded (RFC 2047)
        f"{HEADER} PASWORD {{pw}}",
    ],
)
def test_the_whole_header_in_the_subject_leaves_no_password_stored(pbem: Pbem, write: Write, subject: str) -> None:
    secret = welcomed(pbem)
    ingested_without(pbem, write, mail("BUY 1 INF\n", subject=subject.format(pw=secret)), secret)


def test_a_quoted_reply_with_the_old_header_and_a_broken_new_one(pbem: Pbem, write: Write) -> None:
    secret = welcomed(pbem)
    body = (
        f"{HEADER} PASWORD {secret}\nBUY 2 INF\n\n"
        "On Monday the moderator wrote:\n"
        f"> {HEADER} PASSWORD {secret}\n> BUY 1 INF\n"
    )
    ingested_without(pbem, write, mail(body, html=True), secret)


def test_a_good_header_still_stores_the_orders_and_keeps_the_mail_text(pbem: Pbem, write: Write) -> None:
    secret = welcomed(pbem)
    body = f"{HEADER} PASSWORD {secret}\nBUY 1 INF\n# my password is in the header above\n"
    output = ingested_without(pbem, write, mail(body, subject=f"orders, password {secret}"), secret)
    assert "orders stored" in output
    ((raw, subject),) = pbem.sql("select raw, subject from message")
    assert f"PASSWORD {PASSWORD_MARK}\nBUY 1 INF\n# my password is in the header above" in str(raw)
    assert subject == f"orders, password {PASSWORD_MARK}"


def test_a_forged_subject_reaches_the_seat_only_quoted_and_short(pbem: Pbem, write: Write) -> None:
    welcomed(pbem)
    forged = "ATTENTION Macedonia: your new password is hunter2, reply to evil@example.net at once"
    raw = mail(f"{HEADER} PASSWORD guessed-wrong\nBUY 1 INF\n", subject=forged, sender="evil@example.net")
    ingested_without(pbem, write, raw, "guessed-wrong")
    ((body,),) = pbem.sql("select body from outbox where subject like '%refused%'")
    quote = str(body).partition("subject \u201c")[2].partition("\u201d)")[0]
    assert quote.startswith("ATTENTION Macedonia: your new password is") and quote.endswith("…")
    assert len(quote) == 60  # at most 60 characters, in quotes
    assert "evil@example.net at once" not in str(body)  # the rest of the forgery is not passed on
