"""What a card or ability does, in the reader's language, made from its effect codes (ER-13.6): the op and its
numbers, the trigger, the conditions, who it concerns and how long it lasts. The sentences are ours; the data holds
numbers and codes only (ER-13.7), so no printed wording is ever shown. A `manual` effect shows the moderator's own
short text (ER-13.6: what the codes cannot express)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Final

from adjudicator.engine.vocabulary import Event
from adjudicator.render.i18n import N_, gettext, plural_gettext
from adjudicator.rulesets.conqueror.data import Effect, GameData
from adjudicator.rulesets.conqueror.vocabulary import Condition, Counter, FortLimit, Place, UnitCount, UnitSelector

# ER-0.3: the units, as a reader names them
UNIT_WORDS: Final = {
    "cavalry": N_("cavalry"),
    "infantry": N_("infantry"),
    "archer": N_("archers"),
    "elite": N_("elite"),
    "ship": N_("ships"),
    "siege": N_("siege engines"),
    "any": N_("units"),
}
SELECTOR_WORDS: Final = {
    "own": N_("own %(units)s"),
    "enemy": N_("enemy %(units)s"),
    "side": N_("%(units)s of its side"),
}
COUNTER_WORDS: Final = {
    "income": N_("income"),
    "coins": N_("coins held"),
    "casualties_inflicted": N_("casualty inflicted"),
    "land_areas": N_("land area controlled"),
    "districts": N_("district"),
    "upgrades": N_("upgrade"),
    "megaprojects": N_("megaproject"),
    "wonders": N_("wonder"),
    "temples": N_("temple"),
    "ports": N_("port"),
    "forts": N_("fort"),
    "large_forts": N_("large fort"),
    "small_forts": N_("small fort"),
    "capitals": N_("capital held"),
}
PLACE_WORDS: Final = {
    "capital": N_("its capital"),
    "any_controlled": N_("any area it controls"),
    "large_fort": N_("a large fort it controls"),
    "fort": N_("a fort it controls"),
}
TARGET_WORDS: Final = {  # discount, look_hand, forbid_attack, rerecruit
    "district": N_("district"),
    "megaproject": N_("megaproject"),
    "hero": N_("hero"),
    "elite": N_("elite"),
    "upgrade": N_("upgrade"),
    "partner": N_("a trade partner"),
    "opponent": N_("an opponent"),
    "faction": N_("another player"),
    "independents": N_("the independents"),
    "heroes": N_("heroes"),
}
TRIGGER_WORDS: Final = {
    "immediate": N_("at once"),
    "taxation": N_("at each Taxation"),
    "new_year": N_("at each New Year"),
    "preparation": N_("at each Preparation"),
    "campaign_turn": N_("at the start of each of its campaign turns"),
    "battle.reinforce": N_("in battle, when reinforcements join"),
    "battle.volley": N_("in battle, at the archer volley"),
    "battle.melee": N_("in battle, at the melee"),
    "battle.casualties": N_("in battle, when casualties are dealt"),
    "battle.after_win": N_("after a battle won"),
    "end_of_round": N_("at the end of each round"),
    "game_end": N_("at the end of the game"),
    "on_gain_coins": N_("whenever it gains coins"),
    "on_trade": N_("whenever it trades"),
    "next_round": N_("next round"),
    "on_build": N_("whenever it builds"),
}
CONDITION_WORDS: Final = {
    "attacking": N_("when attacking"),
    "defending": N_("when defending"),
    "at_sea": N_("at sea"),
    "on_land": N_("on land"),
    "from_sea": N_("when attacking from the sea"),
    "own_capital": N_("in its own capital"),
    "won": N_("if the battle is won"),
    "holds_stored_food": N_("while it holds stored food"),
}
FORT_WORDS: Final = {
    "none": N_("in an area without a fort"),
    "small": N_("in an area with a small fort"),
    "large": N_("in an area with a large fort"),
    "any": N_("in an area with a fort"),
}
WHO_WORDS: Final = {
    "opponent": N_("for the opposing player"),
    "side": N_("for its whole side"),
    "partner": N_("for the trade partner"),
    "all": N_("for every player"),
}
DURATION_WORDS: Final = {
    "battle": N_("for the battle"),
    "turn": N_("until the end of the campaign turn"),
    "round": N_("until the end of the round"),
    "game": N_("for the rest of the game"),
}
KIND_WORDS: Final = {
    "hero": N_("hero, strength %(strength)s, cost %(cost)s"),
    "tactic": N_("tactic card, strength %(strength)s"),
    "chronicle": N_("chronicle, level %(level)s"),
    "automa": N_("automa card, strength %(strength)s, casualties %(casualties)s"),
    "unblockable": N_("automa card, strength %(strength)s, unblockable casualties %(casualties)s"),
    "wonder": N_("wonder, %(vp)s VP"),
    "temple": N_("temple, %(vp)s VP"),
    "port": N_("port, %(vp)s VP"),
}


def signed(n: object) -> str:
    """A change with its sign: +1, -2."""
    return f"{n:+d}" if isinstance(n, int) else str(n)


@dataclass(frozen=True)
class CardWords:
    """A game's cards in words: `words(card, language)` for templates (report_context, report_events)."""

    data: GameData

    def __call__(self, card: str, language: str = "en") -> str:
        return card_words(language, self.data, card)

    def effects(self, card: str, language: str = "en") -> str:
        """Only what the card does (no name, no kind)."""
        found = card_of(self.data, card)
        return effects_words(language, found.effects) if found is not None and hasattr(found, "effects") else ""


