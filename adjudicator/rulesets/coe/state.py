"""Game state and its snapshot JSON (the contract of DESIGN.md, schema version 1).

The state is a plain value: the turn function copies it and returns a new one. Fields of the snapshot
may be added, never renamed or removed; the additions of this implementation are marked below.
"""

from __future__ import annotations

import copy
import hashlib
import json
import marshal
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.schema import plain_text
from adjudicator.errors import PbemError
from adjudicator.rulesets.coe.snapshot_check import (
    SHOWN_PROBLEMS,
    lacks_nothing,
    shape_fits,
    shown,
    snapshot_problems,
    with_reader_defaults,
)

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset

SCHEMA = 1


class SnapshotError(PbemError, ValueError):
    """A snapshot that does not follow the schema; the message names the field."""


@dataclass
class Cargo:
    """The land pieces aboard one galley (C-5.22: at most 7 combat units plus any leaders)."""

    caesar: int = 0
    generals: list[int] = field(default_factory=list)
    infantry: int = 0
    cavalry: int = 0
    catapult: int = 0

    @property
    def units(self) -> int:
        return self.infantry + self.cavalry + self.catapult

    def is_empty(self) -> bool:
        return not (self.caesar or self.generals or self.units)


@dataclass
class Force:
    """One seat's pieces in one area. Pieces aboard galleys are counted here too; `aboard` says which
    galley carries which of them."""

    caesar: int = 0
    generals: list[int] = field(default_factory=list)
    infantry: int = 0
    cavalry: int = 0
    catapult: int = 0
    galleys: list[int] = field(default_factory=list)
    galley_coasts: dict[int, str] = field(default_factory=dict)  # added: coast of a galley in a split-coast province
    aboard: dict[int, Cargo] = field(default_factory=dict)  # added: what each galley carries

    @property
    def units(self) -> int:
        return self.infantry + self.cavalry + self.catapult

    @property
    def leaders(self) -> list[int]:
        return ([0] if self.caesar else []) + self.generals

    def is_empty(self) -> bool:
        return not (self.caesar or self.generals or self.units or self.galleys)

    def move_land_pieces_to(self, target: Force) -> None:
        """All combat units and leaders of this force join `target` (a retreat); galleys stay."""
        for kind in ("infantry", "cavalry", "catapult"):
            setattr(target, kind, getattr(target, kind) + getattr(self, kind))
            setattr(self, kind, 0)
        target.caesar, self.caesar = target.caesar or self.caesar, 0
        target.generals += self.generals
        self.generals = []


@dataclass
class Area:
    owner: str | None = None
    city: str | None = None  # None | "city" | "fortified"
    roads: list[str] = field(default_factory=list)
    units: dict[str, Force] = field(default_factory=dict)

    def force(self, seat: str) -> Force:
        """The seat's force here, created empty if absent (call `prune` after removing pieces)."""
        return self.units.setdefault(seat, Force())

    def prune(self) -> None:
        self.units = {s: f for s, f in self.units.items() if not f.is_empty()}


@dataclass
class Captive:
    owner: str
    general: int


@dataclass
class Player:
    home: str
    treasury: int = 0
    tribute: int = 0
    eliminated: bool = False
    captives: list[Captive] = field(default_factory=list)
    standing: dict[str, Any] = field(default_factory=dict)  # added: standing orders by kind
    captor: str | None = None  # added: who captured this player's Caesar (C-8.8)
    inherited: dict[str, int] = field(default_factory=dict)  # added: pieces taken over, outside the limits (C-1.7)
    conceded_to: str | None = None  # added: this player's concession (C-14.2)


@dataclass
class GameState:
    game: str
    ruleset: str
    turn: int
    round: int
    active: str | None
    inflation: int
    players: dict[str, Player]  # in turn order
    areas: dict[str, Area]
    inflation_pending: list[dict[str, Any]] = field(default_factory=list)  # added: C-11.7 levels not yet in force
    winner: str | None = None  # added

    def copy(self) -> GameState:
        """A deep copy: exactly what copy.deepcopy gives, several times faster (see _deep_copy)."""
        return _deep_copy(self, {})

    def area(self, code: str) -> Area:
        return self.areas.setdefault(code, Area())

    def force(self, code: str, seat: str) -> Force:
        return self.area(code).force(seat)

    def in_play(self) -> list[str]:
        return [s for s, p in self.players.items() if not p.eliminated]


