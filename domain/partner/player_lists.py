"""Player lists and teams a partner connection synchronizes, keyed by its own `externalID`s (contract §4, §5).

A connection only ever touches the players it mapped (synced by externalID): manual entries added by the
operator and players mapped by other connections are kept by every sync and patch. Each stored player is the
external-player shape plus `source` (`PlayerSource`: "mapped" | "manual" | "self"), `connectionID` for mapped ones, `id`
for the others.
A team is backed by a team-type roster (and that roster's backing list), created on first sync and kept in step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.access.auth import house_connection
from domain.bulk import check_unique
from domain.clock import iso
from domain.commands import UNSET, changed_fields, given
from domain.errors import Conflict, DomainError, Invalid, NotFound
from domain.ids import new_id
from domain.models import MatchStatus, PlayerList, PlayerSource, RosterType, Team
from domain.names import full_name, name_key, same_name, stored_name
from domain.pagination import paginate
from domain.partner.rosters import NewRoster, make_roster
from domain.ports import UnitOfWork

Player = dict[str, Any]


# ------------------------------------------------------------------ players: the one merge rule
def _mapped_by(player: Player, connection_id: str) -> bool:
    return player.get("source") == PlayerSource.MAPPED and player.get("connectionID") == connection_id


#: The fields of a player that are names: kept in §8a's stored form on every path, partner syncs included.
NAME_FIELDS = ("firstName", "lastName", "clubName")


def named(player: Player) -> Player:
    """The player with its names in the stored form (`domain.names.stored_name`: NFC, whitespace collapsed)."""
    return {**player, **{f: stored_name(player[f]) for f in NAME_FIELDS if isinstance(player.get(f), str)}}


def _mapped(player: Player, connection_id: str) -> Player:
    return {**named(player), "source": PlayerSource.MAPPED.value, "connectionID": connection_id}


def _check_unique(players: Sequence[Player], field: str) -> None:
    check_unique([player["externalID"] for player in players], field=field, member="externalID",
                 message="Each externalID may appear only once in a request.")


def replace_mapped(existing: list[Player], players: Sequence[Player], *, connection_id: str) -> list[Player]:
    """A sync: the connection's mapped players become exactly `players` (request order); others stay after."""
    _check_unique(players, "players")
    kept = [p for p in existing if not _mapped_by(p, connection_id)]
    return [_mapped(p, connection_id) for p in players] + kept


def patch_mapped(
    existing: list[Player], *, upsert: Sequence[Player], remove: Sequence[str], connection_id: str
) -> list[Player]:
    """A patch: replace or append each upserted mapped player, drop the removed ones (unmapped IDs: no-op)."""
    _check_unique(upsert, "upsert")
    conflicting = sorted({p["externalID"] for p in upsert} & set(remove))
    if conflicting:
        raise Invalid(
            "An externalID cannot be both upserted and removed.", code="conflicting_patch",
            details={"externalIDs": conflicting},
        )
    removed = set(remove)
    players = [p for p in existing if not (_mapped_by(p, connection_id) and p.get("externalID") in removed)]
    for update in upsert:
        record = _mapped(update, connection_id)
        at = next((i for i, p in enumerate(players)
                   if _mapped_by(p, connection_id) and p.get("externalID") == update["externalID"]), None)
        if at is None:
            players.append(record)
        else:
            players[at] = record
    return players


@dataclass(frozen=True)
class SyncPlayerList:
    """A validated `PUT /player-lists` body: the list's mapped players become exactly `players`."""

    external_id: str
    name: str
    players: Sequence[Player]
    description: str | None = None


@dataclass(frozen=True)
class SyncTeam:
    """A validated `PUT /teams` body."""

    external_id: str
    name: str
    players: Sequence[Player]
    logo_url: str | None = None
    jersey_color: str | None = None


@dataclass(frozen=True)
class PlayerListChange:
    """A validated `PATCH /player-lists/{externalID}` body (`UNSET`: not in the request)."""

    upsert: Sequence[Player] = UNSET
    remove_external_ids: Sequence[str] = UNSET
    name: str = UNSET
    description: str | None = UNSET


