"""Broadcast outputs (contract §10): managed links to scoreboard pages and the venue display, and their state.

An output is one court x one scoreboard ID (as the court's `outputs` in the broadcast read), plus one venue
display per broadcast. Each has a public link `/outputs/{key}`; the key (`out_` + 43 URL-safe characters) is the
only secret. Keys are looked up by their SHA-256 and then compared in constant time. Life of a link: a (court,
scoreboard ID) pair that a broadcast patch keeps keeps its link; a removed pair or court, and every output of a
deleted broadcast, is gone at once; rotating gives a new key and the old one is gone at once.

The state (`output_state`) is what a page shows and what `/outputs/{key}/state` serves: display names, club or
country, scores, event and round, times. Never IDs, keys or other partner data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.errors import NotFound
from domain.ids import hash_secret, new_id
from domain.match import formats, scoring
from domain.models import Broadcast, Match, MatchStatus, Output, OutputKind, PlayerList, Table
from domain.names import side_name
from domain.pagination import paginate
from domain.partner.queues import active_match, display_name, player_list_of, players_by_external_id
from domain.ports import UnitOfWork
from domain.public import links
from domain.public.feeds import CourtShown, MatchShown, NextShown, OutputFeed, SideShown

DESIGNS: dict[str, str] = {
    "classic": "Both sides with doubles partners, club or country, games won, every finished game, current game "
               "points, event and round.",
    "lowerthird": "One bar for the bottom of a stream (transparent background by default).",
    "court": "Large, high-contrast scoreboard readable from 20 m on a venue screen.",
}
DEFAULT_DESIGN = "classic"
KEY_PREFIX = "out_"
UP_NEXT_COURT = 1  # a court output shows the first queued match
UP_NEXT_VENUE = 2  # the venue display shows the next two per court

# (table, match id) -> estimated start (ISO); supplied by the estimates rule of contract §9
Estimates = Callable[[Table], dict[str, str]]


def design_of(scoreboard_id: str | None) -> str:
    """A scoreboard ID naming a built-in design selects it; any other renders `classic`."""
    return scoreboard_id if scoreboard_id in DESIGNS else DEFAULT_DESIGN


def _new_key() -> tuple[str, str]:
    return links.new_key("out")  # out_ + 43 URL-safe characters


def _new_output(broadcast: Broadcast, *, kind: OutputKind, table_id: str | None, scoreboard_id: str | None,
                now: datetime) -> Output:
    key, key_hash = _new_key()
    return Output(id=new_id("outp"), account_id=broadcast.account_id, broadcast_id=broadcast.id, kind=kind,
                  table_id=table_id, scoreboard_id=scoreboard_id, key=key, key_hash=key_hash, created_on=iso(now))


def sync_outputs(uow: UnitOfWork, *, broadcast: Broadcast, courts: Sequence[tuple[Table, Sequence[str]]],
                 now: datetime) -> None:
    """Make the broadcast's outputs match its courts' scoreboards: keep kept pairs, drop gone ones, add new ones,
    and keep exactly one venue display."""
    existing = uow.outputs.find(broadcast_id=broadcast.id)
    wanted = [(table.id, scoreboard) for table, scoreboards in courts for scoreboard in dict.fromkeys(scoreboards)]
    have = {(o.table_id, o.scoreboard_id): o for o in existing if o.kind == OutputKind.COURT}
    for pair, output in have.items():
        if pair not in wanted:
            uow.outputs.delete(output.id)
    for table_id, scoreboard in wanted:
        if (table_id, scoreboard) not in have:
            uow.outputs.put(_new_output(broadcast, kind=OutputKind.COURT, table_id=table_id, scoreboard_id=scoreboard,
                                        now=now))
    if not any(o.kind == OutputKind.VENUE for o in existing):
        uow.outputs.put(_new_output(broadcast, kind=OutputKind.VENUE, table_id=None, scoreboard_id=None, now=now))


def delete_outputs(uow: UnitOfWork, *, broadcast_id: str) -> None:
    """Deleting a broadcast deletes its managed output links."""
    for output in uow.outputs.find(broadcast_id=broadcast_id):
        uow.outputs.delete(output.id)


def _broadcast(uow: UnitOfWork, *, account_id: str, broadcast_id: str) -> Broadcast:
    broadcast = uow.broadcasts.get(broadcast_id)
    if broadcast is None or broadcast.account_id != account_id:
        raise NotFound(f"No broadcast '{broadcast_id}'.")
    return broadcast


def _output_order(broadcast: Broadcast) -> Callable[[Output], tuple[int, int, int]]:
    """The key of the outputs' order: court outputs by court, then creation; the venue display last."""
    courts = {table_id: index for index, table_id in enumerate(broadcast.table_ids)}
    return lambda o: (int(o.kind == OutputKind.VENUE), courts.get(o.table_id or "", 0), o.seq)


