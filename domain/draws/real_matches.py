"""The real matches of a draw (contract §13): one pending match of the house connection in the court pool for
every ready draw match, named and formatted as its draw says."""

from __future__ import annotations

from datetime import datetime

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.draws import engine
from domain.draws.labels import round_names_by_match
from domain.draws.model import Draw, DrawMatch, Entry
from domain.draws.pool import pool_order
from domain.ids import new_id
from domain.match import scoring
from domain.models import POOL, DrawRecord, Match, MatchStatus
from domain.ports import UnitOfWork


def participants(draw: Draw, dm: DrawMatch, entries: dict[str, Entry] | None = None) -> dict[str, dict[str, str]]:
    """The real match's players (`playerA`, `playerA2`, `playerB`, `playerB2`) by name, from the two entries."""
    sides: dict[str, dict[str, str]] = {}
    for slot, (first, second) in zip(dm.slots, (("playerA", "playerA2"), ("playerB", "playerB2")), strict=True):
        entry = entries[slot.entry_id or ""] if entries is not None else draw.entry(slot.entry_id or "")
        for side, player in zip((first, second), entry.players, strict=False):
            sides[side] = {"manualName": player.name}
    return sides


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
    round_names = round_names_by_match(draw)
    for dm in ready:
        match = Match(
            id=new_id("mat"), scheduled_match_id=new_id("sm"), account_id=record.account_id,
            connection_id=house_id, external_id=new_id("op"), table_id=POOL, player_list_external_id="",
            status=MatchStatus.PENDING, queue_order=pool_order(dm), scheduled_on=stamp, created_on=stamp,
            updated_on=stamp, participants=participants(draw, dm, entries), event_name=draw.name,
            match_round=round_names[dm.id], best_of=draw.options.best_of,
            is_doubles=len(draw.entries[0].players) == 2, draw_id=draw.id, draw_match_id=dm.id,
        )
        scoring.assign(match, resolved)
        dm.match_id = match.id
        made.append(match)
    uow.matches.put_all(made)
    # §16: every match created writes its entry, also one a draw makes (by whoever acted); all in one write
    audit.record_created(uow, account_id=record.account_id, action=AuditAction.MATCH_CREATED,
                         target_type=TargetType.MATCH, created=made, now=now)
