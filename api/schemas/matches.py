"""Match bodies and reads: sync, move, bulk, scoring, and the match/table reads (api-v1.md, contract §2, §6)."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate, validates_schema

from api.schemas.common import FullMatch, Rfc3339, Strict, Vocabulary, external_id_field, name_field, str_field
from api.schemas.scoring import FormatRead, PointLabels, ScoringField, TiebreakRead
from domain.event_day.schedule import CLOCK_TIME, MAX_ROWS, ScheduleImport, ScheduleRow
from domain.match import operations, scoring
from domain.match.matches import Completion, MatchAssignment, MatchMove, MatchSync, QueueOrder, ScoreWrite
from domain.match.points import PointWrite, UndoWrite
from domain.match.scorer import ScorerTap
from domain.models import Attention, BlockReason, MatchResultType, MatchStatus, ScoringSource, Side
from domain.names import stored_name
from domain.partner.queues import SIDES

BULK_SIZE = validate.Length(min=1, max=100)
MAX_POINTS = 999


class StrictInteger(fields.Integer):
    """An integer that must be a JSON integer: no `"7"`, no `1.5`, no `true`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        result: int = super()._deserialize(value, attr, data, **kwargs)
        return result


class StrictBoolean(fields.Boolean):
    """A JSON boolean only (no `"true"`, no `1`)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class BestOf(fields.Field[int]):
    """`bestOf`: a positive odd integer, as a number or a string of digits; reads return a number."""

    OPENAPI = {"oneOf": [
        {"type": "integer", "minimum": 1, "maximum": MAX_POINTS, "not": {"multipleOf": 2}},
        {"type": "string", "pattern": "^0*[0-9]{0,2}[13579]$"},
    ]}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        try:
            best_of = scoring.parse_best_of(value)
        except Exception as exc:
            raise ValidationError("Must be a positive odd integer (a number or a string of digits).") from exc
        if best_of > MAX_POINTS:
            raise ValidationError(f"Must be at most {MAX_POINTS}.")
        return best_of

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> int | None:
        return None if value is None else int(value)


class Timestamp(Rfc3339):
    """An RFC 3339 date-time with `Z` or an offset (`Rfc3339`), kept in our one format (`2026-11-21T10:00:00.000Z`).

    A moment that cannot be shifted to UTC (year 1 with a positive offset) keeps its own offset.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:  # type: ignore[override]
        moment = super()._deserialize(value, attr, data, **kwargs)
        try:
            return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        except OverflowError:
            return moment.isoformat(timespec="milliseconds")


