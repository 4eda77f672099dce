"""Events carry their visibility: public, or a set of seats. Conquest of the Empire gives its
private kinds (standing orders, decisions, refused answers, press to one seat) their visibility by kind, and its
archive keeps the event JSON it always had, so that stored turns replay byte for byte."""

from __future__ import annotations

import json

from adjudicator.engine.vocabulary import Event, visible_to
from adjudicator.orders import parse_orders
from adjudicator.rulesets.coe.vocabulary import stored_event
from tests.helpers import classic, play, start

MAC, EGY = "Macedonia", "Egyptus"


def test_a_public_events_json_is_as_it_always_was() -> None:
    event = Event("moved", MAC, {"path": ["MAC", "THR"]})
    assert event.public and not event.private_to(MAC)
    assert json.dumps(event.to_json()) == '{"kind": "moved", "seat": "Macedonia", "data": {"path": ["MAC", "THR"]}}'
    assert Event.from_json(event.to_json()) == event


def test_an_event_for_some_seats_is_theirs_alone_and_keeps_its_seats_in_the_archive() -> None:
    hand = Event("drawn", EGY, {"card": "Scipio"}, visible_to([EGY, MAC]))
    assert not hand.public and hand.private_to(EGY) and hand.private_to(MAC) and not hand.private_to("Hispania")
    assert hand.to_json()["visible_to"] == [EGY, MAC]  # sorted: the same event, the same text
    assert Event.from_json(json.loads(json.dumps(hand.to_json()))) == hand
    nobody = Event("burnt", None, {}, visible_to([]))
    assert not nobody.public and not nobody.private_to(EGY)


def turn_events(orders: str) -> list[Event]:
    order_set = parse_orders(f"GAME test TURN 1 PLAYER Macedonia PASSWORD x\n{orders}", classic())
    return play(start(), *order_set.orders).events


def test_coe_standing_orders_and_press_to_one_seat_are_private_by_kind_and_stored_as_before() -> None:
    events = turn_events("LOSSES CAV, INF, CAT\nPRESS TO Egyptus: for your eyes only\nPRESS: to all\n")
    standing = next(e for e in events if e.kind == "standing_order")
    letter, broadcast = (e for e in events if e.kind == "press")
    assert standing.visible_to == {MAC} and standing.private_to(MAC) and not standing.public
    assert letter.visible_to == {EGY} and letter.private_to(EGY) and not letter.private_to(MAC)
    assert broadcast.public and broadcast.visible_to is None
    for event in (standing, letter, broadcast):
        assert set(event.to_json()) == {"kind", "seat", "data"}  # the archive's event JSON of every version
        assert stored_event(event.to_json()) == event  # read back with the visibility its kind gives


def test_coe_events_of_an_old_archive_are_read_private_as_they_were() -> None:
    decision = {"kind": "decision", "seat": EGY, "data": {"key": "battle.THR.1.losses", "source": "default"}}
    refused = {"kind": "answer_refused", "seat": EGY, "data": {"key": "k", "answer": "x", "reason": "r"}}
    tribute = {"kind": "tribute", "seat": EGY, "data": {"amount": 25}}
    assert stored_event(decision).visible_to == {EGY} and not stored_event(decision).private_to(MAC)
    assert stored_event(refused).private_to(EGY) and not stored_event(refused).public
    assert stored_event(tribute).public
