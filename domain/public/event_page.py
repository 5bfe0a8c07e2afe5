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
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.draws import pool as draw_pool
from domain.draws import service as draw_service
from domain.draws.labels import PAGE_STAGE_TITLES
from domain.draws.model import DrawMatchStatus, Stage
from domain.draws.read import DrawMatchRead, DrawRead, playoff_brackets
from domain.draws.standings import Placed, rule_words, tie_notes
from domain.errors import NotFound
from domain.event_day.estimates import Estimator
from domain.event_day.people import person_id
from domain.match import formats, scoring
from domain.match.results import RESULT_MARKS
from domain.models import Broadcast, Link, LinkKind, Match, MatchStatus, Table
from domain.names import name_key
from domain.partner.broadcasts import get_broadcast
from domain.partner.queues import active_match
from domain.plan import live as plan_live
from domain.plan.published import Planned, Published
from domain.ports import UnitOfWork
from domain.public import links, outputs
from domain.public.feeds import (
    BracketShown,
    CardSide,
    CourtNowFeed,
    DrawGroupShown,
    DrawMatchShown,
    DrawShown,
    EventFeed,
    MatchCardFeed,
    PagePerson,
    PersonFeed,
    PlacingShown,
)

KIND = LinkKind.EVENT
PREFIX = "evt"
UP_NEXT = 3  # queued matches shown per court under "Now"
WAITING = 12  # court-pool matches shown under "Now" ("Waiting for a court"), in start-next's order
RESULTS = 200  # newest results the page carries

# Draw reads of a broadcast for the page (contract §13): `broadcast_draws` (tests may pass their own).
DrawReads = Callable[[UnitOfWork, Broadcast], list[DrawShown]]
OrderRead = Callable[[UnitOfWork, Broadcast], Published | None]  # the published order of play (§20)


def broadcast_draws() -> DrawReads:
    """The broadcast's draws as the page shows them (`public_draw`), with each real match's games won."""
    def reads(uow: UnitOfWork, broadcast: Broadcast) -> list[DrawShown]:
        shown = []
        for record in draw_service.list_draws(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id):
            read = draw_service.read_draw(uow, record)
            games: dict[str, tuple[int, int]] = {}
            kinds: set[str] = set()
            for match_id in read.match_ids():
                match = uow.matches.get(match_id)
                if match is not None:
                    won = scoring.won(match)
                    games[match.id] = (won["a"], won["b"])
                    kinds.add(formats.unit(scoring.format_of(match)))
            own = read.scoring or {}
            sets = "sets" in kinds or own.get("kind") == "sets"
            shown.append(public_draw(read, games, unit="Sets" if sets else "Games"))
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
    audit.record(uow, account_id=account_id, action=AuditAction.LINK_ENABLED if enabled else AuditAction.LINK_DISABLED,
                 target=(TargetType.LINK, link.id), before=before, after=link, now=now)
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
    """What every viewer of one event page sees (`state`), and each person's slice of it (`people`): the typed
    reads below, serialised once when the snapshot is built (`event_json`, `person_json`)."""

    state: EventFeed
    people: dict[str, PersonFeed]


@dataclass(frozen=True)
class MatchCard:
    """One match as the page shows it (court, sides, games, times); the same card everywhere on the page.
    `pool` is set on the court pool's cards (whether it still waits for a court); `seq` orders by creation."""

    seq: int
    court: str | None
    status: MatchStatus
    event: str | None
    round: str | None
    sides: tuple[CardSide, ...]
    kind: str
    games: list[dict[str, Any]]
    finished: list[dict[str, Any]]
    finished_text: str
    score_text: str
    current_game: dict[str, Any] | None
    current_set: dict[str, int] | None
    winner: str | None
    result: str | None
    estimated_start_on: str | None
    called_on: str | None
    started_on: str | None
    completed_on: str | None
    pool: bool | None = None
    plan: Planned | None = None  # its published planned time and court (§20), while it is pending


