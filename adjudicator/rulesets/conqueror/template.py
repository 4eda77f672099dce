"""`pbem data template conqueror-er DIR`: a skeleton data folder with every field the rules read, each commented
with the rule IDs that use it. Values the rulebook or the public sources give are filled in (ER-6.13's elite
costs as pre-release defaults to confirm); every other value is "" (empty), so that the check of a fresh template
names each value still to fill in."""

from __future__ import annotations

from pathlib import Path

from adjudicator.errors import PbemError
from adjudicator.rulesets.conqueror.data import RULESET, SIDE_OF
from adjudicator.rulesets.conqueror.loader import CARDS, FACTIONS, GAME_DATA, TRACKS
from adjudicator.rulesets.conqueror.maps import board_file

# ER-3.3 and ER-3.9: the factions of the rulebook, their player counts, the initial turn order.
FACTION_NAMES = {
    "rome": "Rome",
    "carthage": "Carthage",
    "greece": "Greece",
    "egypt": "Egypt",
    "persia": "Persia",
    "gaul": "Gaul",
}
PLAYERS = {
    3: ("rome", "carthage", "greece"),
    4: ("rome", "carthage", "greece", "egypt"),
    5: ("rome", "carthage", "greece", "egypt", "persia"),
    6: ("rome", "carthage", "greece", "egypt", "persia", "gaul"),
}
TURN_ORDER = ("carthage", "gaul", "rome", "greece", "persia", "egypt")
# ER-6.13 (pre-release, publisher's previews) and ER-9.2: elite names and default costs; Rome's is a gap.
ELITES = {
    "gaul": ("Free Men", 2),
    "egypt": ("Pharaoh's Chariot", 3),
    "greece": ("Companion Cavalry", 3),
    "carthage": ("War Elephant", 4),
    "persia": ("Immortals", 4),
    "rome": ("Praetorian Guard", None),
}
# ER-3.8 as printed, with its Resolution ("a +b" = a cavalry + b infantry; a single number = infantry)
INDEPENDENTS = {
    3: (("Alpes", 2, 1), ("Gaul", 1, 1), ("Alexandria", 1, 1), ("Asia Minor", 1, 1), ("Syria", 1, 1)),
    4: (("Alpes", 2, 1), ("Gaul", 1, 1), ("Asia Minor", 0, 2)),
    5: (("Alpes", 2, 1), ("Gaul", 1, 1), ("Asia Minor", 0, 2), ("Iberia", 1, 1), ("Palestina", 1, 1)),
    6: (("Alpes", 2, 1), ("Asia Minor", 0, 2), ("Iberia", 1, 1), ("Palestina", 1, 1)),
}
BLANKED = {"3-4": ("3", "the forts of Alexandria and Thebes"), "5-6": ("5", 'the forts of Gaul and "Palma" (Palmyra?)')}
CHRONICLE_LEVELS = (1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3)  # ER-1.2: 4, 3, 4
EFFECTS_HELP = 'a list of effects (ER-13.6), e.g. [{ op = "strength", n = 1, when = "battle.melee" }]; [] for none'

HEADER = """# Conqueror: Empire Rises: game data for pbem (ruleset conqueror-er). Rule IDs ER-n.m: the rules spec.
# Fill in every value written "" (empty); `pbem data check DIR` names each one still missing or inconsistent.
# ER-13.7: these files hold numbers, identifiers and effect codes only, with any `text` in your own words;
# the printed wording goes into the private/ subfolder (never shared, never committed).
"""


