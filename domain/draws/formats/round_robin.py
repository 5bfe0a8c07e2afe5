"""`round_robin` (contract §13): groups in which every pair plays once; placings the final standings order."""

from __future__ import annotations

import random

from domain.draws.bracket import OPEN, IdFactory, build_groups, order_placings
from domain.draws.formats.base import DrawSpec, Format
from domain.draws.model import Draw, Placing


def groups_order(draw: Draw) -> list[str]:
    """Entries by final standing over every group: rank, then wins, game and point difference across groups."""
    if len(draw.groups) == 1:
        return [r.entry_id for r in draw.groups[0].standings]
    rows = [row for g in draw.groups for row in g.standings]
    rows.sort(key=lambda r: (r.rank, -r.won, -(r.games_won - r.games_lost), -(r.points_won - r.points_lost)))
    return [r.entry_id for r in rows]


class RoundRobin(Format):
    def default_groups(self, entries: int) -> int | None:
        return 1

    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        build_groups(draw, spec.group_count or 1, rng, new_id)

    def placings(self, draw: Draw) -> list[Placing]:
        if any(m.status in OPEN for m in draw.matches.values()):
            return []
        return order_placings(groups_order(draw))
