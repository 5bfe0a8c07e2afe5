"""Operator routes for the court board and live scoring (operator key only; see docs/operator-api.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response
from marshmallow import Schema, fields, post_load, validate

from api.blueprint import Blueprint
from api.bulk import bulk_response
from api.context import caller, now, public_root, services, unit_of_work
from api.idempotency import idempotent
from api.routes.matches import reader, rules
from api.schemas.common import DeletedByID, PageQuery, Strict, Vocabulary, envelope, list_envelope, str_field
from api.schemas.matches import (
    OP_ID,
    CompleteBody,
    GameScoreBody,
    MatchRead,
    OperatorMatchCreate,
    OperatorTableRead,
    PointBody,
    QueueOrderBody,
    ScheduleImportBody,
    ScheduleImportResultEnvelope,
    ScoreBody,
    StrictBoolean,
    TableRead,
    UndoBody,
)
from api.security import requires
from domain.errors import Conflict
from domain.event_day import schedule
from domain.event_day.board import Board, court_page
from domain.match import matches as svc
from domain.match import operations, points, results_entry
from domain.match import results as match_results
from domain.models import Match, MatchResultType, MatchStatus, Side
from domain.names import SIDE_JOIN
from domain.ports import UnitOfWork
from domain.public import mail

blp = Blueprint("operator_matches", __name__, description="Operator: court queues and live scoring")

Json = dict[str, Any]


class OperatorScoreBody(ScoreBody):
    confirmDrawChange = StrictBoolean(metadata={
        "description": "a correction that changes who goes on in a draw is made only with true (contract §13)"})


class OperatorMoveBody(Strict):
    tableID = fields.String(required=True, allow_none=True, validate=validate.Length(min=1, max=500), metadata={
        "description": "a table of the account; null puts a draw's match back into the court pool (§13)"})

    @post_load
    def to_command(self, data: Json, **_: Any) -> svc.OperatorMove:
        return svc.OperatorMove(table_id=data["tableID"])


class OperatorMatchQuery(PageQuery):
    status = Vocabulary(MatchStatus)
    tableID = fields.String(validate=validate.Length(min=1, max=500))
    drawID = fields.String(validate=validate.Length(min=1, max=500),
                           metadata={"description": "only the real matches of this draw (contract §13)"})


def _account() -> str:
    return caller().account_id


@blp.route("/operator/tables", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(OperatorTableRead))
def list_tables(query: Json) -> Json:
    """Every table of the account with every connection's active match and queue (the court board).

    Each queued match has `estimatedStartOn` and `busyPlayers`, the active match `expectedEndOn`; each court its
    `typicalMinutes` and `attention` (`overdue`, `waiting` or null), all as of this request (contract §9).
    """
    with unit_of_work() as uow:
        tables, cursor = court_page(uow, account_id=_account(), limit=query.get("limit"),
                                    cursor=query.get("cursor"))
        board = Board(uow, account_id=_account(), now=now(),
                      default_minutes=services().settings.default_match_minutes)
        data = [board.court(t) for t in tables]
    return {"data": data, "nextCursor": cursor}


@blp.route("/operator/matches", methods=["GET"])
@requires(operator=True)
@blp.arguments(OperatorMatchQuery, location="query")
@blp.response(200, list_envelope(MatchRead))
def list_matches(query: Json) -> Json:
    """Every connection's matches on the account, newest first; filter by `status`, `tableID` and `drawID`."""
    with unit_of_work() as uow:
        page, cursor = svc.account_matches(
            uow, account_id=_account(), status=query.get("status"), table_id=query.get("tableID"),
            draw_id=query.get("drawID"), limit=query.get("limit"), cursor=query.get("cursor"),
        )
        read = reader(uow)
        return {"data": [read.read(match) for match in page], "nextCursor": cursor}