def write_template(folder: Path) -> list[Path]:
    """Write the skeleton files into `folder` (created if needed); refuse to overwrite any file."""
    files = {
        GAME_DATA: game_data_text(),
        **{board_file(side): board_text(side) for side in ("3-4", "5-6")},
        FACTIONS: factions_text(),
        TRACKS: tracks_text(),
        CARDS: cards_text(),
    }
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
    return (
        HEADER
        + f"""ruleset = "{RULESET}"
edition = ""                    # the edition's name, e.g. "Empire Rises, first printing"
example = false                 # true only for data invented for tests (not the printed game)

# ER-13.5: options for the spec's gaps. Each value written here is the spec's Resolution; change it to play
# otherwise.
[options]
mode = "imperator"              # ER-3.1, ER-3.13: imperator (Emperor mode, 10 rounds) | conquest (5 rounds)
chronicle_round1 = "by_mode"    # ER-4.5: by_mode (off in imperator, on in conquest) | on | off
long_spears_cap = "per_unit"    # ER-9.4: per_unit | per_side
hand_limit = 0                  # ER-1.2: tactic cards in hand, 0 = no limit
amphibious_assault = 3          # ER-9.4: Amphibious Assault's bonus
temple_coins = 3                # ER-12.8: coins per Taxation per temple
temple_vp = 3                   # ER-12.8: VP at game end per temple
port_coins = 1                  # ER-12.10: coins per port when the agent goes to the trade board

[options.dynasty_first_round]   # ER-11.5: the first round the dynasty card may be used, per mode
imperator = 2
conquest = 2
"""
    )


def board_text(side: str) -> str:
    counts = [n for n, s in SIDE_OF.items() if s == side]
    blank_count, blank_where = BLANKED[side]
    lines = [
        HEADER,
        f"# The {side} side of the board (ER-3.2: games of {counts[0]} and {counts[1]} players). ER-13.1.",
        "# One [[area]] table per area of this side: copy the one below. Codes are letters and digits.",
        f'side = "{side}"',
        "",
        "[[area]]",
        'code = ""                       # ER-2.1: the area\'s code, e.g. "ALP"',
        'name = ""                       # ER-2.1: its name as printed',
        'kind = ""                       # ER-2.1: land | sea',
        'adjacent = ""                   # ER-2.1: codes of the areas sharing a border (symmetric), e.g. ["ITA"]',
        'fort = ""                       # ER-2.6: none | small | large (a capital is a large fort)',
        'capital = ""                    # ER-2.6: the id of the faction whose capital this is; "" for none',
        'food = ""                       # ER-2.5, ER-5.30: food symbols (0 for none)',
        'coins = ""                      # ER-2.5, ER-5.2: coin value (0 for none)',
        'europe = ""                     # ER-2.10: true if coloured green (Europe), else false',
        "wharf = false                   # ER-12.9: true if coastal for wharves (a river does not count)",
        "x = 0                           # ER-13.1: the area's centre on the map's picture (0-3800, maps)",
        "y = 0                           # ER-13.1: 0-2000, from the top",
        "",
        "# ER-2.2: the Danube makes its three areas mutually adjacent: one link of kind river per pair.",
        "# Each bridge joins two land areas separated by sea: one link of kind bridge each.",
    ]
    for kind in ("river", "river", "river", "bridge"):
        lines += [
            "[[link]]",
            'between = ""                    # two area codes, e.g. ["KEL", "THR"]',
            f'kind = "{kind}"',
            "",
        ]
    lines += [
        f"[blanked]                       # ER-3.4, ER-2.7: the 2 forts blanked at {blank_count} players",
        f'"{blank_count}" = ""                        # {blank_where}: two area codes',
        "",
        "# ER-3.8: independent armies at setup, per player count, as printed (icons lost) with the spec's",
        '# Resolution ("a +b" = a cavalry + b infantry; a single number = infantry). Confirm the units; fill in',
        "# the area.",
    ]
    for count in counts:
        for where, cavalry, infantry in INDEPENDENTS[count]:
            lines += [
                "[[independent]]",
                f"players = {count}",
                f'area = ""                       # {where}',
                f"cavalry = {cavalry}",
                f"infantry = {infantry}",
                "archer = 0",
                "",
            ]
    return "\n".join(lines)