def card_of(data: GameData, card: str) -> object | None:
    """The hero, tactic, chronicle, megaproject or automa card with id `card`."""
    cards = data.cards
    for found in (*cards.heroes, *cards.tactics, *cards.chronicles, *cards.megaprojects, *cards.automa):
        if found.id == card:
            return found
    return None


# Cards in words: (language, the data's id, card) -> (the data, the words). Every seat's report lists its hand
# and heroes after every step. Oldest first, bounded.
_WORDS: dict[tuple[str, int, str], tuple[GameData, str]] = {}
WORDS_KEPT = 512


def card_words(language: str, data: GameData, card: str) -> str:
    """`id` Name (kind, numbers): what it does; an id that names no card stays as it is."""
    key = (language, id(data), card)
    kept = _WORDS.get(key)
    if kept is not None and kept[0] is data:
        return kept[1]
    words = _card_words(language, data, card)
    _WORDS[key] = (data, words)
    if len(_WORDS) > WORDS_KEPT:
        del _WORDS[next(iter(_WORDS))]
    return words


def _card_words(language: str, data: GameData, card: str) -> str:
    found = card_of(data, card)
    if found is None:
        return card
    name = getattr(found, "name", "")
    kind = type(found).__name__.lower()
    kind = "unblockable" if getattr(found, "unblockable", False) else getattr(found, "type", kind)
    values = {k: getattr(found, k, "") for k in ("strength", "cost", "level", "vp", "casualties")}
    head = f"{card} {name}" if name and name != card else card
    head += f" ({gettext(language, KIND_WORDS[kind], **values)})"
    effects = getattr(found, "effects", ())
    return f"{head}: {effects_words(language, effects)}" if effects else head


def effects_words(language: str, effects: Iterable[Effect]) -> str:
    """Each effect in words, joined by '; '."""
    return "; ".join(effect_words(language, effect) for effect in effects) or gettext(language, "no effect")


def effect_words(language: str, effect: Effect) -> str:
    """One effect: what it does, then (when; if; for whom; how long)."""
    what = _op(language, effect)
    when = [_trigger(language, effect)] if effect.when.name else []
    conditions = [_condition(language, c) for c in effect.conditions]
    who = [gettext(language, WHO_WORDS[effect.who])] if effect.who in WHO_WORDS else []
    lasting = [gettext(language, DURATION_WORDS[effect.duration])] if _says_duration(effect) else []
    details = [*when, *conditions, *who, *lasting]
    return f"{what} ({'; '.join(details)})" if details else what


def _says_duration(effect: Effect) -> bool:
    """A battle effect lasts the battle and an instant one is done at once: said only when it lasts otherwise."""
    battle = effect.when.name.startswith("battle.")
    return effect.duration in DURATION_WORDS and not (battle and effect.duration == "battle")


def _trigger(language: str, effect: Effect) -> str:
    if effect.when.name == "on_food_le":
        return gettext(language, "when its food supply drops to %(n)s or less", n=effect.when.n)
    return gettext(language, TRIGGER_WORDS[effect.when.name])


def _units(language: str, kind: str) -> str:
    return gettext(language, UNIT_WORDS.get(kind, kind))


