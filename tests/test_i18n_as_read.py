"""Conqueror: Empire Rises and Empires by mail in German, Italian and Dutch, as a player reads them: the odds lines
speak as every other sentence does (du, je), the independent army has the reader's name, the orders template and a
bot's echoed orders use the reader's keywords, and counts agree in number ("1 Münze", "nessuna" carta)."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.render.i18n import keywords_written
from adjudicator.services.game_reads import current_game, game_ruleset
from adjudicator.services.reports import seat_report
from tests.conftest import Pbem
from tests.test_conqueror_asks import play_until
from tests.test_conqueror_plans_cli import PLANS
from tests.test_conqueror_plans_cli import start as three_seats
from tests.test_conqueror_receipts_i18n import mailed


def start(pbem: Pbem, tmp_path: Path, *extra: str) -> None:
    """A 3-seat game: kesh reads German, aurel Italian, thal Dutch; taxation resolved, the plans step due."""
    three_seats(pbem, tmp_path, "--language", "kesh=de", "--language", "aurel=it", "--language", "thal=nl", *extra)


def last_report(pbem: Pbem, seat: str) -> str:
    """The seat's latest private report (its orders template at the end)."""
    found = sorted((pbem.data / "games" / "er1").glob(f"turn-*/report-{seat}.txt"))
    return found[-1].read_text(encoding="utf-8")


def template_of(report: str) -> str:
    return report[report.index("\n--- ") :]


def test_odds_lines_say_du_and_je_and_name_the_independent_army_in_the_readers_language(
    pbem: Pbem, tmp_path: Path
) -> None:
    """A German and a Dutch receipt of an attack on an independent army (ER-8.31), and the orders
    template that offers the attack."""
    start(pbem, tmp_path)
    number = play_until(pbem, 1, "kesh", {})
    assert "#   KES: 1 KAV 2 INF 1 BOG -> DUN, PEL (Angriff: Unabhängige)" in template_of(last_report(pbem, "kesh"))
    german = mailed(pbem, "kesh", number, "ATTACK 2 INF: KES -> PEL")
    assert "Die Chancen deiner Angriffe, genau berechnet auf dem, was du siehst" in german
    assert re.search(
        r"PEL: 2 INF gegen Unabhängige 1 KAV 1 INF: du gewinnst zu [\d.]+%; erwartete Verluste: deine ", german
    )
    assert not re.search(r"\b(Sie|Ihre?)\b", german) and "independent" not in german
    number = play_until(pbem, 1, "thal", {})
    assert "THA: 1 CAV 2 INF 1 BOOG -> GAR (aanval: onafhankelijken), ORO" in template_of(last_report(pbem, "thal"))
    dutch = mailed(pbem, "thal", number, "ATTACK 2 INF: THA -> GAR")
    assert "De kansen van je aanvallen, exact berekend op wat je kunt zien" in dutch
    assert re.search(
        r"GAR: 2 INF tegen onafhankelijken 1 CAV 1 INF: je wint met [\d.]+%; verwachte verliezen: jouw ", dutch
    )
    assert not re.search(r"\b(u|uw)\b", dutch) and "independent" not in dutch


def test_the_templates_standing_orders_are_written_in_the_readers_keywords(pbem: Pbem, tmp_path: Path) -> None:
    """The standing orders in force, in the campaign template and in the next plans template, as the
    report's own sentence of the orders kept writes them (VERLUSTE BOG, INF, KAV)."""
    start(pbem, tmp_path)
    mailed(pbem, "kesh", PLANS, "LOSSES ARC, INF, CAV", "RETREAT FROM KES TO DUN")
    play_until(pbem, 1, "kesh", {})
    report = last_report(pbem, "kesh")
    kept = "VERLUSTE BOG, INF, KAV; RÜCKZUG AUS KES NACH DUN"
    assert f"Deine Dauerbefehle, gültig bis zu ihrer Änderung: {kept}." in report
    campaign = template_of(report)
    assert "#   VERLUSTE BOG, INF, KAV\n#   RÜCKZUG AUS KES NACH DUN\n" in campaign
    assert "LOSSES" not in campaign and "RETREAT" not in campaign
    play_until(pbem, 2, "kesh", {})  # through the next plans template
    plans = [
        template_of(p.read_text(encoding="utf-8"))
        for p in sorted((pbem.data / "games" / "er1").glob("turn-*/report-kesh.txt"))
        if "In Kraft: " in p.read_text(encoding="utf-8")
    ]
    assert plans and all("In Kraft: " in p and "VERLUSTE BOG, INF, KAV" in p for p in plans)
    assert not any("LOSSES" in p for p in plans)


