"""The read side, in one place: how every resource reads in the API (partner and operator), the webhook payloads
and the console. One convention: `<resource>_view(...)` returns the JSON-ready dict of the spec's read shape;
`Reader` is the views of many matches and tables of one unit of work (each queue and player list loaded once).

Services decide and write; views only shape. Outputs, scorer pages and exports reuse these reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from domain.match import formats, scoring
from domain.models import (
    MATCH_EVENTS,
    POOL,
    App,
    Broadcast,
    Connection,
    Delivery,
    Link,
    Match,
    MatchStatus,
    Output,
    PlayerList,
    PlayerSource,
    Roster,
    Table,
    Team,
    WebhookConfig,
)
from domain.partner.broadcasts import _tables, court_scoreboards, event_day
from domain.partner.player_lists import Player
from domain.partner.queues import SIDES, active_match, player_list_of, side_names
from domain.plan import settings as plan_settings
from domain.plan.live import plan_key
from domain.ports import UnitOfWork
from domain.public.outputs import design_of

Planned = tuple[str, str]  # (tableID, plannedOn) the order of play gives a match (contract §20)


@dataclass(frozen=True)
class MatchRead:
    """The match read of the spec (contract §5, §18), built once from a match (`match_read`) and serialised by one
    function (`match_json`): required fields always, optional ones when set, the sides' display names last."""

    id: str
    external_id: str
    scheduled_match_id: str
    table_id: str | None  # a draw's match in the court pool has no table yet (contract §13)
    status: MatchStatus
    participants: dict[str, dict[str, str]]
    player_list_external_id: str | None  # an operator's match may have no list (manual names only): then absent
    queue_position: int | None
    scheduled_on: str
    game_scores: list[dict[str, Any]]
    score: dict[str, int]
    score_version: int
    scoring: dict[str, Any]
    scoring_name: str | None
    best_of: int
    event_name: str | None
    match_round: str | None
    match_details: str | None
    start_time: str | None
    is_doubles: bool | None
    current_game: dict[str, str] | None  # a live sets match's points as called
    started_on: str | None
    completed_on: str | None
    called_on: str | None
    not_before: str | None
    result_type: str | None
    winner_side: str | None
    draw_id: str | None
    draw_match_id: str | None
    names: dict[str, str]  # playerA, playerA2, playerB, playerB2: each side's display name
    planned_table_id: str | None = None  # where and when the order of play puts it (contract §20)
    planned_on: str | None = None


def match_read(match: Match, *, queue_position: int | None, player_list: PlayerList | None,
               planned: Planned | None = None) -> MatchRead:
    """The typed match read, scored in the match's format (contract §18: `scoring`, `scoringName`, and a live sets
    match's `currentGame`) with its place in the order of play (§20: `planned`, the plan's court and time)."""
    fmt = scoring.format_of(match)
    active, completed = match.status == MatchStatus.ACTIVE, match.status == MatchStatus.COMPLETED
    return MatchRead(
        id=match.id, external_id=match.external_id, scheduled_match_id=match.scheduled_match_id,
        table_id=match.table_id or None, status=match.status,
        participants={side: dict(ref) for side, ref in match.participants.items()},
        player_list_external_id=match.player_list_external_id or None, queue_position=queue_position,
        scheduled_on=match.scheduled_on, game_scores=[formats.copy_item(game) for game in match.game_scores],
        score=formats.won(fmt, match.game_scores), score_version=match.score_version,
        scoring=formats.to_json(fmt), scoring_name=scoring.name_of(match), best_of=fmt.best_of,
        event_name=match.event_name, match_round=match.match_round, match_details=match.match_details,
        start_time=match.start_time, is_doubles=match.is_doubles,
        current_game=scoring.current_game(match) if active else None,
        started_on=match.started_on, completed_on=match.completed_on,
        called_on=match.called_on if match.status == MatchStatus.PENDING else None,
        not_before=match.not_before, result_type=match.result_type,
        # who won a completed match: a walkover's or retirement's winner, else the side the format says (§23)
        winner_side=scoring.winner(match) if completed else match.winner_side,
        draw_id=match.draw_id, draw_match_id=match.draw_match_id,
        names=side_names(match, player_list),
        planned_table_id=None if planned is None else planned[0], planned_on=None if planned is None else planned[1],
    )