@dataclass(frozen=True)
class TeamChange:
    """A validated `PATCH /teams/{externalID}` body (`UNSET`: not in the request)."""

    upsert: Sequence[Player] = UNSET
    remove_external_ids: Sequence[str] = UNSET
    name: str = UNSET
    jersey_color: str | None = UNSET
    logo_url: str | None = UNSET


def _check_change(change: PlayerListChange | TeamChange, fields: str) -> None:
    """A patch must give at least one field (`fields`: their names in the request)."""
    if not changed_fields(change):
        raise Invalid(f"Give at least one of {fields}.")


def _apply_change(
    record: PlayerList | Team, change: PlayerListChange | TeamChange, *, connection_id: str, now: datetime,
) -> None:
    """A `PATCH` of a list or a team: the connection's mapped players (`upsert`, `remove_external_ids`), then
    every other field the request gives (same names on the change and the record)."""
    record.players = patch_mapped(
        record.players, upsert=change.upsert if given(change.upsert) else [],
        remove=change.remove_external_ids if given(change.remove_external_ids) else [], connection_id=connection_id,
    )
    for name in changed_fields(change):
        if name not in ("upsert", "remove_external_ids"):
            value = getattr(change, name)
            setattr(record, name, stored_name(value) if name == "name" else value)
    record.updated_on = iso(now)


# ------------------------------------------------------------------ player lists
def _summary(record: PlayerList | Team | None) -> dict[str, Any] | None:
    """What the audit log keeps of a list or team: its fields, the players as their count (a sync of 1,000
    players is one entry; a partner's sync or patch adds the externalIDs it added, changed and removed,
    `_player_changes`; a player added, changed or removed by hand has an entry of its own)."""
    if record is None:
        return None
    fields = audit.snapshot(record)
    fields["players"] = len(record.players)
    return dict(fields)


def _player_changes(before: Sequence[Player], after: Sequence[Player]) -> dict[str, list[str]]:
    """The players a sync or patch added, changed and removed, by externalID: its audit entry names them (§16 asks
    one entry per change to players; a sync is one entry naming each, not one entry per player)."""
    old = {str(p["externalID"]): p for p in before if p.get("externalID")}
    new = {str(p["externalID"]): p for p in after if p.get("externalID")}
    return {"playersAdded": sorted(new.keys() - old.keys()),
            "playersChanged": sorted(key for key in new.keys() & old.keys() if new[key] != old[key]),
            "playersRemoved": sorted(old.keys() - new.keys())}


OPEN_STATUSES = (MatchStatus.PENDING, MatchStatus.ACTIVE)


def check_players_in_use(
    uow: UnitOfWork, *, connection_id: str, player_list: PlayerList, kept: Sequence[Player],
) -> None:
    """A sync or patch may not remove a mapped player whom a pending or active match of the connection names on
    this list: `409 player_in_use` with `details.players` (externalIDs) and `details.matchIDs` (contract §23).
    Such a match would otherwise show the bare externalID as a name, and creating one is refused already."""
    staying = {p.get("externalID") for p in kept}
    removed = {p["externalID"] for p in player_list.players
               if _mapped_by(p, connection_id) and p.get("externalID") not in staying}
    if not removed or not player_list.external_id:
        return
    named: set[str] = set()
    match_ids: list[str] = []
    for match in uow.matches.find(connection_id=connection_id, player_list_external_id=player_list.external_id):
        if match.status not in OPEN_STATUSES:
            continue
        hits = {ref.get("externalID") for ref in match.participants.values()} & removed
        if hits:
            named |= {hit for hit in hits if hit is not None}
            match_ids.append(match.id)
    if match_ids:
        raise Conflict(
            f"{len(named)} player(s) to remove are named by {len(match_ids)} pending or active match(es); "
            "cancel or change those matches first.", code="player_in_use",
            details={"players": sorted(named), "matchIDs": sorted(match_ids)},
        )



