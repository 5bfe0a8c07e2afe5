"""Where real matches and draws meet (contract §13): the one feed-forward hook of the completion path, the start
hook, corrections, real matches for ready draw matches, and the court pool.

`domain.match.matches` calls these inside the unit of work that starts, completes or corrects a match, whichever path
did it (operator API, console, scorer link, walkover), so a draw moves on in the same transaction.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.clock import iso
from domain.draws import codec, engine
from domain.draws.model import Draw, DrawMatch, DrawMatchStatus, Entry, ResultType, Score
from domain.errors import Conflict
from domain.ids import new_id
from domain.match import scoring
from domain.models import POOL, DrawPart, DrawRecord, Match, MatchResultType, MatchStatus, Side, Table
from domain.ports import UnitOfWork

ROUND_SPAN = 100_000  # a pool match's queue_order: round number * ROUND_SPAN + its number in the round

#: How a match that was not played out enters its draw.
DRAW_RESULTS = {MatchResultType.WALKOVER: ResultType.WALKOVER, MatchResultType.RETIRED: ResultType.RETIRED}


@dataclass
class Held:
    """A draw loaded to be changed: the engine's draw, and the marks of its parts as stored (`codec.marks_of`, what
    `save` compares with; empty when none is stored yet)."""

    draw: Draw
    marks: dict[str, Any]


class _Decoded:
    """Draws this process decoded or saved, each as of one stored version (`DrawRecord.version`, a random ID new at
    every write, so a version names one state on every backend and in every process).

    Completing a match of a running draw then reads no draw match and decodes nothing. A draw is handed to one
    caller at a time (`take` removes it): who changes it owns it until `save` keeps it again under the new version,
    which is only ever found once that version is committed (a rolled-back one is never stored, so never asked
    for); who fails on the way simply leaves it out, and the next one reads it from storage."""

    def __init__(self, size: int = 16) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[str, Held]] = OrderedDict()
        self._size = size

    def take(self, record: DrawRecord) -> Held | None:
        with self._lock:
            kept = self._kept.pop(record.id, None)
        return kept[1] if kept is not None and record.version and kept[0] == record.version else None

    def keep(self, record: DrawRecord, held: Held, *, replace: bool = True) -> None:
        with self._lock:
            if not replace and record.id in self._kept:
                return
            self._kept[record.id] = (record.version, held)
            self._kept.move_to_end(record.id)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)


    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_DECODED = _Decoded()


def forget_decoded() -> None:
    """Drop every decoded draw this process keeps (the next reads decode from storage, as a new process would)."""
    _DECODED.clear()


def _part_id(draw_id: str, key: str) -> str:
    return f"{draw_id}/{key}"


def load(uow: UnitOfWork, record: DrawRecord) -> Held:
    """The draw to change (then `save`): this process's decoded copy of the stored version, else read from its
    parts and decoded."""
    held = _DECODED.take(record)
    if held is not None:
        return held
    if record.state:  # stored whole, before draws were stored in parts: its parts are all still to write
        return Held(draw=codec.from_state(record.state), marks={})
    draw = codec.from_parts({part.key: part.state for part in uow.draw_parts.find(draw_id=record.id)})
    return Held(draw=draw, marks=codec.marks_of(draw))


def release(record: DrawRecord, held: Held) -> None:
    """A loaded draw left unchanged: kept for the next caller."""
    _DECODED.keep(record, held, replace=False)


@contextmanager
def reading(uow: UnitOfWork, record: DrawRecord) -> Iterator[Draw]:
    """The draw to read, not to change (its decoded copy is kept for the next caller)."""
    held = load(uow, record)
    yield held.draw
    release(record, held)


def entries(uow: UnitOfWork, record: DrawRecord) -> list[Entry]:
    """The draw's entries alone (one part read)."""
    if record.state:
        return codec.entries_from(record.state)
    part = uow.draw_parts.get(_part_id(record.id, codec.ENTRIES))
    return codec.entries_from(part.state) if part is not None else []


