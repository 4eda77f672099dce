"""Checks of a snapshot before it is used: its shape against the documented JSON Schema
(docs/snapshot.schema.json, shipped in the package), then its numbers and names against the ruleset (real
areas, seats of the game, general and galley numbers, piece pools). Every problem names its field path."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from adjudicator.engine.schema import JSON_TYPES, schema_problems, shown  # noqa: F401 (also read from here)
from adjudicator.resources import resource_dir
from adjudicator.rulesets.coe.vocabulary import UNIT_KINDS

if TYPE_CHECKING:
    from adjudicator.rulesets.coe.ruleset import CoeRuleset

SHOWN_PROBLEMS = 12  # a broken file can have thousands; the first ones are enough to find the trouble


@cache
def snapshot_schema() -> dict[str, Any]:
    """docs/snapshot.schema.json (inside the installed package, or beside it in the source tree)."""
    return json.loads((resource_dir("docs") / "snapshot.schema.json").read_text(encoding="utf-8"))


# What a reader fills in when a snapshot leaves it out: the contract of schema 1 (DESIGN.md) names fewer fields than
# this version writes, and positions made by hand or by other tools may rely on that. Written snapshots have all.
READER_DEFAULTS: dict[str, dict[str, Any]] = {
    "snapshot": {"turn": 0, "round": 0, "active": None, "inflation_pending": [], "winner": None},
    "player": {
        "treasury": 0,
        "tribute": 0,
        "captives": [],
        "standing": {},
        "captor": None,
        "inherited": {},
        "conceded_to": None,
    },
    "area": {"owner": None, "city": None, "roads": [], "units": {}},
    "force": {"caesar": 0, "generals": [], "infantry": 0, "cavalry": 0, "catapult": 0, "galleys": []},
    "cargo": {"caesar": 0, "generals": [], "infantry": 0, "cavalry": 0, "catapult": 0},
}


def with_reader_defaults(data: Any) -> Any:
    """`data` with the fields a writer always gives and a reader may miss filled in (a copy; `data` is kept)."""

    def filled(value: Any, kind: str) -> Any:
        return {**READER_DEFAULTS[kind], **value} if isinstance(value, dict) else value

    def each(mapping: Any, fill: Any) -> Any:
        return {key: fill(value) for key, value in mapping.items()} if isinstance(mapping, dict) else mapping

    def force(value: Any) -> Any:
        value = filled(value, "force")
        if isinstance(value, dict) and isinstance(value.get("aboard"), dict):
            value["aboard"] = each(value["aboard"], lambda cargo: filled(cargo, "cargo"))
        return value

    def area(value: Any) -> Any:
        value = filled(value, "area")
        if isinstance(value, dict):
            value["units"] = each(value["units"], force)
        return value

    result = filled(data, "snapshot")
    if isinstance(result, dict):
        result["players"] = each(result.get("players"), lambda player: filled(player, "player"))
        result["areas"] = each(result.get("areas"), area)
    return result


_FIELDS = {kind: frozenset(fields) for kind, fields in READER_DEFAULTS.items()}


def lacks_nothing(data: Any) -> bool:  # noqa: C901 (one walk over the levels with_reader_defaults fills)
    """Whether with_reader_defaults would fill nothing in: then it gives `data` again, its objects' keys in another
    order (a default's first), which only the messages of the schema walk follow (they name the keys in order)."""
    if not isinstance(data, dict) or not data.keys() >= _FIELDS["snapshot"]:
        return False
    players, areas = data.get("players"), data.get("areas")
    if players is None or areas is None:  # filled in as null
        return False
    if isinstance(players, dict) and not all(
        p.keys() >= _FIELDS["player"] for p in players.values() if isinstance(p, dict)
    ):
        return False
    for area in areas.values() if isinstance(areas, dict) else ():
        if not isinstance(area, dict):
            continue
        if not area.keys() >= _FIELDS["area"]:
            return False
        for force in area["units"].values() if isinstance(area["units"], dict) else ():
            if not isinstance(force, dict):
                continue
            if not force.keys() >= _FIELDS["force"]:
                return False
            aboard = force.get("aboard")
            if isinstance(aboard, dict) and not all(
                c.keys() >= _FIELDS["cargo"] for c in aboard.values() if isinstance(c, dict)
            ):
                return False
    return True


def snapshot_problems(data: Any, ruleset: CoeRuleset | None, *, plain: bool = False) -> list[str]:
    """Every problem of snapshot JSON data: its shape first; when that is right, its fit to the ruleset. `plain`: the
    data is known to hold no float nor huge integer (engine/schema.py plain_text)."""
    found = _unknown_areas(data, ruleset) if ruleset is not None else []
    found += schema_problems(data, snapshot_schema(), snapshot_schema(), plain=plain)
    if not found and ruleset is not None:
        found = position_problems(data, ruleset)
    return found


def shape_fits(data: dict[str, Any], plain: bool, *, areas_only: bool = False) -> bool:
    """Whether snapshot data has the schema's shape (no problem of schema_problems), its areas apart: data but its
    areas against the schema with no area, or (`areas_only`) data's "areas" against that property's schema. The
    snapshot's schema has no condition across its properties, so both fit exactly when the whole does."""
    if areas_only:
        return not schema_problems(data["areas"], _areas_schema(), _areas_schema(), "snapshot.areas", plain=plain)
    return not schema_problems({**data, "areas": {}}, snapshot_schema(), snapshot_schema(), plain=plain)


@cache
def _areas_schema() -> dict[str, Any]:
    """The schema of a snapshot's "areas" as a document of its own, with the definitions it refers to."""
    schema = snapshot_schema()
    return {"$schema": schema["$schema"], "$defs": schema["$defs"], **schema["properties"]["areas"]}


def _unknown_areas(data: Any, ruleset: CoeRuleset) -> list[str]:
    """Area keys that are no board code (named first: the other problems of such an area follow from it)."""
    areas = data.get("areas") if isinstance(data, dict) else None
    return (
        [f"snapshot.areas: unknown area code {shown(code)}" for code in areas if code not in ruleset.board.areas]
        if isinstance(areas, dict)
        else []
    )


def position_problems(data: dict[str, Any], ruleset: CoeRuleset) -> list[str]:
    """What in a well-formed snapshot does not fit its ruleset: seats, homes and turn order (C-0.11, C-4.1),
    areas and roads of the board (C-12.8), general and galley numbers and the piece pools (C-1.1, C-1.2)."""
    if _fits(data, ruleset):  # the common case, in one pass; the problems are named only when one is there
        return []
    return _misfits(data, ruleset)


def _misfits(data: dict[str, Any], ruleset: CoeRuleset, *, counts: bool = True) -> list[str]:
    """position_problems, each check on its own, in words. Without `counts`, the tribute and the pieces over the
    board are left to the invariants, which name them (fit_problems)."""
    players = data["players"]
    found = _seat_problems(data, ruleset)
    for seat, player in players.items():
        found += _player_problems(f"snapshot.players.{seat}", seat, player, players, ruleset)
        if counts:
            found += _tribute_problems(f"snapshot.players.{seat}.tribute", seat, player, data["areas"], ruleset)
    for code, area in data["areas"].items():
        found += _area_problems(f"snapshot.areas.{code}", code, area, data, ruleset)
    return found + _piece_problems(data, ruleset) if counts else found


def fit_problems(data: dict[str, Any], ruleset: CoeRuleset) -> list[str]:
    """What in well-formed snapshot data does not fit the ruleset apart from what the invariants hold (the tribute,
    the pieces over the board): the words of the invariants' fit (invariants.py), checked on every position."""
    return _misfits(data, ruleset, counts=False)


def _seat_problems(data: dict[str, Any], ruleset: CoeRuleset) -> list[str]:
    players = data["players"]
    found = [
        f"snapshot.players key {seat!r}: not a seat of {ruleset.name} ({', '.join(ruleset.seat_names)})"
        for seat in players
        if seat not in ruleset.seat_names
    ]
    if not found and list(players) != [s for s in ruleset.seat_names if s in players]:
        found.append(
            f"snapshot.players: the seats must be listed in turn order (C-4.1): "
            f"{', '.join(s for s in ruleset.seat_names if s in players)}"
        )
    for name in ("active", "winner"):
        if data[name] is not None and data[name] not in players:
            found.append(f"snapshot.{name}: {data[name]!r} is not a player of this game")
    if data["active"] is None and data["winner"] is None:  # no seat would ever be due: the game would stand still
        found.append(
            "snapshot.active: null, yet no winner: a game that has not ended names the seat whose player-turn "
            "comes next (C-4.1); a game that has ended names its winner (C-14)"
        )
    for i, pending in enumerate(data["inflation_pending"]):
        if pending["seat"] not in players:
            found.append(f"snapshot.inflation_pending[{i}].seat: {pending['seat']!r} is not a player of this game")
    return found


def _player_problems(
    where: str, seat: str, player: dict[str, Any], players: dict[str, Any], ruleset: CoeRuleset
) -> list[str]:
    found = []
    if seat in ruleset.seat_names and player["home"] != ruleset.seat(seat).home:
        found.append(
            f"{where}.home: {player['home']!r} is not {seat}'s home province {ruleset.seat(seat).home} (C-0.11)"
        )
    for name in ("captor", "conceded_to"):
        if player[name] is not None and (player[name] not in players or player[name] == seat):
            found.append(f"{where}.{name}: {player[name]!r} is not another player of this game")
    for i, captive in enumerate(player["captives"]):
        if captive["owner"] not in players or captive["owner"] == seat:
            found.append(f"{where}.captives[{i}].owner: {captive['owner']!r} is not another player of this game")
        found += _number_problems(f"{where}.captives[{i}].general", [captive["general"]], "generals", ruleset)
    standing = player["standing"]
    for i, rule in enumerate(standing.get("retreat", [])):
        found += _code_problems(f"{where}.standing.retreat[{i}]", [rule["from"]] if rule["from"] else [], ruleset)
        found += _code_problems(f"{where}.standing.retreat[{i}].to", rule["to"], ruleset)
    found += _code_problems(f"{where}.standing.freed", standing.get("freed", []), ruleset)
    for name in standing.get("captives", {}):
        if name != "*" and name not in ruleset.seat_names:
            found.append(f"{where}.standing.captives key {name!r}: not a seat of {ruleset.name}")
    for i, offer in enumerate(standing.get("ransom_accept", [])):
        if offer["owner"] not in ruleset.seat_names:
            found.append(f"{where}.standing.ransom_accept[{i}].owner: {offer['owner']!r} is not a seat")
        found += _number_problems(
            f"{where}.standing.ransom_accept[{i}].general", [offer["general"]], "generals", ruleset
        )
    return found


def _tribute_problems(
    where: str, seat: str, player: dict[str, Any], areas: dict[str, Any], ruleset: CoeRuleset
) -> list[str]:
    """C-9.1, C-9.2: the tribute marker of a seat in play stands at its provinces' values + 5 per city it controls
    (an area missing from the position, or given to another, moves it)."""
    if player["eliminated"] or seat not in ruleset.seat_names:
        return []
    city = ruleset.data["city"]["tribute"]
    value = sum(
        ruleset.board.value(code) + (city if area["city"] else 0)
        for code, area in areas.items()
        if area["owner"] == seat and code in ruleset.board.areas
    )
    if player["tribute"] == value:
        return []
    return [f"{where}: {shown(player['tribute'])} is not the provinces and cities {seat} controls ({value}) (C-9.1)"]


def _area_problems(where: str, code: str, area: dict[str, Any], data: dict[str, Any], ruleset: CoeRuleset) -> list[str]:
    board, players, areas = ruleset.board, data["players"], data["areas"]
    found = []
    if area["owner"] is not None and area["owner"] not in players:
        found.append(f"{where}.owner: {area['owner']!r} is not a player of this game")
    for other in area["roads"]:
        if other not in board.areas or not board.land_border(code, other):
            found.append(f"{where}.roads: {other!r} is not a province with a land border to {code} (C-12.8)")
        elif not area["city"] or not areas.get(other, {}).get("city") or code not in areas[other]["roads"]:
            found.append(f"{where}.roads: the road to {other} is not one between two cities that both list it (C-9.7)")
    for seat, force in area["units"].items():
        if seat not in players:
            found.append(f"{where}.units key {seat!r}: not a player of this game")
        found += _force_problems(f"{where}.units.{seat}", code, force, ruleset)
    return found


def _force_problems(where: str, code: str, force: dict[str, Any], ruleset: CoeRuleset) -> list[str]:
    found = _number_problems(f"{where}.generals", force["generals"], "generals", ruleset)
    found += _number_problems(f"{where}.galleys", force["galleys"], "galley", ruleset)
    coasts = force.get("galley_coasts", {})
    seas = set().union(*ruleset.board.coasts(code)) if coasts and ruleset.board.is_land(code) else set()
    for number, sea in coasts.items():
        if int(number) not in force["galleys"]:
            found.append(f"{where}.galley_coasts key {number!r}: no such galley here")
        if sea not in seas:
            found.append(f"{where}.galley_coasts.{number}: {sea!r} is not a sea zone on the coast of {code}")
    for number, cargo in force.get("aboard", {}).items():
        if int(number) not in force["galleys"]:
            found.append(f"{where}.aboard key {number!r}: no such galley here")
        if any(cargo[k] > force[k] for k in ("caesar", *UNIT_KINDS)) or not set(cargo["generals"]) <= set(
            force["generals"]
        ):
            found.append(f"{where}.aboard.{number}: more pieces aboard than the force has")
    return found


def _number_problems(where: str, numbers: list[int], kind: str, ruleset: CoeRuleset) -> list[str]:
    """General or galley numbers: 1 up to the pieces of all colours (taken-over pieces are numbered on, C-8.8)."""
    highest = ruleset.data["limits"][kind] * len(ruleset.seat_names)
    return [
        f"{where}: {shown(n)} is not a {kind.rstrip('s')} number (1-{highest})"
        for n in numbers
        if not 1 <= n <= highest
    ]


def _code_problems(where: str, codes: list[str], ruleset: CoeRuleset) -> list[str]:
    return [f"{where}: unknown area code {code!r}" for code in codes if code not in ruleset.board.areas]


def _piece_problems(data: dict[str, Any], ruleset: CoeRuleset) -> list[str]:
    """Each seat's pieces over the board: one Caesar at most, each general and galley in one place, and no more
    combat units than every colour's pool together (the exact limits are invariants, C-1.1, O-1.2)."""
    limits, seats = ruleset.data["limits"], len(ruleset.seat_names)
    found = []
    for seat in data["players"]:
        forces = [a["units"][seat] for a in data["areas"].values() if seat in a["units"]]
        captive = [c["general"] for p in data["players"].values() for c in p["captives"] if c["owner"] == seat]
        if sum(f["caesar"] for f in forces) > 1:
            found.append(f"snapshot: {seat} has more than one Caesar on the board")
        for kind, numbers in (
            ("general", [g for f in forces for g in f["generals"]] + captive),
            ("galley", [g for f in forces for g in f["galleys"]]),
        ):
            found += [
                f"snapshot: {seat}'s {kind} {n} is in {times} places"
                for n, times in Counter(numbers).items()
                if times > 1
            ]
        for kind in UNIT_KINDS:
            if sum(f[kind] for f in forces) > limits[kind] * seats:
                found.append(f"snapshot: {seat} has more {kind} than the game has ({limits[kind] * seats})")
    return found


# -- fits: the checks of position_problems in one pass, for a snapshot that has none (verify reads one a turn) --


class FitFacts(NamedTuple):
    """What the one-pass checks of the fit read of a ruleset, gathered once (here and in invariants.py). (A named
    tuple: making a frozen dataclass's methods was a part of the start-up of every command that reads a position.)"""

    seats: tuple[str, ...]
    homes: dict[str, str]
    codes: frozenset[str]
    land: frozenset[str]
    borders: dict[str, frozenset[str]]  # a province's land borders, the ones a road may cross (C-12.8)
    seas: dict[str, frozenset[str]]  # the sea zones on a province's coasts, where its galleys lie (C-2.6)
    value: dict[str, int]
    city: int  # tribute of a city (C-9.1)
    generals: int  # the highest general number
    galleys: int  # the highest galley number
    pools: tuple[int, ...]  # combat units of every colour, by UNIT_KINDS


_FACTS: dict[int, tuple[CoeRuleset, FitFacts | None]] = {}


def fit_facts(ruleset: CoeRuleset) -> FitFacts | None:
    """The ruleset's facts (None when its data lacks one: the full checks then run, and name what they name)."""
    entry = _FACTS.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:
        try:
            board, limits, seats = ruleset.board, ruleset.data["limits"], len(ruleset.seat_names)
            land = frozenset(code for code in board.areas if board.is_land(code))
            facts: FitFacts | None = FitFacts(
                seats=tuple(ruleset.seat_names),
                homes={seat.name: seat.home for seat in ruleset.seats},
                codes=frozenset(board.areas),
                land=land,
                borders={code: frozenset(board.adjacency[code]) & land for code in land},
                seas={code: frozenset().union(*board.coasts(code)) for code in land},
                value={code: board.value(code) for code in board.areas},
                city=ruleset.data["city"]["tribute"],
                generals=limits["generals"] * seats,
                galleys=limits["galley"] * seats,
                pools=tuple(limits[kind] * seats for kind in UNIT_KINDS),
            )
        except Exception:  # noqa: BLE001 (whatever is missing, the full checks meet it as they always did)
            facts = None
        entry = _FACTS[id(ruleset)] = (ruleset, facts)  # the ruleset kept, so that its id is not reused
    return entry[1]


def _fits(data: dict[str, Any], ruleset: CoeRuleset) -> bool:
    """True only when position_problems finds nothing: the same checks in one pass. Anything it is not sure of is
    False, and the full checks decide."""
    facts = fit_facts(ruleset)
    if facts is None:
        return False
    try:
        return _players_fit(data, facts) and _areas_fit(data, facts, ruleset)
    except Exception:  # noqa: BLE001 (the full checks raise or name it, as they always did)
        return False


def _players_fit(data: dict[str, Any], facts: FitFacts) -> bool:
    """_seat_problems and _player_problems find nothing."""
    players = data["players"]
    return head_fits(players, data["active"], data["winner"], data["inflation_pending"], facts) and all(
        player_fits(
            seat,
            player["home"],
            (player["captor"], player["conceded_to"]),
            [(captive["owner"], captive["general"]) for captive in player["captives"]],
            player["standing"],
            players,
            facts,
        )
        for seat, player in players.items()
    )


# -- the fit in parts: the one pass over snapshot data above and the invariants' one pass over a state (invariants.py)
# ask each the same of the same values; what either finds, fit_problems names --


def head_fits(
    players: Collection[str], active: str | None, winner: str | None, pending: list[dict[str, Any]], facts: FitFacts
) -> bool:
    """The seats are the ruleset's in turn order (C-4.1); the seat due and the winner are players, and one of them
    is named; each inflation level pending is a player's (C-11.7)."""
    if list(players) != [seat for seat in facts.seats if seat in players]:
        return False
    if (active is None and winner is None) or any(s is not None and s not in players for s in (active, winner)):
        return False
    return all(entry["seat"] in players for entry in pending)


def player_fits(
    seat: str,
    home: str,
    others: tuple[str | None, ...],
    captives: Iterable[tuple[str, int]],
    standing: dict[str, Any],
    players: Collection[str],
    facts: FitFacts,
) -> bool:
    """A player's home is his seat's (C-0.11); his captor and the one he conceded to (`others`) and his captives'
    owners (owner, general number) are other players; his standing orders name areas and seats of the ruleset."""
    if home != facts.homes[seat]:
        return False
    for other in others:
        if other is not None and (other not in players or other == seat):
            return False
    for owner, general in captives:
        if owner not in players or owner == seat or not 1 <= general <= facts.generals:
            return False
    return not standing or _standing_fits(standing, facts)


def _standing_fits(standing: dict[str, Any], facts: FitFacts) -> bool:
    # loops and set tests, no generators: the invariants run this on every player of every position verify replays
    codes, seats, highest = facts.codes, facts.seats, facts.generals
    for rule in standing.get("retreat", ()):
        if (rule["from"] and rule["from"] not in codes) or not codes.issuperset(rule["to"]):
            return False
    if not codes.issuperset(standing.get("freed", ())):
        return False
    for name in standing.get("captives", ()):
        if name != "*" and name not in seats:
            return False
    for offer in standing.get("ransom_accept", ()):
        if offer["owner"] not in seats or not 1 <= offer["general"] <= highest:
            return False
    return True


def numbers_fit(numbers: list[int], highest: int) -> bool:
    """General or galley numbers run from 1 up to the pieces of all colours, `highest` (C-8.8). (min and max, no
    generator: the invariants run this on every seat of every position verify replays.)"""
    return not numbers or (min(numbers) >= 1 and max(numbers) <= highest)


def coasts_fit(code: str, coasts: dict[Any, str], galleys: list[int], facts: FitFacts) -> bool:
    """Each galley's coast (keyed by its number, as text or not) is one of the province's, for a galley of the force
    (C-2.6)."""
    seas = facts.seas.get(code, frozenset())
    return all(int(number) in galleys and sea in seas for number, sea in coasts.items())


def roads_fit(code: str, roads: list[str], facts: FitFacts) -> bool:
    """Each road of a province crosses a land border of it (C-12.8)."""
    return facts.borders.get(code, frozenset()).issuperset(roads)


class _Pieces:
    """What the one pass counts of each seat's pieces over the board."""

    def __init__(self, seats: Iterable[str]) -> None:
        self.tribute = dict.fromkeys(seats, 0)
        self.units = {seat: [0, 0, 0, 0] for seat in self.tribute}  # infantry, cavalry, catapult, caesars
        self.generals: dict[str, list[int]] = {seat: [] for seat in self.tribute}
        self.galleys: dict[str, list[int]] = {seat: [] for seat in self.tribute}


def _areas_fit(data: dict[str, Any], facts: FitFacts, ruleset: CoeRuleset) -> bool:
    """_tribute_problems, _area_problems and _piece_problems find nothing (the players fit)."""
    players, areas = data["players"], data["areas"]
    pieces = _Pieces(players)
    if not all(_area_fits(code, area, areas, pieces, facts, ruleset) for code, area in areas.items()):
        return False
    for player in players.values():  # the generals held prisoner are in their place (C-8.9)
        for captive in player["captives"]:
            pieces.generals[captive["owner"]].append(captive["general"])
    for seat, player in players.items():
        if not player["eliminated"] and player["tribute"] != pieces.tribute[seat]:  # C-9.1
            return False
        counts, generals, galleys = pieces.units[seat], pieces.generals[seat], pieces.galleys[seat]
        if counts[3] > 1 or any(counts[i] > pool for i, pool in enumerate(facts.pools)):  # C-1.1, C-1.2
            return False
        if len(set(generals)) != len(generals) or len(set(galleys)) != len(galleys):
            return False
    return True


def _area_fits(
    code: str, area: dict[str, Any], areas: dict[str, Any], pieces: _Pieces, facts: FitFacts, ruleset: CoeRuleset
) -> bool:
    """One area's fields fit, its pieces counted in `pieces`."""
    owner, city = area["owner"], area["city"]
    if owner is not None:
        if owner not in pieces.tribute:
            return False
        if code in facts.codes:
            pieces.tribute[owner] += facts.value[code] + (facts.city if city else 0)
    if not roads_fit(code, area["roads"], facts):  # C-12.8
        return False
    for other in area["roads"]:  # C-9.7
        if not city or not areas.get(other, {}).get("city") or code not in areas[other]["roads"]:
            return False
    for seat, force in area["units"].items():
        if seat not in pieces.tribute:
            return False
        if not numbers_fit(force["generals"], facts.generals) or not numbers_fit(force["galleys"], facts.galleys):
            return False
        if "galley_coasts" in force and not coasts_fit(code, force["galley_coasts"], force["galleys"], facts):
            return False
        if force.get("aboard") and _force_problems(f"snapshot.areas.{code}.units.{seat}", code, force, ruleset):
            return False
        counts = pieces.units[seat]
        counts[0] += force["infantry"]
        counts[1] += force["cavalry"]
        counts[2] += force["catapult"]
        counts[3] += force["caesar"]
        pieces.generals[seat] += force["generals"]
        pieces.galleys[seat] += force["galleys"]
    return True
