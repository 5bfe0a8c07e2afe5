"""The audit log in the console (contract §16): a match's history (board, scoring and results pages) and the
wording of entries on the Audit page. Pure functions turn an entry into words; `match_history` shows one
match's entries, oldest first, with who did what and why."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import streamlit as st

from console.board import clock_time
from console.client import ConsoleClient, ConsoleError
from console.scoring import score_line
from console.ui import client, load, side_name

ACTIONS = {
    "match.synced": "Synced by the partner", "match.created": "Created", "match.moved": "Moved",
    "match.started": "Started", "match.scored": "Score set", "match.point": "Point",
    "match.point_undone": "Point undone", "match.completed": "Completed", "match.corrected": "Result corrected",
    "match.walkover": "Walkover", "match.retired": "Retired", "match.called": "Called",
    "match.cancelled": "Cancelled", "match.result_entered": "Result typed in from paper",
    "match.stopped": "Stopped: back to waiting (its games are kept here)",
    "person.checked_in": "Checked in", "person.checked_out": "Check-in undone",
    "broadcast.event_settings_changed": "Event settings changed", "draw.created": "Draw created",
    "draw.withdrawn": "Entry withdrawn", "draw.deleted": "Draw deleted", "draw.completed": "Draw completed",
    "table.queue_reordered": "Queue reordered", "link.rotated": "Link rotated", "link.revoked": "Link revoked",
    "link.enabled": "Link enabled", "link.disabled": "Link disabled", "key.created": "Developer key created",
    "key.rotated": "Operator key rotated", "app.created": "App registered",
    "connection.approved": "Connection approved", "connection.revoked": "Connection revoked",
    "roster.signed_up": "Signed up", "broadcast.created": "Event created", "broadcast.changed": "Event changed",
    "broadcast.deleted": "Event deleted", "broadcast.handed_over": "Courts handed over",
    "court.changed": "Court's player list changed", "roster.created": "Roster created",
    "roster.changed": "Roster changed", "roster.deleted": "Roster deleted",
    "player_list.created": "Player list created", "player_list.synced": "Player list synced by the partner",
    "player_list.changed": "Player list changed by the partner", "team.synced": "Team synced by the partner",
    "team.changed": "Team changed by the partner", "player.created": "Player added",
    "player.changed": "Player changed", "player.deleted": "Player removed", "player.imported": "Players imported",
    "broadcast.planned": "Order of play planned", "match.planned": "Moved in the order of play",
    "report.submitted": "Result reported by a player", "report.confirmed": "Reported result confirmed",
    "report.disputed": "Reported result disputed", "report.cancelled": "Reported result withdrawn",
    "draw.replaced": "Entry replaced",
    "webhook.configured": "Webhook settings changed", "webhook.secret_rotated": "Webhook secret rotated",
}
ACTORS = {"operator": "Operator (console)", "partner": "Partner app", "scorer": "Scorer phone",
          "registration": "Sign-up page", "player": "Player (own link)", "system": "Courtside"}
SHOWN_FIELDS = ("status", "gameScores", "tableID", "queue", "enabled", "revokedOn", "scopes", "name", "checkedIn",
                "requireCheckIn", "restMinutes", "winnerSide", "resultType")
# change with every write, or are the machinery of scoring: saying so tells a club nothing
BOOKKEEPING = ("id", "updatedOn", "scoreVersion", "pointLog", "scorers", "seq", "opIDs", "version", "keyHash")
FIELDS = {"gameScores": "score", "tableID": "court", "queue": "queue", "revokedOn": "revoked",
          "checkedIn": "checked in", "requireCheckIn": "check-in required", "restMinutes": "rest minutes",
          "winnerSide": "winner", "resultType": "result", "startedOn": "start time", "completedOn": "end time",
          "calledOn": "call time", "queuePosition": "place in the queue", "scheduledOn": "scheduled time"}
STATUSES = {"pending": "waiting", "active": "in play"}
SIDES = {"a": "side A", "b": "side B"}
RECORDS = {"match": "a match", "table": "a court", "link": "a link", "output": "an output link",
           "key": "the operator key", "connection": "a connection", "app": "an app", "roster": "a roster",
           "draw": "a draw", "person": "a player", "broadcast": "an event", "player": "a player",
           "player_list": "a player list", "team": "a team", "draw_match": "a draw's match"}
CONNECTIONS = {"developer_key": "Partner (developer key)", "house": "Courtside"}
LINKS = {"scorer": "Scorer link", "event": "Event page link", "registration": "Sign-up link"}


def what(entry: dict[str, Any]) -> str:
    """`Result corrected`; an action not named here in words from its name (`draw.reseeded` → `Draw reseeded`)."""
    action = str(entry.get("action"))
    return ACTIONS.get(action, action.replace(".", " ").replace("_", " ").capitalize())


def match_name(match: dict[str, Any], labels: dict[str, str] | None = None) -> str:
    """`Ann Lee vs Bo Chen (Court 1)`: a match as a club names it (its court when it has one)."""
    name = f"{side_name(match, 'a')} vs {side_name(match, 'b')}"
    court = (labels or {}).get(str(match.get("tableID")))
    return f"{name} ({court})" if court else name


def _read(fetch: Callable[..., list[dict[str, Any]]], *args: Any) -> list[dict[str, Any]]:
    """A list for naming records; a read that fails leaves its records out (they are said in general words)."""
    try:
        return fetch(*args)
    except ConsoleError:
        return []


def actors(api: ConsoleClient) -> dict[str, dict[str, str]]:
    """Who may act besides the operator and a court's phone, in words: partner apps by connection, sign-up pages
    by roster."""
    return {
        "roster": {str(r["id"]): str(r.get("name") or "a roster") for r in _read(api.rosters)},
        "connection": {str(c["connectionID"]): str(c.get("appName") or CONNECTIONS.get(str(c.get("kind")),
                                                                                       "Partner app"))
                       for c in _read(api.connections) if c.get("connectionID")},
    }


def records(api: ConsoleClient) -> dict[str, dict[str, str]]:
    """The records an audit entry may name, by type, in words: `{"match": {"mat_…": "Ann Lee vs Bo Chen (Court
    1)"}, "table": {…: "Court 1"}, "broadcast": …, "draw": …, "roster": …, "connection": {…: the partner app's
    name}}`."""
    courts = {str(t["id"]): str(t["label"]) for t in _read(api.tables)}
    events = {str(b["id"]): str(b["name"]) for b in _read(api.broadcasts)}
    draws = {str(d["id"]): f"{d['name']} ({name})" for ident, name in events.items()
             for d in _read(api.draws, ident)}
    return {
        "match": {str(m["id"]): match_name(m, courts) for m in _read(api.all, "/operator/matches")},
        "table": courts, "broadcast": events, "draw": draws,
    } | actors(api)


def flat(by_type: dict[str, dict[str, str]]) -> dict[str, str]:
    """Words for every ID of `records` or `actors`, whatever its type."""
    found: dict[str, str] = {}
    for by_id in by_type.values():
        found |= by_id
    return found


def record_name(target: dict[str, Any], labels: dict[str, str] | None = None) -> str:
    """What an entry is about in words: `Ann Lee vs Bo Chen (Court 1)`, `Scorer link of Court 2`, `a draw`."""
    labels = labels or {}
    kind, ident = str(target.get("type")), str(target.get("id"))
    if ident in labels:
        return labels[ident]
    link_kind, sep, of = ident.partition(":")
    if sep and of in labels:
        return f"{LINKS.get(link_kind, 'Link')} of {labels[of]}"
    return RECORDS.get(kind, kind)


def who(entry: dict[str, Any], labels: dict[str, str] | None = None) -> str:
    """`Operator (console)`, `Scorer phone, Court 2`, the partner app's name, `Sign-up page of Spring League`."""
    actor = entry.get("actor") or {}
    kind, ident = str(actor.get("kind")), str(actor.get("id"))
    known = (labels or {}).get(ident)
    if kind == "scorer":
        return f"Scorer phone, {known}" if known else "Scorer phone"
    if kind == "partner":
        return known or "Partner app"
    if kind == "registration":
        return f"Sign-up page of {known}" if known else "Sign-up page"
    return ACTORS.get(kind, kind)


