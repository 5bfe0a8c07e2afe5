"""`feed_in` (contract §22): single elimination whose losers of main rounds 1…`feedInRounds` (default 2) feed
into a consolation bracket at the matching round: the first round's losers play each other, then each later
feeding round's losers meet the consolation's survivors, then the survivors play down to one."""

from __future__ import annotations

import math
import random

from domain.draws.bracket import (
    IdFactory,
    add_match,
    add_round,
    build_bracket,
    decided,
    feed,
    final_of,
    knockout_placings,
    matches_of,
)
from domain.draws.formats.base import DrawSpec, Format, refused
from domain.draws.formats.consolation import no_third_place
from domain.draws.formats.single_elimination import first_round
from domain.draws.model import Draw, DrawMatch, Outcome, Placing, Slot, Stage
from domain.draws.placement import bracket_size

DEFAULT_FEED_IN_ROUNDS = 2


def feed_in_rounds(draw_rounds: int, asked: int | None) -> int:
    """The main rounds whose losers feed the consolation: as asked, else 2, never the final."""
    return asked if asked is not None else min(DEFAULT_FEED_IN_ROUNDS, draw_rounds - 1)


class FeedIn(Format):
    def validate(self, spec: DrawSpec, groups: int | None) -> None:
        no_third_place(spec)
        main_rounds = int(math.log2(bracket_size(len(spec.entries))))
        asked = spec.options.feed_in_rounds
        if asked is not None and not 1 <= asked <= main_rounds - 1:
            limit = (f"feedInRounds must be 1 to {main_rounds - 1} for {len(spec.entries)} entries."
                     if main_rounds > 1 else "feedInRounds needs at least 3 entries.")
            raise refused("feedInRounds", limit)

    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        main = [matches_of(draw, rnd) for rnd in build_bracket(draw, first_round(draw, rng), new_id)]
        k = feed_in_rounds(len(main), draw.options.feed_in_rounds)
        if k < 1:
            return  # two entries: the final's loser has nobody to play
        number = 0

        def new_round(pairs: list[tuple[tuple[DrawMatch, Outcome], tuple[DrawMatch, Outcome]]]) -> list[DrawMatch]:
            nonlocal number
            number += 1
            rnd = add_round(draw, Stage.CONSOLATION, number)
            made = []
            for (a, a_outcome), (b, b_outcome) in pairs:
                dm = add_match(draw, rnd, new_id, [Slot(), Slot()])
                feed(a, a_outcome, dm, 0)
                feed(b, b_outcome, dm, 1)
                made.append(dm)
            return made

        def halve(current: list[DrawMatch]) -> list[DrawMatch]:
            return new_round([((current[2 * i], Outcome.WINNER), (current[2 * i + 1], Outcome.WINNER))
                              for i in range(len(current) // 2)])

        ones = main[0]
        if len(ones) >= 2:
            current = new_round([((ones[2 * i], Outcome.LOSER), (ones[2 * i + 1], Outcome.LOSER))
                                 for i in range(len(ones) // 2)])
        else:
            current = []
        for j in range(1, k):
            if j > 1:
                current = halve(current)
            dropping = main[j] if j % 2 == 0 else list(reversed(main[j]))
            current = new_round([((survivor, Outcome.WINNER), (dropper, Outcome.LOSER))
                                 for survivor, dropper in zip(current, dropping, strict=True)])
        while len(current) > 1:
            current = halve(current)

    def placings(self, draw: Draw) -> list[Placing]:
        return knockout_placings(draw) + decided(final_of(draw, Stage.CONSOLATION), 1, stage=Stage.CONSOLATION)