@blp.route("/operator/matches", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(OperatorMatchCreate)
@blp.response(201, envelope(MatchRead))
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed, unknown_player, duplicate_player.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown table or player list.")
@blp.alt_response(409, response="DEFAULT_ERROR", description="match_exists: the externalID is taken.")
def create_match(body: svc.MatchSync) -> Json:
    """Create a match of the house connection at the end of any court's queue (contract §9).

    `externalID` is minted (`op_...`) when absent; players come from the court's player list (the table's, else
    the broadcast's default list) by `externalID`, or are typed as `manualName`.
    """
    with unit_of_work() as uow:
        planned = schedule.create_match(uow, account_id=_account(), sync=body, now=now(), rules=rules())
    return {"data": planned.read()}


@blp.route("/operator/matches/import", methods=["POST"])
@requires(operator=True)
@idempotent
@blp.arguments(ScheduleImportBody)
@blp.response(200, ScheduleImportResultEnvelope, description="Every row is valid (and queued unless `dryRun`).")
@blp.alt_response(207, schema=ScheduleImportResultEnvelope, description="Some row failed: nothing is queued.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")
def import_matches(schedule_import: schedule.ScheduleImport) -> tuple[Json, int]:
    """Import a schedule: each row a match on a court of the broadcast, all or nothing (contract §9).

    A player cell naming a player of the court's list ("First Last", any case) is that player, else a manual
    name. Results per row in order; with any row in error nothing is queued; `dryRun` only checks. At most 1,000
    rows (more is 400).
    """
    with unit_of_work() as uow:
        outcomes, queued = schedule.import_schedule(uow, account_id=_account(), schedule=schedule_import, now=now(),
                                                    rules=rules(), zone=services().settings.zone())
    answer, status = bulk_response(outcomes, key_field=None, keys=None, details=True,
                                   present=lambda planned: planned.read())
    answer["data"]["queued"] = len(outcomes) if queued else 0
    return answer, status


class ResultsQuery(Strict):
    broadcastID = fields.String(required=True, validate=validate.Length(min=1, max=500))
    format = fields.String(load_default="json", validate=validate.OneOf(["json", "csv"]))


class ResultRow(Schema):
    court = fields.String(required=True)
    event = fields.String(required=True, allow_none=True)
    round = fields.String(required=True, allow_none=True)
    sideA = fields.String(required=True, metadata={"description": f"names, doubles partners joined by '{SIDE_JOIN}'"})
    sideB = fields.String(required=True)
    games = fields.String(required=True, metadata={"description": "e.g. `11-7 9-11 11-5`, `6-4 7-6(4)`"})
    gamesA = fields.Integer(required=True, metadata={"description": "games won (sets, in a sets format)"})
    gamesB = fields.Integer(required=True)
    winner = fields.String(required=True, metadata={"enum": ["A", "B"]})
    winnerNames = fields.String(required=True)
    startedOn = fields.String(required=True, allow_none=True)
    completedOn = fields.String(required=True)
    minutes = fields.Float(required=True, allow_none=True)
    format = fields.String(required=True, metadata={
        "description": "the match's scoring format: its preset key, else in words (contract §18)"})


class ResultsEnvelope(Schema):
    data = fields.List(fields.Nested(ResultRow), required=True)
    nextCursor = fields.String(required=True, allow_none=True, metadata={"description": "always null"})


@blp.route("/operator/results", methods=["GET"])
@requires(operator=True)
@blp.arguments(ResultsQuery, location="query")
@blp.response(200, ResultsEnvelope, description="JSON; with `format=csv` a CSV attachment (text/csv) of the same "
                                                "columns with a header row.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")
@blp.doc(responses={"200": {"description": "The results: JSON, or CSV with `format=csv`.", "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/ResultsEnvelope"}},
    "text/csv": {"schema": {"type": "string"}}}}})
def results(query: Json) -> Json | Response:
    """Every completed match of a broadcast, oldest result first, as JSON or a CSV download (contract §9)."""
    with unit_of_work() as uow:
        if query["format"] == "csv":  # UTF-8 with a BOM, named after the broadcast and the day (issue 35)
            text, name = match_results.csv_download(uow, account_id=_account(), broadcast_id=query["broadcastID"],
                                                    day=now().astimezone(services().settings.zone()).date())
            return Response(text, mimetype="text/csv", headers={
                "Content-Disposition": f'attachment; filename="{name}"'})
        rows = match_results.broadcast_results(uow, account_id=_account(), broadcast_id=query["broadcastID"])
    return {"data": rows, "nextCursor": None}


