"""A broadcast's plan settings (contract §20): checked against the broadcast, and each match's typical minutes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo
from typing import Any

from domain.errors import Invalid
from domain.match.formats import Format, GamesFormat
from domain.models import Broadcast

#: Each preset's typical minutes (listed with it by `GET /operator/scoring-formats`).
TYPICAL_MINUTES = {
    "badminton": 40, "badminton_15": 30, "table_tennis": 30, "table_tennis_7": 40, "squash": 45, "pickleball": 30,
    "volleyball": 90, "beach_volleyball": 50, "tennis": 90, "tennis_match_tiebreak": 75, "padel": 90,
    "padel_golden_point": 80,
}


def typical_minutes(fmt: Format, name: str | None) -> int:
    """A preset's typical minutes; a custom format 12 minutes a game or 30 a set of its `bestOf`."""
    if name in TYPICAL_MINUTES:
        return TYPICAL_MINUTES[name]
    return (12 if isinstance(fmt, GamesFormat) else 30) * fmt.best_of


def match_minutes(plan: dict[str, Any] | None, fmt: Format, name: str | None, draw_id: str | None) -> int:
    """A match's minutes in the broadcast's plan settings (§20 `matchMinutes`: its draw's, else the default), else
    its format's typical minutes: the one typical match of the plan and of the estimates (§9)."""
    given = (plan or {}).get("match_minutes", {})
    if draw_id is not None and draw_id in given:
        return int(given[draw_id])
    if "default" in given:
        return int(given["default"])
    return typical_minutes(fmt, name)


@dataclass(frozen=True)
class Planning:
    """`POST …/plan`: store the plan or only say what it would be; keep matches placed by hand or not."""

    dry_run: bool = False
    keep_placed: bool = True


@dataclass(frozen=True)
class Move:
    """A hand move of one match: its court and planned start."""

    table_id: str
    planned_on: datetime


def view(stored: dict[str, Any] | None) -> dict[str, Any] | None:
    """The stored settings in the wire shape of §20 (the operator broadcast read's `plan`)."""
    if stored is None:
        return None
    shown: dict[str, Any] = {"days": [
        {"date": d["date"], "start": d["start"], "end": d["end"]}
        | ({"tableIDs": list(d["table_ids"])} if "table_ids" in d else {}) for d in stored["days"]]}
    if "match_minutes" in stored:
        shown["matchMinutes"] = dict(stored["match_minutes"])
    if "daily_limit" in stored:
        shown["dailyLimit"] = dict(stored["daily_limit"])
    if "not_before" in stored:
        shown["notBefore"] = [{"personID": n["person_id"], "time": n["time"]} for n in stored["not_before"]]
    shown["earlyMinutes"] = stored.get("early_minutes", 0)
    shown["published"] = stored.get("published", False)
    return shown


def _refused(field: str, message: str) -> Invalid:
    return Invalid(message, details={"json": {"plan": {field: [message]}}})


def checked(settings: dict[str, Any], *, broadcast: Broadcast, draw_ids: set[str]) -> dict[str, Any]:
    """The settings as stored (whole, replacing the last), once what the schema cannot see holds: courts of this
    broadcast, days that end after they start and appear once, draws of this broadcast."""
    dates = [day["date"] for day in settings.get("days", [])]
    if len(set(dates)) != len(dates):
        raise _refused("days", "Each date may appear once.")
    for day in settings.get("days", []):
        if day["end"] <= day["start"]:
            raise _refused("days", f"The day {day['date']} must end after it starts.")
        foreign = [t for t in day.get("table_ids", []) if t not in broadcast.table_ids]
        if foreign:
            raise _refused("days", f"Not courts of this broadcast: {', '.join(foreign)}.")
    unknown = [k for k in settings.get("match_minutes", {}) if k != "default" and k not in draw_ids]
    if unknown:
        raise _refused("matchMinutes", f"Not draws of this broadcast: {', '.join(unknown)}.")
    return {"published": False, "early_minutes": 0, **settings}


def day_bounds(day: dict[str, Any], zone: tzinfo) -> tuple[datetime, datetime]:
    """A day's start and end as moments (its times are local, in the event's zone)."""
    on = date.fromisoformat(day["date"])
    return tuple(datetime.combine(on, time.fromisoformat(day[k]), tzinfo=zone) for k in ("start", "end"))  # type: ignore[return-value]


def note_published(broadcast: Broadcast) -> None:
    """Keep each match's first published time while the plan is published (a later move of more than 15 minutes
    shows as "Time changed"); forget them when it is withdrawn."""
    if not (broadcast.plan or {}).get("published"):
        broadcast.published_times = {}
        return
    for key, where in broadcast.planned.items():
        broadcast.published_times.setdefault(key, where["planned_on"])
