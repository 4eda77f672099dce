"""The engine's base class of every ruleset (adjudicator/engine/ruleset_base.py): each ruleset writes only what its
game does differently, binding to a game's data is a member of the protocol, and a ruleset whose games need the
moderator's data refuses play with one message until it is bound (ER-13)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.chance import Dice, GivenDice
from adjudicator.engine.envelope import Envelope, data_digest, envelope_text
from adjudicator.engine.protocol import EVERYONE, PUBLIC, Ruleset
from adjudicator.engine.ruleset_base import NeedsGameData, RulesetBase
from adjudicator.engine.ruleset_source import RulesetInfo
from adjudicator.engine.steps import Step, StepResult, resolve_step
from adjudicator.engine.vocabulary import Event
from adjudicator.errors import PbemError
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.ruleset import ConquerorRuleset

RULESETS = Path(__file__).parent / "rulesets"
FACTIONS = ["aurel", "kesh", "thal"]
NEEDS_DATA = "conqueror-er: a game is played with its data: `pbem new --ruleset conqueror-er --game-data DIR`"
# What a ruleset leaves to the base when its game does not differ (protocol.py).
SHARED = (
    "name",
    "title",
    "description",
    "aliases",
    "folder",
    "snapshot_text",
    "read_event",
    "report_events",
    "report_context",
    "coming_steps",
    "next_steps",
    "steps_done",
    "round_of",
    "dice_words",
    "map_layers",
    "with_game_data",
)


@pytest.fixture(scope="module")
def bids() -> Any:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PBEM_RULESETS", str(RULESETS))
        return load_ruleset("sealed-bids")


@pytest.fixture(scope="module")
def conqueror() -> tuple[Ruleset, dict[str, str]]:
    """The registry's unbound ruleset, and the files of its example data as a game stores them."""
    ruleset = load_ruleset("conqueror-er")
    assert ruleset.game_data is not None and ruleset.example_data is not None
    return ruleset, ruleset.game_data.files(ruleset.example_data)


def own_members(cls: type) -> set[str]:
    """The members a class writes in its own body."""
    return set(vars(cls)) | set(vars(cls).get("__annotations__", {}))


def test_every_ruleset_subclasses_the_engine_base_and_writes_only_the_defaults_its_game_changes(bids: Any) -> None:
    for name in ("coe-classic", "coe-1984", "conqueror-er"):
        assert isinstance(load_ruleset(name), RulesetBase) and isinstance(load_ruleset(name), Ruleset)
    assert isinstance(bids, RulesetBase) and isinstance(bids, Ruleset)
    classes = (CoeRuleset, ConquerorRuleset, ConquerorGame, type(bids))
    written = {cls.__name__: sorted(own_members(cls) & set(SHARED)) for cls in classes}
    assert written == {
        # CoE tells battles (told.py), stores schema 1 and events without visibility, schedules a round (C-4.1),
        # counts player-turns (C-4.2), reads the combat die's symbols (C-1.8), adds prices to the report context and
        # draws its map
        "CoeRuleset": [
            "coming_steps",
            "dice_words",
            "map_layers",
            "next_steps",
            "read_event",
            "report_context",
            "report_events",
            "snapshot_text",
            "steps_done",
        ],
        "ConquerorRuleset": ["with_game_data"],  # ER-13: binds to a game's data
        # ER-4: a round's steps; ER-13.6: cards told with what they do; the map of the game's data
        "ConquerorGame": ["coming_steps", "map_layers", "next_steps", "report_context", "report_events"],
        "SealedBids": [],
    }


