"""The lower bound of contract §20: no plan of these matches can end sooner than the larger of all their minutes
spread over every court, and the longest chain of matches that must follow one another (with rest between)."""

from __future__ import annotations

from domain.plan.model import Problem


def lower_bound(problem: Problem) -> int:
    """Minutes from the first day's start (or now, if later) that any plan needs, at least."""
    courts = len({court for day in problem.days for court in day.courts}) or 1
    minutes = {item.key: item.minutes for item in problem.items if item.key not in problem.fixed}
    spread = -(-sum(minutes.values()) // courts)
    chain: dict[str, int] = {}
    items = {item.key: item for item in problem.items if item.key in minutes}

    def longest(key: str, depth: int = 0) -> int:
        if key not in chain:
            item = items[key]
            before = [longest(f, depth + 1) + problem.rest for f in item.feeders if f in items and depth < len(items)]
            chain[key] = item.minutes + max(before, default=0)
        return chain[key]

    return max(spread, max((longest(key) for key in items), default=0))
