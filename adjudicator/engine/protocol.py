"""The Ruleset protocol: everything a game supplies to the core. This docstring is the reference a ruleset
author reads.

Where a ruleset lives
    A ruleset is a folder `<name>/` holding `ruleset.toml`. The core looks for these folders in the package's
    `games/` and in every folder named by the environment variable PBEM_RULESETS (folders separated by
    `os.pathsep`, e.g. `PBEM_RULESETS=/srv/pbem/rulesets:/home/gm/rules`). A ruleset is found by its folder
    name or one of its `aliases` (adjudicator.rulesets.load_ruleset); a name found twice is the first folder's.

ruleset.toml: the keys every ruleset has (RulesetInfo; a missing or wrong one is a RulesetDataError naming the
file and the key)
    name         the ruleset's name (str), the same as its folder's
    title        a title for reports (str)
    description  one line for `pbem rulesets` (str)
    aliases      other names it is found by (list of str, optional)
    engine       the module of its code: a bare name `coe` is the module `adjudicator.rulesets.coe.ruleset`; a
                 dotted path (`mygames.bids.game`) is imported as written, so its package must be importable
                 (on PYTHONPATH or installed).
    [help]       optional: the ruleset's words in `pbem`'s help texts, each a string (HELP_TOPICS in
                 engine/ruleset_source.py names them); the core names no game, so every game fact of a help
                 text comes from here.
    [demo]       optional: the scripted game `pbem demo --ruleset NAME` plays (`orders`: a folder of order files
                 NN-Seat.txt with a {password} placeholder, in play order; `seats`: a table seat -> mail address;
                 `game`: the game's name, default "demo"; `help`: what the demo is, for the help texts). A
                 ruleset without one plays a bot demo.
    The rest of the file is the ruleset's own data.

The engine module
    exposes `load(source: RulesetSource) -> Ruleset`: it reads and checks its data (typed dataclasses;
    `source.text(key)`, `source.table(key)`, `source.read_toml(key)` ... raise RulesetDataError naming the
    file and key) and returns an object that satisfies `Ruleset` below: a subclass of
    adjudicator.engine.ruleset_base.RulesetBase, which holds every default (snapshot text through the envelope,
    events, reports, the step listing, the optional facts), so that the ruleset writes only what its game does
    differently. Its grammar files and event templates may live in its own folder (`source.folder`).

Game data
    A game whose printed facts (map, cards, tracks) the moderator supplies (Conqueror: Empire Rises, ER-13) has a
    `game_data` format (GameDataFormat below) and `takes_game_data`; the registry's ruleset is unbound and refuses
    play with one message naming the data it needs, and `with_game_data(files, mode, options)` binds it to one
    game's data files, whose digest (`data_digest`) every snapshot of the game names. For every other ruleset
    binding is the identity.

A game is a sequence of steps (adjudicator.engine.steps)
    `due(state)` says what is due: a Step(number, phase, seats, sealed), or None when the game has ended. A
    sealed step collects one order set per seat (steps.StepOrders: nobody sees another's orders before the step
    resolves) and resolves them together; a step in turn order is one seat's (Conquest of the Empire: every
    step is one seat's player-turn). steps.resolve_step checks the step and the seats, then calls
    `play_step`, which is pure: no I/O, no clock, no global random; chance comes only from `chance`
    (adjudicator.engine.chance: roll, and in the chance API roll_face and shuffle), every draw logged with its
    purpose. Events carry their visibility (Event.visible_to: None = public, or the seats that may see it).

State and snapshots
    The state is the ruleset's own value. `snapshot(state, viewer)` is its JSON: viewer PUBLIC for the public
    snapshot (no private part), a seat name for that seat's own snapshot (public + its private part), EVERYONE
    for the whole (the archive; revealed when the game ends). `read_snapshot(data)` reads the whole back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

if TYPE_CHECKING:
    import random

    from adjudicator.engine.chance import Dice
    from adjudicator.engine.decisions import Question
    from adjudicator.engine.steps import Step, StepResult
    from adjudicator.engine.vocabulary import AttackOdds, Event, OrderResult

PUBLIC: Final = None  # the viewer of the public snapshot and report
EVERYONE: Final = "*"  # the viewer of the whole state: the archive, and everyone once the game has ended


@runtime_checkable
class Ruleset(Protocol):
    """What a ruleset implements (the module docstring tells how it is found and loaded)."""

    # Who it is (from RulesetInfo)
    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...

    @property
    def decisions_rule(self) -> str:
        """The rule ID of the game's decisions (answer, standing order, default) that messages cite; "" for none."""
        ...

    @property
    def folder(self) -> Path:
        """The folder of its ruleset.toml."""
        ...

    @property
    def demo(self) -> Mapping[str, Any]:
        """The scripted game `pbem demo` plays (ruleset.toml's [demo]: orders, seats, help); empty for a bot demo."""
        ...

    # Seats
    @property
    def seat_names(self) -> tuple[str, ...]:
        """Every seat the ruleset knows, in turn order."""
        ...

    def lookup_seat(self, text: str) -> list[str]:
        """The seats that `text` may name (a name, an alias, a prefix): one is a match, more are ambiguous."""
        ...

    def seat_title(self, seat: str) -> str:
        """A seat's name as `pbem rulesets` shows it beside its id (a faction's name; the seat itself by default)."""
        ...

    @property
    def seats_by_players(self) -> Mapping[int, tuple[str, ...]]:
        """The seats in play by player count, where the game's data says (empty: any seats of `seat_names`)."""
        ...

    # The game
    def initial_state(self, game: str, seats: list[str]) -> Any:
        """The state before the first step of a new game with these seats (a PbemError if the setup rules
        refuse the seat list)."""
        ...

    def due(self, state: Any) -> Step | None:
        """The step due in `state`: its number, phase, the seats that order and whether it is sealed; None
        when the game has ended."""
        ...

    def play_step(
        self,
        state: Any,
        step: Step,
        orders: Mapping[str, Any | None],
        chance: Dice,
        answers: Mapping[str, Mapping[str, str]],
        *,
        ask: bool = False,
        settled: frozenset[tuple[str, str]] = frozenset(),
        in_place: bool = False,
    ) -> StepResult:
        """Resolve `step` with one order set per seat of the step (None: the seat sent none). Pure. Called by
        steps.resolve_step, which has checked the step and the seats. `answers`: seat -> decision key -> answer
        text; with `ask` a decision with neither an answer nor a standing order is listed in StepResult.pending
        (its default is used meanwhile); `settled` decisions (seat, key) take their default without being pending
        again; with `in_place` the step is played on `state` itself (for a caller that never uses it again)."""
        ...

    def check_orders(self, state: Any, seat: str, number: int, orders: Any, chance: Dice) -> list[OrderResult]:
        """Verdicts on `seat`'s orders for its step `number` as `state` stands (its receipt); nothing is kept,
        and the verdicts read no other seat's orders."""
        ...

    def broken_invariants(self, state: Any) -> list[str]:
        """What in `state` breaks the ruleset's invariants (empty: all hold); checked after every step."""
        ...

    def seats_of(self, state: Any) -> tuple[str, ...]:
        """The seats of the game in `state`, in turn order (eliminated ones too)."""
        ...

    def steps_done(self, state: Any) -> int:
        """The number of the last step resolved in `state` (0 before the first)."""
        ...

    def round_of(self, state: Any) -> int:
        """The round `state` is in (the archive stores it with each step; 0 for a game without rounds)."""
        ...

    def coming_steps(self, state: Any) -> list[Step]:
        """The steps due from now to the end of the current round, in order, starting with `due(state)` (a
        game whose pace is a round resolves them all at one deadline); empty when the game has ended."""
        ...

    def next_steps(self, state: Any) -> dict[str, int]:
        """Each seat still in play -> the number of the next step it orders in (this round or the next): the
        step a seat's orders sent ahead are for."""
        ...

    @property
    def dice_words(self) -> Mapping[str, int]:
        """The words a dice file may write for a draw besides numbers (CoE's combat die: 'inf', 'cav'...)."""
        ...

    @property
    def symbol_dice(self) -> bool:
        """Whether its dice show symbols rather than numbers (reports then show a roll's faces)."""
        ...

    @property
    def largest_draw(self) -> int:
        """The largest number a dice file's draw may hold for this ruleset (6 for a six-sided die)."""
        ...

    # Snapshots
    def snapshot(self, state: Any, viewer: str | None = EVERYONE) -> dict[str, Any]:
        """The state as snapshot JSON for `viewer`: PUBLIC, a seat (its own view) or EVERYONE."""
        ...

    def read_snapshot(self, data: Any) -> Any:
        """The state from the whole snapshot's JSON, checked before any of it is used: its shape, then the
        ruleset's rules (areas, seats, cards of the game, the invariants every step keeps). A position that fails is
        a PbemError naming the field path; services/positions.py reads every position through this."""
        ...

    def snapshot_text(self, state: Any, viewer: str | None = EVERYONE) -> str:
        """`snapshot(state, viewer)` as canonical text (stable key order): what the archive stores and hashes, and
        what snapshot.json files hold."""
        ...

    def read_stored_snapshot(self, text: str) -> Any:
        """The state from a snapshot text the archive wrote, with the checks of `read_snapshot` (a ruleset may skip
        those it made of the very same text before, services/positions.py)."""
        ...

    def read_event(self, stored: Mapping[str, Any]) -> Event:
        """An event from the JSON the archive stored (Event.to_json), with its visibility."""
        ...

    # Orders
    @property
    def grammar_files(self) -> tuple[Path, ...]:
        """The Lark grammar files of its order language, in the order they are joined."""
        ...

    def order_builder(self) -> Any:
        """A Lark Transformer that makes the ruleset's order set from the parse tree."""
        ...

    # Reports and maps
    @property
    def templates(self) -> Path | None:
        """The folder of its own templates (events.j2: one sentence per event kind, and the game parts of the
        reports), or None. Shared layouts import them (adjudicator/render/__init__.py)."""
        ...

    def report_events(self, events: list[Event], before: Mapping[str, Any] | None) -> list[Event]:
        """The events of a step as its reports tell them (headings, details taken from `before`, the whole
        snapshot before the step); the events themselves when nothing is added."""
        ...

    def report_context(self, state: Any) -> dict[str, Any]:
        """More names the ruleset's report templates use (a seat's orders template: its next step, prices).
        Optional key `standings`, shown on the site's index: one dict per seat with `seat`, `eliminated`, `held`
        (the areas it holds) and `figures` (pairs of an N_-marked msgid and a number, e.g. a treasury); public
        information only."""
        ...

    @property
    def map_layers(self) -> Any:
        """What it draws on the board, or None for no map: a function `map_layers(board, snapshot, events, tr)
        -> MapLayers` (adjudicator/render/svgmap.py: owners, markers, pieces, arrows, fights, the legend)."""
        ...

    @property
    def hidden_information(self) -> bool:
        """Whether its games hide cards: the step's hidden draws come from the hidden stream (engine/chance.py) and
        its chain hash is salted with that stream's secret key."""
        ...

    @property
    def shared_steps(self) -> bool:
        """Whether some of its steps take orders from several seats at once (sealed plans, bids): their reports
        print each seat's commitment (engine/chance.py step_commitment), which the setup report explains."""
        ...

    @property
    def grouped_reports(self) -> bool:
        """Whether a seat's report mail waits until a step of its own is due (or the game ends) and then covers every
        step since its last one; observers' wait for a step of several seats."""
        ...

    # Game data (the module docstring, "Game data")
    @property
    def game_data(self) -> GameDataFormat | None:
        """The format of the game data the moderator supplies (`pbem data template|check`), or None: its data ships
        with the ruleset."""
        ...

    @property
    def takes_game_data(self) -> bool:
        """Whether its games are played with the moderator's data (`game_data` is not None)."""
        ...

    @property
    def example_data(self) -> Path | None:
        """The folder of an example data set that ships with it (self-play, `pbem rulesets`), or None."""
        ...

    @property
    def data_digest(self) -> str:
        """The digest of the data files a bound ruleset plays with (engine/envelope.py data_digest); "" otherwise."""
        ...

    def with_game_data(
        self, files: Mapping[str, str], mode: str | None = None, options: Mapping[str, str] | None = None
    ) -> Ruleset:
        """The ruleset bound to one game's data files (file name -> text, as `game_data.files` read them), with the
        game's mode and options applied; a PbemError naming every problem of the data. The ruleset itself when it
        takes no data."""
        ...

    @property
    def bot(self) -> Bot | None:
        """Its self-play player (Bot below), or None: `pbem selfplay` then says the ruleset has no bot."""
        ...

    def attack_odds(self, state: Any, seat: str, number: int, orders: Any) -> list[AttackOdds]:
        """The odds of every battle `seat`'s orders for step `number` would fight, each battle once, computed on
        what the seat can know: its own pieces and orders, the others' public pieces; never another seat's hidden
        cards, private standing orders or orders of this step (a receipt prints them). Empty by default."""
        ...

    def decision_odds(self, state: Any, seat: str, key: str, point: Any = None) -> list[tuple[str, AttackOdds]]:
        """The odds of the battle for each choice of `seat`'s decision `key` asked in the due step of `state` (the
        position before that step), as (the answer that takes the choice, its odds), on what `seat` can know, as
        attack_odds (a decision notice prints them). `point`: the position where the decision arose, in the middle
        of the step, where the ruleset keeps one (engine/decisions.py Pending.position), else None. Empty where the
        decision changes no battle, or the ruleset cannot tell; by default."""
        ...

    @property
    def odds(self) -> BattleOdds | None:
        """Its exact battle odds (BattleOdds below), or None: `pbem odds` then says the ruleset has none."""
        ...


