"""Schemas of the order of play (contract §20): plan settings, planning, the grid, a hand move."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from api.schemas.common import FullMatch, Rfc3339, Strict, Vocabulary, str_field
from api.schemas.matches import StrictBoolean, StrictInteger
from domain.plan.model import Severity
from domain.plan.settings import Move, Planning

CLOCK = FullMatch(r"^([01][0-9]|2[0-3]):[0-5][0-9]$", error="Must be HH:MM.")
MINUTES = validate.Range(min=5, max=480)


def _moment(value: str) -> None:
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M")
    except ValueError as error:
        raise ValidationError("Not a date and time.") from error


class PlanDay(Strict):
    date = fields.Date(required=True, format="%Y-%m-%d", metadata={"description": "YYYY-MM-DD"})
    start = fields.String(required=True, validate=CLOCK, metadata={"description": "local HH:MM"})
    end = fields.String(required=True, validate=CLOCK, metadata={"description": "local HH:MM, after start"})
    tableIDs = fields.List(str_field(500, min_length=1), validate=validate.Length(min=1, max=500),
                           metadata={"description": "the day's courts (default: every court of the broadcast)"})


class DailyLimit(Strict):
    singles = StrictInteger(validate=validate.Range(min=1, max=50))
    doubles = StrictInteger(validate=validate.Range(min=1, max=50))
    total = StrictInteger(validate=validate.Range(min=1, max=50))


class NotBefore(Strict):
    personID = str_field(100, required=True, min_length=1)
    time = fields.String(required=True, validate=[FullMatch(
        r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$", error="Must be YYYY-MM-DDTHH:MM."), _moment],
        metadata={"description": "local time, YYYY-MM-DDTHH:MM"})


class PlanSettings(Strict):
    """The plan settings of a broadcast, replaced whole (contract §20)."""

    days = fields.List(fields.Nested(PlanDay), required=True, validate=validate.Length(max=31))
    matchMinutes = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=100)),
                               values=StrictInteger(validate=MINUTES),
                               metadata={"description": '{"default": 5-480, "<drawID>": 5-480}'})
    dailyLimit = fields.Nested(DailyLimit)
    notBefore = fields.List(fields.Nested(NotBefore), validate=validate.Length(max=1000))
    earlyMinutes = StrictInteger(validate=validate.Range(min=0, max=120))
    published = StrictBoolean()

    @validates_schema
    def _days(self, data: dict[str, Any], **_: Any) -> None:
        for day in data.get("days", []):
            if re.fullmatch(r"\d\d:\d\d", day["start"]) and day["end"] <= day["start"]:
                raise ValidationError({"days": [f"The day {day['date']} must end after it starts."]})

    @post_load
    def _stored(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        """The settings as the domain keeps them (snake_case; `domain.plan.settings.view` gives them back)."""
        stored: dict[str, Any] = {"days": [
            {"date": d["date"].isoformat(), "start": d["start"], "end": d["end"]}
            | ({"table_ids": list(dict.fromkeys(d["tableIDs"]))} if "tableIDs" in d else {}) for d in data["days"]]}
        if "matchMinutes" in data:
            stored["match_minutes"] = dict(data["matchMinutes"])
        if "dailyLimit" in data:
            stored["daily_limit"] = dict(data["dailyLimit"])
        if "notBefore" in data:
            stored["not_before"] = [{"person_id": n["personID"], "time": n["time"]} for n in data["notBefore"]]
        if "earlyMinutes" in data:
            stored["early_minutes"] = data["earlyMinutes"]
        if "published" in data:
            stored["published"] = data["published"]
        return stored


class PlanBody(Strict):
    dryRun = StrictBoolean()
    keepPlaced = StrictBoolean(metadata={"description": "matches placed by hand stay (default true)"})

    @post_load
    def _command(self, data: dict[str, Any], **_: Any) -> Planning:
        return Planning(dry_run=data.get("dryRun", False), keep_placed=data.get("keepPlaced", True))


class NotPlaced(Schema):
    """A match still to plan that has no place: what it is, so it can be named and placed by hand."""

    names = fields.List(fields.String(), required=True, metadata={
        "description": "the sides, or where they come from (\"Winner of R16-1\")"})
    event = fields.String(required=True, allow_none=True)
    round = fields.String(required=True, allow_none=True)
    minutes = fields.Integer(required=True)
    matchID = fields.String()
    drawMatchID = fields.String()


class Unplaced(NotPlaced):
    reason = fields.String(required=True, metadata={"description": "the true cause, in words"})


class Needed(Schema):
    date = fields.String(required=True)
    end = fields.String(required=True, metadata={
        "description": "the last day's end that would hold every match at these lengths"})


class PlannedDay(Schema):
    date = fields.String(required=True)
    end = fields.String(required=True, allow_none=True, metadata={"description": "the last planned end"})


class PlanResult(Schema):
    placed = fields.Integer(required=True)
    unplaced = fields.List(fields.Nested(Unplaced), required=True)
    days = fields.List(fields.Nested(PlannedDay), required=True)
    needed = fields.Nested(Needed, metadata={
        "description": "only when a match is unplaced and a longer last day would hold every match"})


class PlanSlot(Schema):
    plannedOn = fields.String(required=True)
    minutes = fields.Integer(required=True)
    tableID = fields.String(required=True)
    matchID = fields.String()
    drawMatchID = fields.String()
    names = fields.List(fields.String(), required=True)
    event = fields.String(required=True, allow_none=True)
    round = fields.String(required=True, allow_none=True)


class PlanConflict(Schema):
    severity = Vocabulary(Severity, required=True)
    kind = fields.String(required=True)
    matchIDs = fields.List(fields.String(), required=True)
    drawMatchIDs = fields.List(fields.String(), required=True)
    message = fields.String(required=True)


class PlanCourt(Schema):
    tableID = fields.String(required=True)
    label = fields.String(required=True)
    slots = fields.List(fields.Nested(PlanSlot), required=True)


class PlanGridDay(Schema):
    date = fields.String(required=True)
    courts = fields.List(fields.Nested(PlanCourt), required=True)


class PlanGrid(Schema):
    days = fields.List(fields.Nested(PlanGridDay), required=True)
    conflicts = fields.List(fields.Nested(PlanConflict), required=True)
    unplaced = fields.List(fields.Nested(NotPlaced), required=True, metadata={
        "description": "every match still to plan that has no place in the plan"})


class MoveBody(Strict):
    tableID = str_field(500, required=True, min_length=1)
    plannedOn = Rfc3339(required=True, metadata={"description": "a timestamp as reads give them"})

    @post_load
    def _command(self, data: dict[str, Any], **_: Any) -> Move:
        return Move(table_id=data["tableID"], planned_on=data["plannedOn"])


class MoveResult(Schema):
    slot = fields.Nested(PlanSlot, required=True)
    conflicts = fields.List(fields.Nested(PlanConflict), required=True)
