"""Many seeded random battles of Empires of the Ancient World (open, siege, naval; every option of EAW-8): whatever
the hands, stacks and dice, the battle keeps its promises: cards are neither made nor lost but by EAW-8.8 (only
revealed army cards, at most one per marker on the opponent's side), the winner is the one EAW-8.7 names, a rout
has all three markers on one side (EAW-8.10), the map changes only when the attacker wins (EAW-8.9, EAW-8.12) and
no public event names a card before it is revealed (EAW-8.4)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from adjudicator.engine.chance import Dice
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.battle import ATTACKER_SIDE, DEFENDER_SIDE, fight
from adjudicator.rulesets.empires.data import EMPIRE, OPTION_CHOICES, base_id, instances_of
from adjudicator.rulesets.empires.orders import AmbushOrder, Attack, DefendOrder, MarkersOrder, StackOrder
from adjudicator.rulesets.empires.play import Play
from tests.eaw_helpers import position, small_data


@dataclass
class SeededDice(Dice):
    rng: random.Random = field(default_factory=lambda: random.Random(0))

    def _next(self, purpose: str, faces: int, hidden: bool) -> int:
        return self.rng.randint(1, faces)


BATTLE_OPTIONS = ("leader_melee_bonus", "ambush_scope", "marker_choice", "loss_selection")


@pytest.mark.parametrize("seed", range(6))
def test_EAW_8_random_battles_keep_the_rules_promises(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        options = {name: rng.choice(OPTION_CHOICES[name]) for name in BATTLE_OPTIONS}
        data = small_data(**options)
        cards = [i for c in data.cards.values() if c.kind != "personality" for i in instances_of(c)]
        rng.shuffle(cards)
        hands = {"red": cards[: rng.randint(0, 7)], "blue": cards[7 : 7 + rng.randint(0, 7)]}
        naval = rng.random() < 0.3
        target, origin = ("MCE", "ITA") if naval else ("RAE", "GAL")
        state = position(
            data,
            control={origin: "red", target: ("blue", rng.randint(1, 2))},
            hands=hands,
            forts={} if naval or rng.random() < 0.5 else {target: "blue"},
            personalities={s: rng.sample(["general", "builder"], rng.randint(0, 2)) for s in ("red", "blue")},
            trade={target: {"blue": rng.randint(0, 2), "green": rng.randint(0, 2)}},
            warehouse={"red": rng.randint(0, 3)},
        )
        blue = state.players["blue"]
        for order in (
            DefendOrder(rng.random() < 0.5),
            AmbushOrder(rng.random() < 0.5),
            MarkersOrder(rng.random() < 0.5),
        ):
            standing.store(blue, order)
        if rng.random() < 0.5:
            standing.store(blue, StackOrder(tuple(base_id(c) for c in rng.sample(hands["blue"], len(hands["blue"])))))
        attack = tuple(base_id(c) for c in rng.sample(hands["red"], min(len(hands["red"]), rng.randint(0, 6))))
        before = {s: list(state.players[s].hand) for s in ("red", "blue")}
        game = Play(state, data, data.options, SeededDice(rng=random.Random(rng.random())))
        outcome = fight(game, "red", target, Attack(target, origin, attack), frozenset({"mountain"}))

        shown = {s: [e.data["card"] for e in game.events if e.kind == "card_revealed" and e.seat == s] for s in before}
        owed = {"red": outcome.markers.count(DEFENDER_SIDE), "blue": outcome.markers.count(ATTACKER_SIDE)}
        for seat in before:
            lost = [base_id(i) for i in outcome.lost[seat]]
            assert sorted(state.players[seat].hand + list(outcome.lost[seat])) == sorted(before[seat])
            assert len(lost) + len(outcome.absorbed[seat]) == min(owed[seat], len(shown[seat]))
            assert all(data.card(i).kind == EMPIRE for i in outcome.absorbed[seat])
            assert not set(lost) - set(shown[seat])
        assert sorted(state.discards) == sorted(outcome.lost["red"] + outcome.lost["blue"])
        red_side, blue_side = outcome.markers.count(ATTACKER_SIDE), outcome.markers.count(DEFENDER_SIDE)
        assert outcome.winner == ("red" if red_side > blue_side else "blue")
        if outcome.routed is not None:
            assert outcome.markers in ((ATTACKER_SIDE,) * 3, (DEFENDER_SIDE,) * 3)
        assert state.controller(target) == outcome.winner
        assert (state.trade.get(target, {}).get("blue", 0) == 0) or outcome.winner == "blue"
        for event in game.events:
            if event.kind == "stack_formed":
                hidden = set(event.data["cards"]) - set(shown[event.seat])
                public = " ".join(str(e.data) for e in game.events if e.public and e.seat == event.seat)
                assert not any(f"'{card}'" in public for card in hidden)