class GameDataFormat(Protocol):
    """A ruleset's format of the game data the moderator supplies, the member `game_data`; `pbem data template|check`
    (services/game_data.py) reach it through the registry."""

    def template(self, folder: Path) -> list[Path]:
        """Write a skeleton data folder (every value to fill in, commented with the rule IDs that read it; it never
        overwrites a file); the files written."""
        ...

    def check(self, folder: Path, private: Path | None = None) -> Any:
        """A report whose `problems` and `notes` each have file, key, rule and `text(language)` (no problems: the
        data is complete)."""
        ...

    def load(self, folder: Path, private: Path | None = None) -> Any:
        """The checked data of `folder`; a PbemError listing every problem otherwise."""
        ...

    def files(self, folder: Path) -> dict[str, str]:
        """The data files a game stores in the archive (file name -> text), as `with_game_data` takes them."""
        ...


class Bot(Protocol):
    """A ruleset's self-play player, the member `bot` (a module with these names will do). Self-play
    (adjudicator/services/selfplay.py) makes a game of `seats(...)`, and at each step asks it for every ordering
    seat's order text, submits the texts as players' mails would be, and adjudicates; when a step waits for
    decisions (games that ask, DESIGN.md "Decisions"), it submits the bot's answers. The same rng state must give
    the same text: a seeded self-play is repeatable."""

    battle_events: tuple[str, ...]  # the event kinds self-play counts as battles in its summary lines

    def seats(self, ruleset: Any, count: int) -> list[str]:
        """The seats of a game of `count` players (a ValueError naming the counts it takes)."""
        ...

    def orders(self, ruleset: Any, state: Any, seat: str, header: str, rng: random.Random) -> str:
        """`seat`'s order text for its step due in `state`: the `header` line (GAME ... PASSWORD ...), then its
        orders, one a line."""
        ...

    def seat_orders(self, ruleset: Any, state: Any, seat: str, header: str, rng: random.Random) -> str:
        """Like `orders`, for a seat of a real game run by the bot (`pbem gm bot`): its best play, from what the seat
        may know alone (DESIGN.md "Hidden information"), never a deliberate mistake, a concession or press."""
        ...

    def answers(
        self, ruleset: Any, state: Any, seat: str, header: str, asked: Sequence[Question], rng: random.Random
    ) -> str:
        """`seat`'s answers to the decisions `asked` of it (each with its key, question, default and rule), as the
        text a player mails: the `header` line, then the answers."""
        ...

    def winner(self, ruleset: Any, state: Any) -> str | None:
        """The seat that has won in `state`, or None (none yet, or a game without a single winner)."""
        ...


