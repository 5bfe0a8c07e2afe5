"""The records Courtside keeps. Plain dataclasses: storage turns them into documents, presenters into JSON.

Timestamps are `domain.clock.iso` strings (fixed width, so they also compare in time order). `seq` is the
creation order the store assigns; lists and cursors use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

SCOPES = (
    "broadcasts.read broadcasts.write rosters.read rosters.write player_lists.read player_lists.write "
    "teams.read teams.write tables.read tables.write matches.read matches.write webhooks.read webhooks.write"
).split()



class EventType(StrEnum):
    """A webhook event's `type` (a delivery's `eventType`): the four match events a connection subscribes to, and
    the test event it asks for (`POST /webhooks/test`)."""

    MATCH_STARTED = "match.started"
    MATCH_SCORE_UPDATED = "match.score_updated"
    MATCH_COMPLETED = "match.completed"
    MATCH_RESULT_UPDATED = "match.result_updated"
    MATCH_CANCELLED = "match.cancelled"
    MATCH_CALLED = "match.called"  # contract §21: the players were called to the court (for partners who text)
    MATCH_RESET = "match.reset"  # contract §23: stopped back to pending, or an undo reopened a finished game or set
    INTEGRATION_TEST = "integration.test"


#: The seed's four events: what a configuration whose `events` were never set is subscribed to, in the order a
#: match emits them.
MATCH_EVENTS = (EventType.MATCH_STARTED, EventType.MATCH_SCORE_UPDATED, EventType.MATCH_COMPLETED,
                EventType.MATCH_RESULT_UPDATED)
#: Events a connection receives only when its `events` name them (contract §23: the operator cancelled a match,
#: or reset it; §21: a match was called).
OPT_IN_EVENTS = (EventType.MATCH_CANCELLED, EventType.MATCH_CALLED, EventType.MATCH_RESET)
#: Every event type `events` may name, and `POST /webhooks/test` may send a sample of.
SUBSCRIBABLE_EVENTS = MATCH_EVENTS + OPT_IN_EVENTS


class MatchStatus(StrEnum):
    """A match's life: queued on a table, in play, finished (one type for models, schemas and the console)."""

    PENDING = "pending"
    ACTIVE = "active"
    COMPLETED = "completed"


class PlayerSource(StrEnum):
    """Where a player of a list came from: a partner's sync or patch (`mapped`, carries its `connectionID`), the
    operator (`manual`) or the roster's sign-up page (`self`). One type for the domain, storage and the schema."""

    MAPPED = "mapped"
    MANUAL = "manual"
    SELF = "self"


class Side(StrEnum):
    """A side of a match: `a` (playerA, playerA2) or `b`; also the keys of a game's score."""

    A = "a"
    B = "b"


class MatchResultType(StrEnum):
    """How a completed match ended when it was not played to the end (contract §14); a match played out on the
    server has none, one typed in at the desk from a paper sheet (§19) is `played`."""

    PLAYED = "played"
    WALKOVER = "walkover"
    RETIRED = "retired"


class ScoringSource(StrEnum):
    """Where a match's scoring format was set (contract §18: match, else draw, else broadcast, else server)."""

    MATCH = "match"
    DRAW = "draw"
    BROADCAST = "broadcast"
    SERVER = "server"


class CredentialKind(StrEnum):
    """What a stored credential is: an OAuth access or refresh token, a developer key, or the operator key."""

    ACCESS = "access"
    REFRESH = "refresh"
    DEVELOPER_KEY = "developer_key"
    OPERATOR = "operator"


class LinkKind(StrEnum):
    """What a public link opens: a court's scorer page, a roster's sign-up page, an event page, or a person's own
    page (a link's ID is `{kind}:{target}`)."""

    SCORER = "scorer"
    REGISTRATION = "registration"
    EVENT = "event"
    PERSONAL = "personal"


class ConnectionKind(StrEnum):
    """How a connection was made: an app's OAuth consent, an operator's developer key, or the account's own
    (`house`: what the operator creates in the console belongs to it)."""

    OAUTH = "oauth"
    DEVELOPER_KEY = "developer_key"
    HOUSE = "house"


class RosterType(StrEnum):
    """Who a roster holds: players one by one (its own list, may open sign-ups) or teams (synced by a partner)."""

    INDIVIDUAL = "individual"
    TEAM = "team"


class OutputKind(StrEnum):
    """A managed output link (contract §10): one court x scoreboard ID, or the broadcast's venue display."""

    COURT = "court"
    VENUE = "venue"