def test_a_bot_seats_orders_are_echoed_in_its_readers_keywords(pbem: Pbem, tmp_path: Path) -> None:
    """The bot writes English keywords; an Italian and a Dutch seat's private report echoes them in its
    own (the line as the seat wrote it stays for a player's own orders)."""
    start(pbem, tmp_path)
    for seat in ("aurel", "thal"):
        assert pbem("gm", "bot", "er1", seat).exit_code == 0
    mailed(pbem, "kesh", PLANS, "LOSSES ARC, INF, CAV")  # a player's own English line stays as written
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    folder = pbem.data / "games" / "er1" / f"turn-{PLANS:04d}"
    for seat, language, line in (("aurel", "it", "riga"), ("thal", "nl", "regel")):
        echoed = re.findall(
            rf"^  {line} +\d+  (.*)$", (folder / f"report-{seat}.txt").read_text(encoding="utf-8"), re.M
        )
        assert echoed, seat
        assert all(keywords_written(language, text, "conqueror-er") == text for text in echoed), echoed
        assert not any(text.split()[0] in ("RECRUIT", "REINFORCE", "DEFENCE", "FOOD") for text in echoed), echoed
    assert "  Zeile   2  LOSSES ARC, INF, CAV\n" in (folder / "report-kesh.txt").read_text(encoding="utf-8")


def test_counts_agree_coins_and_no_cards(pbem: Pbem, tmp_path: Path) -> None:
    """One coin is "1 Münze" / "1 munt" / "1 moneta" in the orders template, and an empty hand of tactic
    cards is "nessuna" in Italian."""
    start(pbem, tmp_path)
    with Archive.open(pbem.data, pbem.db).session() as session:
        _, rules, state = current_game(session, "er1")
    from adjudicator.rulesets.conqueror.orders_template import TemplateMaker

    state.players["kesh"].coins = 1
    state.players["aurel"].hand = []
    make = TemplateMaker(rules, state)
    lines = {
        seat: [line for s in make(seat, language).sections for line in s.lines]
        for seat, language in (("kesh", "de"), ("thal", "nl"))
    }
    assert "Du hast jetzt 1 Münze." in lines["kesh"]
    assert not any(re.search(r"\b1 Münzen\b", line) for line in lines["kesh"])
    italian = TemplateMaker(rules, state)("aurel", "it")
    assert italian is not None
    prices = [line for s in italian.sections for line in s.lines if re.search(r"\b1 monet", line)]
    assert all("1 moneta" in line for line in prices)
    from adjudicator.render.i18n import plural_gettext

    assert [
        plural_gettext("nl", "%(price)s coin", "%(price)s coins", n, in_ruleset="conqueror-er", price=n) for n in (1, 3)
    ] == ["1 munt", "3 munten"]
    assert (
        plural_gettext("it", "%(price)s coin", "%(price)s coins", 1, in_ruleset="conqueror-er", price=1) == "1 moneta"
    )


def test_an_empty_hand_reads_nessuna_in_italian_and_one_card_is_singular() -> None:
    """The end of a private report (seat-position) of a seat without cards, Empires and Conqueror."""
    from adjudicator.render import environment

    empires = environment("it").get_template("empires/seat-position.txt.j2")
    state = {"public": {"phase": "plans"}, "private": {"blue": {"hand": [], "home_group": None}}}
    shown = empires.render(state=state, seat="blue", ruleset="empires-aw", orders_template=lambda s, lang: None)
    assert "La tua mano (0 carte): nessuna\n" in shown
    conqueror = environment("it").get_template("conqueror/seat-position.txt.j2")
    state = {"public": {"phase": "ended"}, "private": {"kesh": {"hand": [], "heroes_down": []}}}
    shown = conqueror.render(state=state, seat="kesh", ruleset="conqueror-er", orders_template=lambda s, lang: None)
    assert "Le tue carte tattica: nessuna\n" in shown and "I tuoi eroi coperti: nessuno\n" in shown


def test_a_report_of_several_turns_echoes_a_bot_seats_orders_in_its_readers_keywords(
    pbem: Pbem, tmp_path: Path
) -> None:
    """A report mail of several steps (ER-4) renders each step's verdicts as the step's own report does."""
    start(pbem, tmp_path)
    assert pbem("gm", "bot", "er1", "thal").exit_code == 0
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the plans step, thal's orders the bot's
    with Archive.open(pbem.data, pbem.db).session() as session:
        game = db.find_game(session, "er1")
        every = db.turns(session, game)
        rows = every[-2:]
        bots = db.bot_seats(session, game, [row.number for row in rows])
        text = seat_report(game_ruleset(game), game, rows, {r.number: r.state_json for r in every}, "thal", "nl", bots)
    echoed = re.findall(r"^  regel +\d+  (.*)$", text, re.M)
    assert echoed and all(keywords_written("nl", line, "conqueror-er") == line for line in echoed), echoed
