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


def to_state(draw: Draw) -> dict[str, Any]:
    return dataclasses.asdict(draw)


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
