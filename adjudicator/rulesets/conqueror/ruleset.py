"""Conqueror: Empire Rises as a Ruleset (adjudicator/engine/protocol.py). The optional member `game_data` writes
the template and checks a data folder (ER-13). A game is played with its own data: `with_game_data` binds the
ruleset to the data files `pbem new --game-data DIR` checked and the archive stores with the game (game.py);
without data, every member of play raises one clear PbemError."""

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
    """A member of play was called on the ruleset without a game's data."""


NEEDS_DATA = "conqueror-er: a game is played with its data: `pbem new --ruleset conqueror-er --game-data DIR`"


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

    def files(self, folder: Path) -> dict[str, str]:
        """The data files a game stores in the archive (file name -> text; the private wording of ER-13.7 is
        never stored)."""
        from adjudicator.rulesets.conqueror.loader import read_files

        return read_files(folder)

    def load_files(self, files: Mapping[str, str]) -> GameData:
        """The data of stored files (what `files` returned), read with the loader's checks."""
        import tempfile

        from adjudicator.rulesets.conqueror.loader import load_folder

        with tempfile.TemporaryDirectory(prefix="pbem-er-") as name:
            for file, text in files.items():
                (Path(name) / Path(file).name).write_text(text, encoding="utf-8")
            return load_folder(Path(name))


class ConquerorRuleset:
    """The ruleset `conqueror-er`; its play needs a game's data (`with_game_data`)."""

    game_data = ConquerorGameData()

    def __init__(self, info: RulesetInfo, example_data: Path) -> None:
        self.info = info
        self.example_data = example_data  # our own invented data set, not the printed game
        self.name = info.name
        self.title = info.title
        self.description = info.description
        self.aliases = info.aliases

    def _not_built(self, *_: Any, **__: Any) -> NoReturn:
        raise PlayNotBuilt(NEEDS_DATA)

    @property
    def folder(self) -> Path:
        return self.info.folder

    # -- what describes the ruleset: harmless values ------------------------------------------------------------
    seat_names: tuple[str, ...] = ()
    dice_words: Mapping[str, int] = {}
    largest_draw = 6  # ER-0.4: the Conqueror die is six-sided
    grammar_files: tuple[Path, ...] = ()
    hidden_information = True  # hands, face-down heroes and deck orders are secret
    # ER-4: a player orders twice a round (plans, campaign); his report mails come then, not after every step
    grouped_reports = True

    @property
    def templates(self) -> Path:
        """Its report templates (also found by the ruleset's name, as the site and maps look them up)."""
        from adjudicator.resources import resource_dir

        return resource_dir("templates") / "conqueror"

    map_layers: Any = None
    bot: Any = None

    @property
    def odds(self) -> Any:
        """Exact battle odds on the example data (odds.py ConquerorOdds)."""
        from adjudicator.rulesets.conqueror.odds import ConquerorOdds

        return ConquerorOdds()

    # -- play: needs a game's data ----------------------------------------------------------------------------------
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

    def with_data(self, data: GameData, options: Options | None = None, data_digest: str = "") -> ConquerorGame:
        """The ruleset bound to one game's data (the archive's stored copy, or a folder checked by `pbem new`), whose
        files have `data_digest` (engine/envelope.py)."""
        from adjudicator.rulesets.conqueror.game import ConquerorGame

        return ConquerorGame(self.info, data, options or data.options, data_digest)

    def with_game_data(
        self, files: Mapping[str, str], mode: str | None = None, options: Mapping[str, str] | None = None
    ) -> ConquerorGame:
        """The ruleset bound to stored data files, with the mode (ER-3.1) and game options (ER-13.5) applied."""
        from adjudicator.engine.envelope import data_digest
        from adjudicator.rulesets.conqueror.setup import game_options

        data = self.game_data.load_files(files)
        return self.with_data(data, game_options(data, mode, dict(options or {})), data_digest(files))


def load(source: RulesetSource) -> ConquerorRuleset:
    return ConquerorRuleset(RulesetInfo.read(source), source.folder / source.text("example_data"))
