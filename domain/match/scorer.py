"""Court scorer links (contract §11): one public link per table that can run that table's matches and nothing else.

The phone page acts through the same services as the operator routes (`start_next`, `score_match`,
`complete_match`), so the same rules, events and webhooks apply. Every action names the state version the phone
saw; a write based on an older state is `409 stale_state`, so two phones on one table (or a phone retrying after
the network dropped) never count a point twice nor lose one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.errors import Conflict, Invalid, NotFound
from domain.match import matches, points, scorers, scoring
from domain.models import Link, LinkKind, Match, Side, Table
from domain.partner.queues import active_match
from domain.ports import UnitOfWork
from domain.public import links
from domain.public.outputs import match_state, next_state

KIND = LinkKind.SCORER
PREFIX = "scr"
SIDES = tuple(Side)


@dataclasses.dataclass(frozen=True)
class ScorerTap:
    """A validated scorer-page action body: the state `version` the phone showed, its own `opID` and `deviceID`
    (contract §17), and the side a point is for or a retirement goes to."""

    version: str
    op_id: str | None = None
    device_id: str | None = None
    side: Side | None = None  # `point`: the side that scored
    winner_side: Side | None = None  # `retire`: the side that wins


def _table(uow: UnitOfWork, *, account_id: str, table_id: str) -> Table:
    table = uow.tables.get(table_id)
    if table is None or table.account_id != account_id:
        raise NotFound(f"No table '{table_id}'.")
    return table


def scorer_link(uow: UnitOfWork, *, account_id: str, table_id: str, now: datetime) -> Link:
    """The table's scorer link, made on first read (every table has one until it is revoked)."""
    _table(uow, account_id=account_id, table_id=table_id)
    return links.ensure_link(uow, kind=KIND, prefix=PREFIX, account_id=account_id, target_id=table_id, now=now)


def rotate_scorer_link(uow: UnitOfWork, *, account_id: str, table_id: str, now: datetime) -> Link:
    """A new key for the table's scorer link (also after a revoke); the old link answers 404 at once."""
    return links.rotate_link(uow, scorer_link(uow, account_id=account_id, table_id=table_id, now=now),
                             prefix=PREFIX, now=now)


def revoke_scorer_link(uow: UnitOfWork, *, account_id: str, table_id: str, now: datetime) -> Link:
    """Kill the table's scorer link at once (404); rotating makes a new one. Revoking a revoked link changes
    nothing and writes no entry."""
    link = scorer_link(uow, account_id=account_id, table_id=table_id, now=now)
    if link.key is None:
        return link
    before = dataclasses.replace(link)
    link.key = link.key_hash = None
    revoked = uow.links.put(link)
    audit.record(uow, account_id=account_id, action=AuditAction.LINK_REVOKED, target=(TargetType.LINK, link.id),
                 before=before, after=revoked, now=now)
    return revoked


def scorer_by_key(uow: UnitOfWork, *, key: str) -> tuple[Link, Table]:
    """The link a public scorer URL names and its table (404 for unknown, rotated, revoked, or a deleted table)."""
    link = links.link_by_key(uow, key=key, kind=KIND, prefix=PREFIX)
    table = uow.tables.get(link.target_id) if link is not None else None
    if link is None or table is None or table.account_id != link.account_id:
        raise NotFound("No such scorer link.")
    return link, table


# ------------------------------------------------------------------------------------------------ state
def scorer_state(uow: UnitOfWork, link: Link, table: Table, *, rules: matches.Rules,
                 now: datetime) -> dict[str, Any]:
    """What the phone shows: the court, its active match (with `decided` and `canUndo`), the match Start next
    would start now (`matches.up_next`), and `version`, which every action must name (Up next is in it: a Start
    next never starts another match than the one shown). Display names and scores only: no IDs, no keys. Also
    `devicesScoring` (§17), outside `version`: time alone changes it, and a tap must not become stale then."""
    match = active_match(uow, table.id)
    # exactly what Start next starts (one function for both, issue 51): the court's own waiting matches (a called
    # one first), then the court pool's this court may take (§13), in the plan's order (§20), the first that may
    # start now (§14)
    following = matches.up_next(uow, table, now=now)
    queue = [following] if following is not None else []
    shown: dict[str, Any] | None = None
    if match is not None:
        shown = match_state(uow, match) | {
            "decided": scoring.decided(match),
            "canUndo": points.can_undo(match),
        }
    state: dict[str, Any] = {
        "court": {"label": table.label},
        "match": shown,
        "upNext": [next_state(uow, m, None) for m in queue],
    }
    basis = {"state": state, "match": match.id if match else None, "updated": match.updated_on if match else None,
             "scoreVersion": match.score_version if match else None, "queue": [m.id for m in queue]}
    state["version"] = hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()[:20]
    state["devicesScoring"] = scorers.devices_scoring(match, now) if match is not None else 0
    return state


