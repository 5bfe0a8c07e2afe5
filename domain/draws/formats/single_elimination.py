"""`single_elimination` (contract §13): a bracket of the next power of two, seeds in the standard positions, byes
to the highest seeds, the third-place match if asked."""

from __future__ import annotations

import random

from domain.draws.bracket import IdFactory, build_bracket, knockout_placings
from domain.draws.formats.base import DrawSpec, Format
from domain.draws.model import Draw, Placing, Slot
from domain.draws.placement import place_bracket


def first_round(draw: Draw, rng: random.Random) -> list[Slot]:
    """The first round's slots of a bracket over the draw's entries: entries placed, byes closed."""
    positions = place_bracket(draw.entries, rng, separate_clubs=draw.options.separate_clubs)
    return [Slot(entry_id=e.id) if e else Slot(closed=True) for e in positions]


class SingleElimination(Format):
    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        build_bracket(draw, first_round(draw, rng), new_id, third_place=draw.options.third_place)

    def placings(self, draw: Draw) -> list[Placing]:
        return knockout_placings(draw)
