"""Conqueror: Empire Rises for players by mail: the orders template at the end of each private report and welcome
(per step kind: Conquest mode's purchases, ER-3.11; the sealed plans step; the campaign turns), the effect of each
card in words made from its effect codes (ER-13.6), HELP per ruleset, and `pbem rulesets` naming the seats."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adjudicator.rulesets.conqueror.card_text import card_words
from adjudicator.rulesets.conqueror.data import GameData
from tests.conftest import Pbem

# -- pbem rulesets ---------------------------------------------------------------------------------------------------


def test_ER_3_3_pbem_rulesets_says_conqueror_is_playable_and_lists_the_seats_of_its_example_data(pbem: Pbem) -> None:
    result = pbem("rulesets", data=False)
    assert result.exit_code == 0, result.output
    assert "being built" not in result.output
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("conqueror-er"))
    block = "\n".join(lines[start : start + 9])
    assert "example data" in block and "--game-data" in block
    assert "kesh (Keshite Thalassocracy)" in block and "3 players: aurel, kesh, thal" in block
    classic = next(i for i, line in enumerate(lines) if line.startswith("coe-classic"))
    assert "seats: Macedonia" in lines[classic + 1]  # a ruleset whose seats ship with it


def test_ER_13_pbem_rulesets_game_data_lists_the_moderators_seats(pbem: Pbem, tmp_path: Path) -> None:
    from tests.test_conqueror_new import data_copy

    folder = data_copy(tmp_path)
    text = (folder / "factions.toml").read_text(encoding="utf-8")
    (folder / "factions.toml").write_text(text.replace('"Keshite Thalassocracy"', '"Sea Kings"'), encoding="utf-8")
    result = pbem("rulesets", "--game-data", str(folder), data=False)
    assert result.exit_code == 0, result.output
    assert "kesh (Sea Kings)" in result.output and str(folder) in result.output
    conqueror = result.output[result.output.index("conqueror-er") :].split("\nempires-aw")[0]
    assert "example data" not in conqueror  # the folder is Conqueror's: the other data ruleset shows its example
    broken = pbem("rulesets", "--game-data", str(tmp_path / "nothing"), data=False)
    assert broken.exit_code == 1 and "no seats read:" in broken.output and "factions.toml" in broken.output
    assert "coe-classic" in broken.output  # the other rulesets are listed all the same


# -- cards in words (ER-13.6) ----------------------------------------------------------------------------------------


def example_data() -> GameData:
    from adjudicator.rulesets.conqueror.loader import load_folder
    from tests.test_conqueror_new import EXAMPLE

    return load_folder(EXAMPLE)


def test_ER_13_6_each_card_is_described_from_its_effect_codes() -> None:
    data = example_data()
    assert card_words("en", data, "kesh-3") == (
        "kesh-3 Harro Coinmaster (hero, strength 1, cost 3): coins +2 (after a battle won; if the battle is won)"
    )
    assert card_words("en", data, "last-stand") == (
        "last-stand Last Stand (tactic card, strength 1): defence +1 (in battle, at the melee; when defending; on land)"
    )
    assert card_words("en", data, "forced-march") == (
        "forced-march Forced March (tactic card, strength 0): own units may move twice (at the start of each of its "
        "campaign turns; until the end of the campaign turn)"
    )
    assert card_words("en", data, "good-harvest") == (
        "good-harvest Good Harvest (chronicle, level 1): food supply +1 (at each New Year; for every player; until "
        "the end of the round)"
    )
    assert card_words("en", data, "automa-5") == "automa-5 (automa card, strength 3, unblockable casualties 1)"
    assert card_words("de", data, "last-stand") == (
        "last-stand Last Stand (Taktikkarte, Stärke 1): Verteidigung +1 (in der Schlacht, beim Nahkampf; als "
        "Verteidiger; an Land)"
    )
    # every card of the example data, which uses every op, trigger and condition, reads in each language
    cards = data.cards
    ids = [c.id for c in (*cards.heroes, *cards.tactics, *cards.chronicles, *cards.megaprojects, *cards.automa)]
    for language in ("de", "it", "nl"):
        for card in ids:
            english, spoken = card_words("en", data, card), card_words(language, data, card)
            assert spoken != english or ":" not in english, (language, card, spoken)


def test_ER_8_14_a_card_played_in_battle_is_described_in_the_public_report() -> None:
    from adjudicator.render import render
    from tests.test_conqueror_campaign import FOUR, ONE, campaign_of, kesh_in, play

    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=1)
    result = play(rules, state, "aurel", [FOUR, FOUR, FOUR, ONE], "ATTACK 1 CAV 1 INF 1 ARC: AUR -> MIR TACTICS rally")
    public = [e for e in rules.report_events(result.events, None) if e.visible_to is None]

    def told(language: str) -> str:
        return "\n".join(
            render("_sentence.txt.j2", language, event=e, ruleset_templates="conqueror").strip() for e in public
        )

    assert "tactic cards rally (ER-8.14).\n    rally Rally (tactic card, strength 1): melee die re-rolls: up to 1" in (
        told("en")
    )
    assert card_words("it", rules.data, "rally") in told("it")


def test_ER_3_5_the_private_report_describes_each_card_in_hand(pbem: Pbem, tmp_path: Path) -> None:
    from tests.test_conqueror_new import data_copy, new_er
    from tests.test_conqueror_plans_cli import SEATS3

    created = new_er(pbem, data_copy(tmp_path), "--language", "kesh=nl", seats=SEATS3)
    assert created.startswith("0\n"), created
    turn = pbem.data / "games" / "er1" / "turn-0001"
    data = example_data()
    for seat, language in (("kesh", "nl"), ("aurel", "en")):
        hand = json.loads((turn / f"snapshot-{seat}.json").read_text())["private"][seat]["hand"]
        report = (turn / f"report-{seat}.txt").read_text()
        assert hand and all(card_words(language, data, card) in report for card in hand), report


# -- the orders template (ER-3.11, ER-4.1, ER-7.1) -------------------------------------------------------------------


def started(pbem: Pbem, tmp_path: Path, *extra: str) -> None:
    """A 3-seat game (kesh reads German, aurel Dutch, thal English) after `pbem new`: the setup's deal is done."""
    from tests.test_conqueror_new import data_copy, new_er
    from tests.test_conqueror_plans_cli import SEATS3

    created = new_er(pbem, data_copy(tmp_path), "--language", "kesh=de", "--language", "aurel=nl", *extra, seats=SEATS3)
    assert created.startswith("0\n"), created
    for line in created.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS3:
            pbem.passwords[parts[0]] = parts[1]


