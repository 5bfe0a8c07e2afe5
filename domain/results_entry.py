"""Results from paper (contract §19): the desk types in a whole result, one request, one transaction.

A pending or active match is completed with the result as it happened elsewhere: a pending one is started and
completed at once (its `startedOn` stays null, so it has no duration and never counts toward typical durations),
the busy, rest and check-in rules of §14 do not apply (the match was already played), its draw is fed (§13) and
one audit entry `match.result_entered` keeps the reason. The scores go through the match's one whole-score check
(`domain.matches.check_scores`), the same one as complete and correction.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from domain import audit
from domain import matches as svc
from domain.errors import Conflict, Invalid
from domain.models import Match, MatchResultType, MatchStatus, Side
from domain.ports import UnitOfWork


@dataclass(frozen=True)
class ResultEntry:
    """`POST /operator/matches/{id}/result`: the games as played, how the match ended, who won (walkover and
    retired only need it; for a played result it must agree with the games), and why (kept in the audit log)."""

    game_scores: list[dict[str, int]]
    result_type: MatchResultType = MatchResultType.PLAYED
    winner_side: Side | None = None
    reason: str | None = None
    op_id: str | None = None


def _field(name: str, message: str) -> Invalid:
    return Invalid(message, details={"json": {name: [message]}})


def _winner_of(won: dict[str, int]) -> Side:
    return Side.A if won["a"] > won["b"] else Side.B


def _checked(match: Match, entry: ResultEntry, rules: svc.Rules) -> tuple[list[dict[str, int]], Side | None]:
    """The games to keep and the winner to note (None: the games decide it), or the error, before any write."""
    games = [{"a": g["a"], "b": g["b"]} for g in entry.game_scores]
    if entry.result_type == MatchResultType.PLAYED:
        won = svc.check_scores(match, games, rules=rules, final=True)
        if entry.winner_side is not None and entry.winner_side != _winner_of(won):
            raise _field("winnerSide", f"The games give the match to side {_winner_of(won)}, not "
                                       f"{entry.winner_side}.")
        return games, None
    if entry.winner_side is None:
        raise _field("winnerSide", f"A {entry.result_type} result needs winnerSide ('a' or 'b').")
    if entry.result_type == MatchResultType.WALKOVER:
        if games:
            raise _field("gameScores", "A walkover has no games: send gameScores [] (a match begun and "
                                       "abandoned is 'retired').")
        return [], entry.winner_side
    svc.check_scores(match, games, rules=rules, final=False)
    try:
        svc.check_scores(match, games, rules=rules, final=True)
    except Conflict:  # undecided: as a retirement should be
        return games, entry.winner_side
    raise _field("gameScores", "These games already decide the match: enter it as played, not retired.")


def enter_result(
    uow: UnitOfWork, *, account_id: str, match_id: str, entry: ResultEntry, now: datetime, rules: svc.Rules,
) -> Match:
    """Record a whole result typed in from paper on a pending or active match (`409 match_locked` once
    completed; corrections stay §6's). Emits `match.started` for a pending match, then `match.completed`."""
    reason = audit.check_reason(entry.reason)
    match = svc.get_match(uow, account_id=account_id, match_id=match_id)
    if match.status == MatchStatus.COMPLETED:
        raise Conflict(f"Match '{match_id}' is already completed; change its result with a correction.",
                       code="match_locked")
    games, winner = _checked(match, entry, rules)
    before = dataclasses.replace(match)
    if match.status == MatchStatus.PENDING:
        match = svc.start_for_entry(uow, match, now=now, rules=rules)
    match.game_scores = games
    match.result_type = entry.result_type
    match.winner_side = winner
    match.typed_in = True
    return svc.finish_entered(uow, match, before=before, now=now, rules=rules, reason=reason)