def test_B_1_B_3_sealed_bids_plays_on_the_base_defaults(bids: Any) -> None:
    state = bids.initial_state("g1", ["North", "East", "South"])
    assert bids.coming_steps(state) == [Step(1, "deal", ())] and bids.steps_done(state) == 0
    assert bids.next_steps(state) == {"North": 1, "East": 1, "South": 1} and bids.round_of(state) == 0
    dealt = resolve_step(bids, state, bids.due(state), {}, GivenDice(values=[1] * 11))
    state = dealt.state
    # B-1: the hands are private events; stored and read back with their visibility
    assert [bids.read_event(json.loads(json.dumps(e.to_json()))) for e in dealt.events] == dealt.events
    assert not dealt.events[0].public and bids.report_events(dealt.events, None) is dealt.events
    step = Step(2, "bid", ("North", "East", "South"), sealed=True)
    assert bids.coming_steps(state) == [step] and bids.report_context(state) == {"coming": dict.fromkeys(step.seats, 2)}
    text = bids.snapshot_text(state)
    assert text == envelope_text(bids.snapshot(state)) and json.loads(text)["private"].keys() == set(step.seats)
    assert bids.snapshot_text(bids.read_stored_snapshot(text)) == text
    assert "private" not in json.loads(bids.snapshot_text(state, PUBLIC))
    assert bids.steps_done(state) == 1 and bids.round_of(state) == 0


def test_ER_13_the_unbound_conqueror_ruleset_refuses_every_member_of_play_with_one_message(
    conqueror: tuple[Ruleset, dict[str, str]],
) -> None:
    ruleset, _ = conqueror
    assert ruleset.takes_game_data and ruleset.data_digest == ""
    calls = {
        "lookup_seat": lambda: ruleset.lookup_seat("aurel"),
        "initial_state": lambda: ruleset.initial_state("g", FACTIONS),
        "due": lambda: ruleset.due(None),
        "play_step": lambda: ruleset.play_step(None, Step(1, "setup", ()), {}, GivenDice(), {}),
        "check_orders": lambda: ruleset.check_orders(None, "aurel", 1, None, GivenDice()),
        "broken_invariants": lambda: ruleset.broken_invariants(None),
        "seats_of": lambda: ruleset.seats_of(None),
        "coming_steps": lambda: ruleset.coming_steps(None),
        "next_steps": lambda: ruleset.next_steps(None),
        "snapshot": lambda: ruleset.snapshot(None),
        "snapshot_text": lambda: ruleset.snapshot_text(None, PUBLIC),
        "read_snapshot": lambda: ruleset.read_snapshot({}),
        "read_stored_snapshot": lambda: ruleset.read_stored_snapshot("{}"),
        "order_builder": lambda: ruleset.order_builder(),
        "report_context": lambda: ruleset.report_context(None),
    }
    for member, call in calls.items():
        with pytest.raises(NeedsGameData) as refused:
            call()
        assert str(refused.value) == NEEDS_DATA, member
        assert isinstance(refused.value, PbemError)


def test_ER_13_binding_to_game_data_is_a_member_of_the_protocol(
    bids: Any, conqueror: tuple[Ruleset, dict[str, str]]
) -> None:
    for plain in (load_ruleset("coe-classic"), load_ruleset("coe-1984"), bids):
        assert not plain.takes_game_data and plain.game_data is None and plain.example_data is None
        assert plain.with_game_data({}) is plain and plain.data_digest == ""
    ruleset, files = conqueror
    bound = ruleset.with_game_data(files, "imperator")
    assert bound is not ruleset and bound.takes_game_data and bound.data_digest == data_digest(files)
    state = bound.initial_state("g", FACTIONS)
    assert bound.snapshot(state, PUBLIC)["data_digest"] == data_digest(files)
    assert bound.due(state) is not None and bound.lookup_seat("au") == ["aurel"]
    # a bound game binds again like the registry's ruleset: the same data plays the same game
    again = bound.with_game_data(files, "imperator")
    assert again.data_digest == bound.data_digest and again.snapshot_text(state) == bound.snapshot_text(state)
    with pytest.raises(PbemError, match=r"factions.toml \(ER-13\): not valid TOML"):
        ruleset.with_game_data({**files, "factions.toml": "not = [toml"})


# -- a new game: only what differs ----------------------------------------------------------------------------------


@dataclass
class TallyState:
    seats: tuple[str, ...]
    steps_done: int = 0
    totals: dict[str, int] = field(default_factory=dict)