def template_of(text: str) -> tuple[str, list[str], list[str]]:
    """The header line, the lines of the template and its example lines (the "#   " taken off) of a private report:
    the examples are the last lines, after the last heading."""
    lines = text.rstrip("\n").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("--- "))
    body = lines[start + 2 :]
    count = next(i for i, line in enumerate(reversed(body)) if not line.startswith("#   "))
    examples = [line.removeprefix("#   ") for line in body[len(body) - count :]]
    return lines[start + 1], body, examples


def queued(pbem: Pbem, address: str) -> list[str]:
    """The bodies of the mails queued for `address`, oldest first."""
    from sqlmodel import select

    from adjudicator.archive import Archive
    from adjudicator.archive.models import OutboxRow

    with Archive.open(pbem.data, pbem.db).session() as session:
        return [row.body for row in session.exec(select(OutboxRow)).all() if row.to == address]


def report(pbem: Pbem, turn: int, seat: str) -> str:
    return (pbem.data / "games" / "er1" / f"turn-{turn:04d}" / f"report-{seat}.txt").read_text(encoding="utf-8")


def checked(pbem: Pbem, tmp_path: Path, header: str, examples: list[str]) -> str:
    """`pbem check --game er1` of the template's header (a password for its placeholder) and its examples: every
    one is understood and accepted."""
    path = tmp_path / "orders.txt"
    path.write_text("\n".join([header.split("<")[0] + "x", *examples]) + "\n", encoding="utf-8")
    result = pbem("check", "--game", "er1", str(path))
    assert result.exit_code == 0, result.output
    return result.output


