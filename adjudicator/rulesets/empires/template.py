"""`pbem data template empires-aw DIR`: a skeleton data folder with every value EAW-11 names, each commented with
the rule IDs that read it. Values the rules spec gives (the option defaults) are written as comments; every value
only the printed game has is "" (empty), so that the check of a fresh template names each one still to fill in.
Arrays of entries (areas, connections, cards) are written once each as a pattern to copy."""

from __future__ import annotations

from pathlib import Path

from adjudicator.errors import PbemError
from adjudicator.rulesets.empires.data import CATEGORIES, CONNECTION_KINDS, HOME_GROUPS, NORTH, PERSONALITY_TYPES
from adjudicator.rulesets.empires.loader import CARDS, GAME_DATA, MAP, RESOLUTIONS, REVOLTS, RULESET

HEADER = """# Empires of the Ancient World: game data for pbem (ruleset empires-aw). Rule IDs EAW-n.m: the rules spec.
# Fill in every value written "" (empty); `pbem data check DIR` names each one still missing or inconsistent.
# EAW-10.9: a game does not start without the map, the cards and the revolt tables; a value left out below
# game-data.toml's [pieces] and [options] is a note naming the resolution the game applies instead.
# Write your data in your own words and numbers: never copy a published text into these files.
"""


def write_template(folder: Path) -> list[Path]:
    """Write the skeleton files into `folder` (created if needed); refuse to overwrite any file."""
    files = {GAME_DATA: game_data_text(), MAP: map_text(), REVOLTS: revolts_text(), CARDS: cards_text()}
    existing = [name for name in files if (folder / name).exists()]
    if existing:
        raise PbemError(f"{folder}: {', '.join(existing)} already exist; choose an empty folder")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        written.append(folder / name)
    return written


def game_data_text() -> str:
    confirm = ", ".join(f'"{rule}"' for rule in RESOLUTIONS)
    return (
        HEADER
        + f"""{f'ruleset = "{RULESET}"':<32}# EAW-11: the game this data is for
example = false                 # EAW-11: true only for a data set of one's own invention, not the printed game
title = ""                      # EAW-11: how reports name this data set (e.g. the edition)
# EAW-10.9 (e) to (g): the resolutions without an option that you have confirmed against the printed rulebook;
# each one not listed is a note. All of them: [{confirm}]
confirmed = []                  # EAW-10.9

[pieces]                        # EAW-1.2, EAW-11.4: per player; "" = not given (unlimited, a note)
control_markers = ""            # EAW-1.2, EAW-3.1, EAW-3.9, EAW-7.40: at least the start markers
trade_markers = ""              # EAW-1.2, EAW-6.1: the stock a player's income comes from
forts = ""                      # EAW-1.2, EAW-3.10, EAW-7.25
hand_limit = ""                 # EAW-1.2, EAW-11.3: cards in hand at most; 0 = no hand limit

[options]                       # EAW-11.7: "" = not given: the default (the spec's resolution) applies, a note
threshold = ""                  # EAW-0.4: ge (default: d6 + modifiers >= n) | gt
start_markers = ""              # EAW-3.1: e.g. {{ 3 = 7, 4 = 6, 5 = 5 }} (default: 10 - N)
start_markers_count = ""        # EAW-3.9: total (default: the start marker counts) | additional
action_rounds_first = ""        # EAW-4.3: action rounds in game round I, one fewer each round (default 10)
leader_melee_bonus = ""         # EAW-8.2: ambush (default) | always
ambush_scope = ""               # EAW-8.2: any_attack (default) | mountain_crossing
marker_choice = ""              # EAW-8.3, EAW-8.4: push_first (default) | pull_first | winner_chooses
trade_reach = ""                # EAW-7.30: chain (default) | controlled_only
last_province = ""              # EAW-2.8: all (default) | battle_only
diplomacy_reach = ""            # EAW-7.12: mediterranean (default) | land_only
loss_selection = ""             # EAW-8.8: random (default) | owner_chooses
plunder_spendable = ""          # EAW-8.13: false (default) | true
upkeep_timing = ""              # EAW-10.5: scoring (default) | every_round
plunder_vp = ""                 # EAW-10.6: VP per plunder marker at each scoring, 0 to 10 (unset: plunder scores 0)
tie_break = ""                  # EAW-10.8: shared (default) | most_control | most_trade

[notes]                         # EAW-11: your own remarks, key = "text" (optional)
"""
    )