# -- copying ---------------------------------------------------------------------------------------------------
# The turn function copies the state once per turn (and the stacking limit once per replayed phase);
# copy.deepcopy spends most of its time in its generic machinery (__reduce_ex__, dispatch per value). _deep_copy
# does the same for the types a state is made of, with the same memo (so shared objects stay shared, as with
# deepcopy), and hands anything else to copy.deepcopy with that memo.

_ATOMIC = frozenset({int, str, bool, float, type(None)})  # deepcopy returns these themselves


def _deep_copy(value: Any, memo: dict[int, Any]) -> Any:
    """copy.deepcopy(value, memo), fast for atoms, lists, dicts and the state's dataclasses."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    done = memo.get(id(value))
    if done is not None:
        return done
    if kind is list:
        new_list: list[Any] = []
        memo[id(value)] = new_list
        new_list.extend(v if type(v) in _ATOMIC else _deep_copy(v, memo) for v in value)
        return new_list
    if kind is dict:
        new_dict: dict[Any, Any] = {}
        memo[id(value)] = new_dict
        for k, v in value.items():
            # the same statement as deepcopy's: the value is copied before the key
            new_dict[k if type(k) in _ATOMIC else _deep_copy(k, memo)] = (
                v if type(v) in _ATOMIC else _deep_copy(v, memo)
            )
        return new_dict
    if kind in _STATE_CLASSES:
        # as deepcopy does for a plain class: a new instance, remembered, then a deep copy of its __dict__
        new = object.__new__(kind)
        memo[id(value)] = new
        new.__dict__.update({k: v if type(v) in _ATOMIC else _deep_copy(v, memo) for k, v in value.__dict__.items()})
        return new
    return copy.deepcopy(value, memo)


_STATE_CLASSES = frozenset({GameState, Area, Force, Cargo, Player, Captive})


# -- snapshot JSON ---------------------------------------------------------------------------------------------


def _force_json(f: Force) -> dict[str, Any]:
    out: dict[str, Any] = {
        "caesar": f.caesar,
        "generals": sorted(f.generals),
        "infantry": f.infantry,
        "cavalry": f.cavalry,
        "catapult": f.catapult,
        "galleys": sorted(f.galleys),
    }
    if f.galley_coasts:
        out["galley_coasts"] = {str(g): c for g, c in sorted(f.galley_coasts.items())}
    cargo = {g: c for g, c in sorted(f.aboard.items()) if not c.is_empty()}
    if cargo:
        out["aboard"] = {
            str(g): {
                "caesar": c.caesar,
                "generals": sorted(c.generals),
                "infantry": c.infantry,
                "cavalry": c.cavalry,
                "catapult": c.catapult,
            }
            for g, c in cargo.items()
        }
    return out


def _area_json(a: Area) -> dict[str, Any] | None:
    """An area as snapshot JSON data; None for an empty one, written as absent so that a reloaded state writes the
    same text."""
    units = {s: _force_json(f) for s, f in sorted(a.units.items()) if not f.is_empty()}
    if a.owner is None and a.city is None and not a.roads and not units:
        return None
    return {"owner": a.owner, "city": a.city, "roads": sorted(a.roads), "units": units}


def to_snapshot(state: GameState) -> dict[str, Any]:
    """The state as snapshot JSON data (schema 1)."""
    return {**_snapshot_head(state), "areas": _areas_json(state)}


def _areas_json(state: GameState) -> dict[str, Any]:
    areas = {}
    for code in sorted(state.areas):
        value = _area_json(state.areas[code])
        if value is not None:
            areas[code] = value
    return areas


def _snapshot_head(state: GameState) -> dict[str, Any]:
    """The snapshot JSON data but its areas (which come last)."""
    return {
        "schema": SCHEMA,
        "game": state.game,
        "ruleset": state.ruleset,
        "turn": state.turn,
        "round": state.round,
        "active": state.active,
        "inflation": state.inflation,
        "inflation_pending": state.inflation_pending,
        "winner": state.winner,
        "players": {
            s: {
                "home": p.home,
                "treasury": p.treasury,
                "tribute": p.tribute,
                "eliminated": p.eliminated,
                "captives": [{"owner": c.owner, "general": c.general} for c in p.captives],
                "standing": p.standing,
                "captor": p.captor,
                "inherited": p.inherited,
                "conceded_to": p.conceded_to,
            }
            for s, p in state.players.items()
        },
    }


def snapshot_text(state: GameState) -> str:
    """Canonical JSON text of the snapshot (stable key order, so that equal states hash equally): the text of
    _json_text(to_snapshot(state)), its areas' part written from _AREA_TEXTS where it can."""
    written: list[tuple[str, str]] = []
    try:
        areas = _areas_text(state, written)
    except (_NotPlain, TypeError, ValueError, RecursionError):  # the general writer says what it makes of it
        areas = None
    if areas is None:
        return _json_text(to_snapshot(state)) + "\n"
    head = _json_text(_snapshot_head(state))  # "{...\n}": the areas go in before its closing brace
    text = head[:-2] + ',\n "areas": ' + areas + "\n}\n"
    _WRITTEN[:] = [text, head, *written]
    return text


