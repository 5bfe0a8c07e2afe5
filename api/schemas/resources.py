"""Bodies and reads of the account resources: broadcasts, rosters, player lists, teams and tables.

Request bodies are strict (unknown property = 400) with the spec's bounds and, where the spec is silent, the
contract's: names and labels 1-120, descriptions <= 800, URLs <= 1000, other strings <= 500.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from api.schemas.common import ErrorDetail, Strict, Vocabulary, external_id_field, label_field, name_field, str_field
from api.schemas.matches import RowError, StrictBoolean, StrictInteger, TableRead
from api.schemas.plan import PlanSettings
from api.schemas.scoring import FormatRead, ScoringField
from domain.models import PlayerSource, RosterType, ScoringSource
from domain.partner.broadcasts import BroadcastChange, BroadcastHandover, Court, NewBroadcast
from domain.partner.player_lists import (
    MAX_IMPORT_ROWS,
    NewHouseList,
    NewManualPlayer,
    PlayerChanges,
    PlayerListChange,
    PlayerSheet,
    SyncPlayerList,
    SyncTeam,
    TeamChange,
)
from domain.partner.rosters import NewRoster, OperatorNewRoster, RosterChange
from domain.partner.tables import ListAssignment, TableAssignment

NAME, DESCRIPTION, URL, OTHER = 120, 800, 1000, 500


class NumberOrString(fields.Field[float | str]):
    """`ranking` / `rating`: a finite JSON number or a string of at most 500 characters."""

    OPENAPI = {"oneOf": [{"type": "number"}, {"type": "string", "maxLength": OTHER}]}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and len(value) <= OTHER:
            return value
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return value
        raise ValidationError("Must be a number or a string of at most 500 characters.")


def _unique(items: Sequence[Any]) -> None:
    if len(set(items)) != len(items):
        raise ValidationError("Items must be unique.")


def id_list(max_items: int) -> fields.List[str]:
    """An array of unique non-empty identifiers."""
    return fields.List(str_field(OTHER, min_length=1), validate=[validate.Length(max=max_items), _unique],
                       metadata={"uniqueItems": True})


# ------------------------------------------------------------------ players
class PlayerFields(Strict):
    """The external player shape without `externalID`."""

    firstName = name_field(NAME, allow_empty=True)
    lastName = name_field(NAME, allow_empty=True)
    firstNameInitial = StrictBoolean()
    lastNameInitial = StrictBoolean()
    country = str_field(OTHER)
    clubName = str_field(NAME)
    gender = str_field(OTHER)
    imageURL = str_field(URL)
    jerseyColor = str_field(NAME)
    ranking = NumberOrString()
    rating = NumberOrString()


class ExternalPlayer(PlayerFields):
    """A player a partner syncs, keyed by its `externalID`."""

    externalID = external_id_field(required=True)


class ManualPlayer(PlayerFields):
    """A player the operator adds by hand (`externalID` optional; a first name with a visible character)."""

    externalID = external_id_field()
    firstName = name_field(NAME, required=True)
    email = fields.Email(validate=validate.Length(max=254), metadata={
        "description": "for call-up mail (contract §21); operator reads only"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> NewManualPlayer:
        return NewManualPlayer(first_name=data["firstName"], external_id=data.get("externalID"), fields=data)


class PlayerEdit(PlayerFields):
    """The fields to change of a manual or self-registered player (at least one)."""

    OPENAPI: dict[str, Any] = {"minProperties": 1}
    externalID = external_id_field()
    firstName = name_field(NAME)
    email = fields.Email(validate=validate.Length(max=254), metadata={
        "description": "for call-up mail (contract §21); operator reads only"})

    @validates_schema
    def _not_empty(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("Give at least one property to change.")

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> PlayerChanges:
        return PlayerChanges(changes=data)


class PlayerImportRow(Strict):
    """One row of a player sheet: a person's name, and optionally club, country, gender, email and rating."""

    firstName = name_field(NAME, required=True)
    lastName = name_field(NAME, required=True)
    clubName = str_field(NAME)
    country = str_field(OTHER)
    gender = str_field(OTHER)
    email = fields.Email(validate=validate.Length(max=254), metadata={
        "description": "for call-up mail (contract §21); operator reads only"})
    rating = NumberOrString(metadata={"description": "what a draw's `seedBy: \"rating\"` seeds by"})


