"""The audit log in the console (contract §16): a match's history (board, scoring and results pages) and the
wording of entries on the Audit page. Pure functions turn an entry into words; `match_history` shows one
match's entries, oldest first, with who did what and why."""

from __future__ import annotations

from typing import Any

import streamlit as st

from console.board import clock_time
from console.scoring import score_line
from console.ui import client, load

ACTIONS = {
    "match.synced": "Synced by the partner", "match.created": "Created", "match.moved": "Moved",
    "match.started": "Started", "match.scored": "Score set", "match.point": "Point",
    "match.point_undone": "Point undone", "match.completed": "Completed", "match.corrected": "Result corrected",
    "match.walkover": "Walkover", "match.retired": "Retired", "match.called": "Called",
    "match.cancelled": "Cancelled", "person.checked_in": "Checked in", "person.checked_out": "Check-in undone",
    "broadcast.event_settings_changed": "Event settings changed", "draw.created": "Draw created",
    "draw.withdrawn": "Entry withdrawn", "draw.deleted": "Draw deleted",
    "table.queue_reordered": "Queue reordered", "link.rotated": "Link rotated", "link.revoked": "Link revoked",
    "link.enabled": "Link enabled", "link.disabled": "Link disabled", "key.created": "Developer key created",
    "key.rotated": "Operator key rotated", "app.created": "App registered",
    "connection.approved": "Connection approved", "connection.revoked": "Connection revoked",
    "roster.signed_up": "Signed up",
}
ACTORS = {"operator": "Operator", "partner": "Partner", "scorer": "Scorer link", "registration": "Sign-up page",
          "system": "Courtside"}
SHOWN_FIELDS = ("status", "gameScores", "tableID", "queue", "enabled", "revokedOn", "scopes", "name", "checkedIn",
                "requireCheckIn", "restMinutes", "winnerSide", "resultType")
BOOKKEEPING = ("id", "updatedOn", "scoreVersion")  # change with every write: saying so tells the reader nothing


def what(entry: dict[str, Any]) -> str:
    return ACTIONS.get(str(entry.get("action")), str(entry.get("action")))


def who(entry: dict[str, Any], labels: dict[str, str] | None = None) -> str:
    """`Operator (opk_…)`, `Partner (conn_…)`, `Scorer link of Court 1`, ..."""
    actor = entry.get("actor") or {}
    kind, ident = str(actor.get("kind")), str(actor.get("id"))
    if kind == "scorer":
        return f"Scorer link of {(labels or {}).get(ident, ident)}"
    return f"{ACTORS.get(kind, kind)} ({ident})"


def _value(field: str, value: Any, labels: dict[str, str]) -> str:
    if value is None:
        return "none"
    if field == "gameScores" and isinstance(value, list):
        return score_line(value)
    if field == "tableID":
        return labels.get(str(value), str(value))
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or "none"
    return str(value)


def change(entry: dict[str, Any], labels: dict[str, str] | None = None) -> str:
    """The entry's change in words: `score 11-7, 3-2 → 11-7, 4-2; status active → completed`."""
    labels = labels or {}
    before, after = entry.get("before"), entry.get("after")
    if before is None and isinstance(after, dict):
        return "new" + "".join(f"; {field} {_value(field, after[field], labels)}"
                               for field in SHOWN_FIELDS if after.get(field))
    if after is None and before is not None:
        return "removed"
    if not isinstance(before, dict) or not isinstance(after, dict):
        return ""
    parts = [f"{field} {_value(field, before.get(field), labels)} → {_value(field, after.get(field), labels)}"
             for field in SHOWN_FIELDS if field in before or field in after]
    others = [field for field in after if field not in SHOWN_FIELDS and field not in BOOKKEEPING]
    if others:
        parts.append("changed " + ", ".join(others))
    return "; ".join(parts)


def rows(entries: list[dict[str, Any]], labels: dict[str, str] | None = None, *,
         record: bool = False) -> list[dict[str, Any]]:
    """Table rows of entries, in the order given (`record`: with the record each one is about)."""
    found = []
    for e in entries:
        row: dict[str, Any] = {"#": e.get("seq"), "When": clock_time(str(e.get("at"))), "What": what(e)}
        if record:
            target = e.get("target") or {}
            row["Record"] = (labels or {}).get(str(target.get("id")), str(target.get("id")))
        row |= {"Who": who(e, labels), "Reason": e.get("reason") or "", "Change": change(e, labels)}
        found.append(row)
    return found


def match_history(match: dict[str, Any], *, key: str, labels: dict[str, str] | None = None) -> None:
    """A "History" toggle for one match; on, every entry about it, oldest first, with actor and reason. Read
    from the API only while it is on (the pages refresh often)."""
    if not st.toggle("History", key=f"history_{key}_{match['id']}",
                     help="Every change of this match: who made it, when, and why (the audit log)."):
        return
    entries = load(client().match_history, match["id"])
    if entries is None:
        return
    if not entries:
        st.caption("No recorded change yet.")
        return
    st.dataframe(rows(entries, labels), hide_index=True, width="stretch")  # cells are text, never Markdown
