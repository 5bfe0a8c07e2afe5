"""Players' own links in the console (contract §21), apart from Streamlit: the event's switches as the API reads
them, the board's "Results to check" rows and the players' mail list beside Deliveries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from console.scoring import score_line
from console.ui import match_label

Json = dict[str, Any]
CONFIRM_MINUTES = 10  # the API's default `selfReportConfirmMinutes`
MAIL_STATUSES = ("pending", "failing", "sent")
MAIL_COLUMNS = {"createdOn": "Queued", "status": "Status", "to": "To", "subject": "Subject",
                "attempts": "Attempts", "lastError": "Last error", "nextAttemptOn": "Next attempt"}


@dataclass(frozen=True)
class Switches:
    """The broadcast's §21 switches."""

    self_check_in: bool
    self_report: bool
    confirm_minutes: int

    def body(self) -> Json:
        """The `eventDay` keys they are (a partial patch: the other rules stay)."""
        return {"selfCheckIn": self.self_check_in, "selfReport": self.self_report,
                "selfReportConfirmMinutes": self.confirm_minutes}


def switches_of(broadcast: Json) -> Switches:
    """The switches a broadcast read carries (the API's defaults when it predates them)."""
    day = broadcast.get("eventDay") or {}
    return Switches(bool(day.get("selfCheckIn", False)), bool(day.get("selfReport", False)),
                    int(day.get("selfReportConfirmMinutes", CONFIRM_MINUTES)))


def confirm_words(minutes: int) -> str:
    """What the confirm minutes mean, in words."""
    if minutes == 0:
        return "A report waits until the opponent or the desk acts."
    return f"A report the opponent leaves unanswered is confirmed after {minutes} minutes."


@dataclass(frozen=True)
class ToCheck:
    """One player's report the desk may accept: where, who, what, and its state in words."""

    report_id: str
    match: Json | None
    court: str
    label: str
    games: str
    reporter: str
    status: str

    @property
    def line(self) -> str:
        """`Court 3 · Ann Lee vs Bo Kim: 11-6 by Ann Lee · waiting for the opponent`."""
        state = "disputed by the opponent" if self.status == "disputed" else "waiting for the opponent"
        where = f"{self.court} · " if self.court else ""
        return f"{where}{self.label}: {self.games} by {self.reporter} · {state}"


def to_check(reports: list[Json], tables: list[Json], people: list[Json]) -> list[ToCheck]:
    """The reports still to settle (waiting or disputed), newest first, with the match and court the board knows
    (its match in play, or one waiting on a court) and the reporter's name."""
    where: dict[str, tuple[Json, str]] = {}
    for table in tables:
        for match in [table.get("activeMatch"), *(table.get("queue") or [])]:
            if match:
                where[match["id"]] = (match, str(table.get("label") or ""))
    names = {p["personID"]: str(p["name"]) for p in people}
    rows = []
    for report in reports:
        if report["status"] not in ("waiting", "disputed"):  # confirmed, or its match cancelled
            continue
        match, court = where.get(report["matchID"], (None, ""))
        rows.append(ToCheck(
            report_id=str(report["reportID"]), match=match, court=court,
            label=match_label(match) if match else "a match no longer on a court",
            games=score_line(report["gameScores"], match).replace(", ", " "),
            reporter=names.get(report["reportedBy"], "a player"), status=str(report["status"])))
    return rows


def mail_counts(messages: list[Json]) -> dict[str, int]:
    """Messages per status (every status, 0 included)."""
    return {status: sum(1 for m in messages if m["status"] == status) for status in MAIL_STATUSES}


def mail_table(messages: list[Json]) -> pd.DataFrame:
    """One row per message, failing ones first (what the desk must look at), then newest first."""
    ordered = sorted(messages, key=lambda m: m["status"] != "failing")
    frame = pd.DataFrame([{label: m.get(key) for key, label in MAIL_COLUMNS.items()} for m in ordered],
                         columns=list(MAIL_COLUMNS.values()))
    return frame