def own_list(uow: UnitOfWork, *, connection_id: str, external_id: str) -> PlayerList:
    """The calling connection's list with this externalID; anyone else's or unknown is 404."""
    found = uow.player_lists.find(connection_id=connection_id, external_id=external_id)
    if not found:
        raise NotFound(f"No player list with externalID '{external_id}'.")
    return found[0]


def sync_list(
    uow: UnitOfWork, *, account_id: str, connection_id: str, sync: SyncPlayerList, now: datetime,
) -> PlayerList:
    """`PUT /player-lists`: create or replace the connection's list; idempotent by externalID."""
    found = uow.player_lists.find(connection_id=connection_id, external_id=sync.external_id)
    before = _summary(found[0]) if found else None
    existing = found[0] if found else PlayerList(
        id=new_id("pl"), account_id=account_id, name=stored_name(sync.name), players=[], created_on=iso(now),
        updated_on=iso(now), connection_id=connection_id, external_id=sync.external_id,
    )
    players = replace_mapped(existing.players, sync.players, connection_id=connection_id)
    check_players_in_use(uow, connection_id=connection_id, player_list=existing, kept=players)
    changes = _player_changes(existing.players, players)
    existing.players = players
    existing.name, existing.description, existing.updated_on = stored_name(sync.name), sync.description, iso(now)
    stored = uow.player_lists.put(existing)
    audit.record(uow, account_id=account_id, action=AuditAction.PLAYER_LIST_SYNCED,
                 target=(TargetType.PLAYER_LIST, stored.id),
                 before=before, after=(_summary(stored) or {}) | changes, now=now)
    return stored


def patch_list(
    uow: UnitOfWork, *, connection_id: str, external_id: str, change: PlayerListChange, now: datetime
) -> PlayerList:
    """`PATCH /player-lists/{externalID}`: `upsert`, `removeExternalIDs`, `name`, `description`."""
    _check_change(change, "upsert, removeExternalIDs, name, description")
    player_list = own_list(uow, connection_id=connection_id, external_id=external_id)
    before = _summary(player_list)
    players_before = list(player_list.players)
    _apply_change(player_list, change, connection_id=connection_id, now=now)
    check_players_in_use(uow, connection_id=connection_id, player_list=replace(player_list, players=players_before),
                         kept=player_list.players)
    stored = uow.player_lists.put(player_list)
    audit.record(uow, account_id=stored.account_id, action=AuditAction.PLAYER_LIST_CHANGED,
                 target=(TargetType.PLAYER_LIST, stored.id),
                 before=before, after=(_summary(stored) or {}) | _player_changes(players_before, stored.players),
                 now=now)
    return stored


def list_lists(
    uow: UnitOfWork, *, connection_id: str, limit: int | None, cursor: str | None
) -> tuple[list[PlayerList], str | None]:
    """The connection's lists: the whole set when neither `limit` nor `cursor` is given, else one page."""
    lists = uow.player_lists.find(connection_id=connection_id)
    if limit is None and cursor is None:
        return lists, None
    return paginate(lists, seq=lambda item: item.seq, limit=limit, cursor=cursor)


# ------------------------------------------------------------------ teams
def own_team(uow: UnitOfWork, *, connection_id: str, external_id: str) -> Team:
    found = uow.teams.find(connection_id=connection_id, external_id=external_id)
    if not found:
        raise NotFound(f"No team with externalID '{external_id}'.")
    return found[0]


def _keep_roster_in_step(uow: UnitOfWork, team: Team, *, now: datetime) -> None:
    """The team-type roster behind the team (made if missing) mirrors its name, logo, colour and players."""
    roster = uow.rosters.get(team.roster_id)
    if roster is None:
        roster = make_roster(uow, account_id=team.account_id, now=now, new=NewRoster(
            name=team.name, roster_type=RosterType.TEAM, team_logo_url=team.logo_url,
            team_jersey_color=team.jersey_color))
        team.roster_id = roster.id
    else:
        roster.name, roster.team_logo_url, roster.team_jersey_color = team.name, team.logo_url, team.jersey_color
        roster.updated_on = iso(now)
        uow.rosters.put(roster)
    backing = uow.player_lists.get(roster.player_list_id)
    if backing is not None:
        backing.players, backing.name, backing.updated_on = [dict(p) for p in team.players], team.name, iso(now)
        uow.player_lists.put(backing)


