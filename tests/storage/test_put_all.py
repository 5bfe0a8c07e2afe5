"""`Repository.put_all` (domain/ports.py `Repo.put_all`): many whole records in one write, on both backends, each
as `put` would store it (new ones numbered in the order given, old ones keeping their creation `seq`), seen by the
rest of the unit of work and undone with it."""

from __future__ import annotations

import pytest

from domain.models import DrawPart
from storage.backend import AnyStore
from storage.repository import unit_of_work

BOTH_BACKENDS = True


def part(key: str, value: int) -> DrawPart:
    return DrawPart(id=f"drw_1/{key}", draw_id="drw_1", key=key, state={"value": value, "nested": {"list": [value]}})


def test_put_all_stores_new_records_in_the_order_given_and_keeps_an_old_ones_seq(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        first = uow.draw_parts.put(part("m:1", 1))
    with unit_of_work(store) as uow:
        uow.draw_parts.put_all([part("m:3", 3), part("m:1", 10), part("m:2", 2)])
        seen = uow.draw_parts.find(draw_id="drw_1")  # the unit of work reads its own writes
        assert [(p.key, p.state["value"]) for p in seen] == [("m:1", 10), ("m:3", 3), ("m:2", 2)]
    with unit_of_work(store) as uow:
        stored = uow.draw_parts.find(draw_id="drw_1")
    assert [(p.key, p.state) for p in stored] == [("m:1", {"value": 10, "nested": {"list": [10]}}),
                                                  ("m:3", {"value": 3, "nested": {"list": [3]}}),
                                                  ("m:2", {"value": 2, "nested": {"list": [2]}})]
    assert stored[0].seq == first.seq < stored[1].seq < stored[2].seq


def test_put_all_of_nothing_writes_nothing_and_a_failing_unit_of_work_keeps_none(store: AnyStore) -> None:
    with unit_of_work(store) as uow:
        uow.draw_parts.put_all([])
    with pytest.raises(RuntimeError), unit_of_work(store) as uow:
        uow.draw_parts.put_all([part("m:1", 1), part("m:2", 2)])
        raise RuntimeError("the request failed after the write")
    with unit_of_work(store) as uow:
        assert uow.draw_parts.find(draw_id="drw_1") == []