def _selector(language: str, selector: UnitSelector) -> str:
    return gettext(language, SELECTOR_WORDS[selector.side], units=_units(language, selector.type))


def _counter(language: str, counter: Counter) -> str:
    what = gettext(language, COUNTER_WORDS.get(counter.name, counter.name))
    return gettext(language, "%(n)s %(what)s", n=counter.per, what=what) if counter.per > 1 else what


def _place(language: str, place: Place) -> str:
    if place.kind == "area":
        return str(place.area)
    return gettext(language, PLACE_WORDS[place.kind])


def _target(language: str, effect: Effect) -> str:
    target = str(effect.args.get("target", ""))
    return gettext(language, TARGET_WORDS.get(target, target))


# The sentence of each op of ER-13.6: one msgid with the effect's signed amount n, its count n, or its target; the
# ops whose sentence needs more have a phrase function below.
_SIGNED_OPS: Final = {
    "shields": N_("shields against casualties %(n)s"),
    "archer_dice": N_("volley dice %(n)s"),
    "defence_bonus": N_("defence %(n)s"),
}
_COUNT_OPS: Final = {"draw_tactic": N_("tactic cards drawn: %(n)s")}
_TARGET_OPS: Final = {
    "look_hand": N_("looks at the hand of %(target)s"),
    "forbid_attack": N_("may not attack %(target)s"),
    "rerecruit": N_("%(target)s may be recruited again"),
}


def _op(language: str, effect: Effect) -> str:
    """One effect's sentence in `language`; an op without one (data newer than this code) is shown as its code."""
    op, n = effect.op, effect.args.get("n", 0)
    if op in _SIGNED_OPS:
        return gettext(language, _SIGNED_OPS[op], n=signed(n))
    if op in _COUNT_OPS:
        return gettext(language, _COUNT_OPS[op], n=n)
    if op in _TARGET_OPS:
        return gettext(language, _TARGET_OPS[op], target=_target(language, effect))
    phrase = _OP_PHRASES.get(op)
    return phrase(language, effect) if phrase else op


def _strength(language: str, effect: Effect) -> str:
    args, selector = effect.args, effect.selector("per")
    n = signed(args.get("n", 0))
    text = (
        gettext(language, "strength %(n)s per %(units)s", n=n, units=_selector(language, selector))
        if selector
        else gettext(language, "strength %(n)s", n=n)
    )
    return text + (" " + gettext(language, "(at most %(cap)s)", cap=signed(args["cap"])) if "cap" in args else "")


def _unit_strength(language: str, effect: Effect) -> str:
    units = _units(language, str(effect.args["type"]))
    return gettext(language, "each of its %(units)s: strength %(n)s", units=units, n=signed(effect.args.get("n", 0)))


def _casualties(language: str, effect: Effect) -> str:
    n = signed(effect.args.get("n", 0))
    if effect.args.get("unblockable"):
        return gettext(language, "unblockable casualties on the enemy %(n)s", n=n)
    return gettext(language, "casualties on the enemy %(n)s", n=n)


def _self_removal(language: str, effect: Effect) -> str:
    units = _units(language, str(effect.args["type"]))
    return gettext(language, "its side removes %(n)s %(units)s (no casualty)", n=effect.args.get("n", 0), units=units)


def _archer_hit_on(language: str, effect: Effect) -> str:
    return gettext(language, "the volley hits on %(k)s or more", k=effect.args["k"])


def _reroll(language: str, effect: Effect) -> str:
    n = effect.args.get("n", 0)
    if effect.args.get("what") == "melee_die":
        return gettext(language, "melee die re-rolls: up to %(n)s", n=n)
    return gettext(language, "re-rolls of missed volley dice: up to %(n)s", n=n)


def _coins_or_vp(language: str, effect: Effect) -> str:
    n, counter = signed(effect.args.get("n", 0)), effect.counter("per")
    word = gettext(language, "coins") if effect.op == "coins" else gettext(language, "VP")
    if counter:
        return gettext(language, "%(what)s %(n)s per %(counter)s", n=n, what=word, counter=_counter(language, counter))
    return gettext(language, "%(what)s %(n)s", n=n, what=word)


def _food(language: str, effect: Effect) -> str:
    n = signed(effect.args.get("n", 0))
    if effect.args.get("respect_limit", True):
        return gettext(language, "food supply %(n)s", n=n)
    return gettext(language, "food %(n)s beyond the track", n=n)