class BlockReason(StrEnum):
    """Why a pending match may not start now: a queued match's `blockedBy.reason`, also the 409 code of a refused
    start."""

    PLAYER_BUSY = "player_busy"
    PLAYER_RESTING = "player_resting"
    NOT_CHECKED_IN = "not_checked_in"
    NOT_BEFORE = "not_before"


class Attention(StrEnum):
    """Why a court needs the operator's eye (a court's `attention`; the board highlights it with colour and text)."""

    OVERDUE = "overdue"  # the active match has run longer than 1.5x the typical duration
    WAITING = "waiting"  # no match in play, but matches are queued


class DeliveryStatus(StrEnum):
    """A webhook delivery's state: waiting (maybe after failed attempts), being attempted, done, given up."""

    PENDING = "pending"
    DELIVERING = "delivering"
    DELIVERED = "delivered"
    FAILED = "failed"


class MailStatus(StrEnum):
    """A player's email's state: not tried yet, sent, or the last attempt failed (retried on the schedule until it
    runs out)."""

    PENDING = "pending"
    SENT = "sent"
    FAILING = "failing"


class DrawStatus(StrEnum):
    """A draw's state: matches still to decide, or every match decided (its placings known)."""

    RUNNING = "running"
    COMPLETE = "complete"


class ReportStatus(StrEnum):
    """A player's reported result: waiting for the other side (or the desk), confirmed, disputed, or cancelled (its
    match was cancelled)."""

    WAITING = "waiting"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"
    CANCELLED = "cancelled"


@dataclass
class Account:
    id: str
    name: str
    created_on: str
    seq: int = 0


@dataclass
class App:
    """A registered partner application (OAuth client)."""

    id: str
    account_id: str
    name: str
    client_id: str
    client_secret_hash: str
    redirect_uris: list[str]
    scopes: list[str]
    created_on: str
    legacy: bool = False  # legacy apps may skip PKCE
    seq: int = 0


@dataclass
class Connection:
    """One installation of an app on an account, or one developer key (`app_id == "developer-key"`)."""

    id: str
    account_id: str
    app_id: str
    app_name: str | None
    kind: ConnectionKind
    scopes: list[str]
    approved_on: str
    token_expires_on: str | None = None
    revoked_on: str | None = None
    seq: int = 0


@dataclass
class Credential:
    """A bearer credential or refresh token, stored only by the SHA-256 of its text (`id`)."""

    id: str
    kind: CredentialKind
    account_id: str
    connection_id: str | None
    scopes: list[str]
    created_on: str
    expires_on: str | None = None
    family_id: str | None = None
    revoked_on: str | None = None
    consumed_on: str | None = None
    name: str | None = None
    seq: int = 0


@dataclass
class AuthorizationCode:
    """A single-use authorization code (stored by hash), bound to its app and redirect URI."""

    id: str
    app_id: str
    account_id: str
    redirect_uri: str
    scopes: list[str]
    expires_on: str
    created_on: str
    code_challenge: str | None = None
    used_on: str | None = None
    family_id: str | None = None
    connection_id: str | None = None
    approved_by: str | None = None  # the operator key ID that approved (the `connection.approved` entry's actor)
    seq: int = 0


@dataclass
class Broadcast:
    id: str
    account_id: str
    name: str
    table_ids: list[str]
    created_on: str
    updated_on: str
    manager_connection_id: str | None = None
    description: str | None = None
    default_player_list_id: str | None = None
    default_scoreboard_id: str | None = None
    scoreboard_ids: list[str] | None = None
    require_check_in: bool = False  # event day (contract §14): only checked-in players may start
    rest_minutes: int = 0  # event day: a player rests this long after completing a match
    check_ins: dict[str, str] = field(default_factory=dict)  # a person's name key (§8a) -> when they checked in
    self_check_in: bool = False  # players may check themselves in through their own link (contract §21)
    self_report: bool = False  # players may report their results through their own link (§21)
    self_report_confirm_minutes: int = 10  # a waiting report is confirmed by the server after this long; 0: never
    scoring: dict[str, Any] | None = None  # the format of its matches (§18); None: the server's
    scoring_name: str | None = None
    plan: dict[str, Any] | None = None  # the order of play's settings (contract §20); None: never set
    planned: dict[str, dict[str, Any]] = field(default_factory=dict)  # plan key -> table_id, planned_on, by_hand (§20)
    published_times: dict[str, str] = field(default_factory=dict)  # plan key -> its first published plannedOn
    seq: int = 0


@dataclass
class Table:
    """A court of a broadcast; in the scoring-table API it is a table."""

    id: str
    account_id: str
    broadcast_id: str
    label: str
    created_on: str
    updated_on: str
    manager_connection_id: str | None = None
    scoreboard_ids: list[str] | None = None
    player_list_external_id: str | None = None
    internal_id: str | None = None  # never in reads
    dynamic_url_id: str | None = None  # never in reads
    seq: int = 0