def factions_text() -> str:
    lines = [
        HEADER,
        "# ER-13.2. The faction ids below are the rulebook's factions; the setup tables are the rulebook's (ER-3.3,",
        "# ER-3.9). Capitals are marked on the boards' areas (capital = <faction id>).",
        "[setup]",
        "turn_order = [" + ", ".join(f'"{f}"' for f in TURN_ORDER) + "]   # ER-3.9: the initial turn order",
        'start_player = "carthage"                                                   # ER-3.9: the hourglass',
        "",
        "[setup.players]                 # ER-3.3: the factions in play by player count",
    ]
    lines += [f'"{n}" = [' + ", ".join(f'"{f}"' for f in factions) + "]" for n, factions in PLAYERS.items()]
    for faction, name in FACTION_NAMES.items():
        lines += _faction_lines(faction, name)
    return "\n".join(lines) + "\n"


def _faction_lines(faction: str, name: str) -> list[str]:
    counts = [n for n, factions in PLAYERS.items() if faction in factions]
    elite, cost = ELITES[faction]
    lines = [
        "",
        "[[faction]]",
        f'id = "{faction}"',
        f'name = "{name}"',
        f'dynasty = ""                    # ER-11.5: the dynasty card\'s bonuses: {EFFECTS_HELP}',
        'dynasty_back = ""               # ER-11.6: its loss at the end of that round and its passive back (effects)',
        "",
        "[[faction.board]]               # ER-1.4: the standard player board",
        'id = "standard"',
        'kind = "standard"',
        "base_income = 3                 # ER-5.2: base income printed on the board",
        "district_slots = 4              # ER-1.4: civil district slots (Gap; Resolution 4): confirm",
        "upgrade_slots = 4               # ER-1.4, ER-5.20: unit-upgrade slots",
        'ability = ""                    # ER-9.1: the faction ability (effects)',
        "[faction.board.barracks]        # ER-1.1: standard units in the barracks",
        'cavalry = ""',
        'infantry = ""',
        'archer = ""',
    ]
    lines += _elite_lines(elite, cost, "ER-9.2")
    for mode in ("imperator", "conquest"):
        lines += [
            "[[faction.board.start]]         # ER-3.7: starting units (printed on the board's back)",
            f'mode = "{mode}"',
            f"players = {counts}",
            'units = ""                      # e.g. [{ area = "ROM", cavalry = 1, infantry = 2, archer = 0 }]',
        ]
    for number in (1, 2):
        lines += [
            "",
            f"[[faction.board]]               # ER-12.3, ER-12.4: alternative board {number} (Seas of Destiny);",
            "                                # barracks, slots, income and starting units as on the standard board",
            "                                # unless given",
            f'id = "alternative-{number}"',
            'kind = "alternative"',
            'ability = ""                    # ER-12.4: its faction ability (effects)',
        ]
        lines += _elite_lines("", None, "ER-12.4")
    return lines


def _elite_lines(name: str, cost: int | None, rule: str) -> list[str]:
    lines = [
        f"[faction.board.elite]           # {rule}, ER-6.7, ER-6.13: the elite unit",
        f'name = "{name}"',
        'types = ""                      # ER-6.8, ER-9.2: e.g. ["cavalry"] or ["infantry", "archer"]',
        'strength = ""                   # ER-8.16a, ER-9.2: its printed strength',
        'effects = ""                    # ER-9.2: its ability (effects); [] for none',
    ]
    if cost is None:
        lines.append('cost = ""                       # ER-6.7, ER-6.13: recruit cost in coins (no public value)')
    else:
        lines += [
            f"cost = {cost}                        # ER-6.13: pre-release default from the publisher's preview",
            "cost_confirmed = false          # confirm: set true once checked against the printed board",
        ]
    return lines


