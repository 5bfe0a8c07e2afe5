"""`double_elimination` (contract §13): a loser of the main bracket drops into the losers bracket, out after a
second loss; the final pits the two bracket winners (a second final with `grandFinalReset`)."""

from __future__ import annotations

import random

from domain.draws.bracket import OPEN, IdFactory, add_match, add_round, build_bracket, feed
from domain.draws.formats.base import DrawSpec, Format
from domain.draws.formats.single_elimination import first_round
from domain.draws.model import Draw, DrawMatch, Outcome, Placing, Slot, Stage


def _losers_bracket(draw: Draw, main_matches: list[list[DrawMatch]], new_id: IdFactory) -> tuple[DrawMatch, Outcome]:
    """The losers bracket; where its champion comes from."""
    k = len(main_matches)
    if k == 1:
        return (main_matches[0][0], Outcome.LOSER)
    number = 1
    # L1: losers of W1 in pairs.
    rnd = add_round(draw, Stage.LOSERS, number)
    current: list[DrawMatch] = []
    for i in range(len(main_matches[0]) // 2):
        dm = add_match(draw, rnd, new_id, [Slot(), Slot()])
        feed(main_matches[0][2 * i], Outcome.LOSER, dm, 0)
        feed(main_matches[0][2 * i + 1], Outcome.LOSER, dm, 1)
        current.append(dm)
    for j in range(1, k):
        # Drop-in round: survivors against losers of main round j+1 (order reversed every other time).
        number += 1
        rnd = add_round(draw, Stage.LOSERS, number)
        dropping = main_matches[j] if j % 2 == 0 else list(reversed(main_matches[j]))
        nxt = []
        for survivor, dropper in zip(current, dropping, strict=True):
            dm = add_match(draw, rnd, new_id, [Slot(), Slot()])
            feed(survivor, Outcome.WINNER, dm, 0)
            feed(dropper, Outcome.LOSER, dm, 1)
            nxt.append(dm)
        current = nxt
        if len(current) > 1:
            number += 1
            rnd = add_round(draw, Stage.LOSERS, number)
            halved = []
            for i in range(len(current) // 2):
                dm = add_match(draw, rnd, new_id, [Slot(), Slot()])
                feed(current[2 * i], Outcome.WINNER, dm, 0)
                feed(current[2 * i + 1], Outcome.WINNER, dm, 1)
                halved.append(dm)
            current = halved
    return (current[0], Outcome.WINNER)


class DoubleElimination(Format):
    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        main = build_bracket(draw, first_round(draw, rng), new_id)
        main_matches = [[draw.matches[i] for i in rnd.draw_match_ids] for rnd in main]
        champion_of_losers = _losers_bracket(draw, main_matches, new_id)
        rnd = add_round(draw, Stage.FINAL, 1)
        final = add_match(draw, rnd, new_id, [Slot(), Slot()])
        feed(main_matches[-1][0], Outcome.WINNER, final, 0)
        feed(champion_of_losers[0], champion_of_losers[1], final, 1)
        if draw.options.grand_final_reset:
            rnd = add_round(draw, Stage.FINAL, 2)
            reset = add_match(draw, rnd, new_id, [Slot(), Slot()])
            feed(final, Outcome.WINNER, reset, 0)
            feed(final, Outcome.LOSER, reset, 1)

    def placings(self, draw: Draw) -> list[Placing]:
        placings: list[Placing] = []
        final = _deciding_final(draw)
        if final is not None and final.winner_entry_id is not None:
            placings.append(Placing(place=1, entry_id=final.winner_entry_id))
            if final.loser_entry_id is not None:
                placings.append(Placing(place=2, entry_id=final.loser_entry_id))
        losers = [r for r in draw.rounds if r.stage == Stage.LOSERS]
        if losers:
            last = draw.matches[losers[-1].draw_match_ids[0]]
            if last.loser_entry_id is not None:
                placings.append(Placing(place=3, entry_id=last.loser_entry_id))
        return placings


def _deciding_final(draw: Draw) -> DrawMatch | None:
    finals = [draw.matches[r.draw_match_ids[0]] for r in draw.rounds if r.stage == Stage.FINAL]
    if len(finals) == 2 and finals[1].winner_entry_id is not None:
        return finals[1]
    if finals[0].status in OPEN:
        return None
    if len(finals) == 2 and finals[1].status in OPEN:
        return None
    return finals[0]
