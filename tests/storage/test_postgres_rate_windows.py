"""Contract §8a on PostgreSQL: the shared rate-limit table does not grow with the distinct random keys of anonymous
callers (rows of finished windows are pruned), and windows of any length count once across processes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.access.ratelimit import RateLimiter
from domain.clock import FixedClock
from storage.postgres import PgStore
from tests.pg_cluster import Cluster


@pytest.fixture
def store(pg_cluster: Cluster) -> Iterator[PgStore]:
    opened = PgStore(pg_cluster.new_database(), listen=False)
    yield opened
    opened.close()


def rows(store: PgStore) -> int:
    with store._pool.connection() as conn:
        found = conn.execute("SELECT count(*) FROM rate_windows").fetchone()
    return int(found[0]) if found else 0


def test_rows_of_random_keys_are_pruned_once_their_window_is_over(store: PgStore) -> None:
    clock = FixedClock()
    limiter = RateLimiter(clock, shared=store.hit_window)
    for n in range(50):
        assert limiter.hit(f"scorer:random-{n}", 300).allowed
    assert rows(store) == 50
    clock.advance(seconds=7200)
    limiter.hit("scorer:one-more", 300)
    assert rows(store) == 1


def test_peek_counts_nothing_and_a_ten_minute_window_holds(store: PgStore) -> None:
    clock = FixedClock()
    first, second = RateLimiter(clock, shared=store.hit_window), RateLimiter(clock, shared=store.hit_window)
    assert first.peek("register:ok:a", 2, window_seconds=600).allowed
    assert first.hit("register:ok:a", 2, window_seconds=600).allowed
    assert second.hit("register:ok:a", 2, window_seconds=600).allowed  # another process, the same count
    assert not first.peek("register:ok:a", 2, window_seconds=600).allowed
    clock.advance(seconds=300)
    assert not second.hit("register:ok:a", 2, window_seconds=600).allowed
    clock.advance(seconds=300)
    assert first.peek("register:ok:a", 2, window_seconds=600).allowed
