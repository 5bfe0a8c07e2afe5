"""Schemas of the draws routes (contract §13)."""

from __future__ import annotations

import math
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate

from api.schemas.common import PageQuery, Strict, Vocabulary, name_field, str_field
from api.schemas.matches import BlockedBy, MatchRead, StrictBoolean, StrictInteger
from api.schemas.scoring import FormatRead, ScoringField
from domain import names
from domain.draws import standings
from domain.draws.model import DrawFormat, DrawMatchStatus, DrawStatus, Options, ResultType, SeedBy, Stage
from domain.draws.service import EntryPlayer, NewDraw, NewEntry
from domain.errors import Invalid
from domain.models import ScoringSource

MAX_SEED = 256


def _text(length: int, *, visible: bool = False) -> dict[str, Any]:
    shape: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": length}
    return {**shape, "pattern": names.VISIBLE} if visible else shape


PLAYER_MANUAL: dict[str, Any] = {"type": "object", "additionalProperties": False, "required": ["manualName"],
                 "properties": {"manualName": _text(120, visible=True)}}
PLAYER_LISTED: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["playerListExternalID", "externalID"],
    "properties": {"playerListExternalID": _text(500), "externalID": _text(500)}}


def _player(value: dict[str, Any]) -> None:
    """A player is `{"manualName"}` or `{"playerListExternalID", "externalID"}`, strings of 1 to 120 / 500 (a
    name with a visible character, §8a). A wrong shape is named as such; a wrong value names its property."""
    shape = next((s for s in (PLAYER_MANUAL, PLAYER_LISTED) if set(value) == set(s["properties"])), None)
    if shape is None:
        raise ValidationError("Give either manualName, or playerListExternalID and externalID.")
    problems: dict[str, list[str]] = {}
    for key, item in value.items():
        limit = shape["properties"][key]["maxLength"]
        if not isinstance(item, str):
            problems[key] = ["Not a valid string."]
        elif not 1 <= len(item) <= limit:
            problems[key] = [f"Length must be between 1 and {limit}."]
        elif key == "manualName" and names.is_blank(item):
            problems[key] = [names.BLANK_MESSAGE]
    if problems:
        raise ValidationError(problems)


class PlayerField(fields.Dict):
    """A draw entry's player, checked by `_player` while loading, so a wrong property is named under the player
    (`{"manualName": [...]}`), not wrapped in a list as a validator's error would be."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        loaded = super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]
        _player(loaded)
        return loaded


def entry_player(value: dict[str, str]) -> EntryPlayer:
    """A player `_player` accepted, as the draw command's `EntryPlayer`."""
    return EntryPlayer(manual_name=value.get("manualName"),
                       player_list_external_id=value.get("playerListExternalID", ""),
                       external_id=value.get("externalID", ""))


def _unique(items: list[Any]) -> None:
    """`uniqueItems`, as the document says: a court named twice is refused, not quietly taken once."""
    if len(set(items)) != len(items):
        raise ValidationError("Items must be unique.")


TIEBREAK_OPENAPI: dict[str, Any] = {
    "oneOf": [{"type": "string", "enum": list(standings.RULE_NAMES)},
              {"type": "array", "minItems": 1, "maxItems": len(standings.CUSTOM_STEPS), "uniqueItems": True,
               "items": {"type": "string", "enum": list(standings.CUSTOM_STEPS)}}],
    "description": "the tie-break rule of its standings (contract §22): a rule's name or a list of steps; "
                   "round_robin, groups_knockout and swiss only; default: default"}


class TiebreakField(fields.Field[standings.Setting]):
    """`tiebreak`: a rule's name or a list of custom steps, checked by `domain.draws.standings`."""

    OPENAPI = TIEBREAK_OPENAPI

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> standings.Setting:
        try:
            return standings.checked_setting(value)
        except Invalid as exc:
            raise ValidationError((exc.details or {}).get("json", {}).get("tiebreak") or str(exc)) from exc


class TiebreakRead(fields.Raw):
    """The draw read's `tiebreak`: the rule's name or its steps; null for a format without standings."""

    OPENAPI = {"oneOf": TIEBREAK_OPENAPI["oneOf"], "nullable": True,
               "description": "the tie-break rule ranking its standings (contract §22); null: no standings"}


