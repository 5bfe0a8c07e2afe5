"""Rosters: named collections of the account, `individual` or `team`, each with a managed backing player list.

Rosters belong to the account, so every connection of it lists and changes them (contract §4). Creating a
roster creates its backing list (roster-backed: no connection, no externalID); deleting it deletes that list.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.commands import UNSET, changed_fields, given
from domain.errors import Invalid, NotFound
from domain.ids import new_id
from domain.models import PlayerList, Roster, RosterType
from domain.names import stored_name
from domain.pagination import paginate
from domain.ports import UnitOfWork


@dataclass(frozen=True)
class NewRoster:
    """A validated create body."""

    name: str
    roster_type: RosterType
    description: str | None = None
    self_registration_enabled: bool | None = None
    team_logo_url: str | None = None
    team_jersey_color: str | None = None


@dataclass(frozen=True)
class RosterChange:
    """A validated patch body: `UNSET` keeps a field; `roster_type` may only restate the current type."""

    name: str = UNSET
    roster_type: RosterType = UNSET
    description: str | None = UNSET
    self_registration_enabled: bool | None = UNSET
    team_logo_url: str | None = UNSET
    team_jersey_color: str | None = UNSET


def _check_self_registration(roster_type: RosterType, enabled: bool | None) -> None:
    if enabled is not None and roster_type != RosterType.INDIVIDUAL:
        raise Invalid(
            "selfRegistrationEnabled is available for individual rosters only.",
            details={"json": {"selfRegistrationEnabled": ["Only for individual rosters."]}},
        )


def create_roster(uow: UnitOfWork, *, account_id: str, new: NewRoster, now: datetime) -> Roster:
    """A roster and its backing player list, in one unit of work, and its `roster.created` entry."""
    roster = make_roster(uow, account_id=account_id, new=new, now=now)
    audit.record(uow, account_id=account_id, action=AuditAction.ROSTER_CREATED, target=(TargetType.ROSTER, roster.id),
                 after=roster, now=now)
    return roster


def make_roster(uow: UnitOfWork, *, account_id: str, new: NewRoster, now: datetime) -> Roster:
    """A roster and its backing player list, without an entry of its own (a team's roster is made by the team's
    sync, whose entry says so)."""
    _check_self_registration(new.roster_type, new.self_registration_enabled)
    roster_id = new_id("ros")
    backing = uow.player_lists.put(PlayerList(
        id=new_id("pl"), account_id=account_id, name=stored_name(new.name), players=[], created_on=iso(now),
        updated_on=iso(now), roster_id=roster_id,
    ))
    return uow.rosters.put(Roster(
        id=roster_id, account_id=account_id, name=stored_name(new.name), roster_type=new.roster_type,
        player_list_id=backing.id,
        created_on=iso(now), updated_on=iso(now), description=new.description,
        self_registration_enabled=new.self_registration_enabled, team_logo_url=new.team_logo_url,
        team_jersey_color=new.team_jersey_color,
    ))


@dataclass(frozen=True)
class OperatorNewRoster:
    """A validated `POST /operator/rosters` body: the roster, and the broadcast whose default list it may become."""

    roster: NewRoster
    broadcast_id: str | None = None


def operator_create_roster(
    uow: UnitOfWork, *, account_id: str, new: OperatorNewRoster, now: datetime
) -> Roster:
    """The console's roster (contract §9a): with `broadcast_id`, the broadcast must be the account's (404) and,
    when it has no default player list yet, the new roster's backing list becomes that default."""
    broadcast_id = new.broadcast_id
    broadcast = uow.broadcasts.get(broadcast_id) if broadcast_id is not None else None
    if broadcast_id is not None and (broadcast is None or broadcast.account_id != account_id):
        raise NotFound(f"No broadcast '{broadcast_id}'.")
    roster = create_roster(uow, account_id=account_id, new=new.roster, now=now)
    if broadcast is not None and broadcast.default_player_list_id is None:
        broadcast.default_player_list_id, broadcast.updated_on = roster.player_list_id, iso(now)
        uow.broadcasts.put(broadcast)
    return roster


