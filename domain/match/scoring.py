"""How a match is scored (contract §18): its format, resolved where it is set, and the format engine
(`domain.match.formats`) applied to the score the match stores.

A format is set on the match itself (operator match, import row), else on its draw, else on its broadcast, else it
is the server's (`COURTSIDE_SCORING`). A match keeps its resolved format (`Match.scoring`, with where it came from):
a pending one follows a change of its broadcast's format (`domain.partner.broadcasts`), and from its start the format is
fixed. A partner's `bestOf` overrides the format's `bestOf`. Every service and read asks this module, never the
format engine with a format of its own: one rule, one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.errors import Invalid
from domain.match import formats
from domain.match.formats import Format, Score
from domain.models import POOL, Broadcast, DrawRecord, Match, ScoringSource, Side
from domain.ports import UnitOfWork


def parse_best_of(value: Any) -> int:
    """`bestOf` as the API accepts it: a positive odd integer, as a number or a string of digits."""
    if isinstance(value, bool):
        raise Invalid("bestOf must be a positive odd integer.")
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or value < 1 or value % 2 == 0:
        raise Invalid("bestOf must be a positive odd integer.")
    return value


@dataclass(frozen=True)
class Scoring:
    """A resolved format: the format, its preset key (None for a custom one) and where it was set."""

    format: Format
    name: str | None
    source: ScoringSource

    @classmethod
    def given(cls, value: Any, source: ScoringSource) -> Scoring:
        """A format as a body gives it (preset key or object); `400 validation_failed` when it is not one."""
        fmt, name = formats.parse(value)
        return cls(fmt, name or formats.name_of(fmt), source)

    @classmethod
    def stored(cls, data: Mapping[str, Any] | None, name: str | None, source: ScoringSource) -> Scoring | None:
        return None if data is None else cls(formats.from_json(data), name, source)

    def json(self) -> dict[str, Any]:
        return formats.to_json(self.format)


SERVER_DEFAULT = Scoring(formats.PRESETS[formats.DEFAULT_NAME], formats.DEFAULT_NAME, ScoringSource.SERVER)


def server_default(name: str | None = None, *, points: int | None = None, best_of: int | None = None) -> Scoring:
    """The server's format: the preset `COURTSIDE_SCORING` (default `table_tennis`), with the legacy
    `COURTSIDE_POINTS_PER_GAME` and `COURTSIDE_DEFAULT_BEST_OF` applied when they are set."""
    key = name or formats.DEFAULT_NAME
    fmt = formats.with_best_of(formats.with_points(formats.preset(key), points), best_of)
    return Scoring(fmt, key if fmt == formats.PRESETS[key] else formats.name_of(fmt), ScoringSource.SERVER)


def resolve(*, own: Scoring | None, draw: Scoring | None, broadcast: Scoring | None, server: Scoring) -> Scoring:
    """The format of a match: its own, else its draw's, else its broadcast's, else the server's (contract §18)."""
    return own or draw or broadcast or server


def of_broadcast(uow: UnitOfWork, broadcast_id: str | None) -> Scoring | None:
    """The format a broadcast sets for its matches, if it sets one."""
    broadcast = uow.broadcasts.get(broadcast_id) if broadcast_id else None
    return None if broadcast is None else of_broadcast_record(broadcast)


def of_broadcast_record(broadcast: Broadcast) -> Scoring | None:
    """The format this broadcast sets for its matches, if it sets one."""
    return Scoring.stored(broadcast.scoring, broadcast.scoring_name, ScoringSource.BROADCAST)


def scoring_for(uow: UnitOfWork, *, table_id: str, record: DrawRecord | None, own: Scoring | None,
                server: Scoring) -> Scoring:
    """The format of a new match on this court (or in its draw's court pool): resolved as `resolve` says."""
    draw = None if record is None else Scoring.stored(record.scoring, record.scoring_name, ScoringSource.DRAW)
    if own is not None or draw is not None:
        return resolve(own=own, draw=draw, broadcast=None, server=server)
    table = uow.tables.get(table_id) if table_id and table_id != POOL else None
    broadcast_id = record.broadcast_id if record is not None else table.broadcast_id if table is not None else None
    return resolve(own=None, draw=None, broadcast=of_broadcast(uow, broadcast_id), server=server)


