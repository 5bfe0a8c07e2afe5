"""Operator routes for players' own links (contract §21): each person's personal link, read and rotated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, post_load, validate

from api.blueprint import Blueprint
from api.context import caller, now, public_root, services, unit_of_work
from api.schemas.common import Strict, Vocabulary, envelope, list_envelope
from api.schemas.matches import GameScoreBody
from api.security import requires
from domain.models import Link, MailStatus, ReportStatus
from domain.public import mail, personal

blp = Blueprint("operator_personal", __name__, description="Operator: players' own links")

Json = dict[str, Any]
LINK = "/operator/broadcasts/<string:broadcast_id>/people/<string:person_id>/link"


class PersonalLinkRead(Schema):
    personID = fields.String(required=True)
    url = fields.String(required=True, metadata={"description": "{root}/me/{key}: the key is the only secret"})
    createdOn = fields.String(required=True)


def _link(action: Callable[..., Link], broadcast_id: str, person_id: str) -> Json:
    with unit_of_work() as uow:
        link = action(uow, account_id=caller().account_id, broadcast_id=broadcast_id, person_id=person_id,
                      now=now())
        return {"data": personal.personal_view(link, root=public_root())}


@blp.route(LINK, methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(PersonalLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def get_personal_link(broadcast_id: str, person_id: str) -> Json:
    """The person's own link (made on first read): their page of matches, check-in and results."""
    return _link(personal.personal_link, broadcast_id, person_id)


@blp.route(LINK + "/rotate", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(PersonalLinkRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def rotate_personal_link(broadcast_id: str, person_id: str) -> Json:
    """Give the person a new link; the old one answers 404 at once."""
    return _link(personal.rotate_personal_link, broadcast_id, person_id)


class ReportRead(Schema):
    reportID = fields.String(required=True)
    matchID = fields.String(required=True)
    gameScores = fields.List(fields.Dict(), required=True)
    reportedBy = fields.String(required=True, metadata={"description": "the personID of the reporting player"})
    status = Vocabulary(ReportStatus, required=True)
    reportedOn = fields.String(required=True)


class ReportQuery(Schema):
    status = Vocabulary(ReportStatus)


class AcceptBody(Strict):
    gameScores = fields.List(fields.Nested(GameScoreBody), validate=validate.Length(min=1, max=99), metadata={
        "description": "the desk's games instead of the report's"})

    @post_load
    def to_command(self, data: Json, **_: Any) -> personal.Acceptance:
        return personal.Acceptance(game_scores=data.get("gameScores"))


@blp.route("/operator/broadcasts/<string:broadcast_id>/reports", methods=["GET"])
@requires(operator=True)
@blp.arguments(ReportQuery, location="query")
@blp.response(200, list_envelope(ReportRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def list_reports(query: Json, broadcast_id: str) -> Json:
    """The players' reported results of the broadcast, newest first (the board's "Results to check")."""
    with unit_of_work() as uow:
        rows = personal.desk_reports(uow, account_id=caller().account_id, broadcast_id=broadcast_id,
                                     status=query.get("status"))
    return {"data": rows, "nextCursor": None}


@blp.route("/operator/reports/<string:report_id>/accept", methods=["POST"])
@requires(operator=True)
@blp.arguments(AcceptBody)
@blp.response(200, envelope(ReportRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="report_settled (already confirmed), match_cancelled (the report's match was "
                                   "cancelled), match_locked, match_undecided.")
def accept_report(acceptance: personal.Acceptance, report_id: str) -> Json:
    """Record a player's report (or the desk's games for it) as the match's result (§19)."""
    with unit_of_work() as uow:
        return {"data": personal.accept_report(uow, account_id=caller().account_id, report_id=report_id,
                                               acceptance=acceptance, now=now(), rules=services().rules)}


class MailRead(Schema):
    id = fields.String(required=True)
    broadcastID = fields.String(required=True)
    to = fields.String(required=True)
    subject = fields.String(required=True)
    status = Vocabulary(MailStatus, required=True)
    attempts = fields.Integer(required=True)
    createdOn = fields.String(required=True)
    sentOn = fields.String(required=True, allow_none=True)
    nextAttemptOn = fields.String(required=True, allow_none=True, metadata={
        "description": "when it is tried again; null once sent, or when its retries ran out"})
    lastError = fields.String(required=True, allow_none=True)


class MailQuery(Schema):
    broadcastID = fields.String()
    status = Vocabulary(MailStatus)


@blp.route("/operator/mail", methods=["GET"])
@requires(operator=True)
@blp.arguments(MailQuery, location="query")
@blp.response(200, list_envelope(MailRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
def list_mail(query: Json) -> Json:
    """Players' mail (call-ups), newest first: pending, sent, or failing (retried by the scheduler)."""
    with unit_of_work() as uow:
        rows = mail.list_mail(uow, account_id=caller().account_id, broadcast_id=query.get("broadcastID"),
                              status=query.get("status"))
    return {"data": rows, "nextCursor": None}
