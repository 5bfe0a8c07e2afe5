"""The public event page (contract §15): one link and one QR code per broadcast for every player and spectator.

The link is `{root}/event/{key}` (key `evt_` + 43 URL-safe characters, looked up by its SHA-256 and compared in
constant time). It is made on first read, answers only while enabled (disabling and enabling again brings the
same link back), and rotating it kills the old one at once.

`event_snapshot` is everything the page shows, built once per change of the store and shared by every viewer
(§8a): Now (every court, and the draws' matches waiting for a court: §13's pool), the people (for "My matches"),
draws and results. `person_state` is one person's slice of it. Display names, clubs, countries, scores and times
only: no IDs but the page's own `personID`s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.clock import iso
from domain.draws import hooks as draw_hooks
from domain.draws import service as draw_service
from domain.errors import NotFound
from domain.event_day.estimates import Estimator
from domain.event_day.people import person_id
from domain.match import scoring
from domain.match.results import RESULT_MARKS
from domain.models import Broadcast, Link, Match, MatchStatus, Table
from domain.names import name_key
from domain.partner.broadcasts import get_broadcast
from domain.partner.queues import active_match
from domain.plan import live as plan_live
from domain.plan.published import Published
from domain.ports import UnitOfWork
from domain.public import links, outputs

KIND = "event"
PREFIX = "evt"
UP_NEXT = 3  # queued matches shown per court under "Now"
WAITING = 12  # court-pool matches shown under "Now" ("Waiting for a court"), in start-next's order
RESULTS = 200  # newest results the page carries

# Draw reads of a broadcast for the page (contract §13): `broadcast_draws` (tests may pass their own).
DrawReads = Callable[[UnitOfWork, Broadcast], list[dict[str, Any]]]
OrderRead = Callable[[UnitOfWork, Broadcast], Published | None]  # the published order of play (§20)


def broadcast_draws() -> DrawReads:
    """The broadcast's draws as the page shows them (`public_draw`), with each real match's games won."""
    def reads(uow: UnitOfWork, broadcast: Broadcast) -> list[dict[str, Any]]:
        shown = []
        for record in draw_service.list_draws(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id):
            read = draw_service.draw_view(uow, record)
            games: dict[str, tuple[int, int]] = {}
            for match_id in (dm.get("matchID") for r in read["rounds"] for dm in r["drawMatches"]):
                match = uow.matches.get(match_id) if match_id else None
                if match is not None:
                    won = scoring.won(match)
                    games[match.id] = (won["a"], won["b"])
            shown.append(public_draw(read, games))
        return shown

    return reads


# ------------------------------------------------------------------------------------------------ the link
def event_link(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> Link:
    """The broadcast's event-page link, made (disabled) on first read."""
    get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    link = uow.links.get(f"{KIND}:{broadcast_id}")
    if link is None:
        link = links.ensure_link(uow, kind=KIND, prefix=PREFIX, account_id=account_id, target_id=broadcast_id,
                                 now=now)
        link.enabled = False
        uow.links.put(link)
    return link


def set_enabled(uow: UnitOfWork, *, account_id: str, broadcast_id: str, enabled: bool, now: datetime) -> Link:
    """Open or close the page; the link stays the same (a closed page answers 404 at once). Opening an open page
    or closing a closed one changes nothing and writes no entry."""
    link = event_link(uow, account_id=account_id, broadcast_id=broadcast_id, now=now)
    if link.enabled == enabled:
        return link
    before = dataclasses.replace(link)
    link.enabled = enabled
    link = uow.links.put(link)
    audit.record(uow, account_id=account_id, action="link.enabled" if enabled else "link.disabled",
                 target=("link", link.id), before=before, after=link, now=now)
    return link