class RatingField(fields.Float):
    """A rating (contract §22): a finite JSON number (no string, no boolean)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_nan=False, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise self.make_error("invalid")
        return float(value)


class DrawEntryBody(Strict):
    players = fields.List(PlayerField(metadata={"oneOf": [PLAYER_MANUAL, PLAYER_LISTED]}),
                          required=True, validate=validate.Length(min=1, max=2))
    seed = StrictInteger(validate=validate.Range(min=1, max=MAX_SEED))
    club = name_field(120)
    name = name_field(120)
    rating = RatingField(metadata={"description": "what `seedBy: \"rating\"` seeds by (contract §22); default: the "
                                                  "mean of its players' `rating` in their player list"})


def new_entry(data: dict[str, Any]) -> NewEntry:
    """A loaded entry body as the service's `NewEntry`."""
    return NewEntry(players=[entry_player(p) for p in data["players"]], seed=data.get("seed"), club=data.get("club"),
                    name=data.get("name"), rating=data.get("rating"))


class DrawReplaceBody(Strict):
    """`POST /operator/draws/{id}/entries/{entryID}/replace` (contract §22): the entry taking a withdrawn one's
    place."""

    players = fields.List(PlayerField(metadata={"oneOf": [PLAYER_MANUAL, PLAYER_LISTED]}),
                          required=True, validate=validate.Length(min=1, max=2))
    club = name_field(120)
    name = name_field(120)
    rating = RatingField()

    @post_load
    def _command(self, data: dict[str, Any], **_: Any) -> NewEntry:
        return new_entry(data)


class DrawCreateBody(Strict):
    broadcastID = str_field(500, required=True, min_length=1)
    name = name_field(100, required=True)
    format = fields.String(required=True, validate=validate.OneOf([f.value for f in DrawFormat]))
    entries = fields.List(fields.Nested(DrawEntryBody), required=True, validate=validate.Length(min=2, max=256))
    groupCount = StrictInteger(validate=validate.Range(min=1, max=128))
    advancePerGroup = StrictInteger(validate=validate.Range(min=1, max=4))
    thirdPlace = StrictBoolean()
    grandFinalReset = StrictBoolean()
    rounds = StrictInteger(validate=validate.Range(min=1, max=255))
    bestOf = StrictInteger(validate=validate.Range(min=1, max=9))
    tableIDs = fields.List(str_field(500, min_length=1), validate=[validate.Length(min=1, max=500), _unique],
                           metadata={"uniqueItems": True})
    separateClubs = StrictBoolean()
    randomSeed = StrictInteger(validate=validate.Range(min=-(2**53), max=2**53))
    feedInRounds = StrictInteger(validate=validate.Range(min=1, max=7), metadata={
        "description": "feed_in: the main rounds whose losers feed the consolation (default 2; contract §22)"})
    seedBy = fields.String(validate=validate.OneOf([s.value for s in SeedBy]), metadata={
        "description": "rating: the top seedCount entries by rating are seeded, highest first (contract §22)"})
    seedCount = StrictInteger(validate=validate.Range(min=0, max=MAX_SEED), metadata={
        "description": "with seedBy: how many entries are seeded (default a quarter of them)"})
    scoring = ScoringField(ScoringSource.DRAW, metadata={
        "description": "the scoring format of its matches (contract §18); default: the broadcast's"})
    tiebreak = TiebreakField()

    @post_load
    def _command(self, data: dict[str, Any], **_: Any) -> NewDraw:
        options = Options(
            advance_per_group=data.get("advancePerGroup", 2), third_place=data.get("thirdPlace", False),
            grand_final_reset=data.get("grandFinalReset", False), rounds=data.get("rounds", 0),
            best_of=data.get("bestOf"), table_ids=list(dict.fromkeys(data["tableIDs"])) if "tableIDs" in data
            else None, separate_clubs=data.get("separateClubs", True), random_seed=data.get("randomSeed"),
            tiebreak=data.get("tiebreak"),
            feed_in_rounds=data.get("feedInRounds"), seed_by=SeedBy(data["seedBy"]) if "seedBy" in data else None,
            seed_count=data.get("seedCount"))
        return NewDraw(
            broadcast_id=data["broadcastID"], name=data["name"], format=DrawFormat(data["format"]),
            entries=[new_entry(e) for e in data["entries"]],
            group_count=data.get("groupCount"), options=options, scoring=data.get("scoring"))


class DrawQuery(PageQuery):
    broadcastID = str_field(500, required=True, min_length=1)


class DrawLink(Schema):
    drawMatchID = fields.String(required=True)
    slot = fields.Integer(required=True)


class DrawNext(Schema):
    winner = fields.Nested(DrawLink, required=True, allow_none=True)
    loser = fields.Nested(DrawLink, required=True, allow_none=True)


