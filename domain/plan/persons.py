"""Who can play which matches (contract §20, sharpened with §24): the person rule the planner keeps and the checker
tells, in one place.

**Twice at once**: two matches share a person only when that person could play both. Across draws (and for the
broadcast's own matches) every potential match of a person counts: a player in singles and doubles. Within one
draw, only when the same entry can play both: both have it as a known entry, or one follows the other on the
entry's path of wins and losses (one feeds the other, at any distance); the winners' and the losers' match of the
same pair of earlier matches never share one. A pair where one follows the other is already kept apart by the
feeder rule (start after the feeder's end plus rest), so the planner checks only known entries within a draw.

**Daily limits** count the most matches a person can play on a day: per draw, the matches they are known in (they
play them all) and the longest chain of the day's matches they might reach after those, summed over draws; not
every match the person might reach.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.plan.model import Item, Limits


def scope(item: Item) -> str:
    """What the within-draw rule is kept within: the item's draw, else the item alone."""
    return item.draw if item.draw is not None else f"match:{item.key}"


class Paths:
    """Which items follow which on an entry's path: through feeders, at any distance (memoised, made on demand)."""

    def __init__(self, items: Mapping[str, Item]) -> None:
        self.items = items
        self._behind: dict[str, frozenset[str]] = {}

    def behind(self, key: str) -> frozenset[str]:
        """Every item that feeds this one, at any distance."""
        kept = self._behind.get(key)
        if kept is not None:
            return kept
        self._behind[key] = frozenset()  # a cycle cannot come from a draw; never loop on one
        found: set[str] = set()
        item = self.items.get(key)
        for feeder in item.feeders if item is not None else ():
            if feeder in self.items:
                found.add(feeder)
                found |= self.behind(feeder)
        self._behind[key] = frozenset(found)
        return self._behind[key]

    def share(self, a: Item, b: Item, person: str) -> bool:
        """Whether the person could play both items (see the module's docstring)."""
        if person not in a.persons or person not in b.persons:
            return False
        if scope(a) != scope(b):
            return True
        if person in a.known and person in b.known:
            return True
        return a.key in self.behind(b.key) or b.key in self.behind(a.key)


def most_matches(person: str, keys: Iterable[str], items: Mapping[str, Item]) -> dict[str, int]:
    """The most of these items (one day's) the person can play, by kind: `singles`, `doubles`, `total`. Per draw:
    every match the person is known in (they play them all: a group's, a Swiss round's, the one their entry is in
    now), plus the longest chain, through feeders, of the matches they might reach after them."""
    mine = {key: items[key] for key in keys if person in items[key].persons}
    maybe = {key: item for key, item in mine.items() if person not in item.known}
    memo: dict[str, int] = {}

    def upto(key: str) -> int:
        """The most of the day's might-be matches on one chain ending with this one."""
        if key not in memo:
            memo[key] = 1  # never loop on a cycle
            memo[key] = 1 + max((upto(f) for f in maybe[key].feeders if f in maybe), default=0)
        return memo[key]

    per_draw: dict[str, tuple[bool, int, int]] = {}  # scope -> (doubles, known matches, longest chain after)
    for key, item in mine.items():
        kind, known, chain = per_draw.get(scope(item), (item.doubles, 0, 0))
        if key in maybe:
            chain = max(chain, upto(key))
        else:
            known += 1
        per_draw[scope(item)] = (kind, known, chain)
    doubles = sum(known + chain for is_doubles, known, chain in per_draw.values() if is_doubles)
    singles = sum(known + chain for is_doubles, known, chain in per_draw.values() if not is_doubles)
    return {"singles": singles, "doubles": doubles, "total": singles + doubles}


def over_limit(counts: Mapping[str, int], limits: Limits) -> tuple[str, int] | None:
    """The first limit these counts break (its kind and the limit), or None."""
    for kind, limit in (("singles", limits.singles), ("doubles", limits.doubles), ("total", limits.total)):
        if limit is not None and counts[kind] > limit:
            return kind, limit
    return None


def limited(limits: Limits) -> bool:
    return any(limit is not None for limit in (limits.singles, limits.doubles, limits.total))
