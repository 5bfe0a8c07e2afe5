"""`swiss` (contract §13): one round at a time, the next made when the last is complete, pairing equal or nearest
wins by a minimum-weight matching, never a rematch; an odd count gives a bye to the lowest-ranked entry without
one."""

from __future__ import annotations

import math
import random

import rustworkx as rx

from domain.draws.bracket import OPEN, IdFactory, add_match, add_round, order_placings
from domain.draws.formats.base import DrawSpec, Format, refused
from domain.draws.model import Draw, DrawMatch, Entry, Placing, ResultType, Slot, Stage, Standing
from domain.draws.standings import standings


def _swiss_matches(draw: Draw) -> list[DrawMatch]:
    return [m for m in draw.matches.values() if m.stage == Stage.SWISS]


def swiss_standings(draw: Draw) -> list[Entry]:
    rows = standings(draw.entries, _swiss_matches(draw), draw.options)
    return [draw.entry(r.entry_id) for r in rows]


def swiss_round(draw: Draw, new_id: IdFactory) -> bool:
    """Makes the next Swiss round; False when no round without a rematch exists (the draw then ends)."""
    number = sum(1 for r in draw.rounds if r.stage == Stage.SWISS) + 1
    previous = _swiss_matches(draw)
    played = {frozenset(m.entry_ids()) for m in previous if len(m.entry_ids()) == 2}
    had_bye = {m.winner_entry_id for m in previous if m.result_type == ResultType.BYE}
    ranking = standings(draw.entries, previous, draw.options)  # once: the order and the wins of each entry
    ranked = [e for e in (draw.entry(r.entry_id) for r in ranking) if not e.withdrawn] if previous \
        else _round_one_order(draw)
    rows = {r.entry_id: r for r in ranking}
    candidates: list[Entry | None] = [None]
    if len(ranked) % 2:
        lowest_first = list(reversed(ranked))
        candidates = [*(e for e in lowest_first if e.id not in had_bye), *(e for e in lowest_first if e.id in had_bye)]
    for bye in candidates:
        rest = [e for e in ranked if bye is None or e.id != bye.id]
        pairs = pairs_of(rest, rows, played, first_round=not previous)
        if pairs is None:
            continue
        rnd = add_round(draw, Stage.SWISS, number)
        for a, b in pairs:
            add_match(draw, rnd, new_id, [Slot(entry_id=a.id), Slot(entry_id=b.id)])
        if bye is not None:
            add_match(draw, rnd, new_id, [Slot(entry_id=bye.id), Slot(closed=True)])
        return True
    return False


def _round_one_order(draw: Draw) -> list[Entry]:
    seeded = sorted((e for e in draw.entries if e.seed is not None), key=lambda e: e.seed or 0)
    rest = [e for e in draw.entries if e.seed is None]
    random.Random(draw.options.random_seed).shuffle(rest)
    return seeded + rest


def pairs_of(
    ranked: list[Entry], rows: dict[str, Standing], played: set[frozenset[str]], *, first_round: bool
) -> list[tuple[Entry, Entry]] | None:
    """Equal or nearest wins, never a rematch: a minimum-weight perfect matching (round one: top half against
    bottom half)."""
    if not ranked:
        return []
    half = len(ranked) // 2
    if first_round:
        return [(ranked[i], ranked[i + half]) for i in range(half)]
    wins = [rows[e.id].won if e.id in rows else 0 for e in ranked]
    met: dict[str, set[str]] = {}  # each entry's past opponents (a set lookup per pair, not a frozenset made)
    for pair in played:
        for one in pair:
            met.setdefault(one, set()).update(pair)
    ids = [e.id for e in ranked]
    costs: list[tuple[int, int, int]] = []
    for i, a in enumerate(ids):
        seen, won, shift = met.get(a, set()), wins[i], i + half
        costs.extend([(i, j, (won - wins[j]) ** 2 * 10_000 + abs(j - shift))
                      for j in range(i + 1, len(ids)) if ids[j] not in seen])
    if not costs:
        return None
    # The least total cost among the largest matchings: the heaviest of the largest matchings once every cost is
    # turned into `1 + highest - cost` (as networkx's min_weight_matching does; rustworkx runs the same blossom
    # algorithm in Rust, 40 times faster: 128 entries were paired in 1-5 s, in the request that closed a round).
    highest = max(cost for _, _, cost in costs)
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * len(ranked))
    graph.add_edges_from([(i, j, 1 + highest - cost) for i, j, cost in costs])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(matching) * 2 != len(ranked):
        return None
    return [(ranked[i], ranked[j]) for i, j in sorted((min(i, j), max(i, j)) for i, j in matching)]


class Swiss(Format):
    def validate(self, spec: DrawSpec, groups: int | None) -> None:
        n, rounds = len(spec.entries), spec.options.rounds
        if rounds and not 1 <= rounds <= (n - 1 if n % 2 == 0 else n):
            raise refused("rounds", "rounds must be at least 1 and leave a new opponent for everyone.")

    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        if not draw.options.rounds:
            draw.options.rounds = max(1, math.ceil(math.log2(len(draw.entries))))
        swiss_round(draw, new_id)

    def advance(self, draw: Draw, dm: DrawMatch, new_id: IdFactory) -> list[DrawMatch]:
        """The next round, once the last one is complete (and rounds are left)."""
        if dm.stage != Stage.SWISS:
            return []
        rnd = draw.round_of(dm)
        swiss_rounds = [r for r in draw.rounds if r.stage == Stage.SWISS]
        done = all(draw.matches[i].status not in OPEN for i in rnd.draw_match_ids)
        if done and rnd is swiss_rounds[-1] and len(swiss_rounds) < draw.options.rounds and swiss_round(draw, new_id):
            return [draw.matches[i] for i in draw.rounds[-1].draw_match_ids]
        return []

    def after_withdrawal(self, draw: Draw, new_id: IdFactory) -> list[DrawMatch]:
        last = [r for r in draw.rounds if r.stage == Stage.SWISS][-1]
        return self.advance(draw, draw.matches[last.draw_match_ids[0]], new_id)

    def placings(self, draw: Draw) -> list[Placing]:
        if any(m.status in OPEN for m in draw.matches.values()):
            return []
        return order_placings([e.id for e in swiss_standings(draw)])