def match_json(read: MatchRead) -> dict[str, Any]:
    """The one serialisation of a match read (the API's, the webhooks' payloads', the console's)."""
    shown: dict[str, Any] = {
        "id": read.id,
        "externalID": read.external_id,
        "scheduledMatchID": read.scheduled_match_id,
        "tableID": read.table_id,
        "status": read.status,
        "participants": read.participants,
        **({"playerListExternalID": read.player_list_external_id} if read.player_list_external_id else {}),
        "isActive": read.status == MatchStatus.ACTIVE,
        "isComplete": read.status == MatchStatus.COMPLETED,
        "queuePosition": read.queue_position,
        "scheduledOn": read.scheduled_on,
        "gameScores": read.game_scores,
        "score": read.score,
        "scoreVersion": read.score_version,
        "scoring": read.scoring,
        "scoringName": read.scoring_name,
        "bestOf": read.best_of,
    }
    optional = {
        "eventName": read.event_name, "matchRound": read.match_round, "matchDetails": read.match_details,
        "startTime": read.start_time, "isDoubles": read.is_doubles, "currentGame": read.current_game,
        "startedOn": read.started_on, "completedOn": read.completed_on, "calledOn": read.called_on,
        "notBefore": read.not_before, "plannedTableID": read.planned_table_id, "plannedOn": read.planned_on,
        "resultType": read.result_type, "winnerSide": read.winner_side,
        "drawID": read.draw_id, "drawMatchID": read.draw_match_id,
    }
    shown.update({key: value for key, value in optional.items() if value is not None})
    shown.update({side: read.names[side] for side in SIDES if side in read.names})
    return shown


def match_view(
    match: Match, *, queue_position: int | None, player_list: PlayerList | None, planned: Planned | None = None,
) -> dict[str, Any]:
    """The match read of the spec as JSON: `match_json(match_read(...))`."""
    return match_json(match_read(match, queue_position=queue_position, player_list=player_list, planned=planned))


class Reader:
    """Presents many matches of one unit of work, loading each player list once (positions come from the queue
    index, or from the queue a table read already holds)."""

    def __init__(self, uow: UnitOfWork) -> None:
        self.uow = uow
        self._positions: dict[str, dict[str, int]] = {}
        self._lists: dict[tuple[str, str], PlayerList | None] = {}
        self._broadcast_ids: dict[str, str | None] = {}  # a table's or a draw's broadcast
        self._plans: dict[str, dict[str, dict[str, Any]]] = {}  # a broadcast's stored plan (§20)

    def planned(self, match: Match) -> Planned | None:
        """Where and when the broadcast's order of play puts the match (§20), if it does (read once per broadcast:
        its table's, or for a draw's match in the court pool its draw's)."""
        where = match.table_id if match.table_id != POOL else f"draw:{match.draw_id or ''}"
        if where not in self._broadcast_ids:
            if match.table_id != POOL:
                table = self.uow.tables.get(match.table_id)
                self._broadcast_ids[where] = table.broadcast_id if table else None
            else:
                draw = self.uow.draws.get(match.draw_id) if match.draw_id else None
                self._broadcast_ids[where] = draw.broadcast_id if draw else None
        broadcast_id = self._broadcast_ids[where]
        if broadcast_id is None:
            return None
        if broadcast_id not in self._plans:
            broadcast = self.uow.broadcasts.get(broadcast_id)
            self._plans[broadcast_id] = broadcast.planned if broadcast is not None else {}
        found = self._plans[broadcast_id].get(plan_key(match))
        return None if found is None else (found["table_id"], found["planned_on"])

    def position(self, match: Match) -> int | None:
        """1-based queue position of a pending match (None otherwise), known from a table read or the index. A
        match waiting in the court pool has no table's queue: its place in its broadcast's pool when a pool read
        gave it (`pool_positions`), else None (not a rank among every account's pool matches: issue 42)."""
        if match.status != MatchStatus.PENDING:
            return None
        known = self._positions.get(match.table_id, {}).get(match.id)
        if known is not None or match.table_id == POOL:
            return known
        return self.uow.matches.queue_position(match.id)

    def pool_positions(self, pool: list[Match]) -> None:
        """The broadcast's court pool, in its order: the places its matches' reads give as `queuePosition`."""
        self._positions[POOL] = {m.id: i for i, m in enumerate(pool, start=1)}

    def player_list(self, match: Match) -> PlayerList | None:
        key = (match.connection_id, match.player_list_id or match.player_list_external_id)
        if key not in self._lists:
            self._lists[key] = player_list_of(self.uow, match)
        return self._lists[key]

    def read(self, match: Match) -> dict[str, Any]:
        return match_view(match, queue_position=self.position(match), player_list=self.player_list(match),
                          planned=self.planned(match))

    def read_all(self, matches: Iterable[Match]) -> list[dict[str, Any]]:
        return [self.read(match) for match in matches]

    def table(self, table: Table, *, connection_id: str | None) -> dict[str, Any]:
        """Table read: `{id, label, broadcastID, playerListExternalID, activeMatch, queue}` (contract §5)."""
        active = active_match(self.uow, table.id)
        queue = self.uow.matches.queue(table.id)
        self._positions[table.id] = {m.id: i for i, m in enumerate(queue, start=1)}
        self._broadcast_ids[table.id] = table.broadcast_id
        if connection_id is not None:
            queue = [m for m in queue if m.connection_id == connection_id]
            if active is not None and active.connection_id != connection_id:
                active = None
        return self._present(table, active, queue)

    def court(self, table: Table, *, active: Match | None, queue: list[Match]) -> dict[str, Any]:
        """The table read of a whole court (operator) whose active match and queue the caller already read."""
        self._positions[table.id] = {m.id: i for i, m in enumerate(queue, start=1)}
        self._broadcast_ids[table.id] = table.broadcast_id
        return self._present(table, active, queue)

    def _present(self, table: Table, active: Match | None, queue: list[Match]) -> dict[str, Any]:
        return table_json(TableRead(
            id=table.id, label=table.label, broadcast_id=table.broadcast_id,
            player_list_external_id=table.player_list_external_id,
            active_match=None if active is None else self.read(active), queue=self.read_all(queue)))