def sync_team(uow: UnitOfWork, *, account_id: str, connection_id: str, sync: SyncTeam, now: datetime) -> Team:
    """`PUT /teams`: create or replace the connection's team and keep its roster in step."""
    found = uow.teams.find(connection_id=connection_id, external_id=sync.external_id)
    before = _summary(found[0]) if found else None
    team = found[0] if found else Team(
        id=new_id("team"), account_id=account_id, connection_id=connection_id, external_id=sync.external_id,
        name=stored_name(sync.name), players=[], roster_id="", created_on=iso(now), updated_on=iso(now),
    )
    team.players = replace_mapped(team.players, sync.players, connection_id=connection_id)
    team.name, team.logo_url, team.jersey_color = stored_name(sync.name), sync.logo_url, sync.jersey_color
    team.updated_on = iso(now)
    _keep_roster_in_step(uow, team, now=now)
    stored = uow.teams.put(team)
    audit.record(uow, account_id=account_id, action=AuditAction.TEAM_SYNCED, target=(TargetType.TEAM, stored.id),
                 before=before, after=_summary(stored), now=now)
    return stored


def patch_team(
    uow: UnitOfWork, *, connection_id: str, external_id: str, change: TeamChange, now: datetime
) -> Team:
    """`PATCH /teams/{externalID}`: `upsert`, `removeExternalIDs`, `name`, `jerseyColor`, `logoURL`."""
    _check_change(change, "upsert, removeExternalIDs, name, jerseyColor, logoURL")
    team = own_team(uow, connection_id=connection_id, external_id=external_id)
    before = _summary(team)
    _apply_change(team, change, connection_id=connection_id, now=now)
    _keep_roster_in_step(uow, team, now=now)
    stored = uow.teams.put(team)
    audit.record(uow, account_id=stored.account_id, action=AuditAction.TEAM_CHANGED,
                 target=(TargetType.TEAM, stored.id), before=before, after=_summary(stored), now=now)
    return stored


def list_teams(
    uow: UnitOfWork, *, connection_id: str, limit: int | None, cursor: str | None
) -> tuple[list[Team], str | None]:
    return paginate(uow.teams.find(connection_id=connection_id), seq=lambda item: item.seq, limit=limit,
                    cursor=cursor)


# ------------------------------------------------------------------ operator: every list, manual players
def account_lists(
    uow: UnitOfWork, *, account_id: str, limit: int | None, cursor: str | None
) -> tuple[list[PlayerList], str | None]:
    return paginate(uow.player_lists.find(account_id=account_id), seq=lambda item: item.seq, limit=limit,
                    cursor=cursor)


@dataclass(frozen=True)
class NewHouseList:
    """A validated `POST /operator/player-lists` body."""

    name: str


def create_house_list(uow: UnitOfWork, *, account_id: str, new: NewHouseList, now: datetime) -> PlayerList:
    """A club's own list (contract §9a), owned by the house connection; its `externalID` is its id, so courts
    of house-managed broadcasts name it in `playerListExternalID`."""
    name = new.name
    if not name.strip():
        raise Invalid("A player list needs a name.", details={"json": {"name": ["A name is required."]}})
    house = house_connection(uow, account_id=account_id, now=now)
    list_id = new_id("pl")
    made = uow.player_lists.put(PlayerList(
        id=list_id, account_id=account_id, name=stored_name(name), players=[], created_on=iso(now),
        updated_on=iso(now), connection_id=house.id, external_id=list_id,
    ))
    audit.record(uow, account_id=account_id, action=AuditAction.PLAYER_LIST_CREATED,
                 target=(TargetType.PLAYER_LIST, made.id), after=_summary(made), now=now)
    return made


