"""Partner routes of /matches: sync, read, move, cancel, and their bulk forms (scopes matches.read/write)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from api.blueprint import Blueprint
from api.bulk import bulk_response
from api.context import caller, now, services, unit_of_work
from api.idempotency import idempotent
from api.schemas.common import PageQuery, envelope, list_envelope
from api.schemas.matches import (
    CANCEL_BULK,
    SYNC_BULK,
    BulkAssignSchema,
    BulkCancelSchema,
    BulkSyncSchema,
    MatchDeleted,
    MatchPatchSchema,
    MatchRead,
    MatchSyncSchema,
)
from api.security import requires
from domain.bulk import check_unique, each
from domain.errors import Invalid
from domain.match import matches as svc
from domain.models import Match
from domain.ports import UnitOfWork
from domain.views import Reader

MATCH_READ_TABLES = ("matches", "player_lists")  # a match read: the match, its queue, its players' names
blp = Blueprint("matches", __name__, description="Scheduled matches on court queues")

Json = dict[str, Any]
T = TypeVar("T")


def rules() -> svc.Rules:
    """The server's scoring rules (settings)."""
    return services().rules


def reader(uow: UnitOfWork) -> Reader:
    return Reader(uow)


def _ids() -> tuple[str, str]:
    principal = caller()
    return principal.account_id, principal.connection_id or ""


def _sync(uow: UnitOfWork, sync: svc.MatchSync, ends: svc.QueueEnds | None = None) -> Match:
    account_id, connection_id = _ids()
    return svc.sync_match(uow, account_id=account_id, connection_id=connection_id, sync=sync, now=now(),
                          rules=rules(), ends=ends)


def _move(uow: UnitOfWork, external_id: str, move: svc.MatchMove, ends: svc.QueueEnds | None = None) -> Match:
    account_id, connection_id = _ids()
    return svc.move_match(uow, account_id=account_id, connection_id=connection_id, external_id=external_id,
                          table_id=move.table_id, now=now(), ends=ends)


def _bulk(
    items: Sequence[T], keys: Sequence[str], apply: Callable[[UnitOfWork, T, svc.QueueEnds], Match],
    present: Callable[[Reader, Match], Json],
) -> tuple[Json, int]:
    """Apply every item in one unit of work, in request order (`domain.bulk`); per-item results, 200 or 207."""
    check_unique(keys, field="externalID")
    with unit_of_work() as uow:
        ends = svc.QueueEnds(uow)
        outcomes = each(uow, items, lambda item: apply(uow, item, ends))
        read = reader(uow)
        return bulk_response(outcomes, key_field="externalID", keys=keys, present=lambda match: present(read, match))


def _deleted(_: Reader, match: Match) -> Json:
    return {"externalID": match.external_id, "deleted": True}


@blp.route("/matches", methods=["PUT", "POST"])
@requires("matches.write")
@idempotent
@blp.arguments(MatchSyncSchema)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(409, description="The match is active or completed (match_locked).")
def sync_match(sync: svc.MatchSync) -> Json:
    """Sync a match: queue a new one, or replace the pending match with this externalID (POST is an alias)."""
    with unit_of_work() as uow:
        return {"data": reader(uow).read(_sync(uow, sync))}


@blp.route("/matches", methods=["GET"])
@requires("matches.read")
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(MatchRead))
def list_matches(query: Json) -> Json:
    """The connection's matches, oldest first."""
    with unit_of_work() as uow:
        page, cursor = svc.list_matches(uow, connection_id=_ids()[1], limit=query.get("limit"),
                                        cursor=query.get("cursor"))
        return {"data": reader(uow).read_all(page), "nextCursor": cursor}


@blp.route("/matches/bulk", methods=["POST"])
@requires("matches.write")
@idempotent
@blp.arguments(BulkSyncSchema)
@blp.response(200, SYNC_BULK)
@blp.alt_response(207, schema=SYNC_BULK, description="Some items failed; see each result.")
def bulk_sync(items: list[svc.MatchSync]) -> tuple[Json, int]:
    """Sync up to 100 matches; per-match results in request order."""
    return _bulk(items, [item.external_id for item in items], _sync, lambda read, match: read.read(match))


@blp.route("/matches/bulk", methods=["PATCH"])
@requires("matches.write")
@blp.arguments(BulkAssignSchema)
@blp.response(200, SYNC_BULK)
@blp.alt_response(207, schema=SYNC_BULK, description="Some items failed; see each result.")
def bulk_move(items: list[svc.MatchAssignment]) -> tuple[Json, int]:
    """Move up to 100 pending matches; request order is kept within each destination table."""
    return _bulk(items, [item.external_id for item in items],
                 lambda uow, item, ends: _move(uow, item.external_id, item, ends),
                 lambda read, match: read.read(match))


@blp.route("/matches/bulk/cancel", methods=["POST"])
@requires("matches.write")
@blp.arguments(BulkCancelSchema)
@blp.response(200, CANCEL_BULK)
@blp.alt_response(207, schema=CANCEL_BULK, description="Some items failed; see each result.")
def bulk_cancel(keys: list[str]) -> tuple[Json, int]:
    """Cancel up to 100 pending matches; per-match results in request order."""
    stamp = now()
    return _bulk(keys, keys,
                 lambda uow, key, _: svc.cancel_match(uow, connection_id=_ids()[1], external_id=key, now=stamp),
                 _deleted)


@blp.route("/matches/<string:external_id>", methods=["GET"])
@requires("matches.read")
@blp.response(200, envelope(MatchRead))
def get_match(external_id: str) -> Json:
    """One of the connection's matches by its externalID."""
    connection_id = _ids()[1]

    def build() -> Json:
        with unit_of_work() as uow:
            match = svc.find_match(uow, connection_id=connection_id, external_id=external_id)
            return {"data": reader(uow).read(match)}

    ctx = services()
    read: Json = ctx.reads.read(("match", connection_id, external_id), ctx.store.versions(*MATCH_READ_TABLES), build)
    return read


@blp.route("/matches/<string:external_id>", methods=["PATCH"])
@requires("matches.write")
@blp.arguments(MatchPatchSchema)
@blp.response(200, envelope(MatchRead))
@blp.alt_response(409, description="The match is active or completed (match_locked).")
def patch_match(body: svc.MatchSync | svc.MatchMove, external_id: str) -> Json:
    """Move or replace a pending match.

    A body with only `tableID` is a move to the end of that table's queue (already there: unchanged). Any other
    body is a full replacement with the match sync shape; its `externalID` must equal the path's (else 400).
    """
    with unit_of_work() as uow:
        if not isinstance(body, svc.MatchSync):
            return {"data": reader(uow).read(_move(uow, external_id, body))}
        svc.find_match(uow, connection_id=_ids()[1], external_id=external_id)
        if body.external_id != external_id:
            raise Invalid("externalID in the body must match the path.",
                          details={"json": {"externalID": ["must equal the externalID in the path"]}})
        return {"data": reader(uow).read(_sync(uow, body))}


@blp.route("/matches/<string:external_id>", methods=["DELETE"])
@requires("matches.write")
@blp.response(200, envelope(MatchDeleted))
@blp.alt_response(409, description="The match is active or completed (match_locked).")
def cancel_match(external_id: str) -> Json:
    """Cancel a pending match (it is removed from its queue)."""
    with unit_of_work() as uow:
        match = svc.cancel_match(uow, connection_id=_ids()[1], external_id=external_id, now=now())
    return {"data": {"externalID": match.external_id, "deleted": True}}