def _current(uow: UnitOfWork, link: Link, table: Table, *, version: str, rules: matches.Rules,
             now: datetime) -> Match | None:
    """The table's active match, once the phone's `version` is the current one (else `409 stale_state`)."""
    if scorer_state(uow, link, table, rules=rules, now=now)["version"] != version:
        raise Conflict("The court changed since this page last loaded; here is the current state.",
                       code="stale_state")
    return active_match(uow, table.id)


def court_match_id(uow: UnitOfWork, table: Table) -> str | None:
    """The ID of the match in play on the court, if any (what a scorer action acts on)."""
    match = active_match(uow, table.id)
    return match.id if match is not None else None


def _playing(match: Match | None) -> Match:
    if match is None:
        raise Conflict("No match is being played on this court; start the next one.", code="match_not_active")
    return match


# ------------------------------------------------------------------------------------------------ actions
def add_point(uow: UnitOfWork, *, key: str, side: str, version: str, now: datetime, rules: matches.Rules,
              device: str | None = None) -> Match:
    """+1 for a side in the current game through the one scoring engine (`domain.match.points`).

    `match.score_updated` follows."""
    if side not in SIDES:
        raise Invalid("side must be 'a' or 'b'.", details={"json": {"side": ["Must be one of: a, b."]}})
    link, table = scorer_by_key(uow, key=key)
    match = _playing(_current(uow, link, table, version=version, rules=rules, now=now))
    return points.add_point(uow, account_id=link.account_id, match_id=match.id, side=side,
                            version=match.score_version, now=now, rules=rules, device=device)


def undo_point(uow: UnitOfWork, *, key: str, version: str, now: datetime, rules: matches.Rules,
               device: str | None = None) -> Match:
    """Take back the last point of the current match, whoever scored it (`409 nothing_to_undo` otherwise)."""
    link, table = scorer_by_key(uow, key=key)
    match = _playing(_current(uow, link, table, version=version, rules=rules, now=now))
    return points.undo_point(uow, account_id=link.account_id, match_id=match.id, version=match.score_version,
                             now=now, rules=rules, device=device)


def complete(uow: UnitOfWork, *, key: str, version: str, now: datetime, rules: matches.Rules) -> Match:
    """Complete the court's decided match (`409 match_undecided` before); `match.completed`."""
    link, table = scorer_by_key(uow, key=key)
    match = _playing(_current(uow, link, table, version=version, rules=rules, now=now))
    done = matches.complete_match(uow, account_id=link.account_id, match_id=match.id, game_scores=None, now=now,
                                  rules=rules)
    return done


def retire(uow: UnitOfWork, *, key: str, winner_side: str, version: str, now: datetime,
           rules: matches.Rules) -> Match:
    """Record a retirement on the court's match in play for `winner_side` (contract §14); `match.completed`."""
    if winner_side not in SIDES:
        raise Invalid("winnerSide must be 'a' or 'b'.", details={"json": {"winnerSide": ["Must be one of: a, b."]}})
    link, table = scorer_by_key(uow, key=key)
    match = _playing(_current(uow, link, table, version=version, rules=rules, now=now))
    done = matches.record_walkover(uow, account_id=link.account_id, match_id=match.id, winner_side=winner_side,
                                   reason=matches.WalkoverReason.RETIRED, now=now, rules=rules)
    return done


def start_next(uow: UnitOfWork, *, key: str, version: str, now: datetime, rules: matches.Rules) -> Match:
    """Start the court's next match whose players are all free (contract §9 start-next); `match.started`."""
    link, table = scorer_by_key(uow, key=key)
    _current(uow, link, table, version=version, rules=rules, now=now)
    return matches.start_next(uow, account_id=link.account_id, table_id=table.id, now=now, rules=rules)
