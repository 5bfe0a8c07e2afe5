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
def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


GAMES_FORMAT = {"type": "object", "additionalProperties": False,
                "required": ["kind", "bestOf", "pointsToWin"], "properties": {
                    "kind": {"type": "string", "enum": [str(formats.FormatKind.GAMES)]},
                    "bestOf": {"type": "integer", "enum": list(formats.GAMES_BEST_OF)},
                    **GAME_RULE["properties"],
                    "decidingGame": {"allOf": [_ref("GameRule")], "nullable": True,
                                     "description": "replaces pointsToWin, winBy and cap in the last game"}}}
SETS_FORMAT = {"type": "object", "additionalProperties": False,
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
SCORING_PRESET = {"type": "string", "enum": list(formats.PRESETS),
                  "description": "a preset key (GET /operator/scoring-formats lists them)"}
#: The named components of scoring formats: each referenced wherever a format is written or read (one generated
#: class each, not one copy per body).
COMPONENTS: dict[str, dict[str, Any]] = {"ScoringPreset": SCORING_PRESET, "GameRule": GAME_RULE,
                                         "GamesFormat": GAMES_FORMAT, "SetsFormat": SETS_FORMAT}


class ScoringField(fields.Field[Scoring]):
    """`scoring`: a preset key or a format object (contract §18), checked by `domain.match.formats`; a body's format
    is kept with where it was set (`source`)."""

    OPENAPI = {"oneOf": [_ref("ScoringPreset"), _ref("GamesFormat"), _ref("SetsFormat")],
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


class FormatRead(fields.Raw):
    """A resolved scoring format object in a read: `GamesFormat` or `SetsFormat` (as `domain.match.formats.to_json`
    writes it), documented by reference."""

    OPENAPI = {"oneOf": [_ref("GamesFormat"), _ref("SetsFormat")]}


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
    scoring = FormatRead(required=True, metadata={"description": "the format object"})
    typicalMinutes = fields.Integer(required=True, metadata={
        "description": "how long a match usually takes: the order of play's default (contract §20)"})