def test_ER_3_11_the_welcome_and_report_end_with_the_purchases_template_whose_examples_are_accepted(
    pbem: Pbem, tmp_path: Path
) -> None:
    started(pbem, tmp_path, "--mode", "conquest")
    text = report(pbem, 1, "thal")
    assert "The next step you order in" not in text
    header, body, examples = template_of(text)
    assert header == "GAME er1 TURN 2 PLAYER thal PASSWORD <your password>"
    assert "#   You hold 10 coins now." in body and "#   BAZAAR: 3 coins" in body
    assert examples and all(line.startswith("BUY ") for line in examples)
    checked(pbem, tmp_path, header, examples)
    welcome = queued(pbem, "t@example.org")[0]  # the welcome mail, as `pbem send` will deliver it
    assert "GAME er1 TURN 2 PLAYER thal PASSWORD <your password>" in welcome and "#   BUY " in welcome
    hand = json.loads((pbem.data / "games" / "er1" / "turn-0001" / "snapshot-thal.json").read_text())
    (card,) = hand["private"]["thal"]["hand"]  # the welcome shows the position after the deal (ER-3.5, ER-3.11)
    assert f"  {card_words('en', example_data(), card)}\n" in welcome and "#   You hold 10 coins now." in welcome
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the purchases, by the defaults
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # New Year: Conquest mode draws a chronicle (ER-4.5)
    public = (pbem.data / "games" / "er1" / "turn-0003" / "report.txt").read_text(encoding="utf-8")
    drawn = re.search(r"the chronicle card (\S+) is drawn \(ER-4.4\).\n    (.*)\n", public)
    assert drawn and drawn[2] == card_words("en", example_data(), drawn[1]), public


def test_ER_4_1_the_plans_template_lists_every_form_and_its_examples_are_accepted_in_german(
    pbem: Pbem, tmp_path: Path
) -> None:
    started(pbem, tmp_path)
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation (ER-5.2): the plans step is due
    english = report(pbem, 2, "thal")
    header, body, examples = template_of(english)
    assert header == "GAME er1 TURN 3 PLAYER thal PASSWORD <your password>"
    text = "\n".join(body)
    for form in (
        "AGENT PASS",
        "TRADE WITH kesh | aurel | INDEPENDENT",
        "RECRUIT",
        "ELITE",
        "HERO",
        "FOOD STORE",
        "PAY 2 TO",
        "DEFENCE AT",
        "LOSSES",
        "EXCESS",
        "RETREAT FROM",
        "REINFORCE NEVER",
        "CASUALTIES",
        "CAPITAL",
        "In force: none",
    ):
        assert form in text, form
    assert "thal-2 Lysa Spearmother (hero, strength 1, cost 3): each of its infantry: strength +1" in text
    assert [line.split()[0] for line in examples][:1] == ["AGENT"] and "LOSSES ARC, INF, CAV" in examples
    checked(pbem, tmp_path, header, examples)
    german = report(pbem, 2, "kesh")
    header, body, examples = template_of(german)
    assert header.startswith("SPIEL er1 ZUG 3 SPIELER kesh PASSWORT <")
    assert any(line.startswith("AGENT ") for line in examples) and "VERLUSTE BOG, INF, KAV" in examples
    checked(pbem, tmp_path, header, examples)


def test_ER_7_1_the_campaign_template_lists_armies_cards_and_standing_orders_and_its_examples_are_accepted(
    pbem: Pbem, tmp_path: Path
) -> None:
    started(pbem, tmp_path)
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the plans step, by the defaults (ER-14)
    seat = "kesh"  # the first of the turn order (factions.toml): its campaign turn is step 4
    header, body, examples = template_of(report(pbem, 3, "thal"))
    assert header == "GAME er1 TURN 6 PLAYER thal PASSWORD <your password>"  # thal's turn comes third
    text = "\n".join(body)
    assert (
        "#   THA: 1 CAV 2 INF 1 ARC -> GAR (attack: independent), ORO" in text
        and "MOVE 2 INF 1 CAV: <area> -> <area>" in text
    )
    assert "(tactic card)" in text
    assert "# Your standing orders in force for the battles (changed in the plans step, ER-14):\n#   none" in text
    assert examples[0] == "MOVE 1 INF: THA -> ORO" and examples[1].startswith("ATTACK 1 CAV 1 INF 1 ARC: THA -> GAR")
    header, body, examples = template_of(report(pbem, 3, seat))
    assert header.startswith("SPIEL er1 ZUG 4 SPIELER kesh")
    assert any(line.startswith(("ZIEHE ", "GREIFE ")) for line in examples), examples
    checked(pbem, tmp_path, header, examples)


