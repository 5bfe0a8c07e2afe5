"""Results of a broadcast (contract §9): every completed match, as a table the day's organiser can publish.

One row per completed match in the order they finished: court, event, round, both sides' names, the games
(`11-7 9-11 11-5`, `6-4 7-6(4)`), games (sets) won, the winner (side and names), start, end, minutes played and
the scoring format (its preset key, else in words).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from datetime import date
from typing import Any

from domain import text
from domain.access import audit
from domain.clock import parse_iso
from domain.draws.pool import pool_of_draws
from domain.match import scoring
from domain.models import Match, MatchResultType, MatchStatus
from domain.names import side_name
from domain.partner.broadcasts import get_broadcast
from domain.partner.queues import player_list_of, side_names
from domain.ports import UnitOfWork

COLUMNS = ("court", "event", "round", "sideA", "sideB", "games", "gamesA", "gamesB", "winner", "winnerNames",
           "startedOn", "completedOn", "minutes", "format")


def _names(names: dict[str, str], first: str, second: str) -> str:
    return side_name((names.get(first), names.get(second)))


RESULT_MARKS = {MatchResultType.WALKOVER: "w/o", MatchResultType.RETIRED: "ret."}


def _games(match: Match) -> str:
    """The games as played in the match's format (`11-7 9-11 11-5`, `6-4 7-6(4)`); a walkover says `w/o`, a
    retirement adds `ret.` (contract §14)."""
    played = [scoring.text(match)] if match.game_scores else []
    if match.result_type == MatchResultType.WALKOVER:
        return RESULT_MARKS[MatchResultType.WALKOVER]
    retired = match.result_type == MatchResultType.RETIRED
    return " ".join(played + ([RESULT_MARKS[MatchResultType.RETIRED]] if retired else []))


def broadcast_results(uow: UnitOfWork, *, account_id: str, broadcast_id: str) -> list[dict[str, Any]]:
    """The broadcast's completed matches as result rows (`COLUMNS`), oldest result first."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    played: list[tuple[str, Match]] = []
    for table_id in broadcast.table_ids:
        table = uow.tables.get(table_id)
        if table is not None:
            played += [(table.label, match)
                       for match in uow.matches.find(table_id=table_id, status=MatchStatus.COMPLETED)]
    draws = [d.id for d in uow.draws.find(account_id=account_id, broadcast_id=broadcast_id)]
    # a draw's match decided without a court (a walkover from the pool, §13/§14): no court to name
    decided = pool_of_draws(uow, draws, status=MatchStatus.COMPLETED)
    played += [("", match) for match in sorted(decided, key=lambda m: m.seq)]
    rows: list[tuple[str, dict[str, Any]]] = []
    for court, match in played:
        names = side_names(match, player_list_of(uow, match))
        won = scoring.won(match)
        side_a, side_b = _names(names, "playerA", "playerA2"), _names(names, "playerB", "playerB2")
        winner = (match.winner_side or "").upper() or ("A" if won["a"] > won["b"] else
                                                        "B" if won["b"] > won["a"] else "")
        minutes = None
        if match.started_on and match.completed_on and not match.typed_in:  # a typed-in result has no duration
            seconds = (parse_iso(match.completed_on) - parse_iso(match.started_on)).total_seconds()
            minutes = round(seconds / 60, 1)
        rows.append((match.completed_on or "", {
            "court": court, "event": match.event_name, "round": match.match_round,
            "sideA": side_a, "sideB": side_b,
            "games": _games(match),
            "gamesA": won["a"], "gamesB": won["b"], "winner": winner,
            "winnerNames": {"A": side_a, "B": side_b}.get(winner, ""),
            "startedOn": match.started_on, "completedOn": match.completed_on, "minutes": minutes,
            "format": scoring.name_of(match) or scoring.describe(match),
        }))
    return [row for _, row in sorted(rows, key=lambda item: item[0])]


#: The CSV's last column: the audit chain's head when the file was made (§16), the same on every row.
AUDIT_COLUMN = "audit"
BOM = "\ufeff"  # Excel on Windows reads a CSV as UTF-8 only with it ("Zoë", not "ZoÃ«"; issue 35)


def csv_file_name(event: str, day: date) -> str:
    """`results-club-open-2026-2026-11-21.csv`: the broadcast's name (ASCII, accents dropped) and the day."""
    plain = unicodedata.normalize("NFKD", event).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.casefold()).strip("-")[:60] or "results"
    return f"results-{slug}-{day.isoformat()}.csv"


def csv_download(uow: UnitOfWork, *, account_id: str, broadcast_id: str, day: date) -> tuple[str, str]:
    """The results CSV of a broadcast (a BOM first, then `as_csv` with the audit head) and its file name."""
    rows = broadcast_results(uow, account_id=account_id, broadcast_id=broadcast_id)
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    head = audit.head_line(audit.kept_head(uow, account_id))
    return BOM + as_csv(rows, head), csv_file_name(broadcast.name, day)


def as_csv(rows: list[dict[str, Any]], audit_line: str) -> str:
    """The rows as CSV with a header row (empty cells for missing values), safe to open in a spreadsheet; each row
    ends with `audit_line` ("Audit 2035 · 3f2a9c…"), so a saved or printed copy anchors the audit log."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=(*COLUMNS, AUDIT_COLUMN), lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**{key: "" if value is None else text.spreadsheet_safe(value) for key, value in row.items()},
                         AUDIT_COLUMN: audit_line})
    return out.getvalue()