# ------------------------------------------------------------------------------------------------ bodies
class PlayerReference(Strict):
    """A side of a match: a player of the match's list (`externalID`) and/or a free-text `manualName`."""

    externalID = str_field(500, min_length=1)
    manualName = name_field(120, metadata={
        "description": "free text, kept in NFC with whitespace collapsed (contract §8a)"})

    @post_load
    def _stored(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        if "manualName" in data:
            data["manualName"] = stored_name(data["manualName"])
        return data


class MatchSyncSchema(Strict):
    """Match sync body (PUT/POST /matches, one bulk item)."""

    externalID = external_id_field(required=True)
    tableID = str_field(500, required=True, min_length=1)
    playerListExternalID = str_field(500, required=True, min_length=1)
    eventName = str_field(500)
    matchRound = str_field(500)
    matchDetails = str_field(800)
    startTime = Timestamp(metadata={"description": "ISO 8601"})
    bestOf = BestOf(metadata={"description": "positive odd integer, number or string of digits"})
    isDoubles = StrictBoolean()
    playerA = fields.Nested(PlayerReference)
    playerA2 = fields.Nested(PlayerReference)
    playerB = fields.Nested(PlayerReference)
    playerB2 = fields.Nested(PlayerReference)

    @post_load
    def to_sync(self, data: dict[str, Any], **_: Any) -> MatchSync | MatchMove:
        return match_sync(data)


def match_sync(data: dict[str, Any]) -> MatchSync:
    return MatchSync(
        external_id=data["externalID"], table_id=data["tableID"],
        player_list_external_id=data["playerListExternalID"],
        participants={side: dict(data[side]) for side in SIDES if side in data},
        event_name=data.get("eventName"), match_round=data.get("matchRound"), match_details=data.get("matchDetails"),
        start_time=data.get("startTime"), best_of=data.get("bestOf"),
        is_doubles=data.get("isDoubles"), scoring=data.get("scoring"),
    )


class OperatorMatchCreate(MatchSyncSchema):
    """POST /operator/matches: the match sync body on any table of the account; `externalID` (minted `op_...`)
    and `playerListExternalID` (the court's player list) are optional (contract §9)."""

    externalID = external_id_field()
    playerListExternalID = str_field(500, min_length=1, metadata={
        "description": "a list of the account by externalID or id; default: the court's player list"})
    scoring = ScoringField(ScoringSource.MATCH, metadata={
        "description": "the match's own scoring format (contract §18); default: its broadcast's, else the server's"})

    @post_load
    def to_sync(self, data: dict[str, Any], **_: Any) -> MatchSync | MatchMove:
        return match_sync({"externalID": "", "playerListExternalID": ""} | data)


class ScheduleRowSchema(Strict):
    """One row of an imported schedule: names as typed; a name of the court's list becomes that player."""

    OPENAPI = {"not": {"required": ["scheduledOn", "time"]}}  # a planned start by one of them, not both

    court = name_field(120, required=True, metadata={"description": "a court label of the broadcast"})
    playerA = name_field(120, required=True)
    playerB = name_field(120, required=True)
    playerA2 = name_field(120, allow_empty=True)
    playerB2 = name_field(120, allow_empty=True)
    round = str_field(500)
    event = str_field(500)
    bestOf = BestOf(metadata={"description": "positive odd integer, number or string of digits"})
    scoring = ScoringField(ScoringSource.MATCH, metadata={
        "description": "the match's scoring format, a preset key such as badminton (contract §18)"})
    scheduledOn = Timestamp(metadata={"description": "planned start (the match's startTime); the match is not "
                                                     "started earlier (its notBefore, contract §9a)"})
    time = fields.String(validate=FullMatch(CLOCK_TIME, error="Not a time of day (HH:MM, 00:00 to 23:59)."),
                         metadata={"description": "HH:MM (or HH:MM:SS) on the import's `day` in the server's time "
                                                  "zone: the planned start, as scheduledOn (not with scheduledOn)",
                                   "example": "14:00"})
    allowDuplicate = StrictBoolean(metadata={"description": "queue it even if the same court has a pending match "
                                                            "of the same sides (else 409 duplicate_match)"})

    @validates_schema
    def one_start(self, data: dict[str, Any], **_: Any) -> None:
        if "scheduledOn" in data and "time" in data:
            raise ValidationError({"time": ["Give scheduledOn or time, not both."]})

    @post_load
    def to_row(self, data: dict[str, Any], **_: Any) -> ScheduleRow:
        return ScheduleRow(
            court=data["court"],
            players={side: data[side] for side in ("playerA", "playerB", "playerA2", "playerB2") if data.get(side)},
            match_round=data.get("round"), event_name=data.get("event"), best_of=data.get("bestOf"),
            scoring=data.get("scoring"), start_time=data.get("scheduledOn"),
            allow_duplicate=data.get("allowDuplicate", False), time=data.get("time"),
        )


class ScheduleImportBody(Strict):
    broadcastID = str_field(500, required=True, min_length=1)
    rows = fields.List(fields.Nested(ScheduleRowSchema), required=True,
                       validate=validate.Length(min=1, max=MAX_ROWS), metadata={"description": "1 to 1,000 rows"})
    dryRun = StrictBoolean(load_default=False, metadata={"description": "only check; queue nothing"})
    day = fields.Date(metadata={"description": "the broadcast's day a row's `time` falls on (YYYY-MM-DD); default: "
                                               "today in the server's time zone (COURTSIDE_TIME_ZONE)"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> ScheduleImport:
        return ScheduleImport(broadcast_id=data["broadcastID"], rows=data["rows"], dry_run=data["dryRun"],
                              day=data.get("day"))


class MatchPatchSchema(MatchSyncSchema):
    """PATCH /matches/{externalID}: only `tableID` (a move), or a full match sync body (a replacement, whose
    `externalID` must equal the path's)."""

    OPENAPI = {"anyOf": [{"$ref": "#/components/schemas/MatchMove"}, {"$ref": "#/components/schemas/MatchSync"}]}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(partial=True, **kwargs)

    @post_load
    def to_sync(self, data: dict[str, Any], **_: Any) -> MatchSync | MatchMove:
        if set(data) == {"tableID"}:
            return MatchMove(table_id=data["tableID"])
        missing = {name: ["Missing data for required field."]
                   for name in ("externalID", "tableID", "playerListExternalID") if name not in data}
        if missing:
            raise ValidationError(missing)
        return match_sync(data)


class MatchMoveSchema(Strict):
    tableID = str_field(500, required=True, min_length=1)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> MatchMove:
        return MatchMove(table_id=data["tableID"])


UNIQUE = {"uniqueItems": True, "description": "1 to 100 items; each externalID at most once (else 400)"}


class BulkSyncSchema(Strict):
    matches = fields.List(fields.Nested(MatchSyncSchema), required=True, validate=BULK_SIZE, metadata=UNIQUE)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> list[MatchSync]:
        items: list[MatchSync] = data["matches"]
        return items


class AssignmentSchema(Strict):
    externalID = str_field(500, required=True, min_length=1)
    tableID = str_field(500, required=True, min_length=1)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> MatchAssignment:
        return MatchAssignment(external_id=data["externalID"], table_id=data["tableID"])


class BulkAssignSchema(Strict):
    matches = fields.List(fields.Nested(AssignmentSchema), required=True, validate=BULK_SIZE, metadata=UNIQUE)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> list[MatchAssignment]:
        items: list[MatchAssignment] = data["matches"]
        return items


class BulkCancelSchema(Strict):
    externalIDs = fields.List(str_field(500, min_length=1), required=True, validate=BULK_SIZE, metadata=UNIQUE)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> list[str]:
        external_ids: list[str] = data["externalIDs"]
        return external_ids


class TiebreakBody(Strict):
    a = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_POINTS))
    b = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_POINTS))


