"""Group and Swiss standings (contract §13): wins, then wins among the tied entries, then game difference, then
point difference, then seed (unseeded last), then entry order."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.draws.model import DrawMatch, DrawMatchStatus, Entry, ResultType, Standing


def standings(entries: Sequence[Entry], matches: Iterable[DrawMatch]) -> list[Standing]:
    rows = {e.id: Standing(entry_id=e.id, rank=0) for e in entries}
    decided = [m for m in matches if m.winner_entry_id is not None and m.status in
               (DrawMatchStatus.COMPLETE, DrawMatchStatus.BYE)]
    for m in decided:
        winner = rows.get(m.winner_entry_id or "")
        if m.result_type == ResultType.BYE:
            if winner is not None:
                winner.won += 1
            continue
        loser = rows.get(m.loser_entry_id or "")
        score = m.score
        for row, side in ((winner, m.winner_entry_id), (loser, m.loser_entry_id)):
            if row is None:
                continue
            row.played += 1
            if side == m.winner_entry_id:
                row.won += 1
            else:
                row.lost += 1
            if score is not None:
                a_side = m.slots[0].entry_id == side
                row.games_won += score.games_a if a_side else score.games_b
                row.games_lost += score.games_b if a_side else score.games_a
                row.points_won += score.points_a if a_side else score.points_b
                row.points_lost += score.points_b if a_side else score.points_a
    order = {e.id: i for i, e in enumerate(entries)}
    seeds = {e.id: (e.seed if e.seed is not None else 10**6) for e in entries}
    by_wins: dict[int, list[str]] = {}
    for entry_id, row in rows.items():
        by_wins.setdefault(row.won, []).append(entry_id)
    ranked: list[str] = []
    for wins in sorted(by_wins, reverse=True):
        tied = by_wins[wins]
        tied_set = set(tied)
        head = {e: 0 for e in tied}
        for m in decided:
            if m.winner_entry_id in tied_set and m.loser_entry_id in tied_set:
                head[m.winner_entry_id or ""] += 1
        tied.sort(key=lambda e: (
            -head[e],
            -(rows[e].games_won - rows[e].games_lost),
            -(rows[e].points_won - rows[e].points_lost),
            seeds[e],
            order[e],
        ))
        ranked.extend(tied)
    result = []
    for rank, entry_id in enumerate(ranked, start=1):
        row = rows[entry_id]
        row.rank = rank
        result.append(row)
    return result