class StartBody(Strict):
    force = StrictBoolean(metadata={"description": "start even if a player is still playing on another table"})

    @post_load
    def to_command(self, data: Json, **_: Any) -> svc.StartMatch:
        return svc.StartMatch(force=data.get("force", False))


@blp.route("/operator/matches/<string:match_id>/start", methods=["POST"])
@requires(operator=True)
@blp.arguments(StartBody, required=False)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(409, description="match_not_pending, table_busy (the table already plays a match), or unless "
                                   "`force`: player_busy (`details.players`, `details.tableIDs`), player_resting "
                                   "(`details.until`), not_checked_in, not_before (each with `details.players`).")
def start_match(start: svc.StartMatch | None, match_id: str) -> Json:
    """Start a pending match (one active match per table, no player on two tables unless forced); emits
    match.started."""
    with unit_of_work() as uow:
        match = svc.start_match(uow, account_id=_account(), match_id=match_id, now=now(), rules=rules(),
                                force=start is not None and start.force)
        return {"data": reader(uow).read(match)}


@blp.route("/operator/matches/<string:match_id>/call", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="match_not_pending: only a pending match is called.")
def call_match(match_id: str) -> Json:
    """Call a pending match's players to its court: `calledOn` shows "Called to {court}" on the venue display,
    the event page and the board until it starts (calling again updates `calledOn`); players with an email get a
    call-up mail (queued, sent by the scheduler) when SMTP is set up (contract §21)."""
    settings = services().settings
    setup = mail.MailSetup(root=public_root()) if settings.smtp_url and settings.mail_from else None
    with unit_of_work() as uow:
        return {"data": reader(uow).read(mail.call_match(uow, account_id=_account(), match_id=match_id, now=now(),
                                                         setup=setup))}


class WalkoverBody(Strict):
    winnerSide = Vocabulary(Side, required=True)
    reason = Vocabulary(svc.WalkoverReason, required=True)

    @post_load
    def to_command(self, data: Json, **_: Any) -> svc.Walkover:
        return svc.Walkover(winner_side=data["winnerSide"], reason=svc.WalkoverReason(data["reason"]))


@blp.route("/operator/matches/<string:match_id>/walkover", methods=["POST"])
@requires(operator=True)
@blp.arguments(WalkoverBody)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="match_locked: the match is already completed.")
def walkover(decision: svc.Walkover, match_id: str) -> Json:
    """Decide a match without playing it to the end: a pending match is a walkover, an active one a retirement
    (its games kept); `winnerSide` wins. Emits match.completed and feeds a draw (contract §14)."""
    with unit_of_work() as uow:
        match = svc.record_walkover(uow, account_id=_account(), match_id=match_id, winner_side=decision.winner_side,
                                    reason=decision.reason, now=now(), rules=rules())
        return {"data": reader(uow).read(match)}


@blp.route("/operator/tables/<string:table_id>/start-next", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="table_busy, queue_empty, all_players_busy or nothing_startable (both with "
                                   "`details.skipped`: `matchID`, `reason`, `players`, `until`?).")
def start_next(table_id: str) -> Json:
    """Start the first queued match of a table with no player still playing elsewhere; emits match.started."""
    with unit_of_work() as uow:
        match = svc.start_next(uow, account_id=_account(), table_id=table_id, now=now(), rules=rules())
        return {"data": reader(uow).read(match)}


def _scoring(match_id: str, op_id: str | None, write: Callable[[UnitOfWork], Match]) -> Json:
    """Run one scoring write and answer the match read; a repeated `opID` answers the first answer again and
    changes nothing (stored in the write's unit of work). `409 stale_state` carries the current read in
    `details.match` (contract §17), so a client can show the score it lost the race to."""
    op_id = operations.check_op_id(op_id)
    try:
        with unit_of_work() as uow:
            return {"data": operations.once(
                uow, account_id=_account(), scope=match_id, op_id=op_id, now=now(),
                act=lambda: dict(reader(uow).read(write(uow))),
                current=lambda: dict(reader(uow).read(svc.get_match(uow, account_id=_account(), match_id=match_id))))}
    except Conflict as refused:
        if refused.code != "stale_state":
            raise
        with unit_of_work() as uow:
            current = svc.get_match(uow, account_id=_account(), match_id=match_id)
            raise Conflict(refused.message, code="stale_state",
                           details={"match": reader(uow).read(current)}) from None