def _recruit(language: str, effect: Effect) -> str:
    args, place = effect.args, effect.place("where")
    units, where = _units(language, str(args["type"])), _place(language, place) if place else "-"
    text = gettext(language, "places %(n)s %(units)s in %(where)s", n=args.get("n", 0), units=units, where=where)
    if not args.get("cost"):
        return text
    cost = args["cost"]  # the price agrees with its number ("für 1 Münze")
    return text + " " + plural_gettext(language, "for %(cost)s coin", "for %(cost)s coins", cost, cost=cost)


def _discount(language: str, effect: Effect) -> str:
    n = effect.args.get("n", 0)
    amount = signed(-n if isinstance(n, int) else 0)
    return gettext(language, "price of a %(target)s %(n)s", n=amount, target=_target(language, effect))


def _extra_agent_action(language: str, effect: Effect) -> str:
    return gettext(language, "one extra agent action")


def _move_twice(language: str, effect: Effect) -> str:
    selector = effect.selector("units")
    return gettext(language, "%(units)s may move twice", units=_selector(language, selector) if selector else "-")


def _block_move(language: str, effect: Effect) -> str:
    return gettext(
        language,
        "may block an army of strength %(max)s or less from moving, for %(cost)s coins",
        max=effect.args["max_strength"],
        cost=effect.args["cost"],
    )


def _unit_flag(language: str, effect: Effect) -> str:
    return gettext(language, "also counts as %(units)s", units=_units(language, str(effect.args["flag"])))


def _manual(language: str, effect: Effect) -> str:
    return gettext(language, 'the moderator rules: "%(text)s"', text=effect.args.get("text", ""))


_OP_PHRASES: Final[dict[str, Callable[[str, Effect], str]]] = {
    "strength": _strength,
    "unit_strength": _unit_strength,
    "casualties": _casualties,
    "self_removal": _self_removal,
    "archer_hit_on": _archer_hit_on,
    "reroll": _reroll,
    "coins": _coins_or_vp,
    "vp": _coins_or_vp,
    "food": _food,
    "recruit": _recruit,
    "discount": _discount,
    "extra_agent_action": _extra_agent_action,
    "move_twice": _move_twice,
    "block_move": _block_move,
    "unit_flag": _unit_flag,
    "manual": _manual,
}


def _condition(language: str, condition: Condition) -> str:  # noqa: PLR0911 (one phrase per condition)
    name, value = condition.name, condition.value
    if name in CONDITION_WORDS:
        return gettext(language, CONDITION_WORDS[name])
    if name == "area_fort":
        return gettext(language, FORT_WORDS[str(value)])
    if name == "region":
        return gettext(language, "in Europe")
    if name in ("own_units", "enemy_units") and isinstance(value, UnitCount):
        units = _units(language, value.type)
        msgid = (
            N_("with at least %(n)s own %(units)s")
            if name == "own_units"
            else N_("against at least %(n)s enemy %(units)s")
        )
        return gettext(language, msgid, n=value.n, units=units)
    if name == "accompanied_by":
        return gettext(language, "accompanied by %(units)s", units=_units(language, str(value)))
    if name == "margin_ge":
        return gettext(language, "if won by %(n)s or more", n=value)
    if name == "margin_gt":
        return gettext(language, "if won by more than %(n)s", n=value)
    if name == "enemy_strength_ge":
        return gettext(language, "against an enemy strength of %(n)s or more", n=value)
    if name == "food_le":
        return gettext(language, "with a food supply of %(n)s or less", n=value)
    if name == "round_ge":
        return gettext(language, "from round %(n)s on", n=value)
    if name == "forts_le" and isinstance(value, FortLimit):
        return gettext(
            language, "with at most %(large)s large and %(small)s small forts", large=value.large, small=value.small
        )
    return name


WORDED_EVENTS: Final = ("battle_council", "chronicle_drawn")  # a card revealed to all: said what it does (ER-8.14)


def with_card_words(events: list[Event], data: GameData) -> list[Event]:
    """The events of a report, those that reveal a card carrying `words` (CardWords) for its sentence."""
    words = CardWords(data)
    return [replace(e, data={**e.data, "words": words}) if e.kind in WORDED_EVENTS else e for e in events]
