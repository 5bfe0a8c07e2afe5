"""`round_robin_playoff` (contract §22): round robin groups (`groupCount` default ceil(n/4)), then the entries of
equal rank play off for places: the group winners for places 1…k, the runners-up for k+1…2k, and so on, each
rank in a bracket where every place is played off (`playoff_all`'s), the group A entry seeded first. A rank only
one group has (groups differ in size by one) takes its place from the standings alone."""

from __future__ import annotations

import math
import random

from domain.draws.bracket import IdFactory, build_groups, places_placings, play_off
from domain.draws.formats.base import DrawSpec, Format
from domain.draws.model import Draw, Placing, Slot, Source, Stage
from domain.draws.placement import bracket_size, seed_order


def ranks(draw: Draw) -> list[list[str]]:
    """For each rank 1, 2, …: the groups having that rank, in group order."""
    deepest = max(len(g.entry_ids) for g in draw.groups)
    return [[g.name for g in draw.groups if len(g.entry_ids) >= rank] for rank in range(1, deepest + 1)]


class RoundRobinPlayoff(Format):
    def default_groups(self, entries: int) -> int | None:
        return math.ceil(entries / 4)

    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        build_groups(draw, spec.group_count or math.ceil(len(draw.entries) / 4), rng, new_id)
        group_rounds = sum(1 for r in draw.rounds if r.stage == Stage.GROUP)
        place = 1
        for rank, groups in enumerate(ranks(draw), start=1):
            if len(groups) >= 2:
                size = bracket_size(len(groups))
                slots = [Slot(source=Source(group=groups[number - 1], rank=rank)) if number <= len(groups)
                         else Slot(closed=True) for number in seed_order(size)]
                play_off(draw, slots, new_id, first_place=place, main=False, first_number=group_rounds + 1)
            place += len(groups)

    def placings(self, draw: Draw) -> list[Placing]:
        found = places_placings(draw)
        place = 1
        by_name = {g.name: g for g in draw.groups}
        for rank, groups in enumerate(ranks(draw), start=1):
            group = by_name[groups[0]]
            if len(groups) == 1 and group.finished:
                row = next(r for r in group.standings if r.rank == rank)
                found.append(Placing(place=place, entry_id=row.entry_id))
            place += len(groups)
        return sorted(found, key=lambda p: p.place)