@dataclass
class Roster:
    id: str
    account_id: str
    name: str
    roster_type: RosterType
    player_list_id: str
    created_on: str
    updated_on: str
    description: str | None = None
    self_registration_enabled: bool | None = None
    team_logo_url: str | None = None
    team_jersey_color: str | None = None
    seq: int = 0


@dataclass
class PlayerList:
    """A player list. Partner lists have a `connection_id` and `external_id`; roster-backed ones do not.

    Each player is the external-player JSON shape plus `source` (a `PlayerSource`) and, for mapped
    players, the `connectionID` that synced it.
    """

    id: str
    account_id: str
    name: str
    players: list[dict[str, Any]]
    created_on: str
    updated_on: str
    connection_id: str | None = None
    external_id: str | None = None
    description: str | None = None
    roster_id: str | None = None
    seq: int = 0


@dataclass
class Team:
    id: str
    account_id: str
    connection_id: str
    external_id: str
    name: str
    players: list[dict[str, Any]]
    roster_id: str
    created_on: str
    updated_on: str
    logo_url: str | None = None
    jersey_color: str | None = None
    seq: int = 0


@dataclass
class Match:
    """A scheduled match: pending on a table's queue, then active, then completed."""

    id: str
    scheduled_match_id: str
    account_id: str
    connection_id: str
    external_id: str
    table_id: str
    player_list_external_id: str
    status: MatchStatus
    queue_order: int  # ordering key among the table's pending matches
    scheduled_on: str
    created_on: str
    updated_on: str
    participants: dict[str, dict[str, str]] = field(default_factory=dict)
    game_scores: list[dict[str, int]] = field(default_factory=list)
    event_name: str | None = None
    match_round: str | None = None
    match_details: str | None = None
    start_time: str | None = None
    best_of: int | None = None
    is_doubles: bool | None = None
    started_on: str | None = None
    completed_on: str | None = None
    recorded_names: dict[str, str] | None = None  # side -> display name, frozen when the match completed
    player_list_id: str | None = None  # the list's `id`, when the operator made the match (any list of the account)
    called_on: str | None = None  # when the operator last called the players to the court (contract §14)
    not_before: str | None = None  # the match is not started earlier (a schedule's time, contract §9a)
    result_type: MatchResultType | None = None  # how a completed match ended: None when played out (§14)
    result_reason: str | None = None  # a walkover's or retirement's reason code (§14)
    typed_in: bool = False  # the result was typed in from paper (§19): it has no duration, whatever `started_on`
    winner_side: Side | None = None  # set when the result is not decided by the games (walkover, retirement)
    score_version: int = 0  # +1 on every change of the scores or the state (contract §17 `scoreVersion`)
    point_log: list[str] = field(default_factory=list)  # the sides of the points added one by one, for undo (§17)
    scorers: dict[str, str] = field(default_factory=dict)  # client -> its last score write, the last 60 s (§17)
    draw_id: str | None = None  # the draw this match plays (contract §13); `table_id` "" while in the court pool
    draw_match_id: str | None = None
    scoring: dict[str, Any] | None = None  # the resolved format object (§18; None: stored before formats)
    scoring_name: str | None = None  # its preset key, None for a custom format
    scoring_source: ScoringSource | None = None  # where it was set: kept in step while pending, fixed from the start
    current_game: dict[str, int] | None = None  # sets formats: points of the game (or tiebreak) in play
    point_base: dict[str, Any] | None = None  # the score `point_log` was played from (undo replays it, §18)
    seq: int = 0


@dataclass
class Output:
    """A managed output link (contract §10): one court x scoreboard ID, or a broadcast's venue display.

    `key` is the secret of the public URL; it is found by `key_hash` (SHA-256) and then compared in constant time.
    """

    id: str
    account_id: str
    broadcast_id: str
    kind: OutputKind
    table_id: str | None
    scoreboard_id: str | None
    key: str
    key_hash: str
    created_on: str
    seq: int = 0


@dataclass
class Operation:
    """A scoring operation's answer, remembered for 24 hours (contract §17 `opID`): a retry answers it again.

    `id` is derived from the scope (a match, or a scorer link's table) and the client's `opID`, so two
    processes storing the same operation collide on one record and one of them runs again."""

    id: str
    account_id: str
    scope: str
    op_id: str
    answer: dict[str, Any]
    created_on: str
    seq: int = 0