def save(uow: UnitOfWork, record: DrawRecord, held: Held, now: datetime) -> DrawRecord:
    """Write the parts of the draw that changed since it was loaded, and its record under a new version; the
    decoded draw is kept for that version (do not change `held` after this without saving again)."""
    draw = held.draw
    changed, marks = codec.changed_parts(draw, held.marks)
    uow.draw_parts.put_all([DrawPart(id=_part_id(draw.id, key), draw_id=draw.id, key=key, state=state)
                            for key, state in changed.items()])
    for key in held.marks.keys() - marks.keys():
        uow.draw_parts.delete(_part_id(draw.id, key))
    held.marks = marks
    record.version = new_id("dv")
    record.status = str(draw.status)
    record.table_ids = None if draw.options.table_ids is None else list(draw.options.table_ids)
    record.state = {}
    record.updated_on = iso(now)
    record = uow.draws.put(record)
    _DECODED.keep(record, held)
    return record


def delete(uow: UnitOfWork, record: DrawRecord) -> None:
    """The draw and its parts are gone."""
    for part in uow.draw_parts.find(draw_id=record.id):
        uow.draw_parts.delete(part.id)
    uow.draws.delete(record.id)


def table_ids(record: DrawRecord) -> list[str] | None:
    """The courts the draw's matches may use (None: every court of the broadcast)."""
    if record.state:
        found = record.state.get("options", {}).get("table_ids")
        return None if found is None else list(found)
    return None if record.table_ids is None else list(record.table_ids)


def _participants(draw: Draw, dm: DrawMatch, entries: dict[str, Entry] | None = None) -> dict[str, dict[str, str]]:
    sides: dict[str, dict[str, str]] = {}
    for slot, (first, second) in zip(dm.slots, (("playerA", "playerA2"), ("playerB", "playerB2")), strict=True):
        entry = entries[slot.entry_id or ""] if entries is not None else draw.entry(slot.entry_id or "")
        for side, player in zip((first, second), entry.players, strict=False):
            sides[side] = {"manualName": player.name}
    return sides


def pool_order(dm: DrawMatch) -> int:
    return dm.round_number * ROUND_SPAN + dm.number


def make_real_matches(uow: UnitOfWork, record: DrawRecord, draw: Draw, *, house_id: str, now: datetime,
                      server: scoring.Scoring) -> None:
    """A pending real match in the court pool for every ready draw match without one (written in one go), in
    the draw's format (else its broadcast's, else the server's)."""
    ready = engine.ready_without_match(draw)
    if not ready:
        return
    resolved = scoring.scoring_for(uow, table_id=POOL, record=record, own=None, server=server)
    stamp = iso(now)
    entries = {entry.id: entry for entry in draw.entries}
    made = []
    for dm in ready:
        match = Match(
            id=new_id("mat"), scheduled_match_id=new_id("sm"), account_id=record.account_id,
            connection_id=house_id, external_id=new_id("op"), table_id=POOL, player_list_external_id="",
            status=MatchStatus.PENDING, queue_order=pool_order(dm), scheduled_on=stamp, created_on=stamp,
            updated_on=stamp, participants=_participants(draw, dm, entries), event_name=draw.name,
            match_round=draw.round_of(dm).name, best_of=draw.options.best_of,
            is_doubles=len(draw.entries[0].players) == 2, draw_id=draw.id, draw_match_id=dm.id,
        )
        scoring.assign(match, resolved)
        dm.match_id = match.id
        made.append(match)
    uow.matches.put_all(made)
    for match in made:  # §16: every match created writes its entry, also one a draw makes (by whoever acted)
        audit.record(uow, account_id=record.account_id, action="match.created", target=("match", match.id),
                     after=match, now=now)


def _record_of(uow: UnitOfWork, match: Match) -> DrawRecord | None:
    if not match.draw_id:
        return None
    return uow.draws.get(match.draw_id)


def on_started(uow: UnitOfWork, match: Match, *, now: datetime) -> None:
    """The draw match follows its real match into play."""
    record = _record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = load(uow, record)
    engine.mark_active(held.draw, match.draw_match_id)
    save(uow, record, held, now)


def on_stopped(uow: UnitOfWork, match: Match, *, now: datetime) -> None:
    """The draw match follows its real match back to waiting (a stopped match, contract §19)."""
    record = _record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = load(uow, record)
    engine.mark_ready(held.draw, match.draw_match_id)
    save(uow, record, held, now)


def _winner_slot(match: Match) -> int | None:
    side = scoring.winner(match)
    return None if side is None else (0 if side == Side.A else 1)