def map_text() -> str:
    kinds = ", ".join(CONNECTION_KINDS)
    return (
        HEADER
        + f"""# EAW-11.1: the map. One [[area]] per province or sea area, one [[connection]] per pair of areas that
# border each other. Copy each pattern below as often as needed.
# Checks: area values 2 to 8 (EAW-2.9); exactly three Mediterranean sea areas, each worth 8 (EAW-2.2, EAW-2.9);
# a northern-edge province is worth 2 (EAW-2.9); every province has its half (EAW-2.10); a province is
# mediterranean_coast exactly when it has a coast connection to a Mediterranean sea area (EAW-2.2).

[[area]]                        # a province
id = ""                         # EAW-11.1: a short code, e.g. ORS (letters, digits, - and _); orders name it
name = ""                       # EAW-11.1: the area's name
kind = "province"               # EAW-2.1: province | sea
half = ""                       # EAW-2.10: north | south (provinces only; sea areas belong to neither half)
value = ""                      # EAW-2.9, EAW-2.6, EAW-10.3, EAW-10.4: VP value and trade capacity, 2 to 8
amphora = false                 # EAW-2.7, EAW-6.1: shows an amphora symbol
mediterranean_coast = false     # EAW-2.2, EAW-2.3: borders a Mediterranean sea area
northern_edge = false           # EAW-2.9: lies on the map's northern edge (worth 2)
x = ""                          # EAW-11.1: where the drawn map places it, 0 to 1000
y = ""

[[area]]                        # a sea area
id = ""
name = ""
kind = "sea"                    # EAW-2.1
value = ""                      # EAW-2.9: 8 for each of the three Mediterranean sea areas
mediterranean = false           # EAW-2.2: one of the three Mediterranean sea areas
named = true                    # EAW-2.11, EAW-3.9: bears a name on the map (may be taken at setup)
x = ""
y = ""

[[connection]]                  # EAW-2.1: each pair once, in either order (adjacency is symmetric)
a = ""                          # EAW-2.1: an area id
b = ""                          # EAW-2.1: an area id
kinds = [""]                    # EAW-2.1: one or more of {kinds}
                                #   land, mountain (EAW-7.2), strait (EAW-7.2), sea (a sea lane, EAW-7.3):
                                #   two provinces; coast: a province and a sea area; water: two sea areas
sea = ""                        # EAW-2.1, EAW-7.3: the sea area a sea lane crosses (only with kinds "sea")
"""
    )


def revolts_text() -> str:
    rows = "\n".join(f'{n} = ""' for n in range(1, 7))
    first = ", ".join(f'{n} = ""' for n in range(1, 7))
    return (
        HEADER
        + f"""# EAW-5.1, EAW-11.2: the revolt tables. The first die picks the table (north or south), the second die a
# result; every province listed under it revolts, in the order listed (EAW-5.2). Provinces only (EAW-5.3):
# e.g. 3 = ["ORS", "TAL"]; a result may list none: 6 = [].
table_of = {{ {first} }}   # EAW-5.1: each d6 result -> "north" | "south"

[north]                         # EAW-5.1: the north table, d6 result -> provinces of the northern half
{rows}

[south]                         # EAW-5.1: the south table
{rows}
"""
    )


def _army_card(kind: str, group: str | None = None) -> str:
    home = f'home_group = "{group}"              # EAW-1.4, EAW-3.8: the home army it belongs to\n' if group else ""
    return f"""[[card]]
id = ""                         # EAW-11.6: a short code (letters, digits, - and _); orders name it
name = ""
{f'kind = "{kind}"':<32}# EAW-11.6: army | empire | personality
{home}category = ""                   # EAW-1.3: {" | ".join(CATEGORIES)}
speed = ""                      # EAW-8.1: fast | slow
mounted = false                 # EAW-8.15: not in sieges
melee = false                   # EAW-8.2: a melee card (the leader's +1)
value = ""                      # EAW-8.5, EAW-8.21: its value
value_vs = {{}}                   # EAW-8.5: its value against a category, e.g. {{ mounted = 5 }}
value_roll = {{}}                 # EAW-8.5: {{ 1 = n, ..., 6 = n }} (the d6 result's value), or {{ mod = n }}
                                #   (the value + d6 + n)
label = "none"                  # EAW-7.23: N | S | none
vp_cost = 0                     # EAW-10.5: VP upkeep 0 to 3
count = 1                       # EAW-1.2: copies of this card
effects = []                    # EAW-11.6: effect codes, as personalities have them

"""


def _personality(kind: str) -> str:
    return f"""[[card]]
id = ""
name = ""
kind = "personality"            # EAW-7.22: in the general deck, played face up when recruited
{f'personality = "{kind}"':<32}# EAW-9.1: {" | ".join(PERSONALITY_TYPES)}
vp_cost = 0                     # EAW-10.5
count = 1                       # EAW-1.2
effects = [""]                  # EAW-9.1, EAW-11.6: e.g. [{{ code = "fort_cost", n = 2 }}, {{ code = "capture_fort" }}]

"""


def cards_text() -> str:
    groups = "".join(
        _army_card("empire", group) for half in HOME_GROUPS for group in HOME_GROUPS[half] if half and group
    )
    return (
        HEADER
        + f"""# EAW-11.3, EAW-11.6: the cards. One [[card]] per card entry, `count` copies of it in play. The general
# deck (EAW-1.4 b) holds army and personality cards; the home armies A to F (EAW-1.4 a: A, B, C of the {NORTH},
# D, E, F of the south) hold empire cards, each group at least one. A card labelled N belongs to a northern
# group, one labelled S to a southern group. Effect codes (EAW-11.6), as inline tables:
#   {{ code = "stack_order_free" }}, {{ code = "ambush" }}, {{ code = "card_value", n = 1, if = "melee" }} (if optional:
#   melee | ambush), {{ code = "fort_cost", n = 2 }}, {{ code = "capture_fort" }}, {{ code = "trade_income", n = 1 }},
#   {{ code = "trade_place", n = 1 }}, {{ code = "roll_mod", roll = "displace", n = 1 }} (roll: sea_move | neutral |
#   mountain | diplomacy | displace), {{ code = "diplomacy_takeover", cost = 1, roll = 0 }} (roll 0: none, else the
#   k+ needed), {{ code = "diplomacy_remove", target = 6, per_marker = 1, max_markers = 3 }},
#   {{ code = "manual", text = "..." }} (the moderator decides).

# -- the general deck: army cards (copy for each) --
{_army_card("army")}# -- the general deck: personalities (EAW-9.1) --
{"".join(_personality(kind) for kind in PERSONALITY_TYPES)}# -- the home armies A to F (EAW-1.4 a): empire cards --
{groups}"""
    ).rstrip() + "\n"
