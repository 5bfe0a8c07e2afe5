"""A draw's state as a plain JSON document and back, whole (`to_state`) or in the parts it is stored in
(`to_parts`, each a `models.DrawPart`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from domain.draws.model import (
    Draw,
    DrawFormat,
    DrawMatch,
    DrawMatchStatus,
    DrawPlayer,
    DrawStatus,
    Entry,
    Group,
    Link,
    Options,
    Outcome,
    Placing,
    ResultType,
    Round,
    Score,
    SeedBy,
    Slot,
    Source,
    Stage,
    Standing,
)

_NAMES: dict[type, tuple[str, ...]] = {}
_STAGES = {member.value: member for member in Stage}
_STATUSES = {member.value: member for member in DrawMatchStatus}
_OUTCOMES = {member.value: member for member in Outcome}


def _flat(obj: Any) -> dict[str, Any]:
    """A dataclass whose fields are all scalars, as a dict in field order, its None fields left out."""
    names = _NAMES.get(type(obj))
    if names is None:
        names = _NAMES[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    return {name: value for name in names if (value := getattr(obj, name)) is not None}


def _slot_state(slot: Slot) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    if slot.entry_id is not None:
        doc["entry_id"] = slot.entry_id
    if slot.source is not None:
        doc["source"] = _flat(slot.source)
    if slot.closed:
        doc["closed"] = True
    return doc


def _match_state(dm: DrawMatch) -> dict[str, Any]:
    doc: dict[str, Any] = {"id": dm.id, "stage": dm.stage, "round_number": dm.round_number, "number": dm.number,
                           "slots": [_slot_state(s) for s in dm.slots], "status": dm.status}
    for key, value in (("group", dm.group), ("match_id", dm.match_id), ("winner_entry_id", dm.winner_entry_id),
                       ("loser_entry_id", dm.loser_entry_id), ("result_type", dm.result_type),
                       ("ready_seq", dm.ready_seq)):
        if value is not None:
            doc[key] = value
    for key, nested in (("next_winner", dm.next_winner), ("next_loser", dm.next_loser), ("score", dm.score)):
        if nested is not None:
            doc[key] = _flat(nested)
    return doc


def _entry_state(entry: Entry) -> dict[str, Any]:
    doc: dict[str, Any] = {"id": entry.id, "name": entry.name, "players": [_flat(p) for p in entry.players]}
    if entry.club is not None:
        doc["club"] = entry.club
    if entry.seed is not None:
        doc["seed"] = entry.seed
    if entry.withdrawn:
        doc["withdrawn"] = True
    if entry.rating is not None:
        doc["rating"] = entry.rating
    return doc


def _round_state(rnd: Round) -> dict[str, Any]:
    doc: dict[str, Any] = {"stage": rnd.stage, "number": rnd.number,
                           "draw_match_ids": list(rnd.draw_match_ids)}
    if rnd.first_place is not None:
        doc["first_place"] = rnd.first_place
    return doc


def _options(doc: dict[str, Any]) -> Options:
    options = Options(**doc)
    if options.seed_by is not None:
        options.seed_by = SeedBy(options.seed_by)
    return options


def _placing(doc: dict[str, Any]) -> Placing:
    stage = doc.get("stage")
    return Placing(place=doc["place"], entry_id=doc["entry_id"], stage=Stage(stage) if stage else None)


def to_state(draw: Draw) -> dict[str, Any]:
    """The draw as a document, written out by hand (asdict deep-copied every leaf, most of the cost of completing
    a draw's match) and without the keys that hold None or a False flag (most of a draw match's; a 128-entry
    draw's document is about half the size), which `from_state` reads back as those defaults."""
    options = _flat(draw.options)
    if draw.options.table_ids is not None:
        options["table_ids"] = list(draw.options.table_ids)
    return {
        "id": draw.id, "broadcast_id": draw.broadcast_id, "name": draw.name, "format": draw.format,
        "created_on": draw.created_on,
        "entries": [_entry_state(e) for e in draw.entries],
        "options": options,
        "groups": [{"name": g.name, "entry_ids": list(g.entry_ids), "standings": [_flat(r) for r in g.standings],
                    "finished": g.finished} for g in draw.groups],
        "rounds": [_round_state(r) for r in draw.rounds],
        "matches": {key: _match_state(dm) for key, dm in draw.matches.items()},
        "placings": [_flat(p) for p in draw.placings],
        "status": draw.status, "ready_counter": draw.ready_counter,
    }


def _link(doc: dict[str, Any] | None) -> Link | None:
    return None if doc is None else Link(**doc)


def _source(doc: dict[str, Any] | None) -> Source | None:
    if doc is None:
        return None
    outcome = doc.get("outcome")
    return Source(draw_match_id=doc.get("draw_match_id"), outcome=_OUTCOMES[outcome] if outcome else None,
                  group=doc.get("group"), rank=doc.get("rank"))


def _match(doc: dict[str, Any]) -> DrawMatch:
    result = doc.get("result_type")
    return DrawMatch(
        id=doc["id"], stage=_STAGES[doc["stage"]], round_number=doc["round_number"], number=doc["number"],
        group=doc.get("group"),
        slots=[Slot(entry_id=s.get("entry_id"), source=_source(s.get("source")), closed=s.get("closed", False))
               for s in doc["slots"]],
        status=_STATUSES[doc["status"]], match_id=doc.get("match_id"),
        winner_entry_id=doc.get("winner_entry_id"), loser_entry_id=doc.get("loser_entry_id"),
        result_type=ResultType(result) if result else None,
        next_winner=_link(doc.get("next_winner")), next_loser=_link(doc.get("next_loser")),
        score=Score(**doc["score"]) if doc.get("score") else None, ready_seq=doc.get("ready_seq"),
    )


def from_state(doc: dict[str, Any]) -> Draw:
    return Draw(
        id=doc["id"], broadcast_id=doc["broadcast_id"], name=doc["name"], format=DrawFormat(doc["format"]),
        created_on=doc["created_on"],
        entries=entries_from(doc),
        options=_options(doc["options"]),
        groups=[Group(name=g["name"], entry_ids=list(g["entry_ids"]),
                      standings=[Standing(**r) for r in g["standings"]], finished=g.get("finished", False))
                for g in doc["groups"]],
        rounds=[Round(stage=Stage(r["stage"]), number=r["number"],
                      draw_match_ids=list(r["draw_match_ids"]), first_place=r.get("first_place"))
                for r in doc["rounds"]],
        matches={key: _match(m) for key, m in doc["matches"].items()},
        placings=[_placing(p) for p in doc["placings"]],
        status=DrawStatus(doc["status"]), ready_counter=doc.get("ready_counter", 0),
    )


# A draw is stored in parts (`models.DrawPart`), so that a change writes only what it changed: its entries, one part
# per draw match, and the head (everything else, with the draw matches' order).
HEAD = "head"
ENTRIES = "entries"
MATCH = "m:"


def to_parts(draw: Draw) -> dict[str, dict[str, Any]]:
    """The draw's parts by key: `head`, `entries`, and `m:<draw match ID>` for each draw match."""
    return changed_parts(draw, {})[0]


def state_of(parts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The whole document (`to_state`'s) the parts make."""
    state = dict(parts[HEAD])
    order = state.pop("order")
    state["entries"] = parts[ENTRIES]["entries"]
    state["matches"] = {key: parts[MATCH + key] for key in order}
    return state


def from_parts(parts: dict[str, dict[str, Any]]) -> Draw:
    return from_state(state_of(parts))


def entries_from(part: dict[str, Any]) -> list[Entry]:
    """The entries of a draw from its `entries` part alone."""
    return [Entry(id=e["id"], name=e["name"], players=[DrawPlayer(**p) for p in e["players"]], club=e.get("club"),
                  seed=e.get("seed"), withdrawn=e.get("withdrawn", False), rating=e.get("rating"))
            for e in part["entries"]]


def match_mark(dm: DrawMatch) -> tuple[Any, ...]:
    """Everything a draw match's part holds, cheaply (its nested values are frozen): equal marks, equal parts."""
    return (dm.id, dm.stage, dm.round_number, dm.number, dm.group, dm.status, dm.match_id, dm.winner_entry_id,
            dm.loser_entry_id, dm.result_type, dm.next_winner, dm.next_loser, dm.score, dm.ready_seq,
            tuple((slot.entry_id, slot.source, slot.closed) for slot in dm.slots))


def entries_mark(entries: list[Entry]) -> tuple[Any, ...]:
    """Everything the `entries` part holds, cheaply (players are frozen): equal marks, equal parts."""
    return tuple((e.id, e.name, tuple(e.players), e.club, e.seed, e.withdrawn, e.rating) for e in entries)


def head_of(draw: Draw) -> dict[str, Any]:
    """The `head` part alone."""
    options = _flat(draw.options)
    if draw.options.table_ids is not None:
        options["table_ids"] = list(draw.options.table_ids)
    return {
        "id": draw.id, "broadcast_id": draw.broadcast_id, "name": draw.name, "format": draw.format,
        "created_on": draw.created_on, "options": options,
        "groups": [{"name": g.name, "entry_ids": list(g.entry_ids), "standings": [_flat(r) for r in g.standings],
                    "finished": g.finished} for g in draw.groups],
        "rounds": [_round_state(r) for r in draw.rounds],
        "placings": [_flat(p) for p in draw.placings],
        "status": draw.status, "ready_counter": draw.ready_counter, "order": list(draw.matches),
    }


def changed_parts(draw: Draw, marks: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The parts of the draw whose marks differ from `marks` (the marks of its parts as stored; empty: none
    stored), encoded, and the marks of every part now. The head is compared whole (it is small)."""
    now: dict[str, Any] = {}
    changed: dict[str, dict[str, Any]] = {}
    head = head_of(draw)
    now[HEAD] = head
    if marks.get(HEAD) != head:
        changed[HEAD] = head
    mark = now[ENTRIES] = entries_mark(draw.entries)
    if marks.get(ENTRIES) != mark:
        changed[ENTRIES] = {"entries": [_entry_state(e) for e in draw.entries]}
    for key, dm in draw.matches.items():
        mark = now[MATCH + key] = match_mark(dm)
        if marks.get(MATCH + key) != mark:
            changed[MATCH + key] = _match_state(dm)
    return changed, now


def marks_of(draw: Draw) -> dict[str, Any]:
    """The marks of every part of the draw (what `changed_parts` compares with)."""
    marks: dict[str, Any] = {HEAD: head_of(draw), ENTRIES: entries_mark(draw.entries)}
    for key, dm in draw.matches.items():
        marks[MATCH + key] = match_mark(dm)
    return marks
