"""Pure helpers of the court board and the schedule import: queue reordering, times, warnings, sheet rows."""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Any, Literal

import pandas as pd

from domain.models import Attention, BlockReason
from domain.names import full_name

Where = Literal["up", "down", "top"]


def queue_after(order: list[str], match_id: str, where: Where) -> list[str]:
    """The queue order after moving `match_id` one place up, one down, or to the front."""
    new = list(order)
    index = new.index(match_id)
    target = {"up": max(index - 1, 0), "down": min(index + 1, len(new) - 1), "top": 0}[where]
    new.insert(target, new.pop(index))
    return new


def clock_time(moment: str | None) -> str:
    """`14:05`: an API timestamp as a wall-clock time of this machine (the desk's), for the board."""
    if not moment:
        return ""
    return datetime.fromisoformat(moment.replace("Z", "+00:00")).astimezone().strftime("%H:%M")


def busy_text(match: dict[str, Any]) -> str:
    """`Ann Lee is playing on Court 3`: who of a queued match is on another court right now ("" if nobody)."""
    return "; ".join(f"{p['name']} is playing on {p['tableLabel']}" for p in match.get("busyPlayers") or [])


def blocked_text(match: dict[str, Any]) -> str:
    """Every reason a queued match may not start now, in words (contract §14, §19: all of them, not the first):
    busy (where), resting (until), not checked in (who), not before (when), joined by " · "; "" when it may."""
    blocks = match.get("blockedByAll")
    if blocks is None:  # a read of a server before §19: the first reason only
        blocks = [match["blockedBy"]] if match.get("blockedBy") else []
    return " · ".join(_block_text(match, block) for block in blocks)


def _block_text(match: dict[str, Any], block: dict[str, Any]) -> str:
    players = ", ".join(block.get("players") or [])
    reason = block.get("reason")
    if reason == BlockReason.PLAYER_BUSY:
        return busy_text(match) or f"{players} playing on another court"
    if reason == BlockReason.PLAYER_RESTING:
        return f"{players} resting until {clock_time(block.get('until'))}"
    if reason == BlockReason.NOT_CHECKED_IN:
        return f"Not checked in: {players}"
    if reason == BlockReason.NOT_BEFORE:
        return f"Not before {clock_time(block.get('until'))}"
    return str(reason)


