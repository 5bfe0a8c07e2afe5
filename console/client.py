"""The console's only way to the data: the operator API over HTTP, with the operator key.

Every failure becomes a `ConsoleError` subclass carrying a message fit to show an operator, so pages never
show a traceback: `Unreachable` (no server), `NotAvailable` (this server has no such route yet) and
`ApiError` (the API's own error envelope).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import requests

from domain.models import MatchStatus
from domain.settings import Settings

KEY_FILE = "operator.key"
MAX_DELIVERIES = 2000  # the delivery monitor shows (and charts) at most this many, the newest
UNKNOWN_ROUTE_MESSAGE = "No such resource."  # what api/errors.py answers for a path no route serves


def court_words(message: str, labels: dict[str, str]) -> str:
    """An API message in the console's words: `Table 'tbl_x' is already playing match 'mat_y'.` → `Court 1 is
    already playing a match.` (courts by their label, matches never by their ID)."""
    message = re.sub(r"\b[Tt]able '([^']*)'", lambda m: labels.get(m[1], "this court"), message)
    message = re.sub(r"\bmatch '[^']*'", "a match", message)
    return message[:1].upper() + message[1:]


class ConsoleError(Exception):
    """A failure to show the operator as one clear message."""


class Unreachable(ConsoleError):
    """The API did not answer at all."""


class NotAvailable(ConsoleError):
    """The API answered, but it has no route for this request (a feature not deployed yet)."""


class ApiError(ConsoleError):
    """The API refused the request with its error envelope."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(message or f"The API refused the request ({code}).")  # what people read: no code
        self.status, self.code, self.message, self.details = status, code, message, details

    @property
    def technical(self) -> str:
        """`validation_failed, HTTP 400`: for the log and a tooltip, not for the message."""
        return f"{self.code}, HTTP {self.status}"


def operator_key_of(settings: Settings) -> str | None:
    """The operator key: the setting, else the data dir's key file, else None."""
    if settings.operator_key:
        return settings.operator_key
    path = settings.data_dir / KEY_FILE
    try:
        return path.read_text().strip() or None
    except OSError:
        return None


@dataclass
class ConsoleClient:
    """A small `requests` client for `/api/v1` with the operator key."""

    api_url: str
    operator_key: str | None
    timeout: float = 10.0
    session: requests.Session = field(default_factory=requests.Session, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> ConsoleClient:
        return cls(settings.api_url.rstrip("/").removesuffix("/api/v1"), operator_key_of(settings))  # a root

    @property
    def base(self) -> str:
        return self.api_url.rstrip("/") + "/api/v1"

    # ------------------------------------------------------------ transport
    def _request(self, method: str, path: str, *, json: Any = None,
                 params: dict[str, Any] | None = None) -> requests.Response:
        if not self.operator_key:
            raise ConsoleError(
                "No operator key: set COURTSIDE_OPERATOR_KEY or COURTSIDE_DATA_DIR (the folder with operator.key)."
            )
        clean = {k: v for k, v in (params or {}).items() if v not in (None, "")}
        try:
            return self.session.request(
                method, self.base + path, json=json, params=clean or None, timeout=self.timeout,
                headers={"Authorization": f"Bearer {self.operator_key}"},
            )
        except requests.RequestException as exc:
            raise Unreachable(
                f"Cannot reach the Courtside API at {self.api_url}. Is `courtside serve` running?"
            ) from exc

    def _refused(self, method: str, path: str, response: requests.Response) -> ConsoleError:
        try:
            body = response.json()
        except ValueError:
            return ApiError(response.status_code, "bad_response", f"Unexpected answer from {method} {path}")
        error = body.get("error", {}) if isinstance(body, dict) else {}
        code, message = str(error.get("code", "error")), str(error.get("message", ""))
        if response.status_code == 405 or (response.status_code == 404 and message == UNKNOWN_ROUTE_MESSAGE):
            return NotAvailable(f"This server does not offer {method} /api/v1{path} yet.")
        return ApiError(response.status_code, code, message, error.get("details"))

    def call(self, method: str, path: str, *, json: Any = None, params: dict[str, Any] | None = None) -> Any:
        """One request; returns the whole decoded body (envelope included) or raises a `ConsoleError`."""
        response = self._request(method, path, json=json, params=params)
        if response.status_code >= 400:
            raise self._refused(method, path, response)
        try:
            return response.json()
        except ValueError as exc:
            raise ApiError(response.status_code, "bad_response",
                           f"Unexpected answer from {method} {path}") from exc

    def download(self, path: str, **params: Any) -> bytes:
        """A GET answered with a file (CSV), as bytes; refusals raise like `call`."""
        response = self._request("GET", path, params=params)
        if response.status_code >= 400:
            raise self._refused("GET", path, response)
        return response.content

    def data(self, method: str, path: str, **kwargs: Any) -> Any:
        """The `data` member of a success envelope."""
        return self.call(method, path, **kwargs)["data"]

    def pages(self, path: str, *, limit: int = 100, max_items: int = 5000, **filters: Any) -> Iterator[dict[str, Any]]:
        """Every item of a list route, following `nextCursor` (at most `max_items`)."""
        cursor: str | None = None
        seen = 0
        while True:
            body = self.call("GET", path, params={"limit": limit, "cursor": cursor, **filters})
            for item in body["data"]:
                yield item
                seen += 1
                if seen >= max_items:
                    return
            cursor = body.get("nextCursor")
            if not cursor:
                return

    def all(self, path: str, **filters: Any) -> list[dict[str, Any]]:
        return list(self.pages(path, **filters))

    # ------------------------------------------------------------ court board and scoring
    def health(self) -> dict[str, Any]:
        return dict(self.data("GET", "/health"))

    def check(self) -> None:
        """Raise unless the API answers and accepts the operator key (one cheap authenticated read)."""
        self.health()
        try:
            self.call("GET", "/operator/tables", params={"limit": 1})
        except ApiError as exc:
            if exc.status in (401, 403):
                raise ConsoleError(f"The API refused the operator key: {exc}") from exc
            raise
        except NotAvailable:
            pass

    def tables(self) -> list[dict[str, Any]]:
        return self.all("/operator/tables")

    def rules(self) -> dict[str, Any]:
        """The server's scoring format: `scoring`, `scoringName`, and its `pointsPerGame`, `defaultBestOf`."""
        return dict(self.data("GET", "/operator/rules"))

    def scoring_formats(self) -> list[dict[str, Any]]:
        """Every preset scoring format (contract §18): `name`, `description`, `scoring`."""
        return list(self.data("GET", "/operator/scoring-formats"))

    def completed_matches(self, *, limit: int = 100) -> list[dict[str, Any]]:
        """The account's most recently created completed matches, the last one finished first (a draw makes its
        matches long before they are played, so creation order is not the order a desk corrects them in)."""
        found = self.pages("/operator/matches", limit=limit, max_items=limit, status=MatchStatus.COMPLETED.value)
        return sorted(found, key=lambda m: str(m.get("completedOn") or ""), reverse=True)

    def start_match(self, match_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/matches/{match_id}/start"))

    def score_match(self, match_id: str, game_scores: list[dict[str, int]], *,
                    reason: str | None = None, confirm_draw_change: bool = False) -> dict[str, Any]:
        """Write a match's whole score (a correction); `confirm_draw_change` lets a winner-changing correction of a
        draw's match move the new winner on (contract §13: without it, 409 draw_change_required)."""
        body: dict[str, Any] = {"gameScores": game_scores} | ({"reason": reason} if reason else {})
        if confirm_draw_change:
            body["confirmDrawChange"] = True
        return dict(self.data("POST", f"/operator/matches/{match_id}/score", json=body))

    def add_point(self, match_id: str, side: str, *, version: int, op_id: str | None = None,
                  device_id: str | None = None) -> dict[str, Any]:
        """+1 for `side` on the match as of `version` (its `scoreVersion`; 409 stale_state otherwise, §17)."""
        return self._operation(f"/operator/matches/{match_id}/point", {"side": side, "version": version},
                               op_id=op_id, device_id=device_id)

    def undo_point(self, match_id: str, *, version: int, op_id: str | None = None,
                   device_id: str | None = None) -> dict[str, Any]:
        """Take back the match's last point, whoever scored it, as of `version` (409 stale_state otherwise)."""
        return self._operation(f"/operator/matches/{match_id}/undo", {"version": version}, op_id=op_id,
                               device_id=device_id)

    def _operation(self, path: str, body: dict[str, Any], *, op_id: str | None,
                   device_id: str | None) -> dict[str, Any]:
        """A scoring operation (§17). With an `opID`, an answer lost on the way is asked for again with the same
        `opID`: the server answers as it did the first time and counts the tap once."""
        body = body | ({"opID": op_id} if op_id else {}) | ({"deviceID": device_id} if device_id else {})
        try:
            return dict(self.data("POST", path, json=body))
        except Unreachable:
            if not op_id:
                raise
            return dict(self.data("POST", path, json=body))

    def complete_match(self, match_id: str, game_scores: list[dict[str, int]] | None = None) -> dict[str, Any]:
        body = {} if game_scores is None else {"gameScores": game_scores}
        return dict(self.data("POST", f"/operator/matches/{match_id}/complete", json=body))

    def start_next(self, table_id: str) -> dict[str, Any]:
        """Start the table's first queued match whose players are all free; a refusal names the court by its
        label, never by its ID."""
        try:
            return dict(self.data("POST", f"/operator/tables/{table_id}/start-next"))
        except ApiError as exc:
            try:
                labels = {str(t["id"]): str(t["label"]) for t in self.tables()}
            except ConsoleError:
                labels = {}
            raise ApiError(exc.status, exc.code, court_words(exc.message, labels), exc.details) from exc

    def create_match(self, body: dict[str, Any]) -> dict[str, Any]:
        return dict(self.data("POST", "/operator/matches", json=body))

    def import_schedule(self, broadcast_id: str, rows: list[dict[str, Any]], *, dry_run: bool,
                        day: str | None = None) -> dict[str, Any]:
        """Per-row results of an import (`failed` > 0: nothing was queued); `queued` says how many were. A row's
        `time` (HH:MM) falls on `day` (YYYY-MM-DD; the server's today when None)."""
        body = {"broadcastID": broadcast_id, "rows": rows, "dryRun": dry_run} | ({"day": day} if day else {})
        return dict(self.data("POST", "/operator/matches/import", json=body))

    def results(self, broadcast_id: str) -> list[dict[str, Any]]:
        return list(self.data("GET", "/operator/results", params={"broadcastID": broadcast_id}))

    def results_csv(self, broadcast_id: str) -> bytes:
        return self.download("/operator/results", broadcastID=broadcast_id, format="csv")

    def results_csv_named(self, broadcast_id: str) -> tuple[bytes, str]:
        """The results CSV and the file name the server gives it (the broadcast's name and the day)."""
        response = self._request("GET", "/operator/results", params={"broadcastID": broadcast_id, "format": "csv"})
        if response.status_code >= 400:
            raise self._refused("GET", "/operator/results", response)
        found = re.search(r'filename="([^"]+)"', response.headers.get("Content-Disposition", ""))
        return response.content, found.group(1) if found else f"results-{broadcast_id}.csv"

    def print_sheet(self, broadcast_id: str, kind: str) -> bytes:
        """A print view (contract §9a): `schedules`, `results`, `sign-in` or `qr`, as an A4 HTML page."""
        return self.download(f"/operator/broadcasts/{broadcast_id}/print/{kind}")

    def move_match(self, match_id: str, table_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/matches/{match_id}/move", json={"tableID": table_id}))

    def cancel_match(self, match_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/matches/{match_id}/cancel"))

    def reorder_queue(self, table_id: str, match_ids: list[str]) -> dict[str, Any]:
        return dict(self.data("PUT", f"/operator/tables/{table_id}/queue", json={"matchIDs": match_ids}))

    # ------------------------------------------------------------ draws and the court pool (contract §13)
    def draws(self, broadcast_id: str) -> list[dict[str, Any]]:
        return self.all("/operator/draws", broadcastID=broadcast_id)

    def preview_draw(self, body: dict[str, Any]) -> dict[str, Any]:
        """The draw creating `body` would make, stored nowhere (the same `randomSeed` gives the same draw)."""
        return dict(self.data("POST", "/operator/draws/preview", json=body))

    def create_draw(self, body: dict[str, Any]) -> dict[str, Any]:
        return dict(self.data("POST", "/operator/draws", json=body))

    def delete_draw(self, draw_id: str) -> dict[str, Any]:
        return dict(self.data("DELETE", f"/operator/draws/{draw_id}"))

    def withdraw_entry(self, draw_id: str, entry_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/draws/{draw_id}/entries/{entry_id}/withdraw"))

    def replace_entry(self, draw_id: str, entry_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A withdrawn entry's place taken by a new entry (contract §22): `{"players", "club"?, "name"?}`."""
        return dict(self.data("POST", f"/operator/draws/{draw_id}/entries/{entry_id}/replace", json=body))

    def pool(self, broadcast_id: str) -> list[dict[str, Any]]:
        """The broadcast's court pool: draw matches waiting for a court, in start-next's order."""
        return self.all(f"/operator/broadcasts/{broadcast_id}/pool")

    # ------------------------------------------------------------ audit log (contract §16)
    def audit(self, *, target_type: str | None = None, target_id: str | None = None, actor_kind: str | None = None,
              since: str | None = None, max_items: int = 200) -> list[dict[str, Any]]:
        """The newest audit entries matching the filters (at most `max_items`), newest first."""
        return list(self.pages("/operator/audit", max_items=max_items, targetType=target_type, targetID=target_id,
                               actorKind=actor_kind, since=since))

    def match_history(self, match_id: str) -> list[dict[str, Any]]:
        """Every audit entry of one match, oldest first."""
        return list(reversed(self.audit(target_type="match", target_id=match_id, max_items=10_000)))

    # ------------------------------------------------------------ deliveries
    def deliveries(self, *, status: str | None = None, event_type: str | None = None,
                   connection_id: str | None = None, max_items: int = MAX_DELIVERIES) -> list[dict[str, Any]]:
        """The newest deliveries (at most `max_items`), newest first."""
        return list(self.pages("/operator/webhooks", max_items=max_items, status=status, eventType=event_type,
                               connectionID=connection_id))

    def delivery(self, event_id: str) -> dict[str, Any]:
        return dict(self.data("GET", f"/operator/webhooks/{event_id}"))

    def retry_delivery(self, event_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/webhooks/{event_id}/retry"))

    def retry_failing(self, connection_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/connections/{connection_id}/webhooks/retry-failing"))

    # ------------------------------------------------------------ integrations
    def apps(self) -> list[dict[str, Any]]:
        return self.all("/operator/apps")

    def create_app(self, name: str, redirect_uris: list[str], scope: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name, "redirectURIs": redirect_uris}
        if scope:
            body["scope"] = scope
        return dict(self.data("POST", "/operator/apps", json=body))

    def connections(self) -> list[dict[str, Any]]:
        return self.all("/operator/connections")

    def revoke_connection(self, connection_id: str) -> Any:
        return self.data("DELETE", f"/operator/connections/{connection_id}")

    def create_key(self, name: str | None, scope: str | None) -> dict[str, Any]:
        body = {k: v for k, v in (("name", name), ("scope", scope)) if v}
        return dict(self.data("POST", "/operator/keys", json=body))

    # ------------------------------------------------------------ broadcasts, rosters, lists
    def broadcasts(self) -> list[dict[str, Any]]:
        return self.all("/operator/broadcasts")

    def create_broadcast(self, body: dict[str, Any]) -> dict[str, Any]:
        return dict(self.data("POST", "/operator/broadcasts", json=body))

    def update_broadcast(self, broadcast_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return dict(self.data("PATCH", f"/operator/broadcasts/{broadcast_id}", json=body))

    def delete_broadcast(self, broadcast_id: str) -> Any:
        return self.data("DELETE", f"/operator/broadcasts/{broadcast_id}")

    def hand_over(self, broadcast_id: str, connection_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/broadcasts/{broadcast_id}/handover",
                              json={"connectionID": connection_id}))

    def outputs(self, broadcast_id: str) -> list[dict[str, Any]]:
        """The broadcast's output links: one per court x scoreboard ID, then its venue display (contract §10)."""
        return self.all(f"/operator/broadcasts/{broadcast_id}/outputs")

    def rotate_output(self, output_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/outputs/{output_id}/rotate"))

    def rosters(self) -> list[dict[str, Any]]:
        return self.all("/operator/rosters")

    def player_lists(self) -> list[dict[str, Any]]:
        return self.all("/operator/player-lists")

    def add_player(self, list_id: str, player: dict[str, Any]) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/player-lists/{list_id}/players", json=player))

    def remove_player(self, list_id: str, player_id: str) -> dict[str, Any]:
        return dict(self.data("DELETE", f"/operator/player-lists/{list_id}/players/{player_id}"))

    # ------------------------------------------------------------ a club's own setup (contract §9a)
    def create_player_list(self, name: str) -> dict[str, Any]:
        return dict(self.data("POST", "/operator/player-lists", json={"name": name}))

    def edit_player(self, list_id: str, player_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Change a manual or self-registered player; the whole list comes back."""
        return dict(self.data("PATCH", f"/operator/player-lists/{list_id}/players/{player_id}", json=changes))

    def import_players(self, list_id: str, rows: list[dict[str, Any]], *, dry_run: bool) -> dict[str, Any]:
        """Per-row results (`player_exists` for a name already in the list); `imported` says how many were added."""
        return dict(self.data("POST", f"/operator/player-lists/{list_id}/players/import",
                              json={"rows": rows, "dryRun": dry_run}))

    def create_roster(self, body: dict[str, Any]) -> dict[str, Any]:
        return dict(self.data("POST", "/operator/rosters", json=body))

    def update_roster(self, roster_id: str, body: dict[str, Any]) -> dict[str, Any]:
        return dict(self.data("PATCH", f"/operator/rosters/{roster_id}", json=body))

    def rotate_registration_link(self, roster_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/rosters/{roster_id}/registration/rotate"))

    def set_court_player_list(self, table_id: str, external_id: str | None) -> dict[str, Any]:
        """The court's player list (one of the club's own lists), or None for the broadcast's default."""
        return dict(self.data("PATCH", f"/operator/tables/{table_id}", json={"playerListExternalID": external_id}))

    # ------------------------------------------------------------ the event page (contract §15)
    def event_page(self, broadcast_id: str) -> dict[str, Any]:
        return dict(self.data("GET", f"/operator/broadcasts/{broadcast_id}/event-page"))

    def set_event_page(self, broadcast_id: str, action: str) -> dict[str, Any]:
        """`action`: enable, disable or rotate."""
        return dict(self.data("POST", f"/operator/broadcasts/{broadcast_id}/event-page/{action}"))

    # ------------------------------------------------------------ the order of play (contract §20)
    def set_plan_settings(self, broadcast_id: str, settings: dict[str, Any]) -> dict[str, Any]:
        """The plan settings, replaced whole."""
        return self.update_broadcast(broadcast_id, {"plan": settings})

    def plan(self, broadcast_id: str, *, keep_placed: bool = True) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/broadcasts/{broadcast_id}/plan", json={"keepPlaced": keep_placed}))

    def plan_grid(self, broadcast_id: str) -> dict[str, Any]:
        return dict(self.data("GET", f"/operator/broadcasts/{broadcast_id}/plan"))

    def move_planned(self, slot: dict[str, Any], table_id: str, planned_on: str) -> dict[str, Any]:
        """Plan one match (or waiting draw match) by hand; the answer names every conflict of the plan."""
        path = (f"/operator/matches/{slot['matchID']}/plan" if slot.get("matchID")
                else f"/operator/draw-matches/{slot['drawMatchID']}/plan")
        return dict(self.data("POST", path, json={"tableID": table_id, "plannedOn": planned_on}))

    # ------------------------------------------------------------ check-in (contract §14)
    def people(self, broadcast_id: str) -> list[dict[str, Any]]:
        return self.all(f"/operator/broadcasts/{broadcast_id}/people")

    def check_in(self, broadcast_id: str, person_id: str, present: bool = True) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/broadcasts/{broadcast_id}/people/{person_id}/check-in",
                              json={"present": present}))

    def set_event_day(self, broadcast_id: str, event_day: dict[str, Any]) -> dict[str, Any]:
        return self.update_broadcast(broadcast_id, {"eventDay": event_day})

    # ------------------------------------------------------------ players' own links (contract §21)
    def personal_link(self, broadcast_id: str, person_id: str) -> dict[str, Any]:
        """The person's own link (`{root}/me/{key}`), made on first read."""
        return dict(self.data("GET", f"/operator/broadcasts/{broadcast_id}/people/{person_id}/link"))

    def rotate_personal_link(self, broadcast_id: str, person_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/broadcasts/{broadcast_id}/people/{person_id}/link/rotate"))

    def reports(self, broadcast_id: str, status: str | None = None) -> list[dict[str, Any]]:
        """The players' reported results of a broadcast, newest first (the board's "Results to check")."""
        return list(self.data("GET", f"/operator/broadcasts/{broadcast_id}/reports",
                              params={"status": status} if status else None))

    def accept_report(self, report_id: str, game_scores: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Record a report as the match's result, or the desk's own games for it."""
        body = {} if game_scores is None else {"gameScores": game_scores}
        return dict(self.data("POST", f"/operator/reports/{report_id}/accept", json=body))

    def mail(self, *, status: str | None = None, broadcast_id: str | None = None) -> list[dict[str, Any]]:
        """Players' mail, newest first: pending, sent or failing."""
        filters = {key: value for key, value in (("status", status), ("broadcastID", broadcast_id)) if value}
        return list(self.data("GET", "/operator/mail", params=filters or None))

    def walkover(self, match_id: str, winner_side: str, reason: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/matches/{match_id}/walkover",
                              json={"winnerSide": winner_side, "reason": reason}))

    def stop_match(self, match_id: str) -> dict[str, Any]:
        """A match in play back to pending, its games kept in the audit log (the way on of §19)."""
        return dict(self.data("POST", f"/operator/matches/{match_id}/stop"))

    def draw(self, draw_id: str) -> dict[str, Any]:
        return dict(self.data("GET", f"/operator/draws/{draw_id}"))

    def enter_result(self, match_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A whole result typed in from paper (contract §19): `gameScores`, `resultType`?, `winnerSide`?."""
        return dict(self.data("POST", f"/operator/matches/{match_id}/result", json=body))

    def call_match(self, match_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/matches/{match_id}/call"))

    # ------------------------------------------------------------ phone pages (contract §11)
    def scorer_link(self, table_id: str) -> dict[str, Any]:
        return dict(self.data("GET", f"/operator/tables/{table_id}/scorer"))

    def rotate_scorer_link(self, table_id: str) -> dict[str, Any]:
        return dict(self.data("POST", f"/operator/tables/{table_id}/scorer/rotate"))

    def revoke_scorer_link(self, table_id: str) -> dict[str, Any]:
        return dict(self.data("DELETE", f"/operator/tables/{table_id}/scorer"))

    def registration_link(self, roster_id: str) -> dict[str, Any]:
        return dict(self.data("GET", f"/operator/rosters/{roster_id}/registration"))
