"""The order of play in the console (contract §20), the parts without Streamlit: the grid as a table (courts as
columns, times as rows), a slot's words, local times to and from the API's timestamps."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, tzinfo
from typing import Any

import pandas as pd

SEVERITY_ORDER = {"error": 0, "warning": 1}


def local(moment: str, zone: tzinfo) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00")).astimezone(zone)


def stamp(day: date, clock: time, zone: tzinfo) -> str:
    """A local day and time as the API's timestamp (UTC, `Z`)."""
    return datetime.combine(day, clock, tzinfo=zone).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:00Z")


def slot_words(slot: dict[str, Any]) -> str:
    """"Ann Lee v Bo Kim · Singles Final"."""
    what = " · ".join(str(x) for x in (slot.get("event"), slot.get("round")) if x)
    names = " v ".join(slot.get("names") or [])
    return f"{names} · {what}" if what else names


def grid_frame(day: dict[str, Any], zone: tzinfo) -> pd.DataFrame:
    """One day of the grid: a row per planned start (local HH:MM), a column per court."""
    labels = [court["label"] for court in day["courts"]]
    cells: dict[str, dict[str, list[str]]] = {}
    for court in day["courts"]:
        for slot in court["slots"]:
            at = local(slot["plannedOn"], zone).strftime("%H:%M")
            cells.setdefault(at, {label: [] for label in labels})[court["label"]].append(slot_words(slot))
    rows = [{"Time": at} | {label: "; ".join(found) for label, found in cells[at].items()} for at in sorted(cells)]
    return pd.DataFrame(rows, columns=["Time", *labels])


def slots_of(grid: dict[str, Any], zone: tzinfo) -> dict[str, dict[str, Any]]:
    """Every planned slot by its key (match or draw match ID), with its court and local time, to pick one."""
    found = {}
    for day in grid["days"]:
        for court in day["courts"]:
            for slot in court["slots"]:
                key = slot.get("matchID") or slot["drawMatchID"]
                when = local(slot["plannedOn"], zone)
                found[key] = slot | {"label": f"{when:%a %H:%M} · {court['label']} · {slot_words(slot)}",
                                     "tableID": court["tableID"]}
    return found


def unplaced_of(grid: dict[str, Any], first_court: str, day_start: str) -> dict[str, dict[str, Any]]:
    """Every match without a place, by its key, to place by hand: on the first court at the day's start until the
    operator picks another (issue 46: an unplaced match could not be placed by hand)."""
    return {(row.get("matchID") or row["drawMatchID"]): row | {
        "label": f"Not placed · {slot_words(row)}", "tableID": first_court, "plannedOn": day_start}
        for row in grid.get("unplaced", [])}


def unplaced_words(row: dict[str, Any]) -> str:
    """"Not placed: Winner of SF-1 v Winner of SF-2 · Singles Final (30 min): no court has ..."."""
    reason = f": {row['reason']}" if row.get("reason") else ""
    return f"Not placed: {slot_words(row)} ({row['minutes']} min){reason}"


def sorted_conflicts(conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Errors first, then warnings, each in the API's order."""
    return sorted(conflicts, key=lambda c: SEVERITY_ORDER.get(c["severity"], 2))