def card_json(card: MatchCard, *, side: str | None = None) -> MatchCardFeed:
    """The one serialisation of a card (§15), with the person's `side` on their own cards."""
    shown: MatchCardFeed = {
        "court": card.court, "status": card.status, "event": card.event, "round": card.round,
        "sides": list(card.sides),
        "kind": card.kind, "games": card.games, "finished": card.finished,
        "finishedText": card.finished_text, "scoreText": card.score_text,
        "currentGame": card.current_game, "currentSet": card.current_set,
        "winner": card.winner, "result": card.result,
        "estimatedStartOn": card.estimated_start_on, "calledOn": card.called_on,
        "startedOn": card.started_on, "completedOn": card.completed_on,
    }
    if card.pool is not None:
        shown["pool"] = card.pool
    if card.plan is not None:
        shown["plannedOn"] = card.plan.planned_on
        shown["plannedCourt"] = card.plan.court
        shown["timeChanged"] = card.plan.time_changed
    if side is not None:
        shown["side"] = side
    return shown


def card_of(uow: UnitOfWork, match: Match, table: Table | None, *, estimate: str | None,
            pool: bool | None = None, plan: Planned | None = None) -> MatchCard:
    """The card of a match, built once from its public state (`outputs.match_state`)."""
    state = outputs.match_state(uow, match)
    # a walkover or retirement (§14) is decided by `winner_side`, not by who leads on games
    decided = scoring.winner(match)
    winner = None if decided is None else str(decided)
    return MatchCard(
        seq=match.seq, court=table.label if table else None, status=match.status, event=match.event_name,
        round=match.match_round,
        sides=tuple(CardSide(names=side["names"], team=side["team"], games=side["games"]) for side in state["sides"]),
        kind=state["kind"], games=state["games"], finished=state["finished"], finished_text=state["finishedText"],
        score_text=state["scoreText"], current_game=state["currentGame"], current_set=state["currentSet"],
        winner=winner if match.status == MatchStatus.COMPLETED else None,
        # "w/o" or "ret." beside the winner's name (issue 35: a walkover looked like a 0-0 result), else None
        result=RESULT_MARKS.get(match.result_type) if match.result_type else None,
        estimated_start_on=estimate, called_on=match.called_on if match.status == MatchStatus.PENDING else None,
        started_on=match.started_on, completed_on=match.completed_on, pool=pool, plan=plan,
    )


def match_card(uow: UnitOfWork, match: Match, table: Table | None, *, estimate: str | None,
               plan: Planned | None = None) -> MatchCardFeed:
    """One match as the page shows it, serialised (the personal page's cards are the event page's), with its
    published planned time and court while it is pending."""
    return card_json(card_of(uow, match, table, estimate=estimate,
                             plan=plan if match.status == MatchStatus.PENDING else None))


@dataclass(frozen=True)
class CourtNow:
    """A court under "Now": the match in play, the matches called to it, the next ones."""

    label: str
    match: MatchCard | None
    called: tuple[MatchCard, ...]
    up_next: tuple[MatchCard, ...]
    late: str | None = None  # "Court 3: 25 min late" against the published plan (§20)


@dataclass(frozen=True)
class PageState:
    """Everything the page shows, typed; `event_json` is its one serialisation."""

    name: str
    courts: tuple[CourtNow, ...]
    waiting: tuple[MatchCard, ...]
    more_waiting: int
    draws: list[DrawShown]
    results: tuple[MatchCard, ...]
    people: tuple[PagePerson, ...]
    order_of_play: list[dict[str, Any]] | None = None  # the published order of play (§20); None: not published


def event_json(state: PageState) -> EventFeed:
    """The page's state as `/event/{key}/state` serves it (contract §15, without `version`)."""
    published = state.order_of_play is not None
    courts: list[CourtNowFeed] = []
    for court in state.courts:
        shown: CourtNowFeed = {
            "label": court.label, "match": None if court.match is None else card_json(court.match),
            "called": [card_json(c) for c in court.called], "upNext": [card_json(c) for c in court.up_next]}
        if published:
            shown["late"] = court.late
        courts.append(shown)
    feed: EventFeed = {
        "event": {"name": state.name}, "courts": courts,
        "waiting": {"matches": [card_json(c) for c in state.waiting], "more": state.more_waiting},
        "draws": state.draws, "results": [card_json(c) for c in state.results], "people": list(state.people)}
    if state.order_of_play is not None:  # only once published
        feed["orderOfPlay"] = state.order_of_play
    return feed


def _names_of(card: MatchCard) -> Iterable[tuple[int, str, str | None]]:
    for index, side in enumerate(card.sides):
        for name in side["names"]:
            if name and name != "TBD":
                yield index, name, side["team"]