def _score(match: Match) -> Score:
    games = scoring.won(match)
    return Score(games_a=games.get("a", 0), games_b=games.get("b", 0),
                 points_a=sum(int(g.get("a", 0)) for g in match.game_scores),
                 points_b=sum(int(g.get("b", 0)) for g in match.game_scores))


def on_completed(uow: UnitOfWork, match: Match, *, now: datetime, server: scoring.Scoring) -> None:
    """Feed-forward: the draw match is decided, winner and loser move on, ready draw matches get their real
    matches in the pool, standings and the next Swiss round follow; all in the caller's unit of work."""
    record = _record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = load(uow, record)
    draw = held.draw
    dm = draw.matches[match.draw_match_id]
    slot = _winner_slot(match)
    if dm.status not in (DrawMatchStatus.READY, DrawMatchStatus.ACTIVE) or slot is None:
        release(record, held)  # already decided (a withdrawal walked it over), or no winner
        return
    result = DRAW_RESULTS.get(match.result_type, ResultType.PLAYED) if match.result_type else ResultType.PLAYED
    engine.record_result(draw, dm.id, winner_slot=slot, result_type=result, score=_score(match),
                         new_id=new_id)
    make_real_matches(uow, record, draw, house_id=match.connection_id, now=now, server=server)
    before_status = record.state.get("status") if record.state else record.status
    save(uow, record, held, now)
    if before_status != draw.status:
        audit.record(uow, account_id=record.account_id, action="draw.completed", target=("draw", record.id),
                     before={"status": before_status}, after={"status": str(draw.status)}, now=now)


def _change_view(change: engine.Change) -> dict[str, Any]:
    return {"drawMatchID": change.draw_match_id, "slot": change.slot, "oldEntryID": change.old_entry_id,
            "newEntryID": change.new_entry_id}


def on_corrected(uow: UnitOfWork, match: Match, *, confirm: bool, now: datetime, server: scoring.Scoring
                 ) -> None:
    """A completed draw match's result is corrected: a changed winner moves on only if nothing it feeds has
    started (`409 downstream_started`), and only with `confirmDrawChange` (else `409 draw_change_required` with
    what would change, changing nothing)."""
    record = _record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return
    held = load(uow, record)
    draw = held.draw
    dm = draw.matches[match.draw_match_id]
    slot = _winner_slot(match)
    if slot is None or dm.status != DrawMatchStatus.COMPLETE:
        release(record, held)
        return
    changes = engine.correction_changes(draw, dm.id, winner_slot=slot)
    if changes and not confirm:
        raise Conflict("This correction changes who goes on in the draw; confirm with confirmDrawChange.",
                       code="draw_change_required",
                       details={"drawMatches": [_change_view(c) for c in changes]})
    applied = engine.apply_correction(draw, dm.id, winner_slot=slot, score=_score(match),
                                      new_id=new_id)
    for change in applied:
        target = draw.matches[change.draw_match_id]
        if target.match_id is None:
            continue
        real = uow.matches.get(target.match_id)
        if real is not None and real.status == MatchStatus.PENDING:
            real.participants = _participants(draw, target)
            real.updated_on = iso(now)
            uow.matches.put(real)
    make_real_matches(uow, record, draw, house_id=match.connection_id, now=now, server=server)
    save(uow, record, held, now)


PoolKey = tuple[int, str, int, int, int]


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


def pool_for_table(uow: UnitOfWork, table: Table) -> list[Match]:
    """The pool matches that may use this table (the draw's `tableIDs`, default every court), in pool order."""
    allowed: dict[str, bool] = {}
    result = []
    for match in pool_matches(uow, account_id=table.account_id, broadcast_id=table.broadcast_id):
        draw_id = match.draw_id or ""
        if draw_id not in allowed:
            record = uow.draws.get(draw_id)
            courts = table_ids(record) if record else None
            allowed[draw_id] = courts is None or table.id in courts
        if allowed[draw_id]:
            result.append(match)
    return result


def pool_order_of(uow: UnitOfWork, match: Match) -> int:
    """The pool order key of a draw's match (when it goes back into the pool)."""
    record = _record_of(uow, match)
    if record is None or match.draw_match_id is None:
        return 0
    if record.state:
        return pool_order(codec.from_state(record.state).matches[match.draw_match_id])
    part = uow.draw_parts.get(_part_id(record.id, codec.MATCH + match.draw_match_id))
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
    record = _record_of(uow, match)
    return None if record is None else table_ids(record)
