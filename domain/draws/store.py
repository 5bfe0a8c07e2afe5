"""A draw in storage (contract §13): its record and its parts (`codec`), loaded for a change and saved as the parts
that changed, through the app's decoded draws (`UnitOfWork.draw_cache`) when the unit of work has them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from domain.clock import iso
from domain.draws import codec
from domain.draws.cache import Held
from domain.draws.model import Draw, Entry
from domain.ids import new_id
from domain.models import DrawPart, DrawRecord, Match
from domain.ports import UnitOfWork


def part_id(draw_id: str, key: str) -> str:
    """The ID of one part of a draw (`codec.HEAD`, `codec.ENTRIES`, `codec.MATCH` + a draw match's ID)."""
    return f"{draw_id}/{key}"


def record_of(uow: UnitOfWork, match: Match) -> DrawRecord | None:
    """The draw record a real match belongs to, or None."""
    if not match.draw_id:
        return None
    return uow.draws.get(match.draw_id)


def load(uow: UnitOfWork, record: DrawRecord) -> Held:
    """The draw to change (then `save`): the decoded copy of the stored version, else read from its parts and
    decoded."""
    held = uow.draw_cache.take(record) if uow.draw_cache is not None else None
    if held is not None:
        return held
    draw = codec.from_parts({part.key: part.state for part in uow.draw_parts.find(draw_id=record.id)})
    return Held(draw=draw, marks=codec.marks_of(draw))


def release(uow: UnitOfWork, record: DrawRecord, held: Held) -> None:
    """A loaded draw left unchanged: kept for the next caller."""
    if uow.draw_cache is not None:
        uow.draw_cache.keep(record, held, replace=False)


@contextmanager
def reading(uow: UnitOfWork, record: DrawRecord) -> Iterator[Draw]:
    """The draw to read, not to change (its decoded copy is kept for the next caller)."""
    held = load(uow, record)
    yield held.draw
    release(uow, record, held)


def entries(uow: UnitOfWork, record: DrawRecord) -> list[Entry]:
    """The draw's entries alone (one part read)."""
    part = uow.draw_parts.get(part_id(record.id, codec.ENTRIES))
    return codec.entries_from(part.state) if part is not None else []


def save(uow: UnitOfWork, record: DrawRecord, held: Held, now: datetime) -> DrawRecord:
    """Write the parts of the draw that changed since it was loaded, and its record under a new version; the
    decoded draw is kept for that version (do not change `held` after this without saving again)."""
    draw = held.draw
    changed, marks = codec.changed_parts(draw, held.marks)
    uow.draw_parts.put_all([DrawPart(id=part_id(draw.id, key), draw_id=draw.id, key=key, state=state)
                            for key, state in changed.items()])
    for key in held.marks.keys() - marks.keys():
        uow.draw_parts.delete(part_id(draw.id, key))
    held.marks = marks
    record.version = new_id("dv")
    record.status = draw.status
    record.table_ids = None if draw.options.table_ids is None else list(draw.options.table_ids)
    record.state = {}
    record.updated_on = iso(now)
    record = uow.draws.put(record)
    if uow.draw_cache is not None:
        uow.draw_cache.keep(record, held)
    return record


def delete(uow: UnitOfWork, record: DrawRecord) -> None:
    """The draw and its parts are gone."""
    for part in uow.draw_parts.find(draw_id=record.id):
        uow.draw_parts.delete(part.id)
    uow.draws.delete(record.id)


def table_ids(record: DrawRecord) -> list[str] | None:
    """The courts the draw's matches may use (None: every court of the broadcast)."""
    return None if record.table_ids is None else list(record.table_ids)
