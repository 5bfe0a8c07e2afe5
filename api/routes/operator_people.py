"""The people of a broadcast and their check-in (contract §14, operator key only)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.blueprint import Blueprint
from api.context import caller, now, unit_of_work
from api.schemas.common import PageQuery, Strict, envelope, list_envelope
from api.schemas.matches import StrictBoolean
from api.security import requires
from domain.event_day import people
from domain.event_day.people import PersonStatus

blp = Blueprint("operator_people", __name__, description="Operator: people of a broadcast and check-in")

Json = dict[str, Any]


class PersonRead(Schema):
    personID = fields.String(required=True)
    name = fields.String(required=True)
    club = fields.String(required=True, allow_none=True)
    checkedIn = fields.Boolean(required=True)
    checkedInOn = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf([s.value for s in PersonStatus]))
    restingUntil = fields.String(required=True, allow_none=True)
    tableLabel = fields.String(required=True, allow_none=True, metadata={
        "description": "the court they play on, or are called to"})
    nextMatchID = fields.String(required=True, allow_none=True)


class CheckInBody(Strict):
    present = StrictBoolean(required=True)

    @post_load
    def to_command(self, data: Json, **_: Any) -> people.CheckIn:
        return people.CheckIn(present=data["present"])


@blp.route("/operator/broadcasts/<string:broadcast_id>/people", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(PersonRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def list_people(query: Json, broadcast_id: str) -> Json:
    """Every person of the broadcast's matches, one row per person (names compared as contract §8a says), with
    check-in and where they are now; in name order."""
    with unit_of_work() as uow:
        rows, cursor = people.people_page(uow, account_id=caller().account_id, broadcast_id=broadcast_id, now=now(),
                                          limit=query.get("limit"), cursor=query.get("cursor"))
    return {"data": rows, "nextCursor": cursor}


@blp.route("/operator/broadcasts/<string:broadcast_id>/people/<string:person_id>/check-in", methods=["POST"])
@requires(operator=True)
@blp.arguments(CheckInBody)
@blp.response(200, envelope(PersonRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def check_in(check: people.CheckIn, broadcast_id: str, person_id: str) -> Json:
    """Check a person in (`present: true`) or out; their row."""
    with unit_of_work() as uow:
        return {"data": people.check_in(uow, account_id=caller().account_id, broadcast_id=broadcast_id,
                                         person=person_id, check=check, now=now())}