@blp.route("/operator/matches/<string:match_id>/score", methods=["POST"])
@requires(operator=True)
@blp.arguments(OperatorScoreBody)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(409, description="match_not_active (pending), match_undecided (correction of a result), "
                                   "stale_state (`version` is not the current `scoreVersion`), "
                                   "draw_change_required or downstream_started (a draw's match, §13).")
def score_match(write: svc.ScoreWrite, match_id: str) -> Json:
    """Replace the game scores of an active match (live) or a completed one (correction).

    Scores are checked against the match's format (contract §18: games of points, or sets of games with their
    tiebreaks). On an active match the last game (set) may be in progress (e.g. 5-3) and counts for nobody in
    `score`; earlier ones must be finished, and none may follow once a side has won more than half of `bestOf`.
    Impossible scores are 400 `validation_failed` naming the item. Emits `match.score_updated`; on a completed
    match the result must stay decided (409 `match_undecided`) and
    `match.result_updated` carries `previous: {gameScores, score}`. With `version`, a write based on an older
    `scoreVersion` is 409 `stale_state` (the current read in `details.match`) and changes nothing. A correction
    to the scores the match already has answers it and changes nothing (no event, no audit entry, same
    `scoreVersion`).
    """
    return _scoring(match_id, write.op_id, lambda uow: svc.score_match(
        uow, account_id=_account(), match_id=match_id, game_scores=write.game_scores, now=now(), rules=rules(),
        reason=write.reason, version=write.version, confirm_draw_change=write.confirm_draw_change))


@blp.route("/operator/matches/<string:match_id>/point", methods=["POST"])
@requires(operator=True)
@blp.arguments(PointBody)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="stale_state (`details.match` is the current read), match_not_active, or "
                                   "match_decided (complete it).")
def add_point(point: points.PointWrite, match_id: str) -> Json:
    """+1 for `side` in the current game of an active match (a new game once the last is won), based on
    `version` (the match's `scoreVersion`); emits match.score_updated (contract §17)."""
    return _scoring(match_id, point.op_id, lambda uow: points.add_point(
        uow, account_id=_account(), match_id=match_id, side=point.side, version=point.version, now=now(),
        rules=rules(), device=point.device_id))


@blp.route("/operator/matches/<string:match_id>/undo", methods=["POST"])
@requires(operator=True)
@blp.arguments(UndoBody)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="stale_state (`details.match` is the current read), match_not_active, or "
                                   "nothing_to_undo.")
def undo_point(undo: points.UndoWrite, match_id: str) -> Json:
    """Take back the last point added to the match, whoever added it (console, scorer page or this API), based on
    `version`; emits match.score_updated (contract §17)."""
    return _scoring(match_id, undo.op_id, lambda uow: points.undo_point(
        uow, account_id=_account(), match_id=match_id, version=undo.version, now=now(), rules=rules(),
        device=undo.device_id))


@blp.route("/operator/matches/<string:match_id>/complete", methods=["POST"])
@requires(operator=True)
@blp.arguments(CompleteBody)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(409, description="match_not_active, or match_undecided (no side has won the match).")
def complete_match(completion: svc.Completion, match_id: str) -> Json:
    """Complete an active match, optionally with its final game scores; emits match.completed. Completing a
    match already completed with no scores or the ones it has answers it and changes nothing."""
    with unit_of_work() as uow:
        match = svc.complete_match(uow, account_id=_account(), match_id=match_id,
                                   game_scores=completion.game_scores, now=now(), rules=rules())
        return {"data": reader(uow).read(match)}