def next_startable(queue: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The match "Start next" starts: a called match first, else the first queued one, that may start now."""
    free = [m for m in queue if not m.get("blockedBy") and not m.get("busyPlayers")]
    called = sorted((m for m in free if m.get("calledOn")), key=lambda m: m["calledOn"])
    first = called or free
    return first[0] if first else None


def next_to_call(queue: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The match to call: the one "Start next" would start, else (a club calls early: the court still in play, or
    before the match's time) the first queued match not yet called whose players are not playing elsewhere."""
    startable = next_startable(queue)
    if startable is not None:
        return startable
    return next((m for m in queue if not m.get("calledOn") and not m.get("busyPlayers")), None)


def pool_call(pool: list[dict[str, Any]], table_id: str) -> dict[str, Any] | None:
    """The court pool's match to call to a free court: the first (in start-next's order) not called yet, whose
    players are free and that may start, planned on this court or on none (a draw's match waits in the pool with
    no court, so the board's own Call never saw it: its players got no call-up mail, issue 51.1)."""
    return next((m for m in pool if not m.get("calledOn") and not m.get("busyPlayers") and not m.get("blockedBy")
                 and m.get("plannedTableID") in (None, "", table_id)), None)


def attention_text(table: dict[str, Any], *, now: datetime) -> str:
    """Why a court is highlighted, in words (the colour only repeats it): overdue, or free with a queue (not while
    every queued match waits for its start time)."""
    if table.get("attention") == Attention.OVERDUE:
        active = table.get("activeMatch") or {}
        started = active.get("startedOn")
        minutes = int((now - datetime.fromisoformat(started.replace("Z", "+00:00"))).total_seconds() // 60) \
            if started else 0
        return f"Overdue: in play {minutes} min, typical {table.get('typicalMinutes', 0):g} min"
    if table.get("attention") == Attention.WAITING:
        queue = table.get("queue") or []
        if queue and all((m.get("blockedBy") or {}).get("reason") == BlockReason.NOT_BEFORE for m in queue):
            return ""  # every match waits for its start time: nothing for the operator to do yet (§9a)
        waiting = len(queue)
        return f"Free court: {waiting} {'match' if waiting == 1 else 'matches'} waiting"
    return ""


def player_names(player_list: dict[str, Any] | None) -> dict[str, str]:
    """"First Last" -> externalID of a player list's players (what the New match form offers)."""
    names: dict[str, str] = {}
    for player in (player_list or {}).get("players") or []:
        name = full_name(player)
        if name and player.get("externalID"):
            names.setdefault(name, player["externalID"])
    return names


def participant(cell: str | None, names: dict[str, str]) -> dict[str, str] | None:
    """A name picked from the court's list (by its externalID) or typed (a manual name); None when empty."""
    text = " ".join((cell or "").split())
    if not text:
        return None
    return {"externalID": names[text]} if text in names else {"manualName": text}


COLUMN_ALIASES = {
    "court": "court", "table": "court", "playera": "playerA", "playerb": "playerB", "playera2": "playerA2",
    "playerb2": "playerB2", "round": "round", "matchround": "round", "event": "event", "eventname": "event",
    "bestof": "bestOf", "scheduledon": "scheduledOn", "starttime": "scheduledOn", "time": "scheduledOn",
    "start": "scheduledOn",
}
MAX_ROWS = 1000
TIME_OF_DAY = re.compile(r"^([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$")  # 14:00, 9:30, 14:00:00 (Excel)


def start_cell(text: str) -> tuple[str, str]:
    """A start column's cell as an import field: a time of day (`14:00`) is `time`, on the day the import names;
    anything else (`2026-11-21T14:00:00+01:00`) is a full `scheduledOn`."""
    return ("time", text) if TIME_OF_DAY.match(text) else ("scheduledOn", text)


def sheet_rows(frame: pd.DataFrame, aliases: dict[str, str], *, required: tuple[str, ...], known: str,
               ) -> tuple[list[dict[str, str]], list[str]]:
    """The rows of a sheet as import rows (by `aliases`: a column name ignoring case, spaces, `_` and `-` -> a
    field), and the sheet's problems (unknown or missing columns). Empty cells are left out; every value is text,
    as typed (an Excel number `5.0` is `5`)."""
    columns: dict[str, str] = {}
    problems: list[str] = []
    for column in frame.columns:
        key = "".join(ch for ch in str(column).lower() if ch.isalnum())
        if key in aliases:
            columns[str(column)] = aliases[key]
        else:
            problems.append(f"Column '{column}' is not used (known: {known}).")
    missing = [name for name in required if name not in columns.values()]
    if missing:
        problems.insert(0, f"The sheet needs the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}.")
    rows = []
    for record in frame.to_dict(orient="records"):
        row = {}
        for column, name in columns.items():
            value = record.get(column)
            text = "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value).strip()
            if isinstance(value, float) and value.is_integer():
                text = str(int(value))
            if text:
                row[name] = text
        rows.append(row)
    return rows, problems


def schedule_rows(frame: pd.DataFrame) -> tuple[list[dict[str, str]], list[str]]:
    """The rows of a schedule sheet as import rows, and the sheet's problems (unknown or missing columns).

    Column names are matched ignoring case, spaces, `_` and `-` ("Player A", "player_a", "playerA"); a start
    column's time of day is sent as `time`, a full date-time as `scheduledOn`.
    """
    rows, problems = sheet_rows(frame, COLUMN_ALIASES, required=("court", "playerA", "playerB"),
                                known="court, playerA, playerB, playerA2, playerB2, round, event, bestOf, time")
    for row in rows:
        if "scheduledOn" in row:
            key, text = start_cell(row.pop("scheduledOn"))
            row[key] = text
    return rows, problems


PLAYER_ALIASES = {
    "firstname": "firstName", "first": "firstName", "givenname": "firstName", "forename": "firstName",
    "lastname": "lastName", "last": "lastName", "surname": "lastName", "familyname": "lastName",
    "name": "name", "fullname": "name", "player": "name",
    "clubname": "clubName", "club": "clubName", "country": "country", "nation": "country",
    "gender": "gender", "sex": "gender",
    "email": "email", "mail": "email", "emailaddress": "email",
    "rating": "rating", "elo": "rating",
}


def player_rows(frame: pd.DataFrame) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of a player sheet as player import rows (firstName, lastName, clubName, country, gender, email,
    rating), and the sheet's problems. A sheet with one `name` column instead is split at the last space ("Ann Marie
    Lee": first name "Ann Marie", last name "Lee"). A rating that reads as a number is sent as one (draws seed by
    it)."""
    texts, problems = sheet_rows(frame, PLAYER_ALIASES, required=(),
                                 known="firstName, lastName, name, clubName, country, gender, email, rating")
    names = {name for row in texts for name in row}
    if not {"firstName", "lastName"} <= names and "name" not in names and texts:
        problems.insert(0, "The sheet needs the columns firstName and lastName (or one column name).")
    rows: list[dict[str, Any]] = []
    for row in texts:
        full = " ".join(row.pop("name", "").split())
        if full and not (row.get("firstName") or row.get("lastName")):
            first, _, last = full.rpartition(" ")
            row.update({"firstName": first, "lastName": last} if first else {"firstName": last})
        rows.append({k: rating_value(v) if k == "rating" else v for k, v in row.items()})
    return rows, problems


def rating_value(text: str) -> float | int | str:
    """A typed rating as the API stores it: a number when it reads as one ("1850", "4.5"), else the text."""
    try:
        number = float(text)
    except ValueError:
        return text
    if not math.isfinite(number):
        return text
    return int(number) if number.is_integer() else number


def repeated_in_sheet(rows: list[dict[str, str]], results: list[dict[str, Any]]) -> list[bool]:
    """Per player row of an import's dry run: whether its `player_exists` names a new player of this same sheet
    (an earlier row), not one already in the list, so the preview can say "twice in this sheet". The API names the
    player it matched as stored (`details.name`); a new row is stored NFC, trimmed, one space between words."""
    new_names: set[str] = set()
    repeated = []
    for row, result in zip(rows, results, strict=True):
        error = result.get("error") or {}
        repeated.append(error.get("code") == "player_exists"
                        and str((error.get("details") or {}).get("name")) in new_names)
        if not error:
            new_names.add(full_name(row))
    return repeated


def left_out_text(in_list: int, in_sheet: int, total: int, fresh: int, list_name: str) -> str:
    """The preview's line about the rows left out: which are already in the list, which are in the sheet twice."""
    parts = []
    if in_list:
        parts.append(f"{in_list} of {total} players {'is' if in_list == 1 else 'are'} already in {list_name}")
    if in_sheet:
        parts.append(f"{in_sheet} {'row repeats a name' if in_sheet == 1 else 'rows repeat a name'} "
                     "from higher up in the sheet")
    return f"{' and '.join(parts)}: {'it is' if in_list + in_sheet == 1 else 'they are'} left out; {fresh} new."
