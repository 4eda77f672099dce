"""pbem verify holds every replayed position to the ruleset's fit, not only the positions it reads with every check
(the setup, the last): seats and homes (C-0.11, C-4.1), general and galley numbers (C-8.8), galleys' coasts (C-2.6)
and cargo (C-5.26), areas in standing orders, captives' owners, the winner. A rule step broken on purpose writes a
position that does not fit on a middle turn and mends it on the next; the stored text is what that step writes
(rehashed, as tests/tamper.py does), so the replay writes it byte for byte and verify must name the turn."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.archive import Archive
from adjudicator.archive.store import close_archives
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.bot import seats_in_play
from adjudicator.rulesets.coe.ruleset import CoeRuleset
from adjudicator.rulesets.coe.state import Captive, Cargo, Force, GameState, from_snapshot, snapshot_text
from adjudicator.services.selfplay import play_archived_game
from adjudicator.services.verification import verify_stored
from tests.tamper import Tampered

RULESETS = ["coe-classic", "coe-1984"]
GAME = "fit"


def _highest(rules: CoeRuleset, kind: str) -> int:
    return rules.data["limits"][kind] * len(rules.seat_names)


def _land_force(rules: CoeRuleset, state: GameState, coastal: bool = False) -> Force:
    """The first force (by area code, as the text lists them) on land with nothing aboard; on a coast if asked."""
    for code in sorted(state.areas):
        for seat in sorted(state.areas[code].units):
            force = state.areas[code].units[seat]
            if rules.board.is_land(code) and not force.aboard and (not coastal or rules.board.coasts(code)):
                return force
    raise AssertionError("no force on land")


def _outsider(rules: CoeRuleset, state: GameState) -> str:
    """A seat of the ruleset that does not play this game."""
    return next(seat for seat in rules.seat_names if seat not in state.players)


# Each fault: (it breaks the fit of a state, it mends what it broke, the words verify names it with).
Fault = tuple[Callable[[CoeRuleset, GameState], None], Callable[[CoeRuleset, GameState], None], str]


def _swap_homes(rules: CoeRuleset, state: GameState) -> None:
    first, second = list(state.players.values())[:2]
    first.home = second.home


def _mend_homes(rules: CoeRuleset, state: GameState) -> None:
    for seat, player in state.players.items():
        player.home = rules.seat(seat).home


def _reverse_seats(rules: CoeRuleset, state: GameState) -> None:
    state.players = dict(reversed(state.players.items()))


def _mend_seat_order(rules: CoeRuleset, state: GameState) -> None:
    state.players = {seat: state.players[seat] for seat in rules.seat_names if seat in state.players}


def _numbered_beyond(kind: str) -> Callable[[CoeRuleset, GameState], None]:
    def fault(rules: CoeRuleset, state: GameState) -> None:
        getattr(_land_force(rules, state, coastal=kind == "galley"), f"{kind.rstrip('s')}s").append(
            _highest(rules, kind) + 1
        )

    return fault


def _mend_numbers(rules: CoeRuleset, state: GameState) -> None:
    for area in state.areas.values():
        for force in area.units.values():
            force.generals = [n for n in force.generals if n <= _highest(rules, "generals")]
            force.galleys = [n for n in force.galleys if n <= _highest(rules, "galley")]


def _coast_of_no_galley(rules: CoeRuleset, state: GameState) -> None:
    force = _land_force(rules, state, coastal=True)
    code = next(code for code, area in sorted(state.areas.items()) if force in area.units.values())
    force.galley_coasts[_highest(rules, "galley")] = sorted(rules.board.coasts(code)[0])[0]


def _mend_coasts(rules: CoeRuleset, state: GameState) -> None:
    for area in state.areas.values():
        for force in area.units.values():
            force.galley_coasts = {n: sea for n, sea in force.galley_coasts.items() if n in force.galleys}


def _cargo_of_no_galley(rules: CoeRuleset, state: GameState) -> None:
    force = _land_force(rules, state)
    force.aboard[_highest(rules, "galley")] = Cargo(generals=list(force.generals[:1]))


def _mend_cargo(rules: CoeRuleset, state: GameState) -> None:
    for area in state.areas.values():
        for force in area.units.values():
            force.aboard = {n: cargo for n, cargo in force.aboard.items() if n in force.galleys}


def _freed_nowhere(rules: CoeRuleset, state: GameState) -> None:
    standing = next(iter(state.players.values())).standing
    standing["freed"] = [*standing.get("freed", []), "XXX"]


def _mend_freed(rules: CoeRuleset, state: GameState) -> None:
    for player in state.players.values():
        if "XXX" in player.standing.get("freed", []):
            player.standing["freed"].remove("XXX")
            if not player.standing["freed"]:
                del player.standing["freed"]


def _captive_of_an_outsider(rules: CoeRuleset, state: GameState) -> None:
    next(iter(state.players.values())).captives.append(Captive(_outsider(rules, state), 1))


def _mend_captives(rules: CoeRuleset, state: GameState) -> None:
    for player in state.players.values():
        player.captives = [c for c in player.captives if c.owner in state.players]


def _outsider_captor(rules: CoeRuleset, state: GameState) -> None:
    next(iter(state.players.values())).captor = _outsider(rules, state)


def _mend_captor(rules: CoeRuleset, state: GameState) -> None:
    for player in state.players.values():
        if player.captor is not None and player.captor not in state.players:
            player.captor = None


def _outsider_inflation(rules: CoeRuleset, state: GameState) -> None:
    state.inflation_pending.append({"seat": _outsider(rules, state), "level": 1})


def _mend_inflation(rules: CoeRuleset, state: GameState) -> None:
    state.inflation_pending = [entry for entry in state.inflation_pending if entry["seat"] in state.players]


def _outsider_wins(rules: CoeRuleset, state: GameState) -> None:
    state.winner = _outsider(rules, state)


def _mend_winner(rules: CoeRuleset, state: GameState) -> None:
    if state.winner is not None and state.winner not in state.players:
        state.winner = None


FAULTS: dict[str, Fault] = {
    "C-0.11 home": (_swap_homes, _mend_homes, "is not"),
    "C-4.1 seat order": (_reverse_seats, _mend_seat_order, "turn order (C-4.1)"),
    "C-8.8 general number": (_numbered_beyond("generals"), _mend_numbers, "is not a general number"),
    "C-8.8 galley number": (_numbered_beyond("galley"), _mend_numbers, "is not a galley number"),
    "C-2.6 galley coast": (_coast_of_no_galley, _mend_coasts, "no such galley here"),
    "C-5.26 cargo": (_cargo_of_no_galley, _mend_cargo, "that is not there"),
    "standing order area": (_freed_nowhere, _mend_freed, "unknown area code 'XXX'"),
    "captive owner": (_captive_of_an_outsider, _mend_captives, "is not another player of this game"),
    "captor": (_outsider_captor, _mend_captor, "is not another player of this game"),
    "C-11.7 inflation pending": (_outsider_inflation, _mend_inflation, "is not a player of this game"),
    "winner": (_outsider_wins, _mend_winner, "is not a player of this game"),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """A sound archived game of each edition (never edited: each case copies it)."""
    games = {}
    for ruleset in RULESETS:
        folder = tmp_path_factory.mktemp(ruleset)
        rules = load_ruleset(ruleset)
        play_archived_game(Archive.in_folder(folder), folder, GAME, ruleset, seats_in_play(rules, 4), 5, 8)
        games[ruleset] = folder
    close_archives()
    yield games


def _broken_step(monkeypatch: pytest.MonkeyPatch, fault: Fault, turn: int) -> None:
    """The ruleset's step, broken: it mends the position it starts from, and breaks the one it ends `turn` with."""
    breaks, mends, _ = fault
    real_step, real_due = CoeRuleset.play_step, CoeRuleset.due

    def play_step(self: CoeRuleset, state: GameState, step: Any, *args: Any, **kwargs: Any) -> Any:
        mends(self, state)
        result = real_step(self, state, step, *args, **kwargs)
        if step.number == turn:
            breaks(self, result.state)
        return result

    def due(self: CoeRuleset, state: GameState) -> Any:
        mends(self, state)
        return real_due(self, state)

    monkeypatch.setattr(CoeRuleset, "play_step", play_step)
    monkeypatch.setattr(CoeRuleset, "due", due)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", list(FAULTS))
def test_verify_names_a_middle_position_that_does_not_fit_the_ruleset(
    played: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, name: str
) -> None:
    shutil.copy(played[ruleset] / "archive.sqlite", tmp_path / "archive.sqlite")
    rules, edit = load_ruleset(ruleset), Tampered(tmp_path / "archive.sqlite", GAME)
    turn = edit.turns()[-1]["number"] // 2  # neither the setup nor the last, which verify reads with every check
    state = from_snapshot(json.loads(edit.turn(turn)["state_json"]))
    FAULTS[name][0](rules, state)
    edit.set_turn(turn, state_json=snapshot_text(state))  # what the broken step writes
    edit.rehash_state(turn)
    edit.rehash_chain(turn)
    edit.close()
    _broken_step(monkeypatch, FAULTS[name], turn)
    _, problems = verify_stored(tmp_path, None, GAME)
    # the replay wrote the stored text (no turn before differs): the first problem is the fit of that turn's
    # position (the next turn then reads it with every check, which names it again, and is not replayed)
    assert problems[0].startswith(f"turn {turn} (") and "invariants broken" in problems[0], problems
    assert FAULTS[name][2] in problems[0], problems
