"""Scoring formats in bodies and reads (contract §18): a preset key or a format object, checked by the one format
module (`domain.match.formats`), and the reads of formats and of scores under them."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields

from domain.errors import Invalid
from domain.match import formats
from domain.match.scoring import Scoring
from domain.models import ScoringSource

GAME_RULE: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["pointsToWin"], "properties": {
    "pointsToWin": {"type": "integer", "minimum": 1, "maximum": 99},
    "winBy": {"type": "integer", "enum": list(formats.WIN_BY), "default": 2},
    "cap": {"type": "integer", "nullable": True, "minimum": 2, "maximum": 199,
            "description": "the first side to reach it wins (null: none); more than pointsToWin"}}}
GAMES_FORMAT = {"type": "object", "title": "GamesFormat", "additionalProperties": False,
                "required": ["kind", "bestOf", "pointsToWin"], "properties": {
                    "kind": {"type": "string", "enum": [str(formats.FormatKind.GAMES)]},
                    "bestOf": {"type": "integer", "enum": list(formats.GAMES_BEST_OF)},
                    **GAME_RULE["properties"],
                    "decidingGame": {**GAME_RULE, "nullable": True,
                                     "description": "replaces pointsToWin, winBy and cap in the last game"}}}
SETS_FORMAT = {"type": "object", "title": "SetsFormat", "additionalProperties": False,
               "required": ["kind", "bestOf"], "properties": {
                   "kind": {"type": "string", "enum": [str(formats.FormatKind.SETS)]},
                   "bestOf": {"type": "integer", "enum": list(formats.SETS_BEST_OF)},
                   "gamesToWin": {"type": "integer", "minimum": 4, "maximum": 8, "default": 6},
                   "tiebreakAt": {"type": "integer", "nullable": True, "minimum": 4, "maximum": 8,
                                  "description": "null (no tiebreak) or gamesToWin (default)"},
                   "tiebreakTo": {"type": "integer", "enum": list(formats.TIEBREAK_TO), "default": 7},
                   "finalSet": {"type": "string", "enum": [str(f) for f in formats.FinalSet], "default": "tiebreak"},
                   "noAd": {"type": "boolean", "default": False,
                            "description": "a golden point at deuce (40-40)"}}}


class ScoringField(fields.Field[Scoring]):
    """`scoring`: a preset key or a format object (contract §18), checked by `domain.match.formats`; a body's format
    is kept with where it was set (`source`)."""

    OPENAPI = {"oneOf": [{"type": "string", "enum": list(formats.PRESETS)}, GAMES_FORMAT, SETS_FORMAT],
               "description": "a preset key (GET /operator/scoring-formats lists them) or a format object"}

    def __init__(self, source: ScoringSource, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.source = source

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Scoring:
        try:
            return Scoring.given(value, self.source)
        except Invalid as exc:
            problems = (exc.details or {}).get("json", {}).get("scoring")
            raise ValidationError(problems or str(exc)) from exc


class TiebreakRead(Schema):
    a = fields.Integer(required=True)
    b = fields.Integer(required=True)


class PointLabels(Schema):
    a = fields.String(required=True, metadata={"description": '"0", "15", "30", "40", "AD", or tiebreak points'})
    b = fields.String(required=True)


class ScoringFormatRead(Schema):
    """A preset of `GET /operator/scoring-formats`."""

    name = fields.String(required=True, metadata={"description": "the preset key"})
    description = fields.String(required=True, metadata={"description": "the format in plain English"})
    scoring = fields.Dict(required=True, metadata={"description": "the format object"})
    typicalMinutes = fields.Integer(required=True, metadata={
        "description": "how long a match usually takes: the order of play's default (contract §20)"})