@dataclass
class Link:
    """A public phone-page link (contract §11): a table's scorer link or a roster's sign-up link, one per target.

    `id` is `{kind}:{target_id}`. `key` is the secret of the public URL (None once revoked); it is found by
    `key_hash` (SHA-256) and then compared in constant time. (Undo history lives on the match: `point_log`.)
    """

    id: str
    account_id: str
    kind: LinkKind
    target_id: str  # table ID, roster ID, broadcast ID, or broadcast and person
    key: str | None
    key_hash: str | None
    created_on: str
    enabled: bool = True  # an event page can be closed and opened again with the same key (contract §15)
    seq: int = 0


@dataclass
class WebhookConfig:
    """A connection's webhook destination, subscriptions and signing secret (`id` = connection ID)."""

    id: str
    account_id: str
    created_on: str
    updated_on: str
    url: str | None = None
    events: list[EventType] | None = None  # None: never set, subscribed to every match event (`MATCH_EVENTS`)
    secret: str | None = None
    rotations: list[dict[str, str]] = field(default_factory=list)  # {"keyHash", "rotatedOn"}, oldest first
    seq: int = 0


@dataclass
class Delivery:
    """One event, persisted before any attempt (outbox). `id` is the eventID; `body` the exact bytes sent."""

    id: str
    account_id: str
    connection_id: str
    event_type: EventType
    body: str
    status: DeliveryStatus
    created_on: str
    attempt_count: int = 0
    next_attempt_on: str | None = None
    attempted_on: str | None = None
    delivered_on: str | None = None
    last_error: str | None = None
    webhook_created_on: str | None = None
    attempts: list[dict[str, Any]] = field(default_factory=list)
    manual_attempts: int = 0  # attempts an operator or partner asked for; they never move the automatic schedule
    claimed_by: str | None = None  # the process whose dispatcher claimed it (several processes: PostgreSQL)
    match_id: str | None = None  # the match the event is about (None: a test event); its events go in order
    sequence: int = 0  # the event's place among its match's events (`data.sequence`; 0: a test event)
    seq: int = 0


POOL = ""  # the `table_id` of a draw's match waiting in the court pool (read as `tableID: null`)


@dataclass
class DrawRecord:
    """A draw (contract §13) as stored: its identity and what the court pool reads of it; the engine's state is in
    its parts (`DrawPart`). `version` is new at every write of the draw (a random ID, never reused: a process may
    keep the draw decoded as of one version, `domain.draws.hooks`). `state` is the whole state of a draw stored
    before draws were stored in parts (read, and moved into parts at its next change)."""

    id: str
    account_id: str
    broadcast_id: str
    name: str
    created_on: str
    updated_on: str
    version: str = ""
    status: DrawStatus = DrawStatus.RUNNING
    table_ids: list[str] | None = None
    state: dict[str, Any] = field(default_factory=dict)
    scoring: dict[str, Any] | None = None  # the format of its matches (§18); None: the broadcast's
    scoring_name: str | None = None
    seq: int = 0


@dataclass
class DrawPart:
    """One part of a draw's state (`domain.draws.codec.to_parts`): its head, its entries, or one draw match; a
    change of the draw writes only the parts it changed. ID: `<draw ID>/<key>`."""

    id: str
    draw_id: str
    key: str
    state: dict[str, Any] = field(default_factory=dict)
    seq: int = 0


@dataclass
class PlayerReport:
    """A result a player reported through their own link (contract §21), kept apart from its broadcast (a report
    writes only itself, never the broadcast a desk may be editing). `games` are §18 game scores; `side` is the
    reporter's side of the match (`a` | `b`); `status` `waiting` | `confirmed` | `disputed` | `cancelled` (its
    match was cancelled, `domain.match.reports`); `settled_by` a
    personID, `desk` or `server`."""

    id: str
    account_id: str
    broadcast_id: str
    match_id: str
    games: list[dict[str, Any]]
    reported_by: str
    status: ReportStatus
    reported_on: str
    side: str | None = None
    settled_by: str | None = None
    seq: int = 0


@dataclass
class MailMessage:
    """A player's email (contract §21), queued in the unit of work that caused it and sent by the scheduler;
    `status` `pending` (not tried yet) | `failing` (the last attempt failed; retried on the schedule until it
    runs out) | `sent`."""

    id: str
    account_id: str
    broadcast_id: str
    to: str
    subject: str
    body: str
    status: MailStatus
    created_on: str
    attempts: int = 0
    next_attempt_on: str | None = None
    sent_on: str | None = None
    last_error: str | None = None
    claimed_by: str | None = None  # the process sending it now (several share PostgreSQL): nobody else takes it
    seq: int = 0