def tracks_text() -> str:
    lines = [
        HEADER,
        "# ER-13.3: tracks and price boards.",
        "[rounds]                        # ER-3.1: rounds per mode (the rulebook's)",
        "imperator = 10",
        "conquest = 5",
        "",
        "[food]                          # ER-5.31: the food track; item i = the most standard units at food i",
        'max_units = ""                  # e.g. [0, 3, 5, ...]; the source reads "1 food allows up to 6" (damaged?)',
        "",
        "# ER-5.16: district board prices by build count (1st, 2nd, 3rd and later), before the +2 second-space",
        "# surcharge. The source implies: Bazaar 1st 3, Academy 1st 4, Granary 1st above 4, Fort 1st at most 4.",
        "[districts]",
        'granary = ""',
        'bazaar = ""',
        'fort = ""',
        'academy = ""',
        "",
        "[upgrades]                      # ER-5.22: upgrade board prices by upgrades owned of the type (implied:",
        'cavalry = ""                    # the 2nd cavalry upgrade costs 12)',
        'infantry = ""',
        'archer = ""',
        'marine = ""',
        "",
        "[megaprojects]                  # ER-12.6: megaproject board prices by build count (Seas of Destiny)",
        'wonder = ""',
        'temple = ""',
        'port = ""',
        'wharf = ""',
        "",
        "[scoring]                       # ER-10.3: the values the source lost",
        'vp_per_district = ""',
        'vp_per_upgrade = ""',
        'upgrade_bonus_count = ""        # upgrades needed for the bonus (probably 4)',
        'upgrade_bonus_vp = ""',
        'temporary_capital_vp = ""',
    ]
    for mode in ("imperator", "conquest"):
        lines += [
            "",
            f"# ER-5.8, ER-5.9: the trade track, {mode} side: one [[trade.{mode}]] table per space, space 1 first",
            "# (copy as needed). coins and vp are gained on reaching the space; discount (ER-5.9a), look (ER-5.9b),",
            "# redeploy (ER-5.6: the last space) are true or false; effects (optional) for anything else.",
            f"[[trade.{mode}]]",
            'coins = ""',
            'vp = ""',
            'discount = ""',
            'look = ""',
            "redeploy = false",
            f"[[trade.{mode}]]                # the last space",
            'coins = ""',
            "vp = 5                          # ER-10.3: 5 VP, legible once in the source: confirm",
            'discount = ""',
            'look = ""',
            "redeploy = true                 # ER-5.6",
        ]
    return "\n".join(lines) + "\n"


def cards_text() -> str:
    lines = [HEADER, "# ER-13.4: the cards. Ids are yours (letters, digits, '-', '_'); names as printed."]
    lines.append("\n# ER-6.10, ER-6.11: 5 heroes per faction (30).")
    for faction in FACTION_NAMES:
        for number in range(1, 6):
            lines += [
                "[[hero]]",
                f'id = "{faction}-hero-{number}"',
                f'faction = "{faction}"',
                'name = ""',
                'cost = ""                       # ER-6.10: recruit cost',
                'strength = ""                   # ER-8.16b: the top right value',
                f'effects = ""                    # {EFFECTS_HELP}',
            ]
    lines += [
        "\n# ER-8.13, ER-8.16c: the tactic cards, one table per kind of card with its count (38 cards in all).",
        '# Known names: "Reserves", "Flank".',
        "[[tactic]]",
        'id = ""',
        'name = ""',
        'count = ""',
        'strength = ""',
        'effects = ""',
        "\n# ER-8.31, ER-8.32: the 5 automa cards.",
    ]
    for number in range(1, 6):
        lines += [
            "[[automa]]",
            f'id = "automa-{number}"',
            'strength = ""                   # +1 to +3',
            'casualties = ""                 # casualties for the player\'s side',
            "unblockable = false             # true if shields cannot cancel them",
        ]
    lines.append("\n# ER-3.6, ER-4.4: the 11 chronicle cards (levels I, II, III: 4, 3, 4); effects for one round.")
    for number, level in enumerate(CHRONICLE_LEVELS, 1):
        lines += ["[[chronicle]]", f'id = "chronicle-{number}"', 'name = ""', f"level = {level}", 'effects = ""']
    lines.append(
        "\n# ER-12.1, ER-12.6 to ER-12.10: 18 megaproject cards, 6 each of wonder, temple, port (Seas of Destiny)."
    )
    for kind in ("wonder", "temple", "port"):
        for number in range(1, 7):
            lines += [
                "[[megaproject]]",
                f'id = "{kind}-{number}"',
                f'type = "{kind}"',
                'vp = ""                         # the VP printed on the card (0 for none)',
                'effects = ""',
            ]
    return "\n".join(lines) + "\n"