class GameScoreBody(Strict):
    """A game's points (`games` formats), or a set's games with the points of its tiebreak (`sets`, §18)."""

    a = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_POINTS))
    b = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_POINTS))
    tiebreak = fields.Nested(TiebreakBody, metadata={"description": "a set decided by a tiebreak: its points"})


MAX_VERSION = 2**53 - 1  # a JSON number every client reads exactly
VERSION_HELP = "the match's `scoreVersion` this write is based on; another one is 409 `stale_state` (contract §17)"


OP_ID_RULE = FullMatch(f"^{operations.OP_ID.pattern}$", error="1-64 URL-safe characters (A-Z, a-z, 0-9, '-', '_').")
OP_ID = fields.String(validate=OP_ID_RULE, metadata={
    "description": "chosen by the client; a repeated opID on the same match answers the first answer again and "
                   "changes nothing, for 24 hours (contract §17)"})


class ScoreBody(Strict):
    opID = OP_ID
    gameScores = fields.List(fields.Nested(GameScoreBody), required=True, validate=validate.Length(max=MAX_POINTS))
    reason = str_field(500, metadata={"description": "why a completed match's result is corrected (kept in the "
                                                    "audit log, contract §16)"})
    version = StrictInteger(validate=validate.Range(min=0, max=MAX_VERSION), metadata={"description": VERSION_HELP})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> ScoreWrite:
        return ScoreWrite(game_scores=data["gameScores"], op_id=data.get("opID"), reason=data.get("reason"),
                          version=data.get("version"), confirm_draw_change=data.get("confirmDrawChange", False))


DEVICE_ID = fields.String(validate=OP_ID_RULE, metadata={
    "description": "the client's own device (a console session, a phone): the board says \"2 devices scoring\" "
                   "while more than one client wrote to the match in the last 60 s (contract §17)"})


class PointBody(Strict):
    opID = OP_ID
    deviceID = DEVICE_ID
    side = Vocabulary(Side, required=True)
    version = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_VERSION),
                            metadata={"description": VERSION_HELP})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> PointWrite:
        return PointWrite(side=data["side"], version=data["version"], op_id=data.get("opID"),
                          device_id=data.get("deviceID"))


class UndoBody(Strict):
    opID = OP_ID
    deviceID = DEVICE_ID
    version = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_VERSION),
                            metadata={"description": VERSION_HELP})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> UndoWrite:
        return UndoWrite(version=data["version"], op_id=data.get("opID"), device_id=data.get("deviceID"))


class ScorerTapBody(Schema):
    """A scorer page's action (`POST /score/{key}/…`): the page's own body, so keys it may add are ignored."""

    class Meta:
        unknown = EXCLUDE

    version = fields.String(required=True, validate=validate.Length(min=1, max=200),
                            metadata={"description": "the state version the phone showed (its `/state`)"})
    opID = OP_ID
    deviceID = DEVICE_ID

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> ScorerTap:
        return ScorerTap(version=data["version"], op_id=data.get("opID"), device_id=data.get("deviceID"),
                         side=data.get("side"), winner_side=data.get("winnerSide"))


class ScorerPointBody(ScorerTapBody):
    side = Vocabulary(Side, required=True)


class ScorerRetireBody(ScorerTapBody):
    winnerSide = Vocabulary(Side, required=True)