def get_roster(uow: UnitOfWork, *, account_id: str, roster_id: str) -> Roster:
    roster = uow.rosters.get(roster_id)
    if roster is None or roster.account_id != account_id:
        raise NotFound(f"No roster '{roster_id}'.")
    return roster


def patch_roster(
    uow: UnitOfWork, *, account_id: str, roster_id: str, change: RosterChange, now: datetime
) -> Roster:
    """Change any create field; `rosterType` only restated (else `400 roster_type_immutable`). A patch that only
    restates the roster's values changes nothing (`updatedOn` kept, no entry) and answers the roster."""
    if not changed_fields(change):
        raise Invalid("Give at least one property to change.")
    roster = get_roster(uow, account_id=account_id, roster_id=roster_id)
    if given(change.roster_type) and change.roster_type != roster.roster_type:
        raise Invalid("A roster's type cannot change.", code="roster_type_immutable",
                      details={"rosterType": roster.roster_type})
    enabled = change.self_registration_enabled
    _check_self_registration(roster.roster_type, enabled if given(enabled) else None)
    was_enabled = roster.self_registration_enabled is True
    before = dataclasses.replace(roster)
    if given(change.name):
        roster.name = stored_name(change.name)
    if given(change.description):
        roster.description = change.description
    if given(enabled):
        roster.self_registration_enabled = enabled
    if given(change.team_logo_url):
        roster.team_logo_url = change.team_logo_url
    if given(change.team_jersey_color):
        roster.team_jersey_color = change.team_jersey_color
    if roster == before:
        return roster
    roster.updated_on = iso(now)
    backing = uow.player_lists.get(roster.player_list_id)
    if backing is not None and backing.name != roster.name:
        backing.name, backing.updated_on = roster.name, iso(now)
        uow.player_lists.put(backing)
    if given(enabled) and (enabled is True) != was_enabled:  # the sign-up link comes back or goes
        audit.record(uow, account_id=account_id,
                     action=AuditAction.LINK_ENABLED if enabled else AuditAction.LINK_DISABLED,
                     target=(TargetType.LINK, f"registration:{roster.id}"), before={"enabled": was_enabled},
                     after={"enabled": enabled is True}, now=now)
    if dataclasses.replace(roster, self_registration_enabled=before.self_registration_enabled,
                           updated_on=before.updated_on) != before:  # more than the link: the roster changed
        audit.record(uow, account_id=account_id, action=AuditAction.ROSTER_CHANGED,
                     target=(TargetType.ROSTER, roster.id), before=before, after=roster, now=now)
    return uow.rosters.put(roster)


def delete_roster(uow: UnitOfWork, *, account_id: str, roster_id: str, now: datetime) -> Roster:
    """Delete the roster and its backing list; broadcasts that defaulted to that list lose the default."""
    roster = get_roster(uow, account_id=account_id, roster_id=roster_id)
    audit.record(uow, account_id=account_id, action=AuditAction.ROSTER_DELETED, target=(TargetType.ROSTER, roster.id),
                 before=roster, now=now)
    uow.player_lists.delete(roster.player_list_id)
    for broadcast in uow.broadcasts.find(default_player_list_id=roster.player_list_id):
        broadcast.default_player_list_id, broadcast.updated_on = None, iso(now)
        uow.broadcasts.put(broadcast)
    uow.rosters.delete(roster.id)
    return roster


def list_rosters(
    uow: UnitOfWork, *, account_id: str, limit: int | None, cursor: str | None
) -> tuple[list[Roster], str | None]:
    return paginate(uow.rosters.find(account_id=account_id), seq=lambda item: item.seq, limit=limit,
                    cursor=cursor)


