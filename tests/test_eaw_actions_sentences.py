"""Every event the actions make has an English sentence citing its rule (templates/empires/events_actions.j2)."""

from __future__ import annotations

from adjudicator.render import environment
from adjudicator.rulesets.empires import actions
from adjudicator.rulesets.empires.orders import (
    Action,
    Attack,
    BuildFort,
    Diplomacy,
    Disband,
    PlaceControl,
    PlaceTrade,
    PlanLine,
    Recruit,
    TradeTarget,
)
from tests.eaw_helpers import play, position


def line(*alternatives: Action) -> PlanLine:
    return PlanLine(tuple(alternatives), line=1, text="")


def test_EAW_7_every_action_event_has_a_sentence_with_its_rule() -> None:
    state = position(
        control={"GAL": "red", "RAE": "red", "GER": ("blue", 2), "NUM": "blue", "ITA": "green", "SIC": "green"},
        warehouse={"red": 20},
        trade={"MOC": {"blue": 8}},
        personalities={"red": ["envoy"]},
        hands={"red": ["rider"]},
        display=["pike", "archer", "galley", "blade", "trader", "slinger"],
        deck=["camel", "catapult", "galley#2", "pike#2", "blade#2", "archer#2", "trader#2"],
    )
    p = play(state, dice=[1, 6, 1, 6, 4, 3, 1, 6])
    for alternatives in (
        (BuildFort("MOC"), BuildFort("GAL")),
        (PlaceTrade((TradeTarget("EGY"), TradeTarget("MOC", ""), TradeTarget("MOC", ""))),),
        (Attack("ITA", "RAE"),),  # crossing 1: fails
        (Diplomacy("GER", remove=True, pay=0),),  # 6: one of two markers removed
        (Diplomacy("GER", remove=True, pay=0),),  # 4: fails
        (Attack("MOC", "GAL"),),  # sea movement 3: fails
        (Attack("EGY", "GAL"),),  # the Mediterranean: sea movement 1 fails
        (Attack("PON", "GER"), Recruit(("pike", "best"), "yes")),
        (Disband("rider"),),
        (Attack("MOC", "GAL"),),  # 6: the neutral sea is taken
        (PlaceControl("ITA"),),
        (Diplomacy("AFR"),),  # the diplomat: no roll
    ):
        actions.take_action(p, "red", line(*alternatives))
    actions.take_action(p, "blue", None)
    actions.take_action(play(position(control={"ITA": "blue"})), "red", None)
    module = environment("en").get_template("empires/events_actions.j2").module
    whole = environment("en").get_template("empires/events.j2").module  # the reports' dispatch
    ours = {e.kind for e in p.events} - {"roll", "decision"}  # the shared sentences of events.j2
    assert len(ours) == 19 and ours <= set(module.kinds)
    for event in p.events:
        text = str(whole.sentence(event)).strip()
        assert "(EAW-" in text and not text.startswith(event.kind), text