class DrawSlotRead(Schema):
    entryID = fields.String(required=True, allow_none=True)
    # `{"drawMatchID", "outcome"}` or `{"group", "rank"}`, or null
    from_ = fields.Dict(required=True, allow_none=True, data_key="from", attribute="from")


class DrawMatchRead(Schema):
    id = fields.String(required=True)
    number = fields.Integer(required=True)
    group = fields.String(required=True, allow_none=True)
    slots = fields.List(fields.Nested(DrawSlotRead), required=True)
    status = fields.String(required=True, validate=validate.OneOf([s.value for s in DrawMatchStatus]))
    matchID = fields.String(required=True, allow_none=True)
    winnerEntryID = fields.String(required=True, allow_none=True)
    loserEntryID = fields.String(required=True, allow_none=True)
    resultType = fields.String(required=True, allow_none=True, validate=validate.OneOf([r.value for r in ResultType]))
    next = fields.Nested(DrawNext, required=True)
    plannedTableID = fields.String(metadata={"description": "the court the order of play puts it on (contract §20)"})
    plannedOn = fields.String(metadata={"description": "the time the order of play puts it at (contract §20)"})


class DrawRoundRead(Schema):
    stage = fields.String(required=True, validate=validate.OneOf([s.value for s in Stage]))
    number = fields.Integer(required=True)
    name = fields.String(required=True)
    firstPlace = fields.Integer(metadata={
        "description": "play-off rounds and the winners' path of their draw (contract §22): the best place the "
                       "round's sub-bracket decides; absent elsewhere"})
    drawMatches = fields.List(fields.Nested(DrawMatchRead), required=True)


class StandingRead(Schema):
    entryID = fields.String(required=True)
    rank = fields.Integer(required=True)
    played = fields.Integer(required=True)
    won = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    gamesWon = fields.Integer(required=True)
    gamesLost = fields.Integer(required=True)
    pointsWon = fields.Integer(required=True)
    pointsLost = fields.Integer(required=True)
    decidedBy = fields.String(required=True, allow_none=True, validate=validate.OneOf(standings.DECIDED_BY), metadata={
        "description": "the tie-break step that put it above the next row (contract §22); null: not tied"})


class GroupRead(Schema):
    name = fields.String(required=True)
    entryIDs = fields.List(fields.String(), required=True)
    standings = fields.List(fields.Nested(StandingRead), required=True)


class EntryPlayerRead(Schema):
    manualName = fields.String()
    playerListExternalID = fields.String()
    externalID = fields.String()
    name = fields.String()


class EntryRead(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    club = fields.String(required=True, allow_none=True)
    seed = fields.Integer(required=True, allow_none=True)
    rating = fields.Float(required=True, allow_none=True)
    players = fields.List(fields.Nested(EntryPlayerRead), required=True)
    withdrawn = fields.Boolean(required=True)


class PlacingRead(Schema):
    place = fields.Integer(required=True)
    entryID = fields.String(required=True)
    stage = fields.String(validate=validate.OneOf([Stage.CONSOLATION.value]), metadata={
        "description": "consolation: the consolation's winner (contract §22); absent for the draw's own places"})


class DrawRead(Schema):
    id = fields.String(required=True)
    broadcastID = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True, validate=validate.OneOf([f.value for f in DrawFormat]))
    status = Vocabulary(DrawStatus, required=True)
    createdOn = fields.String(required=True)
    scoring = FormatRead(required=True, allow_none=True, metadata={
        "description": "the scoring format of its matches (contract §18); null: the broadcast's"})
    scoringName = fields.String(required=True, allow_none=True, metadata={"description": "its preset key, or null"})
    entries = fields.List(fields.Nested(EntryRead), required=True)
    tiebreak = TiebreakRead(required=True, allow_none=True)
    groups = fields.List(fields.Nested(GroupRead), required=True)
    rounds = fields.List(fields.Nested(DrawRoundRead), required=True)
    placings = fields.List(fields.Nested(PlacingRead), required=True)


class PoolMatchRead(MatchRead):
    blockedBy = fields.Nested(BlockedBy, metadata={
        "description": "why the start rules (busy, resting, checked in, not before) hold it back now"})
    blockedByAll = fields.List(fields.Nested(BlockedBy), required=True, metadata={
        "description": "every reason the start rules hold it back now, `blockedBy` first; [] when none (§19)"})
    estimatedStartOn = fields.String(metadata={
        "description": "when it should start: in pool order, each takes the court that comes free first after its "
                       "own queue, for the broadcast's typical match (contract §13)"})