def _account_list(uow: UnitOfWork, *, account_id: str, list_id: str) -> PlayerList:
    player_list = uow.player_lists.get(list_id)
    if player_list is None or player_list.account_id != account_id:
        raise NotFound(f"No player list '{list_id}'.")
    return player_list


def _mirror_to_teams(uow: UnitOfWork, player_list: PlayerList, *, now: datetime) -> None:
    """A manual change to a team roster's backing list shows in the team too (they hold the same players)."""
    if player_list.roster_id is None:
        return
    for team in uow.teams.find(roster_id=player_list.roster_id):
        team.players, team.updated_on = [dict(p) for p in player_list.players], iso(now)
        uow.teams.put(team)


@dataclass(frozen=True)
class NewManualPlayer:
    """A validated manual player body: `fields` in the stored player shape (the module doc), its first name and
    its externalID (if any) typed."""

    first_name: str
    external_id: str | None
    fields: Player


@dataclass(frozen=True)
class PlayerChanges:
    """A validated player edit body: the stored player fields to change."""

    changes: Player


@dataclass(frozen=True)
class PlayerSheet:
    """A validated player sheet: each row the fields of a manual player in the stored shape."""

    rows: Sequence[Player]
    dry_run: bool = False


def add_manual_player(
    uow: UnitOfWork, *, account_id: str, list_id: str, player: NewManualPlayer, now: datetime
) -> PlayerList:
    """The operator adds a manual entry (externalID optional); no connection's sync ever removes it.

    A manual entry needs a name, and never takes an externalID a player of the list already has (a partner's
    matches name their players by it): `409 player_exists`, naming who holds it.
    """
    if not player.first_name.strip():
        raise Invalid("A player needs a first name.", details={"json": {"firstName": ["A name is required."]}})
    player_list = _account_list(uow, account_id=account_id, list_id=list_id)
    external_id = player.external_id
    holder = next((p for p in player_list.players if external_id and p.get("externalID") == external_id), None)
    if holder is not None:
        name = full_name(holder) or "a player"
        raise Conflict(
            f"Player '{external_id}' is already in this list ({name}, {holder.get('source', 'mapped')}); "
            "choose another externalID or none.",
            code="player_exists", details={"externalID": external_id, "name": name},
        )
    added = club_player(named(player.fields), PlayerSource.MANUAL)
    player_list.players.append(added)
    player_list.updated_on = iso(now)
    _mirror_to_teams(uow, player_list, now=now)
    audit.record(uow, account_id=account_id, action=AuditAction.PLAYER_CREATED,
                 target=(TargetType.PLAYER, str(added["id"])), after={**added, "playerListID": player_list.id}, now=now)
    return uow.player_lists.put(player_list)


#: Players the operator owns in a list: added by hand, or signed up on the roster's page (contract §9a).
OPERATOR_EDITABLE = (PlayerSource.MANUAL, PlayerSource.SELF)


def edit_player(
    uow: UnitOfWork, *, account_id: str, list_id: str, player_id: str, edit: PlayerChanges, now: datetime
) -> PlayerList:
    """Change a manual or self-registered player's fields; mapped players belong to their connection (404).

    A first name stays visible (400), and the new name never makes two people of the list one (`409
    player_exists`, §8a's name rule).
    """
    player_list = _account_list(uow, account_id=account_id, list_id=list_id)
    target = next((p for p in player_list.players
                   if p.get("id") == player_id and p.get("source") in OPERATOR_EDITABLE), None)
    if target is None:
        raise NotFound(f"No manual or self-registered player '{player_id}' in this list.")
    changes = named(edit.changes)
    edited = {**target, **changes}
    if not str(edited.get("firstName") or "").strip():
        raise Invalid("A player needs a first name.", details={"json": {"firstName": ["A name is required."]}})
    name = full_name(edited)
    holder = next((p for p in player_list.players if p is not target and same_name(full_name(p), name)), None)
    if holder is not None:
        raise Conflict(f"{name} is already in this list.", code="player_exists",
                       details={"name": full_name(holder), "playerID": holder.get("id")})
    before = dict(target)
    target.update(changes)
    audit.record(uow, account_id=account_id, action=AuditAction.PLAYER_CHANGED, target=(TargetType.PLAYER, player_id),
                 before=before, after=dict(target), now=now)
    player_list.updated_on = iso(now)
    _mirror_to_teams(uow, player_list, now=now)
    return uow.player_lists.put(player_list)


