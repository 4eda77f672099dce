"""The self-play bot (bot.py): its orders beyond movement and buying: standing orders, retreats, naval
battles, answers, destroyed cities, ransoms, press, concession, and now and then a mistake."""

from __future__ import annotations

from adjudicator.rulesets.coe.bot_view import BotView

PRESS = (
    "Ave!",
    "Our legions march for peace.",
    "Let us share the sea.",
    "Beware the ides.",
    "Rome was not built in a day.",
    "Alea iacta est.",
    "Your provinces look lovely.",
    "Truce?",
)


class OrderingBot(BotView):
    """The orders of combat (C-6, C-7), decisions (C-15), ransoms (C-13) and the rest of a player-turn."""

    def naval_declarations(self) -> None:
        """Classic (C-7.1): declare a naval battle where own galleys meet others' at the end of movement. In the
        1984 edition the battles are compulsory (O-6.2); a declaration there is only now and then."""
        for zone in sorted(c for c, g in self.galleys_at.items() if g and not self.board.is_land(c)):
            others = self.enemy_galleys(zone)
            chance = 0.6 if self.classic else 0.05
            if others and self.rng.random() < chance:
                against = self.rng.choice(others)
                self.lines.append(
                    f"NAVAL {zone} VS {against}" if len(others) > 1 or self.rng.random() < 0.5 else f"NAVAL {zone}"
                )

    def retreat_orders(self) -> None:
        rng = self.rng
        for code in self.battles:
            if rng.random() < 0.25:
                own = sorted(c for c in self.board.land_neighbours(code) if self.owner(c) == self.seat)
                to = f" TO {rng.choice(own)}" if own and rng.random() < 0.7 else ""
                if not self.classic and rng.random() < 0.5:
                    self.lines.append(f"RETREAT FROM {code}{to} WHEN ENEMY ADVANTAGE >= {rng.randint(1, 3)}")
                elif rng.random() < 0.3:
                    self.lines.append(f"RETREAT FROM {code}{to} WHEN UNITS < ENEMY")
                else:
                    self.lines.append(f"RETREAT FROM {code}{to} WHEN UNITS < {rng.randint(1, 4)}")

    def standing_orders(self) -> None:
        rng = self.rng
        kinds = ["INF", "CAV", "CAT"]
        for word in ("LOSSES", "BATTLELEGION", "PURSUIT"):
            if rng.random() < 0.06:
                rng.shuffle(kinds)
                self.lines.append(f"{word} {', '.join(kinds[: rng.randint(1, 3)])}")
        if rng.random() < 0.05:
            choice = rng.choice(["NEVER", "WHEN UNITS < 2", "WHEN CAESAR AND UNITS < 3", "WHEN UNITS < ENEMY"])
            self.lines.append(f"RETREAT {choice}")
        if rng.random() < 0.06:
            others = [s for s in self.state.in_play() if s != self.seat]
            of = f" OF {rng.choice(others)}" if others and rng.random() < 0.4 else ""
            self.lines.append(f"CAPTIVES {rng.choice(['RANSOM', 'RANSOM', 'KILL'])}{of}")
        if rng.random() < 0.03:
            own = sorted(c for c, a in self.state.areas.items() if a.owner == self.seat)
            if own:
                self.lines.append(f"FREED TO {', '.join(rng.sample(own, min(2, len(own))))}")
        if self.classic and rng.random() < 0.04:
            naval = ["EMPTY", "LOADED", "GENERALS", "CAESAR"]
            rng.shuffle(naval)
            self.lines.append(f"NAVAL LOSSES {', '.join(naval)}")
        if not self.classic and rng.random() < 0.08:
            targets = ["CAT", "CAV", "INF", "GALLEY"]
            rng.shuffle(targets)
            self.lines.append(f"TARGETS {', '.join(targets[: rng.randint(1, 4)])}")

    def destroy_city(self) -> None:
        cities = sorted(
            c for c, a in self.state.areas.items() if a.owner == self.seat and a.city and c != self.player.home
        )
        if cities and self.rng.random() < 0.02:
            self.lines.append(f"DESTROY CITY {self.rng.choice(cities)}")

    def ransoms(self) -> int:
        """Ransom offers and acceptances (C-13.1, C-15.17); returns the talents the seat may pay. An offer mostly
        meets the other side's standing acceptance (the self-play bot peeks at it; a seat's bot cannot see another
        seat's standing orders), now and then it is a shot in the dark."""
        rng, state, seat = self.rng, self.state, self.seat
        paying = 0

        def accepted(other: str, owner: str, general: int) -> int | None:
            if self.playing_a_seat:
                return None
            for wish in state.players[other].standing.get("ransom_accept", []):
                if (wish["owner"], wish["general"]) == (owner, general):
                    return int(wish["talents"])
            return None

        for captive in self.player.captives:  # as holder: the owner pays
            owner, general = captive.owner, captive.general
            if state.players[owner].eliminated:
                continue
            if rng.random() < 0.5:
                self.lines.append(f"RANSOM ACCEPT {owner} G{general} MIN {rng.choice([0, 10, 20, 30])}")
            most = accepted(owner, owner, general)
            if most is not None and rng.random() < 0.8:
                price = min(most, state.players[owner].treasury)
                self.lines.append(f"RANSOM OFFER {owner} G{general} FOR {rng.randint(0, max(price, 0))}")
            elif rng.random() < 0.15:
                price = rng.randint(0, max(0, min(40, state.players[owner].treasury)))
                self.lines.append(f"RANSOM OFFER {owner} G{general} FOR {price}")
        for holder, player in state.players.items():  # as owner: the seat pays
            for captive in player.captives:
                if captive.owner != seat or holder == seat:
                    continue
                if rng.random() < 0.5:
                    self.lines.append(
                        f"RANSOM ACCEPT {seat} G{captive.general} MIN {rng.randint(0, max(0, self.player.treasury))}"
                    )
                least = accepted(holder, seat, captive.general)
                if least is not None and least <= self.player.treasury - paying and rng.random() < 0.8:
                    price = least
                elif rng.random() < 0.15 and self.player.treasury > paying:
                    price = rng.randint(0, min(40, self.player.treasury - paying))
                else:
                    continue
                paying += price
                self.lines.append(f"RANSOM OFFER {seat} G{captive.general} FOR {price}")
        return paying

    def concede(self) -> None:
        """Late in a game a weak seat may concede to the strongest (C-14.2)."""
        tributes = {s: self.state.players[s].tribute for s in self.state.in_play()}
        strongest = max(sorted(tributes), key=lambda s: tributes[s])
        if (
            strongest != self.seat
            and self.state.round > 8
            and tributes[self.seat] * 4 < tributes[strongest]
            and self.rng.random() < 0.15
        ):
            self.lines.append(f"CONCEDE TO {strongest}")

    def answers(self) -> None:
        """The mover may answer his own turn's battle decisions in advance (ANSWER, C-15)."""
        rng = self.rng
        for code in self.battles:
            if rng.random() > 0.1:
                continue
            own = sorted(c for c in self.board.land_neighbours(code) if self.owner(c) == self.seat)
            round_ = rng.randint(1, 2)
            choices = [f"battle.{code}.{round_}.retreat: continue"]
            if own:
                choices.append(f"battle.{code}.{round_}.retreat: retreat to {rng.choice(own)}")
            if self.classic:
                choices += [
                    f"battle.{code}.{round_}.losses: cav, inf, cat",
                    f"battle.{code}.{round_}.legion: inf",
                    f"battle.{code}.pursuit: inf",
                ]
            self.lines.append(f"ANSWER {rng.choice(choices)}")

    def press(self) -> None:
        rng = self.rng
        if rng.random() < 0.08:
            others = [s for s in self.state.players if s != self.seat]
            if others and rng.random() < 0.6:
                self.lines.append(f"PRESS TO {rng.choice(others)}: {rng.choice(PRESS)}")
            else:
                self.lines.append(f"BROADCAST: {rng.choice(PRESS)}")

    def mistake(self) -> None:
        """Now and then an order a hasty player writes: the engine must refuse it with a reason."""
        rng = self.rng
        if rng.random() > 0.05:
            return
        lands = sorted(c for c in self.board.areas if self.board.is_land(c))
        far = rng.choice(lands)
        choice = rng.randrange(4)
        if choice == 0:
            self.lines.append(f"MOVE G1 WITH 2 INF: {rng.choice(lands)} -> {far}")
        elif choice == 1:
            self.lines.append("BUY 40 INF, 3 CAT")
        elif choice == 2:
            self.lines.append(f"SAIL GALLEY 7: {far} -> {rng.choice(lands)}")
        else:
            self.lines.append(f"DESTROY CITY {far}")