# Most areas are as the turn before left them: the text of an area's entry in a snapshot (its code, then its value
# at the indentation of an area) is kept by the marshal bytes of the values it is written from (_area_key), which
# are some times cheaper to gather than the area's JSON data is to make.
_AREA_TEXTS: dict[bytes, str] = {}
AREA_TEXTS_KEPT = 4096  # some hundred games' areas; then it starts afresh
_WRITTEN: list[Any] = []  # the last text snapshot_text wrote from _AREA_TEXTS, its head, (code, entry) of each area
_AREA_DATA: dict[str, tuple[Any, bool]] = {}  # an area's entry text -> its data as json.loads reads it, its shape


def _areas_text(state: GameState, written: list[tuple[str, str]]) -> str | None:
    """The value of "areas" as _json_text writes it at the indentation of a snapshot's field, each area's (code, entry
    text) added to `written`; None where an area holds a value marshal refuses (the general writer then writes the
    whole text)."""
    entries = []
    areas = state.areas
    for code in sorted(areas):
        a = areas[code]
        key = _area_key(code, a)
        if key is None:
            return None
        text = _AREA_TEXTS.get(key)
        if text is None:
            value = _area_json(a)
            text = "" if value is None else _encode_string(code) + ": " + _fragment(value, "\n  ")
            if len(_AREA_TEXTS) >= AREA_TEXTS_KEPT:
                _AREA_TEXTS.clear()
                _AREA_DATA.clear()
            _AREA_TEXTS[key] = text
        if text:
            entries.append(text)
            written.append((code, text))
    if not entries:
        return "{}"
    return "{\n  " + ",\n  ".join(entries) + "\n }"


def read_written(text: str) -> tuple[dict[str, Any], bool] | None:
    """json.loads(text) of the last text snapshot_text wrote from its parts (else None), and whether it has the schema's
    shape: each area's data read and its shape checked once per area text (shared: readers copy, as _state_of does)."""
    if len(_WRITTEN) < 2 or _WRITTEN[0] != text:
        return None
    data, areas = json.loads(_WRITTEN[1]), {}
    shaped = shape_fits(data, plain_text(_WRITTEN[1]))
    for code, entry in _WRITTEN[2:]:
        known = _AREA_DATA.get(entry)
        if known is None:
            area = json.loads("{" + entry + "}")[code]
            known = _AREA_DATA[entry] = (area, shape_fits({"areas": {code: area}}, plain_text(entry), areas_only=True))
        areas[code] = known[0]
        shaped = shaped and known[1]
    data["areas"] = areas
    return data, shaped


def _area_key(code: str, a: Area) -> bytes | None:
    """Every value an area's entry is written from, as marshal bytes (exact values of exact types, see _FRAGMENTS);
    None where one is of a type marshal refuses."""
    units = []
    for seat, f in a.units.items():
        coasts = tuple(f.galley_coasts.items()) if f.galley_coasts else ()
        force = (seat, f.caesar, tuple(f.generals), f.infantry, f.cavalry, f.catapult, tuple(f.galleys), coasts)
        for g, c in f.aboard.items():
            force += ((g, c.caesar, tuple(c.generals), c.infantry, c.cavalry, c.catapult),)
        units.append(force)
    try:
        return marshal.dumps((code, a.owner, a.city, tuple(a.roads), *units))
    except ValueError:
        return None


class _NotPlain(Exception):
    """A value _indented does not write itself: json.dumps writes the whole text instead."""


_encode_string = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) writes a string with


def _json_text(data: Any) -> str:
    """json.dumps(data, indent=1, ensure_ascii=False), character for character.

    With an indent json.dumps runs its pure-Python encoder, which costs more than the rest of a turn's
    bookkeeping; this writes the same text for the plain data of a snapshot (dicts with string keys, lists,
    strings, integers, booleans, null) and leaves anything else (floats, other keys) to json.dumps itself.
    """
    out: list[str] = []
    try:
        _indented(data, "\n", out)
    except (_NotPlain, RecursionError):
        return json.dumps(data, indent=1, ensure_ascii=False)
    return "".join(out)