def event_snapshot(uow: UnitOfWork, broadcast: Broadcast, *, estimator: Estimator,
                   draws: DrawReads | None = None, order: OrderRead | None = None) -> Snapshot:
    """The page's state (contract §15 feed without `version`, which the caller adds) and each person's matches."""
    courts: list[CourtNow] = []
    cards: list[MatchCard] = []
    free_at: dict[str, tuple[datetime | None, list[Match]]] = {}  # court -> when it is free, its queue (§20 delays)
    published = order(uow, broadcast) if order is not None else None  # the order of play (§20), once published
    plans = published.by_match if published is not None else {}

    def card_for(match: Match, table: Table | None, *, estimate: str | None, pool: bool | None = None) -> MatchCard:
        planned = plans.get(match.id) if match.status == MatchStatus.PENDING else None
        return card_of(uow, match, table, estimate=estimate, pool=pool, plan=planned)

    for table in (t for t in (uow.tables.get(tid) for tid in broadcast.table_ids) if t is not None):
        active = active_match(uow, table.id)
        queue = uow.matches.queue(table.id)
        times = estimator.court(table, active=active, queue=queue)
        starts = times.starts
        now_card = None if active is None else card_for(active, table, estimate=None)
        queued = [card_for(m, table, estimate=iso(starts[m.id]) if m.id in starts else None) for m in queue]
        courts.append(CourtNow(label=table.label, match=now_card, called=tuple(c for c in queued if c.called_on),
                               up_next=tuple(queued[:UP_NEXT])))
        free_at[table.id] = (times.expected_end, queue)  # None: nothing in play
        finished = uow.matches.find(table_id=table.id, status=MatchStatus.COMPLETED)
        done = [card_for(m, table, estimate=None) for m in finished]
        cards += ([now_card] if now_card else []) + queued + done
    # a draw's matches without a court yet (the court pool) or decided there (a walkover): in "My matches" too
    pool = draw_pool.pool_matches(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id)
    drawn = [d.id for d in uow.draws.find(account_id=broadcast.account_id, broadcast_id=broadcast.id)]
    decided = sorted(draw_pool.pool_of_draws(uow, drawn, status=MatchStatus.COMPLETED), key=lambda m: m.seq)
    pool_starts = estimator.pool(broadcast.id, pool, draw_pool.pool_courts(uow), draw_pool.held_back(uow, pool))
    pooled = [card_for(m, None, estimate=pool_starts.get(m.id), pool=m.status == MatchStatus.PENDING)
              for m in [*pool, *decided]]
    cards += pooled
    if published is not None:  # each court's delay against the published plan (§20)
        courts = [dataclasses.replace(court, late=plan_live.late_text(court.label, plan_live.court_delay(
            broadcast, table_id, free_at=free_at[table_id][0], upcoming=[*free_at[table_id][1], *pool])))
            for court, table_id in zip(courts, free_at, strict=True)]
    results = sorted((c for c in cards if c.status == MatchStatus.COMPLETED),
                     key=lambda c: c.completed_on or "", reverse=True)
    people: dict[str, PagePerson] = {}
    mine: dict[str, list[tuple[int, MatchCard]]] = {}
    # a person is shown as their earliest match spells them, so the name does not change as matches start
    for card in sorted(cards, key=lambda c: c.seq):
        for _side, name, team in _names_of(card):
            pid = person_id(broadcast.id, name)
            people.setdefault(pid, {"personID": pid, "name": name, "club": team})
    for card in cards:
        for side, name, _team in _names_of(card):
            mine.setdefault(person_id(broadcast.id, name), []).append((side, card))
    listed = sorted(people.values(), key=lambda p: (name_key(p["name"]), p["personID"]))
    state = PageState(name=broadcast.name, courts=tuple(courts), waiting=tuple(pooled[:min(WAITING, len(pool))]),
                      more_waiting=max(0, len(pool) - WAITING), draws=draws(uow, broadcast) if draws else [],
                      results=tuple(results[:RESULTS]), people=tuple(listed),
                      order_of_play=published.days if published is not None else None)
    return Snapshot(state=event_json(state), people={pid: person_json(people[pid], mine[pid]) for pid in people})


