"""Where entries go: standard seed positions, byes to the top seeds, clubs kept apart, groups dealt in snake order.

Everything random goes through one `random.Random(randomSeed)` so the same body with the same seed gives the same
draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.draws.model import Entry


def bracket_size(count: int) -> int:
    """The next power of two at or above `count` (at least 2)."""
    size = 2
    while size < count:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seed numbers by bracket position: for 16, 1 16 8 9 5 12 4 13 3 14 6 11 7 10 2 15 (1 and 2 in opposite
    halves, 3 and 4 in the other quarters, and so on)."""
    tops = [1]  # the better seed of each first-round match, in bracket order
    while len(tops) * 2 < size:
        total = 2 * len(tops) + 1
        tops = [x for i, seed in enumerate(tops)
                for x in ((seed, total - seed) if i % 2 == 0 else (total - seed, seed))]
    return [x for seed in tops for x in (seed, size + 1 - seed)]


def by_seed(entries: Sequence[Entry]) -> tuple[list[Entry], list[Entry]]:
    """(seeded entries best first, unseeded entries in given order)."""
    seeded = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
    return seeded, [e for e in entries if e.seed is None]


def _club(entry: Entry | None) -> str | None:
    if entry is None or not entry.club:
        return None
    return entry.club.strip().casefold()


def _clashes(positions: list[Entry | None]) -> list[int]:
    """Indexes of first-round pairs (by their even position) whose two entries share a club."""
    return [
        i for i in range(0, len(positions), 2)
        if _club(positions[i]) is not None and _club(positions[i]) == _club(positions[i + 1])
    ]


def place_bracket(entries: Sequence[Entry], rng: random.Random, *, separate_clubs: bool) -> list[Entry | None]:
    """Bracket positions (length a power of two) holding entries, `None` for a bye.

    Seeds take the standard positions; the byes sit opposite the highest seeds; unseeded entries fill the other
    places at random; with `separate_clubs`, unseeded entries are then swapped so that no first-round match
    pairs two entries of one club, when some placement allows it.
    """
    size = bracket_size(len(entries))
    order = seed_order(size)
    seeded, unseeded = by_seed(entries)
    positions: list[Entry | None] = [None] * size
    byes = size - len(entries)
    bye_numbers = {size + 1 - s for s in range(1, byes + 1)}
    free: list[int] = []
    for pos, number in enumerate(order):
        if number <= len(seeded):
            positions[pos] = seeded[number - 1]
        elif number not in bye_numbers:
            free.append(pos)
    shuffled = list(unseeded)
    rng.shuffle(shuffled)
    for pos, entry in zip(free, shuffled, strict=True):
        positions[pos] = entry
    if separate_clubs:
        _separate(positions, set(free), rng)
    return positions


def _separate(positions: list[Entry | None], movable: set[int], rng: random.Random) -> None:
    """Swap unseeded entries until no first-round pair shares a club (or no swap helps any more)."""
    for _ in range(4 * len(positions)):
        clashes = _clashes(positions)
        if not clashes:
            return
        start = clashes[0]
        ours = [p for p in (start, start + 1) if p in movable]
        if not ours:
            clashes_left = [c for c in clashes if {c, c + 1} & movable]
            if not clashes_left:
                return
            start = clashes_left[0]
            ours = [p for p in (start, start + 1) if p in movable]
        mine = ours[-1]
        before = len(clashes)
        options = [p for p in movable if p != mine and p // 2 != mine // 2]
        rng.shuffle(options)
        best: tuple[int, int] | None = None
        for other in options:
            positions[mine], positions[other] = positions[other], positions[mine]
            after = len(_clashes(positions))
            positions[mine], positions[other] = positions[other], positions[mine]
            if after < before and (best is None or after < best[0]):
                best = (after, other)
                if after == 0:
                    break
        if best is None:
            return
        other = best[1]
        positions[mine], positions[other] = positions[other], positions[mine]


def deal_groups(
    entries: Sequence[Entry], group_count: int, rng: random.Random, *, separate_clubs: bool
) -> list[list[Entry]]:
    """Groups differing in size by at most one: seeds dealt in snake order (1 to A, 2 to B, …, then back), then
    the unseeded at random, each into the group with room holding fewest of its club (with `separate_clubs`)."""
    count = len(entries)
    sizes = [count // group_count + (1 if i < count % group_count else 0) for i in range(group_count)]
    groups: list[list[Entry]] = [[] for _ in range(group_count)]
    seeded, unseeded = by_seed(entries)
    snake = [i for lap in range(count // group_count + 2)
             for i in (range(group_count) if lap % 2 == 0 else reversed(range(group_count)))]
    cursor = 0
    for entry in seeded:
        while len(groups[snake[cursor]]) >= sizes[snake[cursor]]:
            cursor += 1
        groups[snake[cursor]].append(entry)
        cursor += 1
    shuffled = list(unseeded)
    rng.shuffle(shuffled)
    for entry in shuffled:
        open_groups = [g for g in range(group_count) if len(groups[g]) < sizes[g]]
        club = _club(entry)

        def weight(g: int, club: str | None = club) -> tuple[int, int, int]:
            same = sum(1 for e in groups[g] if _club(e) == club) if separate_clubs and club is not None else 0
            return (same, len(groups[g]) - sizes[g], g)

        groups[min(open_groups, key=weight)].append(entry)
    return groups


def circle_rounds(size: int) -> list[list[tuple[int, int]]]:
    """Round robin rounds by the circle method over indexes 0..size-1: every pair once, nobody twice in a round;
    an odd size rests one index per round."""
    players: list[int | None] = list(range(size))
    if size % 2:
        players.append(None)
    count = len(players)
    rounds: list[list[tuple[int, int]]] = []
    for _ in range(count - 1):
        pairs = []
        for i in range(count // 2):
            a, b = players[i], players[count - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds
