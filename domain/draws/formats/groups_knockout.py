"""`groups_knockout` (contract §13): round robin groups, then each group's first `advancePerGroup` in a
single-elimination stage (group winners seeded, two of one group meeting as late as possible)."""

from __future__ import annotations

import math
import random

from domain.draws.bracket import IdFactory, build_bracket, build_groups, knockout_placings
from domain.draws.formats.base import DrawSpec, Format, refused
from domain.draws.model import Draw, Placing, Slot, Source
from domain.draws.placement import bracket_size, seed_order


def knockout_slots(draw: Draw) -> list[Slot]:
    """The knockout's first round: group winners seeded, entries of one group meeting late, byes to the top."""
    advance = draw.options.advance_per_group
    qualifiers = [(g.name, rank) for rank in range(1, advance + 1) for g in draw.groups]
    size = bracket_size(len(qualifiers))
    order = seed_order(size)
    position_of = {number: pos for pos, number in enumerate(order)}
    byes = size - len(qualifiers)
    slots: list[Slot | None] = [None] * size
    for s in range(1, byes + 1):
        slots[position_of[size + 1 - s]] = Slot(closed=True)
    placed: dict[str, list[int]] = {}
    for i, group in enumerate(draw.groups):
        pos = position_of[i + 1]
        slots[pos] = Slot(source=Source(group=group.name, rank=1))
        placed.setdefault(group.name, []).append(pos)
    for rank in range(2, advance + 1):
        for group in reversed(draw.groups):
            free = [p for p in range(size) if slots[p] is None]
            mine = placed.get(group.name, [])

            def lateness(p: int, mine: list[int] = mine) -> tuple[int, int]:
                meet = min(((p ^ q).bit_length() for q in mine), default=size)
                return (-meet, order[p])

            pos = min(free, key=lateness)
            slots[pos] = Slot(source=Source(group=group.name, rank=rank))
            placed.setdefault(group.name, []).append(pos)
    return [s if s is not None else Slot(closed=True) for s in slots]


class GroupsKnockout(Format):
    def default_groups(self, entries: int) -> int | None:
        return math.ceil(entries / 4)

    def validate(self, spec: DrawSpec, groups: int | None) -> None:
        opts, n = spec.options, len(spec.entries)
        groups = groups or 1
        if not 1 <= opts.advance_per_group <= 4:
            raise refused("advancePerGroup", "advancePerGroup must be 1 to 4.")
        if opts.advance_per_group > n // groups:
            raise refused("advancePerGroup", "advancePerGroup must not exceed the size of the smallest group.")
        if groups * opts.advance_per_group < 2:
            raise refused("advancePerGroup", "A knockout stage needs at least 2 qualifiers.")

    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        build_groups(draw, spec.group_count or math.ceil(len(draw.entries) / 4), rng, new_id)
        build_bracket(draw, knockout_slots(draw), new_id, third_place=draw.options.third_place)

    def placings(self, draw: Draw) -> list[Placing]:
        return knockout_placings(draw)