def person_json(person: PagePerson, matches: list[tuple[int, MatchCard]]) -> PersonFeed:
    """One person's matches: the one in play, the next (court, estimate, call-up), and results, newest first."""
    current = [(s, c) for s, c in matches if c.status == MatchStatus.ACTIVE]
    pending = [(s, c) for s, c in matches if c.status == MatchStatus.PENDING]
    pending.sort(key=lambda sc: (sc[1].called_on is None, sc[1].estimated_start_on or "~"))
    finished = sorted(((s, c) for s, c in matches if c.status == MatchStatus.COMPLETED),
                      key=lambda sc: sc[1].completed_on or "", reverse=True)
    upcoming = [card_json(c, side="ab"[s]) for s, c in pending]
    return {"person": person, "current": card_json(current[0][1], side="ab"[current[0][0]]) if current else None,
            "next": upcoming[0] if upcoming else None, "upcoming": upcoming,
            "finished": [card_json(c, side="ab"[s]) for s, c in finished]}


def person_state(snapshot: Snapshot, person: str) -> PersonFeed:
    """One person's slice of the snapshot; 404 for a personID the page does not know."""
    found = snapshot.people.get(person)
    if found is None:
        raise NotFound("No such person on this event page.")
    return found


# ------------------------------------------------------------------------------------------------ draws
BRACKETS = ((Stage.MAIN, Stage.FINAL), (Stage.THIRD_PLACE,), (Stage.LOSERS,), (Stage.CONSOLATION,), (Stage.SWISS,))


def public_draw(read: DrawRead, games: dict[str, tuple[int, int]], *, unit: str = "Games") -> DrawShown:
    """A draw (the §13 draw read) as the event page shows it: names, scores and placings, no IDs (§15).

    `groups` are the group tables; `brackets` are the knockout stages drawn as brackets (rounds as columns, each
    match pointing at the column and row of the match its winner goes to), the consolation (§22), each play-off
    sub-bracket titled by its places (`Places 5-8`, §22, `playoff_brackets`) and Swiss rounds side by side; `games`
    is each real match's games won (side a, side b), for the score beside each name. A placing of the consolation's
    winner says `stage: consolation` (not a second place 1). `unit`: what a standing's `gamesWon` counts, "Sets"
    in a sets format (tennis, padel), else "Games" (issue 51)."""
    names = read.names()
    groups: list[DrawGroupShown] = [{"name": group.name, "standings": [
        {"rank": row.rank, "played": row.played, "won": row.won, "lost": row.lost, "gamesWon": row.games_won,
         "gamesLost": row.games_lost, "name": names.get(row.entry_id, "")} for row in group.standings],
        "tiebreaks": tie_notes([Placed(name=names.get(row.entry_id, ""), rank=row.rank, played=row.played,
                                       decided_by=row.decided_by) for row in group.standings])}
        for group in read.groups]
    sets = [(PAGE_STAGE_TITLES[stages[0]], [r for r in read.rounds if r.stage in stages]) for stages in BRACKETS]
    sets[1:1] = [(group[0].name, group) for group in playoff_brackets(read)]
    brackets: list[BracketShown] = []
    for title, rounds in sets:
        where = {dm.id: (ri, mi) for ri, r in enumerate(rounds) for mi, dm in enumerate(r.draw_matches)}
        if rounds:
            brackets.append({"name": title, "rounds": [
                {"name": r.name, "matches": [_public_draw_match(dm, names, games, where)
                                             for dm in r.draw_matches]} for r in rounds]})
    placings: list[PlacingShown] = []
    for placing in read.placings:
        shown: PlacingShown = {"place": placing.place, "name": names.get(placing.entry_id, "")}
        if placing.stage:
            shown["stage"] = str(placing.stage)
        placings.append(shown)
    return {"name": read.name, "format": read.format, "status": read.status, "groups": groups,
            "tiebreak": rule_words(read.tiebreak) if groups else None, "standingUnit": unit, "brackets": brackets,
            "placings": placings}


def _public_draw_match(dm: DrawMatchRead, names: dict[str, str], games: dict[str, tuple[int, int]],
                       where: dict[str, tuple[int, int]]) -> DrawMatchShown:
    won = games.get(dm.match_id or "")
    target = dm.next_winner
    played = dm.status in (DrawMatchStatus.ACTIVE, DrawMatchStatus.COMPLETE)
    return {"status": str(dm.status), "group": dm.group,
            "resultType": None if dm.result_type is None else str(dm.result_type),
            "next": list(where[target.draw_match_id]) if target and target.draw_match_id in where else None,
            "sides": [{"name": names.get(slot.entry_id or "") or None,
                       "winner": bool(slot.entry_id) and slot.entry_id == dm.winner_entry_id,
                       "games": won[index] if won and played else None}
                      for index, slot in enumerate(dm.slots)]}
