"""Empires of the Ancient World as a Ruleset (adjudicator/engine/protocol.py). The member `game_data` writes the
template and checks a data folder (EAW-11); a game is played with its own data: `with_game_data` binds the ruleset
to the data files `pbem new --game-data DIR` checked and the archive stores with the game (game.py). Without data,
every member of play raises one clear PbemError (engine/ruleset_base.py NeedsGameData)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.ruleset_base import RulesetBase
from adjudicator.engine.ruleset_source import RulesetInfo, RulesetSource

# The rule modules are imported when used: `pbem rulesets` and every registry look-up load this module.
if TYPE_CHECKING:
    from adjudicator.rulesets.empires.data import GameData, Options
    from adjudicator.rulesets.empires.game import EmpiresGame
    from adjudicator.rulesets.empires.loader import Report


class EmpiresGameData:
    """The `game_data` member: the moderator's data folder of EAW-11 (template, check, load)."""

    def template(self, folder: Path) -> list[Path]:
        """Write a skeleton data folder (refusing to overwrite); the files written."""
        from adjudicator.rulesets.empires.template import write_template

        return write_template(folder)

    def check(self, folder: Path, private: Path | None = None) -> Report:
        """Every problem (and every default to confirm) of the data folder."""
        from adjudicator.rulesets.empires.loader import check_folder

        return check_folder(folder)

    def load(self, folder: Path, private: Path | None = None) -> GameData:
        """The checked data; a PbemError listing every problem otherwise (EAW-10.9: a game does not start without
        the map, the cards and the revolt tables)."""
        from adjudicator.rulesets.empires.loader import load_folder

        return load_folder(folder)

    def files(self, folder: Path) -> dict[str, str]:
        """The data files a game stores in the archive (file name -> text)."""
        from adjudicator.rulesets.empires.loader import read_files

        return read_files(folder)

    def load_files(self, files: Mapping[str, str]) -> GameData:
        """The data of stored files (what `files` returned), read with the loader's checks."""
        from adjudicator.rulesets.empires.loader import load_folder

        with tempfile.TemporaryDirectory(prefix="pbem-eaw-") as name:
            for file, text in files.items():
                (Path(name) / Path(file).name).write_text(text, encoding="utf-8")
            return load_folder(Path(name))


class EmpiresRuleset(RulesetBase):
    """The ruleset `empires-aw` as the registry holds it: its play needs a game's data (`with_game_data`)."""

    game_data = EmpiresGameData()
    hidden_information = True  # hands, home armies drawn unseen, the deck's order, stacks until revealed
    grouped_reports = True  # a seat's report mail comes when it orders next (its plan, or its plan ran out)
    shared_steps = True  # EAW-12: the placements and the plans are sealed (SEALED) steps of every seat
    seat_names: tuple[str, ...] = ()
    grammar_files: tuple[Path, ...] = ()

    def __init__(self, info: RulesetInfo, example_data: Path | None = None) -> None:
        self.info = info
        self.example_data = example_data  # our own invented data set, not the printed game

    @property
    def templates(self) -> Path:
        from adjudicator.resources import resource_dir

        return resource_dir("templates") / "empires"

    @property
    def odds(self) -> Any:
        """Exact battle odds on the example data, or on a bound game's data (odds.py)."""
        from adjudicator.rulesets.empires.odds import EmpiresOdds

        return EmpiresOdds()

    def with_data(self, data: GameData, options: Options | None = None, data_digest: str = "") -> EmpiresGame:
        from adjudicator.rulesets.empires.game import EmpiresGame

        return EmpiresGame(self.info, data, options or data.options, data_digest)

    def with_game_data(
        self, files: Mapping[str, str], mode: str | None = None, options: Mapping[str, str] | None = None
    ) -> EmpiresGame:
        """The ruleset bound to stored data files, with the game options applied (EAW-11.7)."""
        from adjudicator.engine.envelope import data_digest
        from adjudicator.rulesets.empires.options import game_options

        data = self.game_data.load_files(files)
        return self.with_data(data, game_options(data, mode, dict(options or {})), data_digest(files))


def load(source: RulesetSource) -> EmpiresRuleset:
    return EmpiresRuleset(RulesetInfo.read(source), source.folder / source.text("example_data"))