def assign(match: Match, scoring: Scoring) -> None:
    """Keep a resolved format on a match (at creation, and while it is pending when its broadcast's changes)."""
    match.scoring = scoring.json()
    match.scoring_name = scoring.name
    match.scoring_source = scoring.source


def check_best_of(match: Match) -> None:
    """A partner's `bestOf` must suit the match's format (contract §18): a sets format (tennis, padel) is played
    best of 1, 3 or 5 sets; anything else is `400 validation_failed` naming `bestOf`."""
    fmt = formats.from_json(match.scoring) if match.scoring else SERVER_DEFAULT.format
    if match.best_of is not None and isinstance(fmt, formats.SetsFormat) and match.best_of not in formats.SETS_BEST_OF:
        message = f"A {match.scoring_name or 'sets'} match is best of 1, 3 or 5 sets."
        raise Invalid(message, details={"json": {"bestOf": [message]}})


def format_of(match: Match) -> Format:
    """The format a match is scored by: the one it keeps (a match stored before formats: the server's
    default preset), with a partner's `bestOf` over the format's."""
    fmt = formats.from_json(match.scoring) if match.scoring else SERVER_DEFAULT.format
    return formats.with_best_of(fmt, match.best_of)


def name_of(match: Match) -> str | None:
    """The preset key of the match's format (`scoringName`), or None for a custom one. A partner's `bestOf` that
    differs from the chosen preset's makes it custom unless it is another preset of the same sport (a table-tennis
    best of 3 is not "pickleball", though the two are scored alike: issue 51)."""
    if not match.scoring:
        return SERVER_DEFAULT.name if match.best_of in (None, SERVER_DEFAULT.format.best_of) else None
    if match.best_of is not None and match.best_of != formats.from_json(match.scoring).best_of:
        return formats.name_of(format_of(match), sport_of=match.scoring_name)
    return match.scoring_name


def score_of(match: Match) -> Score:
    """The match's score under its format: `gameScores` and the points of the game in play."""
    return Score.of(match.game_scores, match.current_game)


def won(match: Match, game_scores: Sequence[Mapping[str, Any]] | None = None) -> dict[str, int]:
    """Games (games kind) or sets (sets kind) won by each side: the match read's `score`."""
    return formats.won(format_of(match), match.game_scores if game_scores is None else game_scores)


def winner(match: Match) -> Side | None:
    """Who won: the walkover's or retirement's winner, else the side that won more than half of the items."""
    if match.winner_side is not None:
        return match.winner_side
    side = formats.winner(format_of(match), match.game_scores)
    return None if side is None else Side(side)


def decided(match: Match) -> bool:
    """Whether a side has won the match on the score (only Complete is then offered)."""
    return formats.winner(format_of(match), match.game_scores) is not None


def check(match: Match, game_scores: Sequence[Any], *, final: bool) -> dict[str, int]:
    """Check a whole score written to the match against its format (`400 validation_failed` naming the item;
    `final`: `409 match_undecided` when no side has won) and return the items each side won."""
    return formats.check(format_of(match), game_scores, final=final)


def text(match: Match, *, first: str = "a") -> str:
    """The score as a club writes it: "21-15 18-21 21-9", "6-4 7-6(4)" (`first`: the side written first)."""
    return formats.score_text(format_of(match), match.game_scores, first=first)


def current_game(match: Match) -> dict[str, str] | None:
    """The points of the game in play as shown ("15", "40", "AD", tiebreak digits) for a live sets match."""
    fmt = format_of(match)
    if not isinstance(fmt, formats.SetsFormat):
        return None
    return formats.point_labels(fmt, score_of(match))


def describe(match: Match) -> str:
    """The match's format in plain words ("Best of 3 games to 21, win by 2, 30 wins")."""
    return formats.describe(format_of(match))