def outputs_page(uow: UnitOfWork, *, account_id: str, broadcast_id: str, limit: int | None,
                 cursor: str | None) -> tuple[list[Output], str | None]:
    """A page of the broadcast's outputs (the list envelope, contract §2): court outputs in court then scoreboard
    order, the venue display last."""
    order = _output_order(_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id))
    found = sorted(uow.outputs.find(broadcast_id=broadcast_id), key=order)
    return paginate(found, seq=order, limit=limit, cursor=cursor)


def designs_page(*, limit: int | None, cursor: str | None) -> tuple[list[dict[str, str]], str | None]:
    """A page of the built-in designs `{"id", "description"}`, in their fixed order."""
    designs = [{"id": key, "description": text} for key, text in DESIGNS.items()]
    order = {design["id"]: place for place, design in enumerate(designs)}
    return paginate(designs, seq=lambda design: order[design["id"]], limit=limit, cursor=cursor)


def rotate_output(uow: UnitOfWork, *, account_id: str, output_id: str, now: datetime) -> Output:
    """A new key for the output; the old link answers 404 at once."""
    output = uow.outputs.get(output_id)
    if output is None or output.account_id != account_id:
        raise NotFound(f"No output '{output_id}'.")
    before = dataclasses.replace(output)
    output.key, output.key_hash = _new_key()
    rotated = uow.outputs.put(output)
    audit.record(uow, account_id=account_id, action=AuditAction.LINK_ROTATED, target=(TargetType.OUTPUT, output.id),
                 before=before, after=rotated, now=now)
    return rotated


def output_by_key(uow: UnitOfWork, *, key: str) -> Output:
    """The output a public link names (404 otherwise); the stored key is compared in constant time."""
    output = links.same_key(uow.outputs.find(key_hash=hash_secret(key)), key) if links.plausible(key, "out") else None
    if output is None:
        raise NotFound("No such output.")
    return output


# ------------------------------------------------------------------------------------------------ state
def _person(reference: dict[str, str], players: dict[str, dict[str, Any]]) -> tuple[str, str | None]:
    """Display name (the one rule, "TBD" when unknown: a public page shows no IDs) and club, else country."""
    player = {} if reference.get("manualName") else players.get(reference.get("externalID", "")) or {}
    return display_name(reference, players) or "TBD", player.get("clubName") or player.get("country")


def sides_shown(match: Match, player_list: PlayerList | None) -> list[SideShown]:
    """Each side as a public page shows it: names (recorded at completion, else by the one rule), club or
    country, games (sets, in a sets format) won."""
    players = players_by_external_id(player_list)
    won = scoring.won(match)
    sides: list[SideShown] = []
    for side, partner, letter in (("playerA", "playerA2", "a"), ("playerB", "playerB2", "b")):
        names: list[str] = []
        teams: list[str] = []
        for slot in (side, partner):
            reference = match.participants.get(slot)
            if not reference:
                continue
            recorded = (match.recorded_names or {}).get(slot)
            name, team = _person(reference, players)
            names.append(recorded or name)
            if team and team not in teams:
                teams.append(team)
        sides.append({"names": names or ["TBD"], "team": side_name(teams) or None, "games": won.get(letter, 0)})
    return sides


