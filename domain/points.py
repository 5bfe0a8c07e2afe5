"""The one scoring engine (contract §17): a point for a side and the undo of the match's last point.

The console, the scorer page and the operator API all score through these two functions, so a tap or an undo
anywhere changes one point and never writes back a whole score read earlier: a point scored on another device in
between survives. Each names the `scoreVersion` it is based on (None: the caller checked its own state already);
an older one is `409 stale_state`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from domain import matches, scoring
from domain.errors import Conflict, Invalid
from domain.models import Match, MatchStatus, Side
from domain.ports import UnitOfWork

SIDES = tuple(Side)


def _in_play(uow: UnitOfWork, *, account_id: str, match_id: str, version: int | None) -> Match:
    match = matches.get_match(uow, account_id=account_id, match_id=match_id)
    matches.check_version(match, version)
    if match.status != MatchStatus.ACTIVE:
        raise Conflict(f"Match '{match_id}' is {match.status}, not active.", code="match_not_active")
    return match


@dataclass(frozen=True)
class PointWrite:
    """A validated `POST .../point` body: +1 for `side`, based on the match's `version` (`scoreVersion`)."""

    side: Side
    version: int
    op_id: str | None = None
    device_id: str | None = None


@dataclass(frozen=True)
class UndoWrite:
    """A validated `POST .../undo` body: take back the last point, based on the match's `version`."""

    version: int
    op_id: str | None = None
    device_id: str | None = None


def add_point(uow: UnitOfWork, *, account_id: str, match_id: str, side: str, version: int | None, now: datetime,
              rules: matches.Rules, device: str | None = None) -> Match:
    """+1 for `side` in the current game (a new game once the last one is won); `match.score_updated`.
    `409 match_decided` once a side has won the match (complete it)."""
    if side not in SIDES:
        raise Invalid("side must be 'a' or 'b'.", details={"json": {"side": ["Must be one of: a, b."]}})
    match = _in_play(uow, account_id=account_id, match_id=match_id, version=version)
    best_of = match.best_of or rules.default_best_of
    if scoring.match_winner(match.game_scores, points=rules.points_per_game, best_of=best_of):
        raise Conflict("The match is decided; complete it.", code="match_decided")
    games = [dict(g) for g in match.game_scores]
    if not games or scoring.game_winner(games[-1], points=rules.points_per_game):
        games.append({"a": 0, "b": 0})
    games[-1][side] += 1
    return matches.score_match(uow, account_id=account_id, match_id=match.id, game_scores=games, now=now,
                               rules=rules, action="match.point", point_log=[*match.point_log, side], device=device)


def undo_point(uow: UnitOfWork, *, account_id: str, match_id: str, version: int | None, now: datetime,
               rules: matches.Rules, device: str | None = None) -> Match:
    """Take back the last point added to the match, whoever added it (`409 nothing_to_undo` when no point was
    added one by one since the scores were last written whole)."""
    match = _in_play(uow, account_id=account_id, match_id=match_id, version=version)
    games = [dict(g) for g in match.game_scores]
    log = list(match.point_log)
    if not log or not games or games[-1][log[-1]] == 0:
        raise Conflict("There is no point to undo.", code="nothing_to_undo")
    games[-1][log.pop()] -= 1
    if games[-1] == {"a": 0, "b": 0}:
        games.pop()
    return matches.score_match(uow, account_id=account_id, match_id=match.id, game_scores=games, now=now,
                               rules=rules, action="match.point_undone", point_log=log, device=device)


def can_undo(match: Match | None) -> bool:
    """Whether `undo_point` has a point to take back."""
    return match is not None and bool(match.point_log) and bool(match.game_scores)
