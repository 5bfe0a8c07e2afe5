"""Who scored a match lately (contract §17): the board and the scorer page say "2 devices scoring" while more than
one client wrote to the match's score in the last 60 s. A client is the writer's actor (operator key, scorer link,
partner connection) and, when it names one, its own `deviceID` (each scorer phone and console session has its
own), so two phones on one court's link count as two."""

from __future__ import annotations

from datetime import datetime, timedelta

from domain.clock import iso, parse_iso
from domain.models import Match

SCORING_WINDOW = timedelta(seconds=60)  # "2 devices scoring" while more than one client wrote within it (§17)


def noted_scorer(scorers: dict[str, str], client: str, now: datetime) -> dict[str, str]:
    """The match's recent scorers with `client` writing now, those older than the window dropped."""
    since = now - SCORING_WINDOW
    kept = {who: at for who, at in scorers.items() if parse_iso(at) > since and who != client}
    return kept | {client: iso(now)}


def devices_scoring(match: Match, now: datetime) -> int:
    """How many clients wrote to the match's score in the last 60 s (the board and the scorer page say
    "2 devices scoring" from two on, contract §17)."""
    since = now - SCORING_WINDOW
    return sum(1 for at in match.scorers.values() if parse_iso(at) > since)
