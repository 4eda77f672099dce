"""A snapshot's fit to the game's data, after its shape passed docs/snapshot-conqueror.schema.json: every faction,
area, unit owner, card and hero it names is one of the data, no card has more copies than its deck, and the counts
agree with each other. Every problem names its field path (`snapshot.private.thal.hand[3]: ...`) and the rule.

The schema has checked the types, so this reads the JSON data without further guards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from adjudicator.engine.schema import shown
from adjudicator.rulesets.conqueror.data import GameData, MapSide
from adjudicator.rulesets.conqueror.orders import INDEPENDENTS
from adjudicator.rulesets.conqueror.state import INDEPENDENT


def position_problems(data: dict[str, Any], game: GameData) -> list[str]:
    """What in a schema-valid whole, seat or public snapshot does not fit `game`'s data."""
    public = data["public"]
    factions = public["factions"]
    found = _seat_problems(public, game)
    side = game.map_for(public["players"]) if not found else None
    for faction, player in factions.items():
        found += _faction_problems(f"snapshot.public.factions.{faction}", faction, player, factions, game, side)
    for faction in data.get("private", {}):
        if faction not in factions:
            found.append(f"snapshot.private key {faction!r}: not a faction of this game (ER-3.3)")
    if side is not None:
        for area, army in public["army"].items():
            found += _army_problems(f"snapshot.public.army.{area}", area, army, factions, side)
        for i, area in enumerate(public["fort_markers"]):
            if area not in side.areas:
                where = f"snapshot.public.fort_markers[{i}]"
                found.append(f"{where}: {shown(area)} is no area of the {side.side} board (ER-2.1)")
    found += _card_problems(data, game)
    return found + _seas_problems(public.get("seas"), factions, game, side)


def _seat_problems(public: dict[str, Any], game: GameData) -> list[str]:
    """The factions of the game (ER-3.2, ER-3.3): of the data, as many as `players`, the same in every list."""
    factions = public["factions"]
    playing = game.setup.factions_by_players.get(public["players"], ())
    found = [
        f"snapshot.public.factions key {f!r}: no faction of the game data (ER-3.3)"
        if f not in game.factions
        else f"snapshot.public.factions key {f!r}: not a faction at {public['players']} players ({', '.join(playing)}) "
        "(ER-3.3)"
        for f in factions
        if f not in playing
    ]
    if len(factions) != public["players"]:
        found.append(f"snapshot.public.players: {public['players']}, but {len(factions)} factions play (ER-3.2)")
    if sorted(public["seating"]) != sorted(factions):
        found.append(
            f"snapshot.public.seating: {', '.join(public['seating']) or 'none'} are not the factions of the game "
            f"({', '.join(factions)}) (ER-3.10)"
        )
    # ER-4.7: an eliminated faction leaves the turn order; every faction in play is in it once
    in_play = sorted(f for f, faction in factions.items() if not faction["eliminated"])
    listed = public["turn_order"]
    if len(set(listed)) != len(listed) or not set(in_play) <= set(listed) <= set(factions):
        found.append(
            f"snapshot.public.turn_order: {', '.join(listed) or 'none'} are not the factions in play "
            f"({', '.join(in_play)}), each once (ER-4.2, ER-4.7)"
        )
    found += _members("snapshot.public.hourglass", [public["hourglass"]], factions, "a faction of this game (ER-4.4.1)")
    found += _members("snapshot.public.winners", public["winners"], factions, "a faction of this game (ER-10)")
    found += _members("snapshot.public.final_scores key", public.get("final_scores", {}), factions, "a faction")
    # ER-7.1: the campaign turn due is one of a faction still in play, in turn order
    in_play = [f for f in public["turn_order"] if f in factions and not factions[f]["eliminated"]]
    if public["campaign_index"] >= max(len(in_play) if public["phase"] == "campaign" else len(factions), 1):
        found.append(f"snapshot.public.campaign_index: {public['campaign_index']} is past the turn order (ER-7.1)")
    return found


def _faction_problems(
    where: str, faction: str, player: dict[str, Any], factions: dict[str, Any], game: GameData, side: MapSide | None
) -> list[str]:
    found = []
    if player["faction"] != faction:
        found.append(f"{where}.faction: {shown(player['faction'])} is not its key {faction!r}")
    known = game.factions.get(faction)
    if known is None:
        return found
    if known.board(player["board"]) is None:
        boards = ", ".join(b.id for b in known.boards)
        found.append(f"{where}.board: {shown(player['board'])} is not a board of {faction} ({boards}) (ER-3.7)")
    heroes = {h.id for h in game.cards.heroes if h.faction == faction}
    found += _members(f"{where}.heroes_up key", player["heroes_up"], heroes, f"a hero of {faction} (ER-6.10)")
    found += _members(f"{where}.heroes_discarded", player["heroes_discarded"], heroes, f"a hero of {faction}")
    partners = {*factions, INDEPENDENTS} - {faction}  # ER-5.7: the independents trade too
    found += _members(f"{where}.trade_bans", player["trade_bans"], partners, "another faction (ER-5.10b)")
    spaces = max((len(track) for track in game.tracks.trade.values()), default=0)
    if spaces and player["trade"] > spaces:
        found.append(f"{where}.trade: {player['trade']} is past the trade track's {spaces} spaces (ER-5.6)")
    capital = player["temporary_capital"]
    if side is not None and capital is not None and capital not in side.areas:
        found.append(f"{where}.temporary_capital: {shown(capital)} is no area of the {side.side} board (ER-11.1)")
    return found


