"""A draw's state as a plain JSON document and back (what `models.DrawRecord.state` holds)."""

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
    Slot,
    Source,
    Stage,
    Standing,
)

_NAMES: dict[type, tuple[str, ...]] = {}


def _flat(obj: Any) -> dict[str, Any]:
    """A dataclass whose fields are all scalars, as a dict in field order (what `dataclasses.asdict` gives)."""
    names = _NAMES.get(type(obj))
    if names is None:
        names = _NAMES[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    return {name: getattr(obj, name) for name in names}


def _maybe(obj: Any) -> dict[str, Any] | None:
    return None if obj is None else _flat(obj)


def _match_state(dm: DrawMatch) -> dict[str, Any]:
    return {"id": dm.id, "stage": dm.stage, "round_number": dm.round_number, "number": dm.number, "group": dm.group,
            "slots": [{"entry_id": s.entry_id, "source": _maybe(s.source), "closed": s.closed} for s in dm.slots],
            "status": dm.status, "match_id": dm.match_id, "winner_entry_id": dm.winner_entry_id,
            "loser_entry_id": dm.loser_entry_id, "result_type": dm.result_type,
            "next_winner": _maybe(dm.next_winner), "next_loser": _maybe(dm.next_loser), "score": _maybe(dm.score),
            "ready_seq": dm.ready_seq}


def to_state(draw: Draw) -> dict[str, Any]:
    """The same document as `dataclasses.asdict(draw)`, written out by hand: asdict deep-copies every leaf and
    was most of the cost of completing a draw's match (docs/performance.md)."""
    options = _flat(draw.options)
    if draw.options.table_ids is not None:
        options["table_ids"] = list(draw.options.table_ids)
    return {
        "id": draw.id, "broadcast_id": draw.broadcast_id, "name": draw.name, "format": draw.format,
        "created_on": draw.created_on,
        "entries": [{"id": e.id, "name": e.name, "players": [_flat(p) for p in e.players], "club": e.club,
                     "seed": e.seed, "withdrawn": e.withdrawn} for e in draw.entries],
        "options": options,
        "groups": [{"name": g.name, "entry_ids": list(g.entry_ids), "standings": [_flat(r) for r in g.standings],
                    "finished": g.finished} for g in draw.groups],
        "rounds": [{"stage": r.stage, "number": r.number, "name": r.name, "draw_match_ids": list(r.draw_match_ids)}
                   for r in draw.rounds],
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
    return Source(draw_match_id=doc.get("draw_match_id"), outcome=Outcome(outcome) if outcome else None,
                  group=doc.get("group"), rank=doc.get("rank"))


def _match(doc: dict[str, Any]) -> DrawMatch:
    result = doc.get("result_type")
    return DrawMatch(
        id=doc["id"], stage=Stage(doc["stage"]), round_number=doc["round_number"], number=doc["number"],
        group=doc.get("group"),
        slots=[Slot(entry_id=s.get("entry_id"), source=_source(s.get("source")), closed=s.get("closed", False))
               for s in doc["slots"]],
        status=DrawMatchStatus(doc["status"]), match_id=doc.get("match_id"),
        winner_entry_id=doc.get("winner_entry_id"), loser_entry_id=doc.get("loser_entry_id"),
        result_type=ResultType(result) if result else None,
        next_winner=_link(doc.get("next_winner")), next_loser=_link(doc.get("next_loser")),
        score=Score(**doc["score"]) if doc.get("score") else None, ready_seq=doc.get("ready_seq"),
    )


def from_state(doc: dict[str, Any]) -> Draw:
    return Draw(
        id=doc["id"], broadcast_id=doc["broadcast_id"], name=doc["name"], format=DrawFormat(doc["format"]),
        created_on=doc["created_on"],
        entries=[Entry(id=e["id"], name=e["name"], players=[DrawPlayer(**p) for p in e["players"]],
                       club=e.get("club"), seed=e.get("seed"), withdrawn=e.get("withdrawn", False))
                 for e in doc["entries"]],
        options=Options(**doc["options"]),
        groups=[Group(name=g["name"], entry_ids=list(g["entry_ids"]),
                      standings=[Standing(**r) for r in g["standings"]], finished=g.get("finished", False))
                for g in doc["groups"]],
        rounds=[Round(stage=Stage(r["stage"]), number=r["number"], name=r["name"],
                      draw_match_ids=list(r["draw_match_ids"])) for r in doc["rounds"]],
        matches={key: _match(m) for key, m in doc["matches"].items()},
        placings=[Placing(**p) for p in doc["placings"]],
        status=DrawStatus(doc["status"]), ready_counter=doc.get("ready_counter", 0),
    )