# -- HELP per ruleset --------------------------------------------------------------------------------------------------


def test_ER_14_help_lists_the_orders_of_the_game_the_sender_plays(pbem: Pbem, tmp_path: Path) -> None:
    """A Conqueror player's HELP lists Conqueror's orders in his keywords; a Conquest of the Empire player's lists
    CoE's; a seat's HELP below its header lists its game's."""
    from adjudicator.archive import Archive
    from adjudicator.services.mailbox import ingest
    from tests.test_mail_commands import letter

    started(pbem, tmp_path)
    pbem.new_game("rome1")
    archive = Archive.open(pbem.data, pbem.db)
    assert ingest(archive, letter("k@example.org", "HILFE")).text == "HELP answered"
    conqueror = queued(pbem, "k@example.org")[-1]
    assert "Befehle für Conqueror: Empire Rises" in conqueror
    assert "AGENT BASAR SONST AKADEMIE SONST HANDEL MIT kesh" in conqueror
    assert "REKRUTIERE 2 INF IN AUR, ELITE, HELD aurel-2" in conqueror and "SEGLE" not in conqueror
    assert ingest(archive, letter("mac@example.org", "HELP", mid="2")).text == "HELP answered"
    classic = queued(pbem, "mac@example.org")[-1]
    assert "Orders of Conquest of the Empire" in classic and "SAIL GALLEY 1: ITA -> TYR -> SIC" in classic
    assert "AGENT" not in classic
    own = letter("t@example.org", f"GAME er1 TURN 3 PLAYER thal PASSWORD {pbem.passwords['thal']}", "HELP", mid="3")
    assert ingest(archive, own).text == "commands: HELP"
    seat = queued(pbem, "t@example.org")[-1]
    assert "Orders of Conqueror: Empire Rises" in seat and "TRANSPORT 2 INF: PEL -> MSE -> THA" in seat


# -- docs/players-conqueror.md ---------------------------------------------------------------------------------------


def test_ER_13_the_players_guide_orders_parse_and_its_board_is_the_example_data() -> None:
    """Every order the guide's tables and examples show is read by the order language, and its board tables are
    the example data's areas and borders."""
    from adjudicator.mail.commands import command_of
    from adjudicator.orders.parser import parse_orders
    from adjudicator.rulesets import load_ruleset

    doc = (Path(__file__).parent.parent / "docs" / "players-conqueror.md").read_text(encoding="utf-8")
    game = load_ruleset("conqueror-er").with_data(example_data())  # type: ignore[attr-defined]
    orders = doc[doc.index("## Every order") : doc.index("## One round")]
    rows = [line.split(" | ")[0] for line in orders.splitlines() if line.startswith("| `")]  # the order column
    spans = [s for row in rows for s in re.findall(r"`([^`]+)`", row)]
    spans = [s for s in spans if "..." not in s and command_of(s, 1) is None]  # mail commands are no orders
    spans += orders.split("```")[1].strip().splitlines()  # the purchases example
    assert len(spans) > 40
    for order in spans:
        parsed = parse_orders(f"GAME demo TURN 5 PLAYER aurel PASSWORD x\n{order}\n", game)
        assert not parsed.errors, (order, parsed.errors)
    data = example_data()
    for side in data.maps.values():
        for code, area in side.areas.items():
            neighbours = ", ".join(sorted(side.board.neighbours(code)))
            assert f"| {code} | {area.name} | {'land' if area.land else 'sea'} | {area.fort} |" in doc
            assert re.search(rf"\| {code} \| [^\n]* \| {re.escape(neighbours)} \|", doc), code


