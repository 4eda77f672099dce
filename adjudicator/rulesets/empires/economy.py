"""Phase 2 of a game round: trade markers and the start player (EAW-6), and the payments every action makes.

Helpers for the other rule modules (actions, battles):
- `pay(play, seat, n, rule)`: `seat` pays n trade markers from its warehouse; they return to its stock (EAW-6.3);
  with plunder_spendable = true its plunder pays what its own markers do not, each returning to its owner's stock
  (EAW-8.13). Refused (engine.vocabulary.Rejected) when it cannot pay: nothing is paid then.
- `can_pay(play, seat, n)`: whether it could.
- `take_to_warehouse(play, seat, n, rule)`: up to n trade markers from `seat`'s stock into its warehouse (limited by
  its stock, EAW-1.2, EAW-6.1); the number moved.
- `return_trade(state, owner, n)`: n trade markers of `owner` back to its stock (a marker displaced, EAW-7.31).

Events (data keys; `rule` in each):
- `income` seat: markers (moved), due (the income), warehouse (after) (EAW-6.1; markers < due: its stock ran short)
- `start_player_passes` seat: previous (EAW-6.2)
- `paid` seat: markers, plunder (of those, plunder spent), warehouse (after), purpose (EAW-6.3)
"""

from __future__ import annotations

from adjudicator.engine.vocabulary import N_, Rejected
from adjudicator.rulesets.empires.data import INCOME_BASE
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import GameState


def income(play: Play, seat: str) -> int:
    """EAW-6.1: 5, +1 per controlled province with an amphora, +n per trade_income effect (a merchant's +1)."""
    areas = play.data.map.areas
    amphorae = sum(1 for a in play.state.controlled(seat) if areas[a].is_province and areas[a].amphora)
    merchants = sum(e.number() for e in play.effects_of(seat, "trade_income"))
    return INCOME_BASE + amphorae + merchants


def take_to_warehouse(play: Play, seat: str, n: int, rule: str = "EAW-6.1") -> int:
    """Up to `n` trade markers from the seat's stock into its warehouse (EAW-1.2: its stock limits it)."""
    player = play.state.players[seat]
    moved = n if player.stock_trade is None else max(0, min(n, player.stock_trade))
    if player.stock_trade is not None:
        player.stock_trade -= moved
    player.warehouse += moved
    return moved


def return_trade(state: GameState, owner: str, n: int) -> None:
    """`n` trade markers of `owner` go back to its stock (EAW-6.3, EAW-7.31)."""
    player = state.players[owner]
    if player.stock_trade is not None:
        player.stock_trade += n


def spendable(play: Play, seat: str) -> int:
    """What the seat can pay: its own markers in the warehouse, and its plunder with plunder_spendable (EAW-8.13)."""
    player = play.state.players[seat]
    plunder = sum(player.plunder.values()) if play.options.plunder_spendable == "true" else 0
    return player.warehouse + plunder


def can_pay(play: Play, seat: str, n: int) -> bool:
    return spendable(play, seat) >= n


def pay(play: Play, seat: str, n: int, rule: str, purpose: str = "") -> None:
    """EAW-6.3: `n` markers from the warehouse back to the payer's stock (plunder, when spendable, to its owner's);
    Rejected when it has too few."""
    if n <= 0:
        return
    if not can_pay(play, seat, n):
        has = spendable(play, seat)  # stored in English: one marker has its own msgid, read singular in every language
        raise Rejected(
            rule,
            N_("one trade marker is needed, the warehouse holds %(has)s", has=has)
            if n == 1
            else N_("%(n)s trade markers are needed, the warehouse holds %(has)s", n=n, has=has),
        )
    player = play.state.players[seat]
    own = min(n, player.warehouse)
    player.warehouse -= own
    return_trade(play.state, seat, own)
    rest = n - own
    for owner in sorted(player.plunder):
        if rest == 0:
            break
        taken = min(rest, player.plunder[owner])
        player.plunder[owner] -= taken
        if player.plunder[owner] == 0:
            del player.plunder[owner]
        return_trade(play.state, owner, taken)
        rest -= taken
    play.say("paid", seat, markers=n, plunder=n - own, warehouse=player.warehouse, purpose=purpose, rule=rule)


def play_income(play: Play) -> None:
    """EAW-6.1 for every seat in seating order (simultaneous; stock limits it), then EAW-6.2: in rounds II to IV the
    start player passes to the next seat in seating order."""
    state = play.state
    for seat in state.seats:
        due = income(play, seat)
        moved = take_to_warehouse(play, seat, due)
        play.say("income", seat, markers=moved, due=due, warehouse=state.players[seat].warehouse, rule="EAW-6.1")
    if state.round > 1 and state.start_player is not None:
        previous = state.start_player
        state.start_player = state.seats[(state.seats.index(previous) + 1) % len(state.seats)]
        play.say("start_player_passes", state.start_player, previous=previous, rule="EAW-6.2")
