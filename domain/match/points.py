"""The one scoring engine (contract §17): a point for a side and the undo of the match's last point.

The console, the scorer page and the operator API all score through these two functions, so a tap or an undo
anywhere changes one point and never writes back a whole score read earlier: a point scored on another device in
between survives. Each names the `scoreVersion` it is based on (None: the caller checked its own state already);
an older one is `409 stale_state`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.access.audit_records import AuditAction
from domain.errors import Conflict, Invalid
from domain.match import formats, matches, scoring
from domain.models import Match, MatchStatus, Side
from domain.ports import UnitOfWork
from domain.views import Reader

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
    """+1 for `side` under the match's format (a point that wins a game closes it, in sets also the set, and the
    next point opens the next one); `match.score_updated`. `409 match_decided` once a side has won the match."""
    if side not in SIDES:
        raise Invalid("side must be 'a' or 'b'.", details={"json": {"side": ["Must be one of: a, b."]}})
    match = _in_play(uow, account_id=account_id, match_id=match_id, version=version)
    score = scoring.score_of(match)
    after = formats.play(scoring.format_of(match), score, side)
    base = match.point_base if match.point_log else _stored(score)
    live = matches.LiveScore(log=[*match.point_log, side], current=after.current_json(), base=base)
    return matches.score_match(uow, account_id=account_id, match_id=match.id, game_scores=after.game_scores(),
                               now=now, rules=rules, action=AuditAction.MATCH_POINT, live=live, device=device)


def _stored(score: formats.Score) -> dict[str, Any]:
    return {"items": score.game_scores(), "current": score.current_json()}


def _base(match: Match) -> formats.Score | None:
    base = match.point_base
    return None if base is None else formats.Score.of(base["items"], base.get("current"))


def undo_point(uow: UnitOfWork, *, account_id: str, match_id: str, version: int | None, now: datetime,
               rules: matches.Rules, device: str | None = None) -> Match:
    """Take back the last point added to the match, whoever added it, across game and set boundaries (the
    points since the last whole score are played again from the score before them). `409 nothing_to_undo` when
    no point was added one by one since the scores were last written whole. An undo that reopens a finished game
    or set also sends `match.reset` (opt-in) with the read before as `previous`."""
    match = _in_play(uow, account_id=account_id, match_id=match_id, version=version)
    if not can_undo(match):
        raise Conflict("There is no point to undo.", code="nothing_to_undo")
    fmt, log = scoring.format_of(match), list(match.point_log)
    closed, previous = formats.closed_games(fmt, match.game_scores), Reader(uow).read(match)
    before = formats.undo(fmt, scoring.score_of(match), log, _base(match))
    live = matches.LiveScore(log=log[:-1], current=before.current_json(), base=match.point_base if log[:-1] else None)
    undone = matches.score_match(uow, account_id=account_id, match_id=match.id, game_scores=before.game_scores(),
                                 now=now, rules=rules, action=AuditAction.MATCH_POINT_UNDONE, live=live, device=device)
    if formats.closed_games(fmt, undone.game_scores) < closed:  # a finished game or set is open again
        matches.announce_reset(uow, undone, previous=previous, now=now)
    return undone


def can_undo(match: Match | None) -> bool:
    """Whether `undo_point` has a point to take back: one added one by one since the last whole score (a match
    scored before points kept their base walks back its games directly)."""
    return match is not None and bool(match.point_log) and (match.point_base is not None or bool(
        match.game_scores and match.game_scores[-1][match.point_log[-1]] > 0))