class BattleOdds(Protocol):
    """A ruleset's exact battle odds, the member `odds` (a module with these names will do), for `pbem odds`.
    The forces and standing orders are texts in the ruleset's own words; a text it cannot read is a PbemError or
    ValueError whose message names the option or file and the form it takes."""

    def read_forces(self, ruleset: Any, attacker: str, defender: str, naval: bool) -> Any:
        """The two sides from the texts of --attacker and --defender (`naval`: a battle at sea)."""
        ...

    def read_standing(self, ruleset: Any, name: str, text: str) -> Any:
        """A side's standing battle orders from the text of the file `name` (one order a line, no header)."""
        ...

    def battle_text(self, ruleset: Any, forces: Any, standing: tuple[Any, Any], area: str | None) -> str:
        """The odds of the battle of `forces` with each side's standing orders (None: none), computed exactly,
        as the text `pbem odds` prints; `area`: the battle's area when the standing orders need it."""
        ...


def hides_information(ruleset: Ruleset) -> bool:
    """The member `hidden_information`: whether the ruleset's games hide cards."""
    return ruleset.hidden_information


def groups_reports(ruleset: Ruleset) -> bool:
    """The member `grouped_reports`: whether a seat's report mails wait for its own steps."""
    return ruleset.grouped_reports


def game_data_of(ruleset: Ruleset) -> GameDataFormat | None:
    """The member `game_data`: the ruleset's format of moderator-supplied game data, or None."""
    return ruleset.game_data