def _army_problems(where: str, area: str, army: dict[str, Any], factions: dict[str, Any], side: MapSide) -> list[str]:
    """ER-2.1: an area of the board side played; ER-3.3, ER-0.3: a faction of the game or the independents."""
    if area not in side.areas:
        return [f"snapshot.public.army key {area!r}: no area of the {side.side} board (ER-2.1)"]
    found = []
    if army["owner"] != INDEPENDENT and army["owner"] not in factions:
        found.append(f"{where}.owner: {shown(army['owner'])} is no faction of this game nor independent (ER-0.3)")
    for kind, tired in army["exhausted"].items():
        if tired > army["units"].get(kind, 0):
            found.append(f"{where}.exhausted.{kind}: {tired}, more than the {kind} units there (ER-7.2)")
    return found


def _card_problems(data: dict[str, Any], game: GameData) -> list[str]:
    """Every card named is one of the data's (ER-1.2), in no more copies than its deck has; a seat's hand and
    face-down heroes are its own (ER-6.10) and as many as the public counts say."""
    public, private, secret = data["public"], data.get("private", {}), data.get("secret", {})
    decks = public["decks"]
    tactics = {t.id: t.count for t in game.cards.tactics}
    automa = {a.id for a in game.cards.automa}
    chronicles = {c.id for c in game.cards.chronicles}
    places: list[tuple[str, list[str]]] = [("snapshot.public.decks.tactic_discards", decks["tactic_discards"])]
    places += [(f"snapshot.private.{f}.hand", part.get("hand", [])) for f, part in private.items()]
    places.append(("snapshot.secret.tactics", secret.get("tactics", [])))
    found = []
    copies: Counter[str] = Counter()
    for where, cards in places:
        for i, card in enumerate(cards):
            if card not in tactics:
                found.append(f"{where}[{i}]: card {shown(card)} is not in the game data (ER-1.2)")
                continue
            copies[card] += 1
            if copies[card] == tactics[card] + 1:
                found.append(f"{where}[{i}]: a copy of {card!r} beyond the deck's {tactics[card]} (ER-1.2)")
    found += _members("snapshot.secret.automa", secret.get("automa", []), automa, "an automa card of the game data")
    found += _members("snapshot.public.decks.automa_discards", decks["automa_discards"], automa, "an automa card")
    for where, cards in (
        ("snapshot.secret.chronicles", secret.get("chronicles", [])),
        ("snapshot.public.decks.chronicles_done", decks["chronicles_done"]),
        ("snapshot.public.decks.chronicle", [] if decks["chronicle"] is None else [decks["chronicle"]]),
    ):
        found += _members(where, cards, chronicles, "a chronicle card of the game data (ER-3.6)")
    for name in ("tactics", "automa", "chronicles"):
        if name in secret and len(secret[name]) != decks[name]:
            found.append(f"snapshot.secret.{name}: {len(secret[name])} cards, the public count says {decks[name]}")
    for faction, part in private.items():
        player = public["factions"].get(faction)
        if player is None:
            continue
        where = f"snapshot.private.{faction}"
        heroes = {h.id for h in game.cards.heroes if h.faction == faction}
        found += _members(f"{where}.heroes_down", part.get("heroes_down", []), heroes, f"a hero of {faction} (ER-6.10)")
        for name, count in (("hand", "hand_size"), ("heroes_down", "heroes_down_count")):
            if name in part and len(part[name]) != player[count]:
                found.append(f"{where}.{name}: {len(part[name])} cards, but public {count} says {player[count]}")
    return found


def _seas_problems(
    seas: dict[str, Any] | None, factions: dict[str, Any], game: GameData, side: MapSide | None
) -> list[str]:
    """ER-12.1, ER-12.9: megaproject cards of the data, wharves of factions of the game on areas of the board."""
    if seas is None:
        return []
    cards = {m.id for m in game.cards.megaprojects}
    found = _members("snapshot.public.seas.cards", seas["cards"], cards, "a megaproject card (ER-12.1)")
    for faction, built in seas["built"].items():
        found += _members("snapshot.public.seas.built key", [faction], factions, "a faction of this game")
        found += _members(f"snapshot.public.seas.built.{faction} key", built, cards, "a megaproject card (ER-12.1)")
    for faction, area in seas["wharves"].items():
        found += _members("snapshot.public.seas.wharves key", [faction], factions, "a faction of this game")
        if side is not None and area not in side.areas:
            found.append(f"snapshot.public.seas.wharves.{faction}: {shown(area)} is no area of the board (ER-12.9)")
    found += _members("snapshot.public.seas.wonders", seas["wonders"], cards, "a megaproject card (ER-12.7)")
    found += _members("snapshot.public.seas.siege_recruited key", seas["siege_recruited"], factions, "a faction")
    return found


def _members(where: str, values: Iterable[str], known: Iterable[str], what: str) -> list[str]:
    """`where[i]: 'x' is not <what>` for each value not known (a mapping's keys: `where 'x': ...`)."""
    allowed, single = set(known), where.endswith(("hourglass", "chronicle"))
    if where.endswith(" key"):
        return [f"{where} {value!r}: not {what}" for value in values if value not in allowed]
    return [
        f"{where}{'' if single else f'[{i}]'}: {shown(value)} is not {what}"
        for i, value in enumerate(values)
        if value not in allowed
    ]
