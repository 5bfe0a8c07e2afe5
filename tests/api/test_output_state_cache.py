"""The read cache: a read is rebuilt when its stamp changes; output states may lag writes by `max_stale`, never a
changed link."""

from __future__ import annotations

from api.read_cache import ReadCache

ENTRY = ('"tag"', b"{}")


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_is_fresh_while_the_store_version_is_the_one_it_was_built_at() -> None:
    ticks = Ticks()
    cache = ReadCache(max_stale=0, monotonic=ticks)
    cache.put("k", (7, "m"), ENTRY, guard=(1,))
    ticks.now += 3600
    assert cache.get("k", (7, "m"), guard=(1,)) == ENTRY
    assert cache.get("k", (8, "m"), guard=(1,)) is None  # a write happened: rebuild


def test_under_writes_an_entry_serves_for_max_stale_seconds_then_is_rebuilt() -> None:
    ticks = Ticks()
    cache = ReadCache(max_stale=0.2, monotonic=ticks)
    cache.put("k", (7, "m"), ENTRY, guard=(1,))
    ticks.now += 0.19
    assert cache.get("k", (9, "m"), guard=(1,)) == ENTRY  # writes elsewhere: at most 0.2 s behind
    ticks.now += 0.02
    assert cache.get("k", (9, "m"), guard=(1,)) is None


def test_a_changed_output_link_is_never_served_from_the_cache() -> None:
    ticks = Ticks()
    cache = ReadCache(max_stale=0.2, monotonic=ticks)
    cache.put("k", (7, "m"), ENTRY, guard=(1,))
    assert cache.get("k", (8, "m"), guard=(2,)) is None  # a link was rotated or removed: at once
    assert cache.get("other", (7, "m"), guard=(1,)) is None


def test_a_read_is_built_once_while_its_stamp_holds_and_again_after_a_write() -> None:
    cache = ReadCache()  # partner reads: no staleness allowed
    builds: list[int] = []

    def build() -> dict[str, int]:
        builds.append(1)
        return {"n": len(builds)}

    assert cache.read(("match", "c", "m1"), (3, 5), build) == {"n": 1}
    assert cache.read(("match", "c", "m1"), (3, 5), build) == {"n": 1}
    assert cache.read(("match", "c", "m1"), (3, 6), build) == {"n": 2}  # a table took a write
    assert len(builds) == 2