def enable_event_page(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> Link:
    return set_enabled(uow, account_id=account_id, broadcast_id=broadcast_id, enabled=True, now=now)


def disable_event_page(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> Link:
    return set_enabled(uow, account_id=account_id, broadcast_id=broadcast_id, enabled=False, now=now)


def rotate_event_page(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> Link:
    """A new key; the old link answers 404 at once. Whether the page is open does not change."""
    link = event_link(uow, account_id=account_id, broadcast_id=broadcast_id, now=now)
    return links.rotate_link(uow, link, prefix=PREFIX, now=now)


def broadcast_by_key(uow: UnitOfWork, *, key: str) -> Broadcast:
    """The broadcast an event-page URL names: 404 for an unknown, rotated or disabled link."""
    link = links.link_by_key(uow, key=key, kind=KIND, prefix=PREFIX)
    broadcast = uow.broadcasts.get(link.target_id) if link is not None and link.enabled else None
    if broadcast is None:
        raise NotFound("No such event page.")
    return broadcast


# ------------------------------------------------------------------------------------------------ the snapshot
@dataclass(frozen=True)
class Snapshot:
    """What every viewer of one event page sees (`state`), and each person's slice of it (`people`)."""

    state: dict[str, Any]
    people: dict[str, dict[str, Any]]


def match_card(uow: UnitOfWork, match: Match, table: Table | None, *, estimate: str | None
          ) -> dict[str, Any]:
    """One match as the page shows it (court, sides, games, times); the same shape everywhere on the page."""
    state = outputs.match_state(uow, match)
    # a walkover or retirement (§14) is decided by `winner_side`, not by who leads on games
    decided = scoring.winner(match)
    winner = None if decided is None else str(decided)
    return {
        "court": table.label if table else None,
        "status": match.status,
        "event": match.event_name, "round": match.match_round,
        "sides": [{"names": side["names"], "team": side["team"], "games": side["games"]} for side in state["sides"]],
        "kind": state["kind"], "games": state["games"], "finished": state["finished"],
        "finishedText": state["finishedText"], "scoreText": state["scoreText"],
        "currentGame": state["currentGame"], "currentSet": state["currentSet"],
        "winner": winner if match.status == MatchStatus.COMPLETED else None,
        # "w/o" or "ret." beside the winner's name (issue 35: a walkover looked like a 0-0 result), else None
        "result": RESULT_MARKS.get(match.result_type) if match.result_type else None,
        "estimatedStartOn": estimate, "calledOn": match.called_on if match.status == MatchStatus.PENDING else None,
        "startedOn": match.started_on, "completedOn": match.completed_on,
    }


def _names_of(card: dict[str, Any]) -> Iterable[tuple[int, str, str | None]]:
    for index, side in enumerate(card["sides"]):
        for name in side["names"]:
            if name and name != "TBD":
                yield index, name, side["team"]


def event_snapshot(uow: UnitOfWork, broadcast: Broadcast, *, estimator: Estimator,
                   draws: DrawReads | None = None, order: OrderRead | None = None) -> Snapshot:
    """The page's state (contract §15 feed without `version`, which the caller adds) and each person's matches."""
    courts: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    free_at: dict[str, tuple[datetime, list[Match]]] = {}  # court -> when it is free, its queue (§20 delays)
    made: list[Match] = []  # each card's match
    for table in (t for t in (uow.tables.get(tid) for tid in broadcast.table_ids) if t is not None):
        active = active_match(uow, table.id)
        queue = uow.matches.queue(table.id)
        times = estimator.court(table, active=active, queue=queue)
        starts = times.starts
        now_card = None if active is None else match_card(uow, active, table, estimate=None)
        queued = [match_card(uow, m, table, estimate=iso(starts[m.id]) if m.id in starts else None)
                  for m in queue]
        courts.append({"label": table.label, "match": now_card,
                       "called": [c for c in queued if c["calledOn"]],
                       "upNext": queued[:UP_NEXT]})
        free_at[table.id] = (times.expected_end or estimator.now, queue)
        finished = uow.matches.find(table_id=table.id, status=MatchStatus.COMPLETED)
        done = [match_card(uow, m, table, estimate=None) for m in finished]
        cards += ([now_card] if now_card else []) + queued + done
        made += ([active] if active else []) + queue + finished
    # a draw's matches without a court yet (the court pool) or decided there (a walkover): in "My matches" too
    pool = draw_hooks.pool_matches(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id)
    drawn = [d.id for d in uow.draws.find(account_id=broadcast.account_id, broadcast_id=broadcast.id)]
    decided = sorted(draw_hooks.pool_of_draws(uow, drawn, status=MatchStatus.COMPLETED), key=lambda m: m.seq)
    pool_starts = estimator.pool(broadcast.id, pool, draw_hooks.pool_courts(uow))
    pooled = [match_card(uow, m, None, estimate=pool_starts.get(m.id))
              | {"pool": m.status == MatchStatus.PENDING} for m in [*pool, *decided]]
    waiting = {"matches": pooled[:min(WAITING, len(pool))], "more": max(0, len(pool) - WAITING)}
    cards += pooled
    made += [*pool, *decided]
    published = order(uow, broadcast) if order is not None else None
    if published is not None:  # the order of play (§20): only once published
        for court, table_id in zip(courts, free_at, strict=True):
            moment, queue = free_at[table_id]
            late = plan_live.court_delay(broadcast, table_id, free_at=moment, upcoming=[*queue, *pool])
            court["late"] = plan_live.late_text(court["label"], late)
        for match, card in zip(made, cards, strict=True):
            if match.status == MatchStatus.PENDING and match.id in published.by_match:
                card.update(published.by_match[match.id])
    results = sorted((c for c in cards if c["status"] == MatchStatus.COMPLETED),
                     key=lambda c: c["completedOn"] or "", reverse=True)
    people: dict[str, dict[str, Any]] = {}
    mine: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    # a person is shown as their earliest match spells them, so the name does not change as matches start
    for _, card in sorted(zip((m.seq for m in made), cards, strict=True), key=lambda pair: pair[0]):
        for _side, name, team in _names_of(card):
            pid = person_id(broadcast.id, name)
            people.setdefault(pid, {"personID": pid, "name": name, "club": team})
    for card in cards:
        for side, name, _team in _names_of(card):
            mine.setdefault(person_id(broadcast.id, name), []).append((side, card))
    listed = sorted(people.values(), key=lambda p: (name_key(p["name"]), p["personID"]))
    state = {"event": {"name": broadcast.name}, "courts": courts, "waiting": waiting,
             "draws": draws(uow, broadcast) if draws else [], "results": results[:RESULTS], "people": listed}
    if published is not None:
        state["orderOfPlay"] = published.days
    return Snapshot(state=state, people={pid: _person(people[pid], mine[pid]) for pid in people})


def _person(person: dict[str, Any], matches: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """One person's matches: the one in play, the next (court, estimate, call-up), and results, newest first."""
    def mark(side: int, card: dict[str, Any]) -> dict[str, Any]:
        return card | {"side": "ab"[side]}

    current = [mark(s, c) for s, c in matches if c["status"] == MatchStatus.ACTIVE]
    pending = [mark(s, c) for s, c in matches if c["status"] == MatchStatus.PENDING]
    pending.sort(key=lambda c: (c["calledOn"] is None, c["estimatedStartOn"] or "~"))
    finished = sorted((mark(s, c) for s, c in matches if c["status"] == MatchStatus.COMPLETED),
                      key=lambda c: c["completedOn"] or "", reverse=True)
    return {"person": person, "current": current[0] if current else None,
            "next": pending[0] if pending else None, "upcoming": pending, "finished": finished}


def person_state(snapshot: Snapshot, person: str) -> dict[str, Any]:
    """One person's slice of the snapshot; 404 for a personID the page does not know."""
    found = snapshot.people.get(person)
    if found is None:
        raise NotFound("No such person on this event page.")
    return found


# ------------------------------------------------------------------------------------------------ draws
BRACKETS = (("Main draw", ("main", "final")), ("Third place", ("third_place",)), ("Losers bracket", ("losers",)),
            ("Swiss rounds", ("swiss",)))


def public_draw(read: dict[str, Any], games: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """A draw (the §13 draw read) as the event page shows it: names, scores and placings, no IDs (§15).

    `groups` are the group tables; `brackets` are the knockout stages drawn as brackets (rounds as columns, each
    match pointing at the column and row of the match its winner goes to) and Swiss rounds side by side;
    `games` is each real match's games won (side a, side b), for the score beside each name."""
    names = {entry["id"]: entry["name"] for entry in read["entries"]}
    groups = [{"name": group["name"], "standings": [
        {key: row[key] for key in ("rank", "played", "won", "lost", "gamesWon", "gamesLost")}
        | {"name": names.get(row["entryID"], "")} for row in group["standings"]]} for group in read["groups"]]
    brackets: list[dict[str, Any]] = []
    for title, stages in BRACKETS:
        rounds = [r for r in read["rounds"] if r["stage"] in stages]
        where = {dm["id"]: (ri, mi) for ri, r in enumerate(rounds) for mi, dm in enumerate(r["drawMatches"])}
        if rounds:
            brackets.append({"name": title, "rounds": [
                {"name": r["name"], "matches": [_public_draw_match(dm, names, games, where)
                                                for dm in r["drawMatches"]]} for r in rounds]})
    return {"name": read["name"], "format": read["format"], "status": read["status"], "groups": groups,
            "brackets": brackets,
            "placings": [{"place": p["place"], "name": names.get(p["entryID"], "")} for p in read["placings"]]}


def _public_draw_match(dm: dict[str, Any], names: dict[str, str], games: dict[str, tuple[int, int]],
                       where: dict[str, tuple[int, int]]) -> dict[str, Any]:
    won = games.get(dm.get("matchID") or "")
    target = (dm.get("next") or {}).get("winner")
    return {"status": dm["status"], "group": dm.get("group"), "resultType": dm.get("resultType"),
            "next": list(where[target["drawMatchID"]]) if target and target["drawMatchID"] in where else None,
            "sides": [{"name": names.get(slot["entryID"] or "") or None,
                       "winner": bool(slot["entryID"]) and slot["entryID"] == dm.get("winnerEntryID"),
                       "games": won[index] if won and dm["status"] in ("active", "complete") else None}
                      for index, slot in enumerate(dm["slots"])]}