class CompleteBody(Strict):
    gameScores = fields.List(fields.Nested(GameScoreBody), validate=validate.Length(max=MAX_POINTS))

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> Completion:
        return Completion(game_scores=data.get("gameScores"))


class QueueOrderBody(Strict):
    matchIDs = fields.List(str_field(500, min_length=1), required=True, validate=validate.Length(max=5000),
                           metadata={"uniqueItems": True, "description": "exactly the table's pending matches"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> QueueOrder:
        return QueueOrder(match_ids=data["matchIDs"])


# ------------------------------------------------------------------------------------------------ reads
class PlayerReferenceRead(Schema):
    externalID = fields.String()
    manualName = fields.String()


class ParticipantsRead(Schema):
    playerA = fields.Nested(PlayerReferenceRead)
    playerA2 = fields.Nested(PlayerReferenceRead)
    playerB = fields.Nested(PlayerReferenceRead)
    playerB2 = fields.Nested(PlayerReferenceRead)


class GameScoreRead(Schema):
    a = fields.Integer(required=True)
    b = fields.Integer(required=True)
    tiebreak = fields.Nested(TiebreakRead, metadata={"description": "a set decided by a tiebreak: its points"})


class MatchRead(Schema):
    """A match read (api-v1.md "Match (read)")."""

    id = fields.String(required=True)
    externalID = fields.String(required=True)
    scheduledMatchID = fields.String(required=True)
    tableID = fields.String(required=True, allow_none=True, metadata={
        "description": "null while a draw's match waits in the court pool (contract §13)"})
    status = Vocabulary(MatchStatus, required=True)
    participants = fields.Nested(ParticipantsRead, required=True)
    playerListExternalID = fields.String()
    isActive = fields.Boolean()
    isComplete = fields.Boolean()
    queuePosition = fields.Integer(allow_none=True, metadata={"description": "1-based; null unless pending"})
    scheduledOn = fields.String()
    gameScores = fields.List(fields.Nested(GameScoreRead), metadata={
        "description": "points of each game, or (a sets format) games of each set with its tiebreak (§18)"})
    score = fields.Nested(GameScoreRead, metadata={"description": "games (sets, in a sets format) won by each side"})
    scoreVersion = fields.Integer(required=True, metadata={
        "description": "+1 on every change of the match's scores or state; name it in score writes (§17)"})
    scoring = FormatRead(required=True, metadata={
        "description": "the match's scoring format object, resolved: match, else draw, else broadcast, else the "
                       "server's (contract §18)"})
    scoringName = fields.String(required=True, allow_none=True, metadata={"description": "its preset key, or null"})
    currentGame = fields.Nested(PointLabels, metadata={
        "description": "a live sets match: the points of the game in play as called (\"40\", \"AD\")"})
    eventName = fields.String()
    matchRound = fields.String()
    matchDetails = fields.String()
    startTime = fields.String()
    bestOf = fields.Integer()
    isDoubles = fields.Boolean()
    startedOn = fields.String(metadata={"description": "once started"})
    notBefore = fields.String(metadata={"description": "start-next does not start it earlier (contract §9a)"})
    plannedTableID = fields.String(metadata={"description": "the court the order of play puts it on (contract §20)"})
    plannedOn = fields.String(metadata={"description": "the time the order of play puts it at (contract §20)"})
    resultType = Vocabulary(MatchResultType, metadata={
        "description": "a result not played to the end (contract §14), or `played` for one typed in from paper "
                       "(§19); absent for a match played out on the server"})
    winnerSide = Vocabulary(Side, metadata={
        "description": "the winner of a walkover or retirement"})
    calledOn = fields.String(metadata={"description": "when the operator called the players to the court "
                                                      "(pending matches only; contract §14)"})
    completedOn = fields.String()
    drawID = fields.String(metadata={"description": "the draw this match plays (contract §13)"})
    drawMatchID = fields.String(metadata={"description": "its draw match (contract §13)"})
    playerA = fields.String(metadata={"description": "display name"})
    playerA2 = fields.String()
    playerB = fields.String()
    playerB2 = fields.String()


class TableRead(Schema):
    """A table read with its active match and pending queue (contract §5)."""

    id = fields.String(required=True)
    label = fields.String(required=True)
    broadcastID = fields.String(required=True)
    playerListExternalID = fields.String(required=True, allow_none=True)
    activeMatch = fields.Nested(MatchRead, required=True, allow_none=True)
    queue = fields.List(fields.Nested(MatchRead), required=True)


class BusyPlayer(Schema):
    name = fields.String(required=True, metadata={"description": "display name in this match"})
    tableID = fields.String(required=True, metadata={"description": "the table where they are playing"})
    tableLabel = fields.String(required=True)


class ActiveMatchRead(MatchRead):
    expectedEndOn = fields.String(required=True, metadata={
        "description": "start + the broadcast's typical duration, or now when that has passed (contract §9)"})
    devicesScoring = fields.Integer(required=True, metadata={
        "description": "clients that wrote to this match's score in the last 60 s; from 2 the board says "
                       "\"2 devices scoring\" (contract §17)"})


class BlockedBy(Schema):
    reason = Vocabulary(BlockReason, required=True)
    players = fields.List(fields.String(), required=True)
    until = fields.String(metadata={"description": "when the block ends by itself (resting, not before)"})


class QueuedMatchRead(MatchRead):
    estimatedStartOn = fields.String(required=True, metadata={
        "description": "when the match before it is expected to end (contract §9)"})
    busyPlayers = fields.List(fields.Nested(BusyPlayer), required=True, metadata={
        "description": "its players in an active match on another table right now"})
    blockedBy = fields.Nested(BlockedBy, required=True, allow_none=True, metadata={
        "description": "why it may not start now (contract §14), null when it may"})
    blockedByAll = fields.List(fields.Nested(BlockedBy), required=True, metadata={
        "description": "every reason it may not start now, `blockedBy` first; [] when it may (§19)"})


class OperatorTableRead(TableRead):
    """A court on the operator's board: the table read with estimates, busy players and attention (§9)."""

    activeMatch = fields.Nested(ActiveMatchRead, required=True, allow_none=True)
    queue = fields.List(fields.Nested(QueuedMatchRead), required=True)
    managerConnectionID = fields.String(required=True, allow_none=True)
    courtPlayerListID = fields.String(required=True, allow_none=True, metadata={
        "description": "id of the court's player list (the table's, else the broadcast's default), if any"})
    typicalMinutes = fields.Float(required=True, metadata={
        "description": "median duration of the broadcast's last 20 completed matches, else the default"})
    attention = Vocabulary(Attention, required=True, allow_none=True, metadata={
        "description": "overdue: in play over 1.5x typical; waiting: free court with matches queued"})
    lateMinutes = fields.Integer(allow_none=True, metadata={
        "description": "with an order of play (§20): minutes the court runs behind it (0: on time)"})
    late = fields.String(allow_none=True, metadata={"description": '"Court 3: 25 min late", null when on time'})


class ItemError(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)


class MatchDeleted(Schema):
    externalID = fields.String(required=True)
    deleted = fields.Boolean(required=True)


class BulkSyncItemResult(Schema):
    """One bulk item's outcome, in request order."""

    index = fields.Integer(required=True)
    externalID = fields.String(required=True)
    status = fields.Integer(required=True, metadata={"description": "HTTP status of this item"})
    data = fields.Nested(MatchRead)
    error = fields.Nested(ItemError)


class BulkCancelItemResult(BulkSyncItemResult):
    data = fields.Nested(MatchDeleted)


def bulk_envelope(result: type[Schema], name: str) -> type[Schema]:
    """`{"data": {"results": [...], "succeeded", "failed"}}`, named `name` (a response: `BulkSyncResult`)."""
    body = type(name, (Schema,), {
        "results": fields.List(fields.Nested(result), required=True),
        "succeeded": fields.Integer(required=True),
        "failed": fields.Integer(required=True),
    })
    return type(f"{name}Envelope", (Schema,), {"data": fields.Nested(body, required=True)})


class RowError(ItemError):
    details = fields.Dict(metadata={"description": "the row's fields in error, each with its reasons"})


class ScheduleImportRowResult(Schema):
    """One schedule row's outcome, in row order."""

    index = fields.Integer(required=True)
    status = fields.Integer(required=True, metadata={"description": "HTTP status of this row"})
    data = fields.Nested(MatchRead)
    error = fields.Nested(RowError)


class ScheduleImportResult(Schema):
    results = fields.List(fields.Nested(ScheduleImportRowResult), required=True)
    succeeded = fields.Integer(required=True)
    failed = fields.Integer(required=True)
    queued = fields.Integer(required=True, metadata={"description": "matches queued: 0 on a dry run or any failure"})


class ScheduleImportResultEnvelope(Schema):
    data = fields.Nested(ScheduleImportResult, required=True)


SYNC_BULK = bulk_envelope(BulkSyncItemResult, "BulkSyncResult")
CANCEL_BULK = bulk_envelope(BulkCancelItemResult, "BulkCancelResult")