def match_state(uow: UnitOfWork, match: Match) -> MatchShown:
    """A match as the public pages show it, in its format (contract §18): `kind` "games" or "sets", the items
    (games, or sets with their tiebreaks), the score as written (`scoreText`), and while it is in play the game in
    play: its points in a games format, in a sets format the points as called ("15", "40", "AD", tiebreak
    digits) beside the set in play (`currentSet`)."""
    fmt = scoring.format_of(match)
    games = [formats.copy_item(g) for g in match.game_scores]
    score = scoring.score_of(match)
    # the finished games or sets, and as written ("6-4 7-6(4)", a match tiebreak "[10-8]")
    in_play = match.status == MatchStatus.ACTIVE
    finished = [g for i, g in enumerate(games) if formats.item_winner(fmt, i, g) is not None]
    current: dict[str, Any] | None = None
    current_set: dict[str, int] | None = None
    if in_play and formats.winner(fmt, games) is None:
        open_item = bool(games) and formats.item_winner(fmt, len(games) - 1, games[-1]) is None
        if isinstance(fmt, formats.GamesFormat):  # between two games, no game is in play
            current = {"a": games[-1]["a"], "b": games[-1]["b"]} if open_item else None if games else {"a": 0, "b": 0}
        else:
            current = formats.point_labels(fmt, score)
            current_set = {"a": games[-1]["a"], "b": games[-1]["b"]} if open_item else {"a": 0, "b": 0}
    return {
        "sides": sides_shown(match, player_list_of(uow, match)),
        "kind": str(fmt.kind),
        "games": games,
        "finished": finished,
        "finishedText": formats.score_text(fmt, finished),
        "scoreText": formats.score_text(fmt, games),
        "currentGame": current,
        "currentSet": current_set,
        "status": match.status,
        "event": match.event_name,
        "round": match.match_round,
        "bestOf": fmt.best_of,
        "startedOn": match.started_on,
    }


def next_state(uow: UnitOfWork, match: Match, estimate: str | None) -> NextShown:
    return {
        "sides": [{"names": side["names"], "team": side["team"]}
                  for side in sides_shown(match, player_list_of(uow, match))],
        "event": match.event_name, "round": match.match_round, "estimatedStartOn": estimate,
        "notBefore": match.not_before, "calledOn": match.called_on,  # §14: "Called to {court}" until it starts
    }


def _court_state(uow: UnitOfWork, table: Table, *, count: int,
                 estimates: Estimates | None) -> CourtShown:
    active = active_match(uow, table.id)
    queue = uow.matches.queue(table.id, stop=count)
    times = estimates(table) if estimates and queue else {}
    return {
        "label": table.label,
        "match": None if active is None else match_state(uow, active),
        "upNext": [next_state(uow, m, times.get(m.id)) for m in queue],
    }


def output_state(uow: UnitOfWork, output: Output, *, estimates: Estimates | None = None
                 ) -> OutputFeed:
    """What the output's page shows (contract §10 feed, without `version`, which the caller adds)."""
    state = broadcast_output_states(uow, [output], estimates=estimates).get(output.key_hash)
    if state is None:  # the court went with a patch in the same instant: nothing to show
        raise NotFound("No such output.")
    return state


def broadcast_output_states(uow: UnitOfWork, outputs: Sequence[Output], *,
                            estimates: Estimates | None = None) -> dict[str, OutputFeed]:
    """What each of `outputs` (one broadcast's) shows, by key hash, built in one pass: the court outputs of one court
    share its state, so a change costs one build per broadcast, not one per link (§8a). An output whose court is
    gone is left out."""
    courts: dict[tuple[str, int], CourtShown] = {}

    def court(table: Table, count: int) -> CourtShown:
        if (table.id, count) not in courts:
            courts[table.id, count] = _court_state(uow, table, count=count, estimates=estimates)
        return courts[table.id, count]

    states: dict[str, OutputFeed] = {}
    for output in outputs:
        broadcast = uow.broadcasts.get(output.broadcast_id)
        name = broadcast.name if broadcast else ""
        if output.kind == OutputKind.VENUE:
            tables = [t for t in (uow.tables.get(tid) for tid in (broadcast.table_ids if broadcast else [])) if t]
            states[output.key_hash] = {"design": "venue", "kind": OutputKind.VENUE, "broadcast": {"name": name},
                                       "courts": [court(t, UP_NEXT_VENUE) for t in tables]}
            continue
        table = uow.tables.get(output.table_id or "")
        if table is None:
            continue
        shown = court(table, UP_NEXT_COURT)
        states[output.key_hash] = {"design": design_of(output.scoreboard_id), "kind": OutputKind.COURT,
                                   "broadcast": {"name": name}, "court": {"label": shown["label"]},
                                   "match": shown["match"], "upNext": shown["upNext"]}
    return states


def broadcast_outputs(uow: UnitOfWork, *, broadcast_id: str) -> list[Output]:
    """Every output link of a broadcast (for building their states together)."""
    return uow.outputs.find(broadcast_id=broadcast_id)