@dataclass(frozen=True)
class TableRead:
    """The table read (contract §5): its active match and queue as match reads (`match_json`)."""

    id: str
    label: str
    broadcast_id: str
    player_list_external_id: str | None
    active_match: dict[str, Any] | None
    queue: list[dict[str, Any]]


def table_json(read: TableRead) -> dict[str, Any]:
    """The one serialisation of a table read."""
    return {"id": read.id, "label": read.label, "broadcastID": read.broadcast_id,
            "playerListExternalID": read.player_list_external_id, "activeMatch": read.active_match,
            "queue": read.queue}


def _present_only(fields: dict[str, Any]) -> dict[str, Any]:
    """The optional members that are set (a read leaves an unset optional member out, contract §5)."""
    return {key: value for key, value in fields.items() if value is not None}


@dataclass(frozen=True)
class CourtRead:
    """A court of a broadcast read: its own scoreboards and the outputs it shows (one per scoreboard shown)."""

    id: str
    label: str
    scoreboard_ids: list[str]
    outputs: list[str]


@dataclass(frozen=True)
class OperatorPart:
    """What only the operator's broadcast read adds: the managing connection, event-day rules, plan settings."""

    manager_connection_id: str | None
    event_day: dict[str, Any]
    plan: dict[str, Any] | None


@dataclass(frozen=True)
class BroadcastRead:
    """The broadcast read (contract §5); never internal or URL IDs."""

    id: str
    name: str
    description: str | None
    default_player_list_id: str | None
    default_scoreboard_id: str | None
    scoreboard_ids: list[str]
    tables: list[CourtRead]
    scoring: dict[str, Any] | None
    scoring_name: str | None
    created_on: str
    updated_on: str
    operator: OperatorPart | None


def broadcast_read(uow: UnitOfWork, broadcast: Broadcast, *, internal: bool = False) -> BroadcastRead:
    """The typed broadcast read; `internal`: the operator's, with `OperatorPart`."""
    courts = [CourtRead(id=table.id, label=table.label, scoreboard_ids=list(table.scoreboard_ids or []),
                        outputs=court_scoreboards(broadcast, table)) for table in _tables(uow, broadcast)]
    operator = OperatorPart(manager_connection_id=broadcast.manager_connection_id, event_day=event_day(broadcast),
                            plan=plan_settings.view(broadcast.plan)) if internal else None
    return BroadcastRead(
        id=broadcast.id, name=broadcast.name, description=broadcast.description,
        default_player_list_id=broadcast.default_player_list_id,
        default_scoreboard_id=broadcast.default_scoreboard_id, scoreboard_ids=list(broadcast.scoreboard_ids or []),
        tables=courts, scoring=broadcast.scoring, scoring_name=broadcast.scoring_name,
        created_on=broadcast.created_on, updated_on=broadcast.updated_on, operator=operator)