#: Most rows one player import takes (contract §9a).
MAX_IMPORT_ROWS = 1000


def import_players(
    uow: UnitOfWork, *, account_id: str, list_id: str, sheet: PlayerSheet, now: datetime,
) -> tuple[list[Player | DomainError], bool]:
    """A CSV/Excel sheet of players into a list, all or nothing (contract §9a).

    Each row becomes a manual player; a row whose name (§8a's rule) is already in the list, or in an earlier row,
    is that row's `409 player_exists`. With any row in error, or on a dry run, nothing is stored. Returns each
    row's outcome in order and whether the rows were stored.
    """
    player_list = _account_list(uow, account_id=account_id, list_id=list_id)
    taken = {name_key(full_name(p)): full_name(p) for p in player_list.players}
    outcomes: list[Player | DomainError] = []
    for row in sheet.rows:
        record = club_player({k: stored_name(v) if isinstance(v, str) else v for k, v in row.items()},
                             PlayerSource.MANUAL)
        name, key = full_name(record), name_key(full_name(record))
        if key in taken:
            outcomes.append(Conflict(f"{name} is already in this list (as {taken[key]}).", code="player_exists",
                                     details={"name": taken[key]}))
            continue
        taken[key] = name
        outcomes.append(record)
    stored = not sheet.dry_run and not any(isinstance(o, DomainError) for o in outcomes)
    if stored:
        added = [o for o in outcomes if not isinstance(o, DomainError)]
        player_list.players.extend(added)
        audit.record(uow, account_id=account_id, action=AuditAction.PLAYER_IMPORTED,
                     target=(TargetType.PLAYER_LIST, player_list.id),
                     after={"playerIDs": [p["id"] for p in added]}, now=now)
        player_list.updated_on = iso(now)
        _mirror_to_teams(uow, player_list, now=now)
        uow.player_lists.put(player_list)
    return outcomes, stored


def club_player(fields: Player, source: PlayerSource) -> Player:
    """A player the club adds (by hand, from a sheet, or signing up): a new `id`, and that `id` as its `externalID`
    unless it brings one, so matches and schedules can name it like any list player (contract §9a)."""
    player_id = new_id("ply")
    return {"id": player_id, **fields, "externalID": fields.get("externalID") or player_id, "source": source.value}


def remove_manual_player(
    uow: UnitOfWork, *, account_id: str, list_id: str, player_id: str, now: datetime
) -> PlayerList:
    """Remove a manual or self-registered entry by its `id` (a sign-up made in jest, or twice under two spellings);
    mapped players belong to their connection (404 here)."""
    player_list = _account_list(uow, account_id=account_id, list_id=list_id)
    remaining = [p for p in player_list.players
                 if not (p.get("source") in OPERATOR_EDITABLE and p.get("id") == player_id)]
    if len(remaining) == len(player_list.players):
        raise NotFound(f"No manual or self-registered player '{player_id}' in this list.")
    gone = next(p for p in player_list.players if p not in remaining)
    audit.record(uow, account_id=account_id, action=AuditAction.PLAYER_DELETED, target=(TargetType.PLAYER, player_id),
                 before={**gone, "playerListID": player_list.id}, now=now)
    player_list.players, player_list.updated_on = remaining, iso(now)
    _mirror_to_teams(uow, player_list, now=now)
    return uow.player_lists.put(player_list)