class ResultBody(Strict):
    gameScores = fields.List(fields.Nested(GameScoreBody), required=True, validate=validate.Length(max=99),
                             metadata={"description": "every game (or set) as played; [] for a walkover"})
    resultType = Vocabulary(MatchResultType, metadata={"description": "default played"})
    winnerSide = Vocabulary(Side, metadata={"description": "required for walkover and retired; for a played "
                                                           "result, when given, it must be the games' winner"})
    reason = str_field(500, metadata={"description": "kept in the audit entry (contract §16)"})
    opID = OP_ID

    @post_load
    def to_command(self, data: Json, **_: Any) -> results_entry.ResultEntry:
        return results_entry.ResultEntry(
            game_scores=data["gameScores"], result_type=data.get("resultType", MatchResultType.PLAYED),
            winner_side=data.get("winnerSide"), reason=data.get("reason"), op_id=data.get("opID"))


@blp.route("/operator/matches/<string:match_id>/result", methods=["POST"])
@requires(operator=True)
@blp.arguments(ResultBody)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed: a game that cannot end that way "
                                                             "(`details.json.gameScores`), winnerSide missing or "
                                                             "not the games' winner.")
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="match_locked (already completed: correct it instead), match_undecided.")
def enter_result(entry: results_entry.ResultEntry, match_id: str) -> Json:
    """Record a whole result from a paper sheet on a pending or active match, in one transaction (contract §19):
    a pending match is started and completed (`startedOn` stays null), the draw fed, `match.started` (if it was
    pending) and `match.completed` emitted; §14's busy, rest and check-in rules do not apply."""
    return _scoring(match_id, entry.op_id, lambda uow: results_entry.enter_result(
        uow, account_id=_account(), match_id=match_id, entry=entry, now=now(), rules=rules()))


@blp.route("/operator/matches/<string:match_id>/stop", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, description="match_not_active: only a match in play is stopped.")
def stop_match(match_id: str) -> Json:
    """Stop a match in play: back to pending (a draw's match back into the court pool), its games cleared and
    kept in the audit log; the way on when a correction is refused as `downstream_started` (contract §19)."""
    with unit_of_work() as uow:
        match = results_entry.stop_match(uow, account_id=_account(), match_id=match_id, now=now())
        return {"data": reader(uow).read(match)}


@blp.route("/operator/matches/<string:match_id>/move", methods=["POST"])
@requires(operator=True)
@blp.arguments(OperatorMoveBody)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed: null for a match of no draw, "
                                                             "or a court the draw may not use.")
@blp.alt_response(409, description="The match is active or completed (match_locked).")
def move_match(move: svc.OperatorMove, match_id: str) -> Json:
    """Move a pending match to the end of another table's queue.

    The operator may use any table of the account, whichever connection manages it; moving onto the match's
    own table changes nothing.
    """
    with unit_of_work() as uow:
        match = svc.operator_move_match(uow, account_id=_account(), match_id=match_id, table_id=move.table_id,
                                        now=now())
        return {"data": reader(uow).read(match)}


@blp.route("/operator/matches/<string:match_id>/cancel", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(DeletedByID))
@blp.alt_response(409, description="The match is active or completed (match_locked).")
def cancel_match(match_id: str) -> Json:
    """Cancel a pending match."""
    with unit_of_work() as uow:
        match = svc.operator_cancel_match(uow, account_id=_account(), match_id=match_id, now=now())
    return {"data": {"id": match.id, "deleted": True}}


@blp.route("/operator/tables/<string:table_id>/queue", methods=["PUT"])
@requires(operator=True)
@blp.arguments(QueueOrderBody)
@blp.response(200, envelope(TableRead))
def reorder_queue(order: svc.QueueOrder, table_id: str) -> Json:
    """Reorder a table's queue.

    `matchIDs` lists exactly the table's pending matches (every connection's), each once, in the new order;
    anything else is 400 `validation_failed` and nothing changes.
    """
    with unit_of_work() as uow:
        table = svc.reorder_queue(uow, account_id=_account(), table_id=table_id, match_ids=order.match_ids,
                                  now=now())
        return {"data": reader(uow).table(table, connection_id=None)}
