"""The Ruleset protocol, the steps and the registry, with Conquest of the Empire as the
case of one seat per step. The sealed steps and hidden hands are tested with the test ruleset
(tests/test_sealed_bids.py)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.engine.chance import GivenDice
from adjudicator.engine.protocol import EVERYONE, PUBLIC, Ruleset
from adjudicator.engine.ruleset_source import RulesetDataError, RulesetSource
from adjudicator.engine.steps import NotDue, Step, StepNotReady, StepOrders, resolve_step
from adjudicator.resources import resource_dir
from adjudicator.rulesets import UnknownRuleset, load_ruleset, ruleset_names
from adjudicator.rulesets.coe.orders import Header, OrderSet
from adjudicator.rulesets.coe.ruleset import CoeRuleset, coe_ruleset, load
from adjudicator.rulesets.coe.state import to_snapshot
from adjudicator.rulesets.coe.turn import resolve
from tests.helpers import march, place, start

MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"


def test_both_coe_editions_implement_the_protocol() -> None:
    for name in ("coe-classic", "coe-1984"):
        ruleset = load_ruleset(name)
        assert isinstance(ruleset, Ruleset) and isinstance(ruleset, CoeRuleset)
        assert ruleset.folder == resource_dir("games") / name
        assert [path.name for path in ruleset.grammar_files] == ["common.lark", "coe.lark"]
        assert all(path.is_file() for path in ruleset.grammar_files)


def test_coe_is_found_by_name_or_alias_and_an_unknown_name_lists_the_known() -> None:
    assert load_ruleset("1984") is load_ruleset("coe-1984")
    assert coe_ruleset("classic").name == "coe-classic"
    with pytest.raises(UnknownRuleset, match=r"unknown ruleset 'chess'; known rulesets: coe-1984, coe-classic"):
        load_ruleset("chess")


def test_C_4_1_coe_has_one_seat_per_step_the_active_seats_player_turn() -> None:
    state = start()
    assert load_ruleset("coe-classic").due(state) == Step(1, "player-turn", (state.active,), sealed=False)
    state.active = None  # the game has ended (C-14.1)
    assert load_ruleset("coe-classic").due(state) is None


def test_resolve_step_plays_the_same_player_turn_as_resolve() -> None:
    ruleset = load_ruleset("coe-classic")
    state = place(start(), "THR", EGY, infantry=1)
    seat = state.active
    assert seat == MAC
    orders = OrderSet(Header("test", 1, MAC, "x"), (march((1,), "MAC", "THR", inf=2),))
    step = ruleset.due(state)
    assert step is not None
    by_step = resolve_step(ruleset, state, step, {MAC: orders}, GivenDice(values=[1, 1, 6]))
    by_turn = resolve(coe_ruleset("coe-classic"), state, orders, GivenDice(values=[1, 1, 6]))
    assert to_snapshot(by_step.state) == to_snapshot(by_turn.state)
    assert by_step.events == by_turn.events and by_step.dice == by_turn.dice and len(by_step.dice) == 3
    assert by_step.order_results == {MAC: by_turn.order_results}
    assert by_step.state.areas["THR"].owner == MAC


def test_resolve_step_refuses_a_step_not_due_and_a_seat_not_in_it() -> None:
    ruleset = load_ruleset("coe-classic")
    state = start()
    with pytest.raises(NotDue, match="step 2 .* is not the one due: step 1"):
        resolve_step(ruleset, state, Step(2, "player-turn", (MAC,)), {}, GivenDice())
    with pytest.raises(NotDue, match="Egyptus do.*not order in step 1"):
        resolve_step(ruleset, state, Step(1, "player-turn", (MAC,)), {EGY: None}, GivenDice())
    state.active = None
    with pytest.raises(NotDue, match="the game has ended"):
        resolve_step(ruleset, state, Step(1, "player-turn", (MAC,)), {}, GivenDice())


def test_an_ordered_step_resolves_with_what_it_has_and_keeps_its_orders_to_its_seat() -> None:
    orders = StepOrders(Step(1, "player-turn", (MAC,)))
    assert orders.for_resolution() == {MAC: None}  # no orders received: the turn is played without
    orders.submit(MAC, "first")
    orders.submit(MAC, "second")  # a later set replaces the earlier one
    assert orders.for_resolution() == {MAC: "second"}
    assert orders.visible_to(MAC) == {MAC: "second"} and orders.visible_to(EGY) == {}
    with pytest.raises(NotDue, match="Egyptus does not order in step 1"):
        orders.submit(EGY, "stranger")


def test_a_sealed_step_waits_for_every_seat_and_shows_each_only_its_own() -> None:
    orders = StepOrders(Step(4, "taxation", (MAC, EGY, HIS), sealed=True))
    orders.submit(EGY, "egy")
    assert orders.waiting_for == (MAC, HIS)
    assert orders.visible_to(EGY) == {EGY: "egy"} and orders.visible_to(MAC) == {}
    with pytest.raises(StepNotReady, match=r"step 4 \(taxation\) still waits for Macedonia, Hispania"):
        orders.for_resolution()
    assert orders.for_resolution(deadline_passed=True) == {MAC: None, EGY: "egy", HIS: None}
    orders.submit(MAC, "mac")
    orders.submit(HIS, "his")
    assert orders.for_resolution() == {MAC: "mac", EGY: "egy", HIS: "his"}


def test_coe_snapshots_are_schema_1_for_every_viewer_and_read_back() -> None:
    ruleset = load_ruleset("coe-classic")
    state = start()
    whole = ruleset.snapshot(state)
    assert whole["schema"] == 1 and ruleset.snapshot(state, PUBLIC) == whole == ruleset.snapshot(state, MAC)
    assert ruleset.snapshot(ruleset.read_snapshot(whole), EVERYONE) == whole


def test_rulesets_from_outside_the_package_come_from_pbem_rulesets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "mine" / "coe-house"
    shutil.copytree(resource_dir("games") / "coe-classic", copy)
    text = (copy / "ruleset.toml").read_text(encoding="utf-8")
    text = text.replace('name = "coe-classic"', 'name = "coe-house"').replace("aliases = [", 'aliases = ["house", ')
    (copy / "ruleset.toml").write_text(text, encoding="utf-8")
    assert "coe-house" not in ruleset_names()
    monkeypatch.setenv("PBEM_RULESETS", f"{tmp_path / 'none'}{os.pathsep}{tmp_path / 'mine'}")
    assert ruleset_names() == ["coe-1984", "coe-classic", "coe-house", "conqueror-er", "empires-aw"]
    house = load_ruleset("house")
    assert house.name == "coe-house" and house.folder == copy and isinstance(house, CoeRuleset)
    assert house.initial_state("g", [MAC, EGY, HIS]).players.keys() == {MAC, EGY, HIS}


def broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of the Classic ruleset's folder with one text of ruleset.toml replaced."""
    copy = tmp_path / "coe-classic"
    shutil.copytree(resource_dir("games") / "coe-classic", copy)
    text = (copy / "ruleset.toml").read_text(encoding="utf-8")
    assert old in text
    (copy / "ruleset.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('title = "', 'titel = "', "ruleset.toml: title: missing"),
        ('rules_prefix = "C"', "rules_prefix = 3", "ruleset.toml: rules_prefix: expected a string, found int 3"),
        ('home = "MAC"', 'home = "XYZ"', "ruleset.toml: seat[0].home: 'XYZ' is no area of board.toml"),
        ('name = "Macedonia"', "name = true", "ruleset.toml: seat[0].name: expected a string, found bool True"),
        ('board = "board.toml"', 'board = "bord.toml"', "bord.toml: cannot be read"),
    ],
)
def test_a_wrong_ruleset_file_is_an_error_naming_the_file_and_key(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    folder = broken_copy(tmp_path, old, new)
    with pytest.raises(RulesetDataError, match=re.escape(message)) as raised:
        load(RulesetSource.open(folder))
    assert str(folder) in str(raised.value)


def test_a_broken_ruleset_folder_is_named_by_pbem_rulesets_and_hides_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "mine" / "broken"
    broken.mkdir(parents=True)
    (broken / "ruleset.toml").write_text('name = "broken"\ntitle = 3\n', encoding="utf-8")
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path / "mine"))
    result = CliRunner().invoke(app, ["rulesets"])
    assert result.exit_code == 1
    assert "coe-classic" in result.output and "coe-1984" in result.output
    assert "broken         NOT USABLE:" in result.output and "title: expected a string" in result.output
    assert load_ruleset("coe-classic").name == "coe-classic"  # games of the bundled rulesets still load


def test_a_relative_pbem_rulesets_folder_is_taken_from_where_pbem_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator writes PBEM_RULESETS=mine: the ruleset's folder (and so its templates, which the renderer
    reads by absolute path) is the absolute path of mine/ in the folder where pbem was started."""
    shutil.copytree(Path(__file__).parent / "rulesets" / "sealed_bids", tmp_path / "mine" / "sealed_bids")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_RULESETS", "mine")
    ruleset = load_ruleset("sealed-bids")
    assert ruleset.folder == tmp_path / "mine" / "sealed_bids"
    assert ruleset.templates is not None and ruleset.templates.is_absolute()