def field_name(field: str) -> str:
    """`gameScores` → `score`; a field not named here in plain words from its camelCase (`startedOn` → `started
    on`)."""
    if field in FIELDS:
        return FIELDS[field]
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", field.removesuffix("ID")).lower()


def _value(field: str, value: Any, labels: dict[str, str]) -> str:
    if field == "tableID" and not value:
        return "pool"  # a draw's match waiting for any court
    if value is None or value == "":
        return "none"
    if field == "gameScores" and isinstance(value, list):
        return score_line(value)
    if field == "tableID":
        return labels.get(str(value), "another court")
    if field == "status":
        return STATUSES.get(str(value), str(value))
    if field == "winnerSide":
        return SIDES.get(str(value), str(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field == "queue" and isinstance(value, list):
        return ", ".join(labels.get(str(item), "a match") for item in value) or "empty"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or "none"
    return str(value)


def change(entry: dict[str, Any], labels: dict[str, str] | None = None) -> str:
    """The entry's change in words: `score 11-7, 3-2 → 11-7, 4-2; status in play → completed`."""
    labels = labels or {}
    before, after = entry.get("before"), entry.get("after")
    if before is None and isinstance(after, dict):
        return "new" + "".join(f"; {field_name(field)} {_value(field, after[field], labels)}"
                               for field in SHOWN_FIELDS if after.get(field))
    if after is None and before is not None:
        return "removed"
    if not isinstance(before, dict) or not isinstance(after, dict):
        return ""
    parts = [f"{field_name(field)} {_value(field, before.get(field), labels)} → "
             f"{_value(field, after.get(field), labels)}"
             for field in SHOWN_FIELDS if field in before or field in after]
    others = [field_name(field) for field in after if field not in SHOWN_FIELDS and field not in BOOKKEEPING]
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
            row["Record"] = record_name(target, labels)
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
    if any((e.get("actor") or {}).get("kind") in ("partner", "registration") for e in entries):
        labels = flat(actors(client())) | (labels or {})  # the partner app's or the roster's name
    st.dataframe(rows(entries, labels), hide_index=True, width="stretch")  # cells are text, never Markdown
