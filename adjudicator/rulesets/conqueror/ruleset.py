"""Conqueror: Empire Rises as a Ruleset (adjudicator/engine/protocol.py). So far only its game data is built: the
optional member `game_data` writes the template and checks a data folder (ER-13). Every member of play raises
one clear PbemError, and `data_only` tells `pbem rulesets` and the tests that no game can be played yet."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from adjudicator.engine.protocol import EVERYONE, RulesetInfo, RulesetSource
from adjudicator.errors import PbemError

# The data modules are imported when used: `pbem rulesets` and every registry look-up load this module.
if TYPE_CHECKING:
    from adjudicator.rulesets.conqueror.data import GameData, Options
    from adjudicator.rulesets.conqueror.game import ConquerorGame
    from adjudicator.rulesets.conqueror.reader import Report


class PlayNotBuilt(PbemError):
    """A member of play was called on a ruleset that has only its data built."""


class ConquerorGameData:
    """The `game_data` member: the moderator's data folder of ER-13 (template, check, load)."""

    def template(self, folder: Path) -> list[Path]:
        """Write a skeleton data folder (refusing to overwrite); the files written."""
        from adjudicator.rulesets.conqueror.template import write_template

        return write_template(folder)

    def check(self, folder: Path, private: Path | None = None) -> Report:
        """Every problem (and every default to confirm) of the data folder and its private texts."""
        from adjudicator.rulesets.conqueror.loader import check_folder

        return check_folder(folder, private)

    def load(self, folder: Path, private: Path | None = None) -> GameData:
        """The checked data; a PbemError listing every problem otherwise."""
        from adjudicator.rulesets.conqueror.loader import load_folder

        return load_folder(folder, private)


class ConquerorRuleset:
    """The ruleset `conqueror-er`: data only for now."""

    data_only = True
    game_data = ConquerorGameData()

    def __init__(self, info: RulesetInfo, example_data: Path) -> None:
        self.info = info
        self.example_data = example_data  # our own invented data set (issue 14 item 3), not the printed game
        self.name = info.name
        self.title = info.title
        self.description = info.description
        self.aliases = info.aliases

    def _not_built(self, *_: Any, **__: Any) -> NoReturn:
        raise PlayNotBuilt(f"{self.name}: play is not built yet; `pbem data template|check` work")

    @property
    def folder(self) -> Path:
        return self.info.folder

    # -- what describes the ruleset: harmless values ------------------------------------------------------------
    seat_names: tuple[str, ...] = ()
    dice_words: Mapping[str, int] = {}
    largest_draw = 6  # ER-0.4: the Conqueror die is six-sided
    grammar_files: tuple[Path, ...] = ()
    templates: Path | None = None
    map_layers: Any = None
    bot: Any = None
    odds: Any = None

    # -- play: not built yet ----------------------------------------------------------------------------------
    lookup_seat = _not_built
    initial_state = _not_built
    due = _not_built
    play_step = _not_built
    check_orders = _not_built
    broken_invariants = _not_built
    seats_of = _not_built
    steps_done = _not_built
    round_of = _not_built
    coming_steps = _not_built
    next_steps = _not_built
    read_snapshot = _not_built
    read_event = _not_built
    order_builder = _not_built
    report_events = _not_built
    report_context = _not_built

    def snapshot(self, state: Any, viewer: str | None = EVERYONE) -> dict[str, Any]:
        self._not_built()

    def snapshot_text(self, state: Any, viewer: str | None = EVERYONE) -> str:
        self._not_built()

    def with_data(self, data: GameData, options: Options | None = None) -> ConquerorGame:
        """The ruleset bound to one game's data (the archive's stored copy, or a folder checked by `pbem new`)."""
        from adjudicator.rulesets.conqueror.game import ConquerorGame

        return ConquerorGame(self.info, data, options or data.options)


def load(source: RulesetSource) -> ConquerorRuleset:
    return ConquerorRuleset(RulesetInfo.read(source), source.folder / source.text("example_data"))