def test_ER_12_with_seas_of_destiny_the_templates_offer_megaprojects_wharves_and_transports(
    pbem: Pbem, tmp_path: Path
) -> None:
    started(pbem, tmp_path, "--option", "seas_of_destiny=true")
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation: the plans step is due
    header, body, examples = template_of(report(pbem, 2, "thal"))
    text = "\n".join(body)
    assert "#   WONDER SLOT DISTRICT|UPGRADE: " in text and "#   WHARF AT <coastal area> SHIP <sea>: " in text
    checked(pbem, tmp_path, header, examples)
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # the plans step, by the defaults
    header, body, examples = template_of(report(pbem, 3, "thal"))
    assert "#   TRANSPORT 2 INF 1 CAV: <area> -> <sea> -> <area>: by your ships, 2 units each (ER-12.12)" in body


def test_ER_12_12_the_campaign_template_of_a_fleet_offers_a_transport_its_check_accepts() -> None:
    """kesh built a wharf at KES with its ships in NSE (ER-12.9): its campaign template lists the fleet with the
    seas it may sail to, and a transport from its coast that the campaign's checks accept with the other examples."""
    from adjudicator.engine.chance import GivenDice
    from adjudicator.orders.parser import parse_orders
    from adjudicator.render import render
    from tests.test_conqueror_politics import play
    from tests.test_conqueror_seas import sod_plans

    rules, state = sod_plans()
    state.players["kesh"].coins = 10
    state = play(rules, state, {"kesh": "AGENT WHARF AT KES SHIP NSE"}).state
    context = {"coming": rules.next_steps(state), **rules.report_context(state)}
    text = render(
        "conqueror/seat-position.txt.j2",
        "en",
        state=rules.snapshot(state, "kesh"),
        seat="kesh",
        game="g1",
        **context,
    )
    header, body, examples = template_of(text)
    assert header == "GAME g1 TURN 4 PLAYER kesh PASSWORD <your password>"
    assert "#   NSE: 2 SHIP -> ESE" in body
    assert any(line.startswith("TRANSPORT 1 INF: ") and " -> NSE -> " in line for line in examples), examples
    orders = parse_orders("\n".join([header.split("<")[0] + "x", *examples]) + "\n", rules)
    assert not orders.errors
    verdicts = rules.check_orders(state, "kesh", 4, orders, GivenDice(values=[]))
    assert verdicts and all(v.accepted for v in verdicts), verdicts


def test_ER_14_the_examples_are_judged_as_parsed_in_one_mail_and_a_line_is_parsed_once_at_any_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The template judges its examples as one mail (orders_template.py accepted): the order set made of each line's
    parse is the parse of the whole text, orders and errors on their own lines; a line met again at another number
    (an example before it left out) is not parsed again."""
    import adjudicator.orders.parser as parser
    from adjudicator.rulesets.conqueror import orders_template
    from tests.test_conqueror_seas import sod_plans

    rules, _ = sod_plans()
    header = "GAME g TURN 1 PLAYER kesh PASSWORD x"
    lines = ["FOOD STORE", "AGENT NONSENSE", "LOSSES ARCHER, INFANTRY, CAVALRY", "RETREAT FROM KES TO NSE"]
    for kept in (lines, lines[1:], lines[2:], [lines[0], lines[2]]):
        whole = parser.parse_orders("\n".join([header, *kept]) + "\n", rules)
        assert orders_template._parsed(header, kept, rules) == whole, kept
    assert any(e.line == 3 for e in orders_template._parsed(header, lines, rules).errors)
    parsed: list[str] = []
    parse = parser.parse_orders
    monkeypatch.setattr(parser, "parse_orders", lambda text, ruleset: parsed.append(text) or parse(text, ruleset))
    orders_template._parsed(header, ["FOOD USE", "PAY 1 TO thal"], rules)
    orders_template._parsed(header, ["PAY 1 TO thal"], rules)
    assert len(parsed) == 2, parsed
