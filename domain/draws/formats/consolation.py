"""`consolation` (contract §22): single elimination plus a consolation draw for every entry that loses its first
match played, byes not counting.

The consolation bracket has one place per first-round match, fed by that match's loser. A first-round bye's place
waits for the bye holder's first match played, in round two: its loser link there goes to that place only when the
loser is the bye holder (`Link.only_from`); when the bye holder wins, the place is closed. When both first-round
matches before a round-two match were byes, its loser always lost a first match played: the first of the two places
takes them and the second is closed from the start."""

from __future__ import annotations

import random

from domain.draws.bracket import IdFactory, build_bracket, decided, feed, final_of, knockout_placings, matches_of
from domain.draws.formats.base import DrawSpec, Format, refused
from domain.draws.formats.single_elimination import first_round
from domain.draws.model import Draw, Outcome, Placing, Slot, Stage


def no_third_place(spec: DrawSpec) -> None:
    """The semifinals' losers may feed the consolation: no third-place match beside it."""
    if spec.options.third_place:
        raise refused("thirdPlace", f"thirdPlace is not for {spec.format}: its consolation plays the losers on.")


class Consolation(Format):
    def validate(self, spec: DrawSpec, groups: int | None) -> None:
        no_third_place(spec)

    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        first = first_round(draw, rng)
        main = build_bracket(draw, first, new_id)
        places = len(first) // 2
        if places < 2:
            return  # two entries: the final's loser has nobody to play
        byes = [first[2 * i].closed or first[2 * i + 1].closed for i in range(places)]
        slots = [Slot(closed=byes[2 * (i // 2)] and byes[2 * (i // 2) + 1] and i % 2 == 1) for i in range(places)]
        rounds = build_bracket(draw, slots, new_id, stage=Stage.CONSOLATION)
        consolation = matches_of(draw, rounds[0])
        ones, twos = matches_of(draw, main[0]), matches_of(draw, main[1])
        for i in range(places):
            target, slot = consolation[i // 2], i % 2
            if not byes[i]:
                feed(ones[i], Outcome.LOSER, target, slot)
            elif byes[i ^ 1]:
                if i % 2 == 0:  # both byes: round two's loser always lost a first match played
                    feed(twos[i // 2], Outcome.LOSER, target, slot)
            else:
                feed(twos[i // 2], Outcome.LOSER, target, slot, only_from=i % 2)

    def placings(self, draw: Draw) -> list[Placing]:
        return knockout_placings(draw) + decided(final_of(draw, Stage.CONSOLATION), 1, stage=Stage.CONSOLATION)