def broadcast_json(read: BroadcastRead) -> dict[str, Any]:
    """The one serialisation of a broadcast read."""
    shown: dict[str, Any] = {"id": read.id, "name": read.name}
    shown.update(_present_only({"description": read.description, "defaultPlayerListID": read.default_player_list_id,
                                "defaultScoreboardID": read.default_scoreboard_id}))
    shown.update({
        "scoreboardIDs": read.scoreboard_ids,
        "tableCount": len(read.tables),
        "outputCount": sum(len(court.outputs) for court in read.tables),
        "tables": [{"id": court.id, "label": court.label, "scoreboardIDs": court.scoreboard_ids,
                    "outputs": [{"scoreboardID": scoreboard} for scoreboard in court.outputs]}
                   for court in read.tables],
        "scoring": read.scoring,
        "scoringName": read.scoring_name,
        "createdOn": read.created_on,
        "updatedOn": read.updated_on,
    })
    if read.operator is not None:
        shown.update({"managerConnectionID": read.operator.manager_connection_id,
                      "eventDay": read.operator.event_day, "plan": read.operator.plan})
    return shown


def broadcast_view(uow: UnitOfWork, broadcast: Broadcast, *, internal: bool = False) -> dict[str, Any]:
    """Broadcast read as JSON: `broadcast_json(broadcast_read(...))`."""
    return broadcast_json(broadcast_read(uow, broadcast, internal=internal))


@dataclass(frozen=True)
class RosterRead:
    """The roster read plus `source: {playerListID, playerCount}` (the managed backing record)."""

    id: str
    name: str
    description: str | None
    roster_type: str
    player_count: int
    self_registration_enabled: bool | None
    team_logo_url: str | None
    team_jersey_color: str | None
    created_on: str
    updated_on: str
    player_list_id: str


def roster_read(uow: UnitOfWork, roster: Roster) -> RosterRead:
    backing = uow.player_lists.get(roster.player_list_id)
    return RosterRead(
        id=roster.id, name=roster.name, description=roster.description, roster_type=roster.roster_type,
        player_count=len(backing.players) if backing is not None else 0,
        self_registration_enabled=roster.self_registration_enabled, team_logo_url=roster.team_logo_url,
        team_jersey_color=roster.team_jersey_color, created_on=roster.created_on, updated_on=roster.updated_on,
        player_list_id=roster.player_list_id)


def roster_json(read: RosterRead) -> dict[str, Any]:
    """The one serialisation of a roster read."""
    shown: dict[str, Any] = {"id": read.id, "name": read.name}
    shown.update(_present_only({"description": read.description}))
    shown.update({"rosterType": read.roster_type, "playerCount": read.player_count})
    shown.update(_present_only({"selfRegistrationEnabled": read.self_registration_enabled,
                                "teamLogoURL": read.team_logo_url, "teamJerseyColor": read.team_jersey_color}))
    shown.update({"createdOn": read.created_on, "updatedOn": read.updated_on,
                  "source": {"playerListID": read.player_list_id, "playerCount": read.player_count}})
    return shown


def roster_view(uow: UnitOfWork, roster: Roster) -> dict[str, Any]:
    """Roster read as JSON: `roster_json(roster_read(...))`."""
    return roster_json(roster_read(uow, roster))


def player_view(player: Player, *, internal: bool = False) -> Player:
    """A player as a partner reads it (external player shape + `source`); `internal` keeps `id`/`connectionID`."""
    hidden = () if internal else ("id", "connectionID")
    return {key: value for key, value in player.items() if key not in hidden}


@dataclass(frozen=True)
class PlayerListRead:
    """The player list read; `connection_id`/`roster_id` only in the operator's (`internal`)."""

    id: str
    external_id: str | None
    name: str
    description: str | None
    players: list[Player]
    created_on: str
    updated_on: str
    internal: bool
    connection_id: str | None
    roster_id: str | None


