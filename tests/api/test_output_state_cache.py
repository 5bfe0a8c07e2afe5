"""The output pages' state cache: how long a state may lag writes, and that a changed link is never served."""

from __future__ import annotations

from api.state_cache import StateCache

ENTRY = ('"tag"', b"{}")


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_is_fresh_while_the_store_version_is_the_one_it_was_built_at() -> None:
    ticks = Ticks()
    cache = StateCache(max_stale=0, monotonic=ticks)
    cache.put((7, "m"), (1,), "k", ENTRY)
    ticks.now += 3600
    assert cache.get((7, "m"), (1,), "k") == ENTRY
    assert cache.get((8, "m"), (1,), "k") is None  # a write happened: rebuild


def test_under_writes_an_entry_serves_for_max_stale_seconds_then_is_rebuilt() -> None:
    ticks = Ticks()
    cache = StateCache(max_stale=0.2, monotonic=ticks)
    cache.put((7, "m"), (1,), "k", ENTRY)
    ticks.now += 0.19
    assert cache.get((9, "m"), (1,), "k") == ENTRY  # writes elsewhere: at most 0.2 s behind
    ticks.now += 0.02
    assert cache.get((9, "m"), (1,), "k") is None


def test_a_changed_output_link_is_never_served_from_the_cache() -> None:
    ticks = Ticks()
    cache = StateCache(max_stale=0.2, monotonic=ticks)
    cache.put((7, "m"), (1,), "k", ENTRY)
    assert cache.get((8, "m"), (2,), "k") is None  # a link was rotated or removed: at once
    assert cache.get((7, "m"), (1,), "other") is None