class PlayerImport(Strict):
    rows = fields.List(fields.Nested(PlayerImportRow), required=True,
                       validate=validate.Length(min=1, max=MAX_IMPORT_ROWS),
                       metadata={"description": "1 to 1,000 rows"})
    dryRun = StrictBoolean(load_default=False, metadata={"description": "only check; store nothing"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> PlayerSheet:
        return PlayerSheet(rows=data["rows"], dry_run=data["dryRun"])


class PlayerRead(Schema):
    externalID = fields.String(metadata={"description": "absent only for manual entries added without one"})
    firstName = fields.String()
    lastName = fields.String()
    firstNameInitial = fields.Boolean()
    lastNameInitial = fields.Boolean()
    country = fields.String()
    clubName = fields.String()
    gender = fields.String()
    imageURL = fields.String()
    jerseyColor = fields.String()
    ranking = NumberOrString()
    rating = NumberOrString()
    source = Vocabulary(PlayerSource, required=True)


class OperatorPlayerRead(PlayerRead):
    id = fields.String(metadata={"description": "manual entries: the ID to remove them by"})
    connectionID = fields.String(metadata={"description": "mapped entries: the connection that synced it"})
    email = fields.String(metadata={"description": "for call-up mail (contract §21); never in partner reads"})


class PlayerImportRowResult(Schema):
    """One sheet row's outcome, in row order."""

    index = fields.Integer(required=True)
    status = fields.Integer(required=True, metadata={"description": "HTTP status of this row"})
    data = fields.Nested(OperatorPlayerRead)
    error = fields.Nested(RowError)


class PlayerImportResult(Schema):
    results = fields.List(fields.Nested(PlayerImportRowResult), required=True)
    succeeded = fields.Integer(required=True)
    failed = fields.Integer(required=True)
    imported = fields.Integer(required=True, metadata={"description": "players added: 0 on a dry run or any "
                                                                       "failure"})


class PlayerImportResultEnvelope(Schema):
    data = fields.Nested(PlayerImportResult, required=True)


def _players(max_items: int, *, required: bool = False) -> fields.List[Any]:
    return fields.List(fields.Nested(ExternalPlayer), required=required, validate=validate.Length(max=max_items),
                       metadata={"uniqueItems": True, "description": "each externalID at most once"})


# ------------------------------------------------------------------ player lists
#: Player list and team patch members -> command fields.
PATCH_FIELDS = {"upsert": "upsert", "removeExternalIDs": "remove_external_ids", "name": "name",
                "description": "description", "jerseyColor": "jersey_color", "logoURL": "logo_url"}

class PlayerListSync(Strict):
    externalID = external_id_field(required=True)
    name = name_field(NAME, required=True)
    description = str_field(DESCRIPTION)
    players = _players(5000, required=True)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> SyncPlayerList:
        return SyncPlayerList(external_id=data["externalID"], name=data["name"], players=data["players"],
                              description=data.get("description"))


class PlayerListPatch(Strict):
    """At least one of `upsert`, `removeExternalIDs`, `name`, `description`."""

    OPENAPI = {"minProperties": 1}
    upsert = _players(500)
    removeExternalIDs = id_list(500)
    name = name_field(NAME)
    description = str_field(DESCRIPTION)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> PlayerListChange:
        return PlayerListChange(**{PATCH_FIELDS[name]: value for name, value in data.items()})


class PlayerListRead(Schema):
    id = fields.String(required=True)
    externalID = fields.String()
    name = fields.String(required=True)
    description = fields.String()
    playerCount = fields.Integer(required=True)
    players = fields.List(fields.Nested(PlayerRead), required=True)
    createdOn = fields.String(required=True)
    updatedOn = fields.String(required=True)


class OperatorPlayerListRead(PlayerListRead):
    players = fields.List(fields.Nested(OperatorPlayerRead), required=True)
    connectionID = fields.String(required=True, allow_none=True,
                                 metadata={"description": "null for roster-backed lists"})
    rosterID = fields.String(required=True, allow_none=True,
                             metadata={"description": "the roster a backing list belongs to"})


# ------------------------------------------------------------------ rosters
#: `selfRegistrationEnabled` is for individual rosters only.
NO_SELF_REGISTRATION_ON_TEAMS = {"not": {"required": ["rosterType", "selfRegistrationEnabled"],
                                         "properties": {"rosterType": {"enum": [RosterType.TEAM.value]}}}}


class RosterCreate(Strict):
    OPENAPI: dict[str, Any] = NO_SELF_REGISTRATION_ON_TEAMS
    name = name_field(NAME, required=True)
    rosterType = Vocabulary(RosterType, required=True)
    description = str_field(DESCRIPTION)
    selfRegistrationEnabled = StrictBoolean(metadata={"description": "individual rosters only"})
    teamLogoURL = fields.String(validate=[validate.Length(max=URL), validate.URL(relative=False)])
    teamJerseyColor = str_field(NAME)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> NewRoster | RosterChange:
        return NewRoster(**{ROSTER_FIELDS[name]: value for name, value in data.items()})


ROSTER_FIELDS = {"name": "name", "rosterType": "roster_type", "description": "description",
                 "selfRegistrationEnabled": "self_registration_enabled", "teamLogoURL": "team_logo_url",
                 "teamJerseyColor": "team_jersey_color"}


class RosterPatch(RosterCreate):
    """At least one property; `rosterType` only restated, `selfRegistrationEnabled` only on individual rosters."""

    OPENAPI = {**NO_SELF_REGISTRATION_ON_TEAMS, "minProperties": 1}
    name = name_field(NAME)
    rosterType = Vocabulary(RosterType, metadata={"description": "accepted only when equal to the current type"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> NewRoster | RosterChange:
        return RosterChange(**{ROSTER_FIELDS[name]: value for name, value in data.items()})


class OperatorRosterCreate(Strict):
    """The console's roster (contract §9a); `broadcastID` makes its list that broadcast's default if it has none."""

    OPENAPI: dict[str, Any] = {"not": {"required": ["type", "selfRegistrationEnabled"],
                                       "properties": {"type": {"enum": [RosterType.TEAM.value]}}}}
    broadcastID = fields.String(validate=validate.Length(min=1, max=200))
    name = name_field(NAME, required=True)
    type = Vocabulary(RosterType, required=True)
    selfRegistrationEnabled = StrictBoolean(metadata={"description": "individual rosters only"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> OperatorNewRoster:
        return OperatorNewRoster(broadcast_id=data.get("broadcastID"), roster=NewRoster(
            name=data["name"], roster_type=data["type"],
            self_registration_enabled=data.get("selfRegistrationEnabled")))


class OperatorRosterPatch(Strict):
    OPENAPI: dict[str, Any] = {"minProperties": 1}
    name = name_field(NAME)
    selfRegistrationEnabled = StrictBoolean(metadata={"description": "individual rosters only"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> RosterChange:
        return RosterChange(**{ROSTER_FIELDS[name]: value for name, value in data.items()})


class OperatorPlayerListCreate(Strict):
    name = name_field(NAME, required=True)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> NewHouseList:
        return NewHouseList(name=data["name"])


class RosterSource(Schema):
    playerListID = fields.String(required=True)
    playerCount = fields.Integer(required=True)


class RosterRead(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    description = fields.String()
    rosterType = Vocabulary(RosterType, required=True)
    playerCount = fields.Integer(required=True)
    selfRegistrationEnabled = fields.Boolean()
    teamLogoURL = fields.String()
    teamJerseyColor = fields.String()
    createdOn = fields.String(required=True)
    updatedOn = fields.String(required=True)
    source = fields.Nested(RosterSource, required=True)


# ------------------------------------------------------------------ teams
class TeamSync(Strict):
    externalID = external_id_field(required=True)
    name = name_field(NAME, required=True)
    logoURL = str_field(URL)
    jerseyColor = str_field(NAME)
    players = _players(5000, required=True)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> SyncTeam:
        return SyncTeam(external_id=data["externalID"], name=data["name"], players=data["players"],
                        logo_url=data.get("logoURL"), jersey_color=data.get("jerseyColor"))


class TeamPatch(Strict):
    """At least one of `upsert`, `removeExternalIDs`, `name`, `jerseyColor`, `logoURL`."""

    OPENAPI = {"minProperties": 1}
    upsert = _players(500)
    removeExternalIDs = id_list(500)
    name = name_field(NAME)
    jerseyColor = str_field(NAME)
    logoURL = str_field(URL)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> TeamChange:
        return TeamChange(**{PATCH_FIELDS[name]: value for name, value in data.items()})


class TeamRead(Schema):
    id = fields.String(required=True)
    externalID = fields.String(required=True)
    name = fields.String(required=True)
    logoURL = fields.String()
    jerseyColor = fields.String()
    playerCount = fields.Integer(required=True)
    players = fields.List(fields.Nested(PlayerRead), required=True)
    roster = fields.Nested(RosterRead, required=True, allow_none=True)
    createdOn = fields.String(required=True)
    updatedOn = fields.String(required=True)


# ------------------------------------------------------------------ broadcasts
class CourtWrite(Strict):
    id = str_field(OTHER, min_length=1, metadata={"description": "an existing court of this broadcast"})
    label = label_field(NAME, required=True)
    scoreboardIDs = id_list(100)

    @post_load
    def to_court(self, data: dict[str, Any], **_: Any) -> Court:
        return Court(label=data["label"], id=data.get("id"), scoreboard_ids=data.get("scoreboardIDs"))


#: Broadcast body members -> command fields (one map for create and patch).
BROADCAST_FIELDS = {"name": "name", "description": "description", "defaultPlayerListID": "default_player_list_id",
                    "defaultScoreboardID": "default_scoreboard_id", "scoreboardIDs": "scoreboard_ids",
                    "tables": "tables", "managerConnectionID": "manager_connection_id", "scoring": "scoring"}


class BroadcastCreate(Strict):
    name = name_field(NAME, required=True)
    description = str_field(DESCRIPTION)
    defaultPlayerListID = str_field(OTHER, min_length=1)
    defaultScoreboardID = str_field(OTHER, min_length=1)
    scoreboardIDs = id_list(100)
    tables = fields.List(fields.Nested(CourtWrite), required=True, validate=validate.Length(min=1, max=50))
    scoring = ScoringField(ScoringSource.BROADCAST, metadata={
        "description": "the scoring format of its matches (contract §18); default: the server's"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> NewBroadcast:
        return NewBroadcast(**{BROADCAST_FIELDS[name]: value for name, value in data.items()})


class BroadcastPatch(Strict):
    """At least one property; `tables` replaces the court configuration; `null` clears an optional field."""

    OPENAPI = {"minProperties": 1}

    name = name_field(NAME)
    description = str_field(DESCRIPTION, allow_none=True)
    defaultPlayerListID = str_field(OTHER, min_length=1, allow_none=True)
    defaultScoreboardID = str_field(OTHER, min_length=1, allow_none=True)
    scoreboardIDs = fields.List(str_field(OTHER, min_length=1), allow_none=True,
                                validate=[validate.Length(max=100), _unique], metadata={"uniqueItems": True})
    tables = fields.List(fields.Nested(CourtWrite), validate=validate.Length(min=1, max=50))
    scoring = ScoringField(ScoringSource.BROADCAST, allow_none=True, metadata={
        "description": "the scoring format of its matches (§18); null: the server's. Pending matches follow it"})

    @validates_schema
    def _not_empty(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("Give at least one property to change.")

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> BroadcastChange:
        return BroadcastChange(**{BROADCAST_FIELDS[name]: value for name, value in data.items()})


class EventDay(Strict):
    """Event-day rules of a broadcast (contract §14); a patch names at least one (`{}` changes nothing: 400)."""

    OPENAPI: dict[str, Any] = {"minProperties": 1}

    requireCheckIn = StrictBoolean(metadata={"description": "only checked-in players may start (default false)"})
    restMinutes = StrictInteger(validate=validate.Range(min=0, max=240),
                                metadata={"description": "rest after a match before the next (default 0)"})
    selfCheckIn = StrictBoolean(metadata={"description": "players may check in through their own link (§21)"})
    selfReport = StrictBoolean(metadata={"description": "players may report results through their own link"})
    selfReportConfirmMinutes = StrictInteger(validate=validate.Range(min=0, max=120), metadata={
        "description": "a waiting report is confirmed by the server after this long; 0: never (default 10)"})

    @validates_schema
    def _not_empty(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("Give at least one event-day rule to change.")


class EventDayRead(Schema):
    requireCheckIn = fields.Boolean(required=True)
    restMinutes = fields.Integer(required=True)
    selfCheckIn = fields.Boolean(required=True)
    selfReport = fields.Boolean(required=True)
    selfReportConfirmMinutes = fields.Integer(required=True)


class OperatorBroadcastPatch(BroadcastPatch):
    """The partner patch plus `eventDay` (check-in and rest, contract §14)."""

    eventDay = fields.Nested(EventDay)
    plan = fields.Nested(PlanSettings, metadata={"description": "the order of play's settings (§20), replaced whole"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> BroadcastChange:
        event_day = data.pop("eventDay", {})
        if "plan" in data:
            event_day = {**event_day, "plan": data.pop("plan")}
        day = {name: event_day[key] for key, name in (
            ("requireCheckIn", "require_check_in"), ("restMinutes", "rest_minutes"),
            ("selfCheckIn", "self_check_in"), ("selfReport", "self_report"),
            ("selfReportConfirmMinutes", "self_report_confirm_minutes"), ("plan", "plan")) if key in event_day}
        return BroadcastChange(**{BROADCAST_FIELDS[name]: value for name, value in data.items()}, **day)


class OperatorBroadcastCreate(BroadcastCreate):
    managerConnectionID = str_field(OTHER, min_length=1,
                                    metadata={"description": "the connection that manages its tables"})


class Handover(Strict):
    connectionID = str_field(OTHER, required=True, min_length=1)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> BroadcastHandover:
        return BroadcastHandover(connection_id=data["connectionID"])


class Output(Schema):
    scoreboardID = fields.String(required=True)


class CourtRead(Schema):
    id = fields.String(required=True)
    label = fields.String(required=True)
    scoreboardIDs = fields.List(fields.String(), required=True)
    outputs = fields.List(fields.Nested(Output), required=True)


class BroadcastRead(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    description = fields.String()
    createdOn = fields.String(required=True)
    updatedOn = fields.String(required=True)
    defaultPlayerListID = fields.String()
    defaultScoreboardID = fields.String()
    scoreboardIDs = fields.List(fields.String(), required=True)
    tableCount = fields.Integer(required=True)
    outputCount = fields.Integer(required=True)
    tables = fields.List(fields.Nested(CourtRead), required=True)
    scoring = FormatRead(required=True, allow_none=True, metadata={
        "description": "the scoring format of its matches (contract §18); null: the server's"})
    scoringName = fields.String(required=True, allow_none=True, metadata={"description": "its preset key, or null"})


class OperatorBroadcastRead(BroadcastRead):
    managerConnectionID = fields.String(required=True, allow_none=True,
                                        metadata={"description": "the connection that manages its tables"})
    eventDay = fields.Nested(EventDayRead, required=True)
    plan = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the order of play's settings (contract §20); null: never set"})


# ------------------------------------------------------------------ tables
class TableAssign(Strict):
    playerListExternalID = str_field(OTHER, required=True, min_length=1, allow_none=True,
                                     metadata={"description": "one of the caller's lists; null clears it"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> ListAssignment:
        return ListAssignment(player_list_external_id=data["playerListExternalID"])


class TableAssignItem(TableAssign):
    tableID = str_field(OTHER, required=True, min_length=1)

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> ListAssignment:
        return TableAssignment(table_id=data["tableID"], player_list_external_id=data["playerListExternalID"])


class BulkTableAssign(Strict):
    tables = fields.List(fields.Nested(TableAssignItem), required=True, validate=validate.Length(min=1, max=100),
                         metadata={"uniqueItems": True, "description": "each tableID at most once (else 400 "
                                   "`duplicate_table`)"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> list[TableAssignment]:
        items: list[TableAssignment] = data["tables"]
        return items


class TableResult(Schema):
    index = fields.Integer(required=True)
    tableID = fields.String(required=True)
    status = fields.Integer(required=True)
    data = fields.Nested(TableRead)
    error = fields.Nested(ErrorDetail)


class BulkTableOutcome(Schema):
    """`PATCH /tables/bulk`: per-table results in request order, and the counts."""

    results = fields.List(fields.Nested(TableResult), required=True)
    succeeded = fields.Integer(required=True)
    failed = fields.Integer(required=True)