def player_list_read(player_list: PlayerList, *, internal: bool = False) -> PlayerListRead:
    return PlayerListRead(
        id=player_list.id, external_id=player_list.external_id, name=player_list.name,
        description=player_list.description, players=[player_view(p, internal=internal) for p in player_list.players],
        created_on=player_list.created_on, updated_on=player_list.updated_on, internal=internal,
        connection_id=player_list.connection_id, roster_id=player_list.roster_id)


def player_list_json(read: PlayerListRead) -> dict[str, Any]:
    """The one serialisation of a player list read: `{id, externalID, name, description, playerCount, players,
    createdOn, updatedOn}` (+ `connectionID`, `rosterID` for the operator)."""
    shown: dict[str, Any] = {"id": read.id}
    shown.update(_present_only({"externalID": read.external_id}))
    shown["name"] = read.name
    shown.update(_present_only({"description": read.description}))
    shown.update({"playerCount": len(read.players), "players": read.players, "createdOn": read.created_on,
                  "updatedOn": read.updated_on})
    if read.internal:
        shown.update({"connectionID": read.connection_id, "rosterID": read.roster_id})
    return shown


def player_list_view(player_list: PlayerList, *, internal: bool = False) -> dict[str, Any]:
    """Player list read as JSON: `player_list_json(player_list_read(...))`."""
    return player_list_json(player_list_read(player_list, internal=internal))


@dataclass(frozen=True)
class TeamRead:
    """The team read: the team fields, `players`, and `roster` (the backing roster's read, None if deleted)."""

    id: str
    external_id: str
    name: str
    logo_url: str | None
    jersey_color: str | None
    players: list[Player]
    roster: RosterRead | None
    created_on: str
    updated_on: str


def team_read(uow: UnitOfWork, team: Team) -> TeamRead:
    roster = uow.rosters.get(team.roster_id)
    return TeamRead(id=team.id, external_id=team.external_id, name=team.name, logo_url=team.logo_url,
                    jersey_color=team.jersey_color, players=[player_view(p) for p in team.players],
                    roster=None if roster is None else roster_read(uow, roster), created_on=team.created_on,
                    updated_on=team.updated_on)


def team_json(read: TeamRead) -> dict[str, Any]:
    """The one serialisation of a team read."""
    shown: dict[str, Any] = {"id": read.id, "externalID": read.external_id, "name": read.name}
    shown.update(_present_only({"logoURL": read.logo_url, "jerseyColor": read.jersey_color}))
    shown.update({"playerCount": len(read.players), "players": read.players,
                  "roster": None if read.roster is None else roster_json(read.roster),
                  "createdOn": read.created_on, "updatedOn": read.updated_on})
    return shown


def team_view(uow: UnitOfWork, team: Team) -> dict[str, Any]:
    """Team read as JSON: `team_json(team_read(...))`."""
    return team_json(team_read(uow, team))


@dataclass(frozen=True)
class WebhookConfigRead:
    """A connection's webhook configuration: never its secret, only whether one is set."""

    url: str | None
    events: list[str]
    secret_configured: bool
    updated_on: str | None


def webhook_config_read(config: WebhookConfig | None) -> WebhookConfigRead:
    """Never-set events read as all four match events."""
    if config is None:
        return WebhookConfigRead(url=None, events=list(MATCH_EVENTS), secret_configured=False, updated_on=None)
    return WebhookConfigRead(url=config.url,
                             events=list(MATCH_EVENTS) if config.events is None else list(config.events),
                             secret_configured=config.secret is not None, updated_on=config.updated_on)


def webhook_config_json(read: WebhookConfigRead) -> dict[str, Any]:
    """The one serialisation: `{"url", "events", "secretConfigured", "updatedOn"}`."""
    return {"url": read.url, "events": read.events, "secretConfigured": read.secret_configured,
            "updatedOn": read.updated_on}


def webhook_config_view(config: WebhookConfig | None) -> dict[str, Any]:
    """Webhook configuration read as JSON: `webhook_config_json(webhook_config_read(...))`."""
    return webhook_config_json(webhook_config_read(config))


@dataclass(frozen=True)
class DeliveryRead:
    """The webhook delivery of the spec; the operator's read adds `connection_id` and `attempts`."""

    attempt_count: int
    event_id: str
    event_type: str
    payload: Any
    status: str
    attempted_on: str | None
    created_on: str | None
    delivered_on: str | None
    next_attempt_on: str | None
    webhook_created_on: str | None
    last_error: str | None
    operator: tuple[str, list[dict[str, Any]]] | None  # (connectionID, attempts) for the operator's read


