"""`playoff_all` (contract §22): every place is played off. The losers of each round play for the places below
them, so every entry plays log2 of the bracket's size (a bye counting as one) and gets a place 1…n."""

from __future__ import annotations

import random

from domain.draws.bracket import IdFactory, places_placings, play_off
from domain.draws.formats.base import DrawSpec, Format
from domain.draws.formats.single_elimination import first_round
from domain.draws.model import Draw, Placing


class PlayoffAll(Format):
    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        play_off(draw, first_round(draw, rng), new_id)

    def placings(self, draw: Draw) -> list[Placing]:
        return places_placings(draw)