@dataclass
class Tally(RulesetBase):
    """T-1: two seats each roll a die in one sealed step a round; T-2: after two steps the game ends."""

    info: RulesetInfo
    seat_names: tuple[str, ...] = ("Red", "Blue")

    def lookup_seat(self, text: str) -> list[str]:
        return [seat for seat in self.seat_names if seat.casefold().startswith(text.casefold())]

    def initial_state(self, game: str, seats: list[str]) -> TallyState:
        return TallyState(tuple(seats), totals=dict.fromkeys(seats, 0))

    def due(self, state: TallyState) -> Step | None:
        return Step(state.steps_done + 1, "roll", state.seats, sealed=True) if state.steps_done < 2 else None

    def seats_of(self, state: TallyState) -> tuple[str, ...]:
        return state.seats

    def play_step(
        self, state: TallyState, step: Step, orders: Mapping[str, Any | None], chance: Dice, *_: Any, **__: Any
    ) -> StepResult:
        """No decisions to answer, and always on a copy (the protocol's `answers`, `ask`, `settled`, `in_place`)."""
        after = TallyState(state.seats, state.steps_done + 1, dict(state.totals))
        events = []
        for seat in step.seats:
            rolled = chance.roll(f"{seat} T-1")
            after.totals[seat] += rolled
            events.append(Event("rolled", seat, {"value": rolled}, visible_to=frozenset({seat})))
        return StepResult(after, events, {seat: [] for seat in step.seats}, [], list(chance.log))

    def snapshot(self, state: TallyState, viewer: str | None = EVERYONE) -> dict[str, Any]:
        private = {seat: {"total": state.totals[seat]} for seat in state.seats}
        envelope = Envelope(self.name, "t", state.steps_done, {"seats": list(state.seats)}, private)
        if viewer is PUBLIC:
            return envelope.public_snapshot()
        return envelope.whole_snapshot() if viewer == EVERYONE else envelope.seat_snapshot(viewer)

    def read_snapshot(self, data: Any) -> TallyState:
        totals = {seat: part["total"] for seat, part in data["private"].items()}
        return TallyState(tuple(data["public"]["seats"]), data["step"], totals)


def test_a_new_game_writes_only_what_differs_and_the_base_names_a_member_it_left_out(tmp_path: Path) -> None:
    tally = Tally(RulesetInfo("tally", "Tally", "two dice", ("t",), "tests", tmp_path))
    assert tally.name == "tally" and tally.aliases == ("t",) and tally.folder == tmp_path
    assert not tally.hidden_information and not tally.grouped_reports and tally.largest_draw == 6
    assert tally.bot is None and tally.odds is None and tally.templates is None and dict(tally.dice_words) == {}
    state = tally.initial_state("t", ["Red", "Blue"])
    for values in ([3, 4], [6, 1]):
        step = tally.due(state)
        assert step is not None and tally.coming_steps(state) == [step]
        assert tally.report_context(state) == {"coming": {"Red": step.number, "Blue": step.number}}
        result = resolve_step(tally, state, step, {}, GivenDice(values=values))
        assert tally.report_events(result.events, None) == result.events
        state = result.state
    assert state.totals == {"Red": 9, "Blue": 5} and tally.steps_done(state) == 2 and tally.round_of(state) == 0
    assert tally.due(state) is None and tally.coming_steps(state) == [] and tally.next_steps(state) == {}
    text = tally.snapshot_text(state)
    assert tally.read_stored_snapshot(text) == state and text == envelope_text(tally.snapshot(state))
    assert json.loads(tally.snapshot_text(state, "Blue"))["private"] == {"Blue": {"total": 5}}
    assert tally.with_game_data({}) is tally and not tally.takes_game_data
    with pytest.raises(NotImplementedError, match=r"^ruleset tally does not implement check_orders "):
        tally.check_orders(state, "Red", 3, None, GivenDice())
    with pytest.raises(NotImplementedError, match=r"^ruleset tally does not implement order_builder "):
        tally.order_builder()