def delivery_read(delivery: Delivery, *, operator: bool = False) -> DeliveryRead:
    return DeliveryRead(
        attempt_count=delivery.attempt_count, event_id=delivery.id, event_type=delivery.event_type,
        payload=orjson.loads(delivery.body), status=delivery.status, attempted_on=delivery.attempted_on,
        created_on=delivery.created_on, delivered_on=delivery.delivered_on,
        next_attempt_on=delivery.next_attempt_on, webhook_created_on=delivery.webhook_created_on,
        last_error=delivery.last_error,
        operator=(delivery.connection_id, list(delivery.attempts)) if operator else None)


def delivery_json(read: DeliveryRead) -> dict[str, Any]:
    """The one serialisation of a delivery read: required members, then the set optional ones."""
    shown: dict[str, Any] = {"attemptCount": read.attempt_count, "eventID": read.event_id,
                             "eventType": read.event_type, "payload": read.payload, "status": read.status}
    shown.update(_present_only({
        "attemptedOn": read.attempted_on, "createdOn": read.created_on, "deliveredOn": read.delivered_on,
        "nextAttemptOn": read.next_attempt_on, "webhookCreatedOn": read.webhook_created_on,
        "lastError": read.last_error}))
    if read.operator is not None:
        shown["connectionID"], shown["attempts"] = read.operator
    return shown


def delivery_view(delivery: Delivery, *, operator: bool = False) -> dict[str, Any]:
    """Delivery read as JSON: `delivery_json(delivery_read(...))`."""
    return delivery_json(delivery_read(delivery, operator=operator))


def output_view(uow: UnitOfWork, output: Output, *, root: str) -> dict[str, Any]:
    """Operator read of an output, with its public URL."""
    table = uow.tables.get(output.table_id) if output.table_id else None
    return {
        "id": output.id, "kind": output.kind, "tableID": output.table_id,
        "tableLabel": table.label if table else None, "scoreboardID": output.scoreboard_id,
        "design": design_of(output.scoreboard_id), "url": f"{root.rstrip('/')}/outputs/{output.key}",
        "createdOn": output.created_on,
    }


def scorer_link_view(uow: UnitOfWork, link: Link, *, root: str) -> dict[str, Any]:
    """Operator read of a table's scorer link (contract §11): its public URL, null once revoked."""
    table = uow.tables.get(link.target_id)
    return {"tableID": link.target_id, "tableLabel": table.label if table else None,
            "url": f"{root.rstrip('/')}/score/{link.key}" if link.key else None, "createdOn": link.created_on}


def event_page_view(link: Link, *, root: str) -> dict[str, Any]:
    """Operator read of a broadcast's event-page link (contract §15): open or not, its URL, when it was made."""
    return {"broadcastID": link.target_id, "enabled": link.enabled,
            "url": f"{root.rstrip('/')}/event/{link.key}", "createdOn": link.created_on}


def registration_link_view(uow: UnitOfWork, link: Link, *, root: str) -> dict[str, Any]:
    """Operator read of a roster's sign-up link (contract §11): open or not, its URL, how many signed up."""
    roster = uow.rosters.get(link.target_id)
    backing = uow.player_lists.get(roster.player_list_id) if roster else None
    return {"rosterID": link.target_id, "rosterName": roster.name if roster else None,
            "enabled": bool(roster and roster.self_registration_enabled),
            "url": f"{root.rstrip('/')}/register/{link.key}" if link.key else None,
            "signUps": sum(1 for p in (backing.players if backing else []) if p.get("source") == PlayerSource.SELF),
            "createdOn": link.created_on}


def app_view(app: App) -> dict[str, Any]:
    return {
        "appID": app.id, "clientID": app.client_id, "name": app.name, "redirectURIs": app.redirect_uris,
        "scopes": app.scopes, "legacy": app.legacy, "createdOn": app.created_on,
    }


def connection_view(connection: Connection, webhook_url: str | None) -> dict[str, Any]:
    return {
        "connectionID": connection.id, "appID": connection.app_id, "appName": connection.app_name,
        "kind": connection.kind, "scopes": connection.scopes, "approvedOn": connection.approved_on,
        "tokenExpiresOn": connection.token_expires_on, "revokedOn": connection.revoked_on,
        "webhookURL": webhook_url,
    }
