"""The court pool (contract §13): the draws' real matches waiting for a court, in start-next's order, and the
courts each may use."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.draws import codec
from domain.draws.model import DrawMatch
from domain.draws.reach import after_open_round
from domain.draws.store import part_id, reading, record_of, table_ids
from domain.models import POOL, Match, MatchStatus, Table
from domain.ports import UnitOfWork

ROUND_SPAN = 100_000  # a pool match's queue_order: round number * ROUND_SPAN + its number in the round

PoolKey = tuple[int, str, int, int, int]


def pool_order(dm: DrawMatch) -> int:
    """The queue order of a draw match's real match while it waits in the pool."""
    return dm.round_number * ROUND_SPAN + dm.number


def _pool_key(draw_seqs: dict[str, int]) -> Callable[[Match], PoolKey]:
    return lambda m: (m.queue_order // ROUND_SPAN, m.scheduled_on, draw_seqs.get(m.draw_id or "", 0),
                      m.queue_order % ROUND_SPAN, m.seq)


def pool_key(uow: UnitOfWork, *, account_id: str, broadcast_id: str) -> Callable[[Match], PoolKey]:
    """The key of the broadcast's court pool order (`pool_matches`), unique per match (its `seq` breaks ties):
    what a page of the pool is keyed by."""
    return _pool_key({d.id: d.seq for d in uow.draws.find(account_id=account_id, broadcast_id=broadcast_id)})


def pool_matches(uow: UnitOfWork, *, account_id: str, broadcast_id: str) -> list[Match]:
    """The broadcast's court pool in order: earlier round first, then the time it became ready, then draw
    creation order, then its number in the round (then creation, should all of those tie)."""
    draw_seqs = {d.id: d.seq for d in uow.draws.find(account_id=account_id, broadcast_id=broadcast_id)}
    found = pool_of_draws(uow, list(draw_seqs), status=MatchStatus.PENDING)
    return sorted(found, key=_pool_key(draw_seqs))


def pool_of_draws(uow: UnitOfWork, draw_ids: list[str], *, status: MatchStatus) -> list[Match]:
    """The matches of these draws in the court pool (no table) with this status: one indexed read per draw, so the
    pool of a broadcast costs its own draws' matches, not every pool of the account (issue 42)."""
    return [m for draw_id in draw_ids for m in uow.matches.find(draw_id=draw_id, table_id=POOL, status=status)]


def held_back(uow: UnitOfWork, pool: Sequence[Match]) -> dict[str, list[str]]:
    """The pool matches that wait for round r - 1 of their draw's stage (contract §20, as the plan orders them;
    issue 51), each with the pool matches of its draw from earlier rounds (what its estimate waits for). Each draw
    is read once."""
    waiting: dict[str, frozenset[str]] = {}
    found: dict[str, list[str]] = {}
    for match in pool:
        draw_id = match.draw_id or ""
        if draw_id not in waiting:
            record = uow.draws.get(draw_id)
            waiting[draw_id] = frozenset()
            if record is not None:
                with reading(uow, record) as draw:
                    waiting[draw_id] = after_open_round(draw)
        if match.draw_match_id in waiting[draw_id]:
            found[match.id] = [m.id for m in pool if m.draw_id == match.draw_id
                               and m.queue_order // ROUND_SPAN < match.queue_order // ROUND_SPAN]
    return found


def pool_for_table(uow: UnitOfWork, table: Table) -> list[Match]:
    """The pool matches that may use this table (the draw's `tableIDs`, default every court) now, in pool order:
    a match of round r of a draw's stage waits until every match of round r - 1 is complete (`held_back`)."""
    allowed: dict[str, bool] = {}
    usable = []
    for match in pool_matches(uow, account_id=table.account_id, broadcast_id=table.broadcast_id):
        draw_id = match.draw_id or ""
        if draw_id not in allowed:
            record = uow.draws.get(draw_id)
            courts = table_ids(record) if record else None
            allowed[draw_id] = courts is None or table.id in courts
        if allowed[draw_id]:
            usable.append(match)
    held = held_back(uow, usable)
    return [match for match in usable if match.id not in held]


def pool_order_of(uow: UnitOfWork, match: Match) -> int:
    """The pool order key of a draw's match (when it goes back into the pool)."""
    record = record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return 0
    part = uow.draw_parts.get(part_id(record.id, codec.MATCH + match.draw_match_id))
    return 0 if part is None else int(part.state["round_number"]) * ROUND_SPAN + int(part.state["number"])


def pool_courts(uow: UnitOfWork) -> Callable[[Match], list[str] | None]:
    """`allowed_tables` for many pool matches, each draw's record read once (the pool's estimates)."""
    known: dict[str, list[str] | None] = {}

    def courts(match: Match) -> list[str] | None:
        draw_id = match.draw_id or ""
        if draw_id not in known:
            known[draw_id] = allowed_tables(uow, match)
        return known[draw_id]

    return courts


def allowed_tables(uow: UnitOfWork, match: Match) -> list[str] | None:
    """The courts a draw's match may use (None: every court of the broadcast)."""
    record = record_of(uow, match)
    return None if record is None else table_ids(record)