def _indented(value: Any, newline: str, out: list[str]) -> None:
    """Append `value` as json.dumps(indent=1) writes it at the indentation of `newline` ("\n" + spaces)."""
    kind = type(value)
    if kind is str:
        out.append(_encode_string(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + " "
        separator = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            out.append(separator)
            out.append(_encode_string(key))
            out.append(": ")
            item_kind = type(item)
            if item_kind is int:  # the most frequent values of a snapshot's objects, written without a call
                out.append(int.__repr__(item))
            elif item_kind is dict and len(inner) == 3:  # an area or a player of a snapshot
                out.append(_fragment(item, inner))
            else:
                _indented(item, inner, out)
            separator = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + " "
        separator = "[" + inner
        for item in value:
            out.append(separator)
            _indented(item, inner, out)
            separator = "," + inner
        out.append(newline + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    else:
        raise _NotPlain


# Most areas and players of a snapshot are as the turn before wrote them: their text at the indentation of an area
# (or a player) is kept, by their marshal bytes, which the C marshaller writes some times faster than the C encoder
# writes compact JSON (a player's standing orders make it long). Marshal writes only the exact built-in types, each
# with its type (1, True and 1.0 differ; a subclass is refused), so equal bytes are equal values of equal types, and
# their texts are equal too. Only values _indented wrote are kept: never bytes, which marshal does not tell apart
# from other buffers.
_FRAGMENTS: dict[bytes, str] = {}
FRAGMENTS_KEPT = 4096  # some ten games' areas and players; then it starts afresh


def _fragment(value: dict[str, Any], newline: str) -> str:
    """`value` as _indented writes it at the indentation of `newline`, from _FRAGMENTS when written before."""
    try:
        key: bytes | None = marshal.dumps(value)
    except ValueError:  # not built-in types only (or too deep): _indented names it (_NotPlain) or writes it
        key = None
    text = _FRAGMENTS.get(key) if key is not None else None
    if text is None:
        part: list[str] = []
        _indented(value, newline, part)
        text = "".join(part)
        if key is not None:
            if len(_FRAGMENTS) >= FRAGMENTS_KEPT:
                _FRAGMENTS.clear()
            _FRAGMENTS[key] = text
    return text


def state_hash(state: GameState) -> str:
    return hashlib.sha256(snapshot_text(state).encode()).hexdigest()


def _get(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise SnapshotError(f"{where}: missing field {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise SnapshotError(f"{where}.{key}: expected {_kind_name(kind)}, got {value!r}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join("null" if k is type(None) else k.__name__ for k in kinds)


def _count(data: dict[str, Any], key: str, where: str) -> int:
    value = _get(data, key, int, where) if key in data else 0
    if value < 0:
        raise SnapshotError(f"{where}.{key}: must not be negative, got {value}")
    return value


def _check_force(data: Any, where: str) -> None:
    """A force's fields, each checked as the reader once read it (the first problem raised, naming its field). The
    conversions it made are made too, their values dropped, so that one a value cannot take raises as it did."""
    if not isinstance(data, dict):
        raise SnapshotError(f"{where}: expected an object")
    coasts = data.get("galley_coasts", {})
    if not isinstance(coasts, dict):
        raise SnapshotError(f"{where}.galley_coasts: expected an object")
    aboard = data.get("aboard", {})
    if not isinstance(aboard, dict) or not all(isinstance(c, dict) for c in aboard.values()):
        raise SnapshotError(f"{where}.aboard: expected an object of galley number -> cargo")
    _count(data, "caesar", where)
    for g in _get(data, "generals", list, where) if "generals" in data else []:
        int(g)
    for kind in ("infantry", "cavalry", "catapult"):
        _count(data, kind, where)
    for g in _get(data, "galleys", list, where) if "galleys" in data else []:
        int(g)
    for g, c in coasts.items():
        int(g), str(c)
    for g, c in aboard.items():
        int(g)
        _count(c, "caesar", f"{where}.aboard.{g}")
        for n in c.get("generals", []):
            int(n)
        for kind in ("infantry", "cavalry", "catapult"):
            _count(c, kind, f"{where}.aboard.{g}")


def _ruleset_of(data: dict[str, Any]) -> CoeRuleset | None:
    """The snapshot's ruleset, for the checks of its numbers and names (None: not one the schema allows)."""
    from adjudicator.rulesets import UnknownRuleset
    from adjudicator.rulesets.coe.ruleset import coe_ruleset  # here: the ruleset's module calls this one

    try:
        return coe_ruleset(data["ruleset"]) if isinstance(data.get("ruleset"), str) else None
    except UnknownRuleset:
        return None


# Snapshot texts of the archive that passed the schema check in this process (oldest first, a bounded number).
_CHECKED_TEXTS: dict[str, None] = {}
CHECKED_TEXTS_KEPT = 64


def from_stored_snapshot(text: str, *, kept_by: CoeRuleset | None = None) -> GameState:
    """The position of a snapshot text the archive holds. It is checked like any snapshot (a position edited in the
    archive is named, not a traceback) the first time this process reads that very text; a tick reads a game's
    position several times, and the same text passes the same check again. `kept_by`: `text` is what snapshot_text
    wrote of a position that kept the invariants under that ruleset (verify's replay of a stored turn wrote the stored
    text byte for byte; the caller compares the two). Naming that ruleset and of the schema's shape, it is read without
    the fit checks: the invariants, held on the replayed position, hold its fit too (invariants.py)."""
    if kept_by is not None:
        data, shaped = read_written(text) or ({}, False)
        if shaped and data.get("ruleset") == kept_by.name and _ruleset_of(data) is kept_by:
            return _state_of(data)  # not remembered in _CHECKED_TEXTS: not fully checked
    checked = text in _CHECKED_TEXTS
    state = from_snapshot(
        json.loads(text), schema_checked=checked, plain=not checked and plain_text(text), kept_by=kept_by
    )
    _CHECKED_TEXTS[text] = None
    if len(_CHECKED_TEXTS) > CHECKED_TEXTS_KEPT:
        del _CHECKED_TEXTS[next(iter(_CHECKED_TEXTS))]
    return state


def from_snapshot(
    data: Any,
    area_codes: set[str] | None = None,
    *,
    schema_checked: bool = False,
    plain: bool = False,
    kept_by: CoeRuleset | None = None,
) -> GameState:
    """Read snapshot JSON data; raise SnapshotError naming each field that breaks the schema (docs/snapshot.md) or
    does not fit the ruleset (adjudicator/rulesets/coe/snapshot_check.py). `schema_checked`: the very data passed
    that check before (from_stored_snapshot), so it is not run again. `plain`: the data holds no float nor huge
    integer (its text told, engine/schema.py plain_text).

    `kept_by`: a position whose snapshot text is this data's kept the invariants under that ruleset (verify's replay
    of a stored turn). The state read here is that position with its lists sorted and its empty forces, cargo and
    areas left out: the same pieces, purses and owners, so each invariant it could break the other broke too. They
    are not checked again when the data names that same ruleset. (from_stored_snapshot, given the very text
    snapshot_text wrote of that position, reads it with no check at all.)"""
    if not isinstance(data, dict):
        raise SnapshotError("snapshot: expected a JSON object")
    if data.get("schema") != SCHEMA:
        raise SnapshotError(f"snapshot: unsupported schema {shown(data.get('schema'))} (this version reads {SCHEMA})")
    # fields the contract lets a snapshot leave out (DESIGN.md, schema 1); a written one has them all, as has the
    # text of a position (`kept_by`: snapshot_text writes every field)
    complete = kept_by is not None or lacks_nothing(data)
    given, data = data, data if complete else with_reader_defaults(data)
    ruleset = None if schema_checked else _ruleset_of(data)
    problems = [] if schema_checked else snapshot_problems(data, ruleset, plain=plain)
    if problems and complete:  # named in the order of the filled copy's keys, as they always were
        data = with_reader_defaults(given)
        problems = snapshot_problems(data, ruleset, plain=plain)
    if problems:  # the whole snapshot is checked before any of it is used
        more = len(problems) - SHOWN_PROBLEMS
        raise SnapshotError("; ".join(problems[:SHOWN_PROBLEMS]) + (f"; and {more} more" if more > 0 else ""))
    if area_codes is not None or not (schema_checked or ruleset is not None):
        _check_fields(data, area_codes)  # past the ruleset's checks (snapshot_problems) none of these can fail
    state = _state_of(data)
    broken = ruleset.broken_invariants(state) if ruleset is not None and ruleset is not kept_by else []
    if broken:  # what every turn keeps (piece limits, tribute, roads between cities): `new --from-snapshot` alike
        more = len(broken) - SHOWN_PROBLEMS
        raise SnapshotError(
            "snapshot: the position breaks the rules: "
            + "; ".join(broken[:SHOWN_PROBLEMS])
            + (f"; and {more} more" if more > 0 else "")
        )
    return state


def _state_of(data: dict[str, Any]) -> GameState:
    """The state of snapshot data that passed the schema and its fields' checks (the ruleset's, or _check_fields):
    its values are then JSON's own types, which it takes as they are (a stored position is read once a turn by
    verify and the tick). The classes are called with their fields in order, which is cheaper than by name."""
    players = {
        seat: Player(
            p["home"],
            p["treasury"],
            p["tribute"],
            p["eliminated"],
            [Captive(c["owner"], c["general"]) for c in p["captives"]],
            dict(p["standing"]),
            p["captor"],
            dict(p["inherited"]),
            p["conceded_to"],
        )
        for seat, p in data["players"].items()
    }
    areas = {
        code: Area(a["owner"], a["city"], list(a["roads"]), {seat: _force_of(f) for seat, f in a["units"].items()})
        for code, a in data["areas"].items()
    }
    return GameState(
        data["game"],
        data["ruleset"],
        data["turn"],
        data["round"],
        data["active"],
        data["inflation"],
        players,
        areas,
        list(data["inflation_pending"]),
        data["winner"],
    )


def _force_of(data: dict[str, Any]) -> Force:
    """_force_from of a checked force (its counts, numbers and keys are the schema's), its fields in order."""
    return Force(
        data["caesar"],
        list(data["generals"]),
        data["infantry"],
        data["cavalry"],
        data["catapult"],
        list(data["galleys"]),
        {int(g): c for g, c in data["galley_coasts"].items()} if "galley_coasts" in data else {},
        {
            int(g): Cargo(c["caesar"], list(c["generals"]), c["infantry"], c["cavalry"], c["catapult"])
            for g, c in data["aboard"].items()
        }
        if "aboard" in data
        else {},
    )


def _check_fields(data: dict[str, Any], area_codes: set[str] | None) -> None:
    """Snapshot data's fields, each checked as the reader once read it, for data whose fit to a ruleset was not
    checked (snapshot_problems without one) or whose areas are read with another board's codes (`area_codes`): the
    first problem is raised, naming its field. Past the schema and the ruleset's checks none can fail but an area
    code of another board. The conversions the reader made are made too (values dropped), as in _check_force."""
    players = _get(data, "players", dict, "snapshot")
    for seat, p in players.items():
        where = f"players.{seat}"
        if not isinstance(p, dict):
            raise SnapshotError(f"{where}: expected an object")
        for c in p.get("captives", []):
            if not isinstance(c, dict) or not isinstance(c.get("owner"), str) or not isinstance(c.get("general"), int):
                raise SnapshotError(f"{where}.captives: each entry needs 'owner' (seat) and 'general' (number)")
        _get(p, "home", str, where)
        _count(p, "treasury", where)
        _count(p, "tribute", where)
        _get(p, "eliminated", bool, where)
        dict(p.get("standing", {}))
        dict(p.get("inherited", {}))
    for code, a in _get(data, "areas", dict, "snapshot").items():
        where = f"areas.{code}"
        if area_codes is not None and code not in area_codes:
            raise SnapshotError(f"{where}: unknown area code {code!r}")
        if not isinstance(a, dict):
            raise SnapshotError(f"{where}: expected an object")
        city = a.get("city")
        if city not in (None, "city", "fortified"):
            raise SnapshotError(f'{where}.city: expected null, "city" or "fortified", got {city!r}')
        owner = a.get("owner")
        if owner is not None and owner not in players:
            raise SnapshotError(f"{where}.owner: {owner!r} is not a player of this game")
        for seat, f in a.get("units", {}).items():
            if seat not in players:
                raise SnapshotError(f"{where}.units: {seat!r} is not a player of this game")
            _check_force(f, f"{where}.units.{seat}")
        list(a.get("roads", []))
    active = data.get("active")
    if active is not None and active not in players:
        raise SnapshotError(f"snapshot.active: {active!r} is not a player of this game")
    inflation = _get(data, "inflation", int, "snapshot")
    if inflation not in (0, 1, 2):
        raise SnapshotError(f"snapshot.inflation: expected 0, 1 or 2, got {inflation}")
    _get(data, "game", str, "snapshot")
    _get(data, "ruleset", str, "snapshot")
    _count(data, "turn", "snapshot")
    _count(data, "round", "snapshot")
    list(data.get("inflation_pending", []))
