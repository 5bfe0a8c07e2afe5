"""Players' own links (contract §21): one personal link per person of a broadcast, and what it shows and does.

The link is `{root}/me/{key}` (key `ply_` + 43 URL-safe characters, found by its SHA-256 and compared in constant
time, like every public link of `domain.public.links`). Its target is `{broadcastID}/{personID}`: a person is §14's
person (one per display name, `domain.event_day.people.person_id`), so the link follows the person whichever match names
them. Made on first read; rotating it kills the old URL at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.draws import pool as draw_pool
from domain.errors import Conflict, NotFound
from domain.event_day.estimates import Estimator
from domain.event_day.people import CheckIn, PersonRowFeed, broadcast_people, check_in
from domain.event_day.people import person_id as person_id_of
from domain.ids import new_id
from domain.match import formats, operations, scoring
from domain.match.formats import copy_item
from domain.match.matches import Rules
from domain.match.reports import OPEN, audited, report_view
from domain.match.results_entry import ResultEntry, enter_result
from domain.models import Broadcast, Link, LinkKind, Match, MatchStatus, PlayerReport, ReportStatus, Table
from domain.partner.broadcasts import get_broadcast
from domain.partner.queues import active_match
from domain.ports import UnitOfWork
from domain.public import links, paper
from domain.public.event_page import OrderRead, match_card
from domain.public.feeds import CalledShown, PersonalCard, PersonalFeed, ReportShown

KIND = LinkKind.PERSONAL
PREFIX = "ply"


def _target(broadcast_id: str, person_id: str) -> str:
    return f"{broadcast_id}/{person_id}"


def person_row(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, now: datetime,
               view: BroadcastView | None = None) -> PersonRowFeed:
    """The person's §14 row (from `view` when given); 404 for a person the broadcast does not have."""
    if view is not None:
        found = view.people.get(person_id)
    else:
        rows = broadcast_people(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id, now=now)
        found = next((row for row in rows if row["personID"] == person_id), None)
    if found is None:
        raise NotFound(f"No person '{person_id}' in this broadcast.")
    return found


def personal_link(uow: UnitOfWork, *, account_id: str, broadcast_id: str, person_id: str, now: datetime) -> Link:
    """The person's link, made on first read; 404 for an unknown broadcast or person."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    link = uow.links.get(f"{KIND}:{_target(broadcast_id, person_id)}")
    if link is None:
        person_row(uow, broadcast, person_id, now=now)
        link = links.ensure_link(uow, kind=KIND, prefix=PREFIX, account_id=account_id,
                                 target_id=_target(broadcast_id, person_id), now=now)
    return link


def rotate_personal_link(uow: UnitOfWork, *, account_id: str, broadcast_id: str, person_id: str,
                         now: datetime) -> Link:
    """A new key for the person's link; the old URL answers 404 at once."""
    link = personal_link(uow, account_id=account_id, broadcast_id=broadcast_id, person_id=person_id, now=now)
    return links.rotate_link(uow, link, prefix=PREFIX, now=now)


def link_person(link: Link) -> str:
    """The personID a personal link is for."""
    return link.target_id.split("/", 1)[1]


def personal_view(link: Link, *, root: str) -> dict[str, Any]:
    """Operator read of a personal link (§21): whose, its URL, when it was made."""
    return {"personID": link_person(link), "url": f"{root.rstrip('/')}/me/{link.key}", "createdOn": link.created_on}


def person_by_key(uow: UnitOfWork, *, key: str) -> tuple[Broadcast, str]:
    """The broadcast and personID a personal URL names: 404 alike for an unknown or rotated key, or a deleted
    broadcast."""
    link = links.link_by_key(uow, key=key, kind=KIND, prefix=PREFIX)
    broadcast = uow.broadcasts.get(link.target_id.split("/", 1)[0]) if link is not None else None
    if link is None or broadcast is None or broadcast.account_id != link.account_id:
        raise NotFound("No such page.")
    return broadcast, link_person(link)


# ------------------------------------------------------------------------------------------------ the page's state
def _matches(uow: UnitOfWork, broadcast: Broadcast, estimator: Estimator
             ) -> Iterator[tuple[Match, Table | None, str | None]]:
    """Every match of the broadcast with its court and estimated start: each court's match in play, queue and
    finished ones, then the draws' court pool and the matches decided there (as the event page walks them)."""
    for table in (t for t in (uow.tables.get(tid) for tid in broadcast.table_ids) if t is not None):
        active = active_match(uow, table.id)
        queue = uow.matches.queue(table.id)
        starts = estimator.court(table, active=active, queue=queue).starts
        if active is not None:
            yield active, table, None
        for match in queue:
            yield match, table, iso(starts[match.id]) if match.id in starts else None
        for match in uow.matches.find(table_id=table.id, status=MatchStatus.COMPLETED):
            yield match, table, None
    pool = draw_pool.pool_matches(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id)
    drawn = [d.id for d in uow.draws.find(account_id=broadcast.account_id, broadcast_id=broadcast.id)]
    decided = sorted(draw_pool.pool_of_draws(uow, drawn, status=MatchStatus.COMPLETED), key=lambda m: m.seq)
    pool_starts = estimator.pool(broadcast.id, pool, draw_pool.pool_courts(uow), draw_pool.held_back(uow, pool))
    for match in pool:
        yield match, None, pool_starts.get(match.id)
    for match in decided:
        yield match, None, None


@dataclass(frozen=True)
class Carded:
    """A match of the broadcast with its §15 card and the personIDs of each side."""

    match: Match
    card: PersonalCard
    sides: tuple[frozenset[str], frozenset[str]]
    planned_on: str | None = None  # its published planned time (§20), while pending; else its own not-before


@dataclass(frozen=True)
class BroadcastView:
    """What every personal page of a broadcast reads: §14's people by personID and every match with its card.
    Built once per store version and shared by all the broadcast's pages (each then picks its own), instead of
    once per person: 300 open pages cost one walk of the broadcast after a write, not 300."""

    people: dict[str, PersonRowFeed]
    matches: list[Carded]


def broadcast_view(uow: UnitOfWork, broadcast: Broadcast, *, estimator: Estimator, now: datetime,
                   order: OrderRead | None = None) -> BroadcastView:
    """The broadcast's people and cards, read in `uow`; `order` reads the published order of play (§20), whose
    planned court and time the cards of pending matches carry."""
    rows = broadcast_people(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id, now=now)
    return BroadcastView({row["personID"]: row for row in rows}, _carded(uow, broadcast, estimator, order))


def _carded(uow: UnitOfWork, broadcast: Broadcast, estimator: Estimator,
            order: OrderRead | None = None) -> list[Carded]:
    """Every match of the broadcast with its card and each side's personIDs."""
    carded = []
    published = order(uow, broadcast) if order is not None else None
    plans = published.by_match if published is not None else {}
    for match, table, estimate in _matches(uow, broadcast, estimator):
        card: PersonalCard = {**match_card(uow, match, table, estimate=estimate, plan=plans.get(match.id)),
                              "matchID": match.id, "bestOf": scoring.format_of(match).best_of}
        sides = [frozenset(person_id_of(broadcast.id, name) for name in side["names"] if name)
                 for side in card["sides"]] + [frozenset(), frozenset()]
        plan = plans.get(match.id) if match.status == MatchStatus.PENDING else None
        carded.append(Carded(match, card, (sides[0], sides[1]),
                             plan.planned_on if plan is not None else match.not_before))
    return carded


def person_matches(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, estimator: Estimator,
                   view: BroadcastView | None = None) -> list[tuple[Match, PersonalCard]]:
    """The person's matches with their cards (§15's card plus `matchID`, `side`, `plannedOn` and `bestOf`: the most
    games or sets the match has, the rows of the page's report form)."""
    found = []
    for item in view.matches if view is not None else _carded(uow, broadcast, estimator):
        side = "a" if person_id in item.sides[0] else "b" if person_id in item.sides[1] else None
        if side is not None:
            mine: PersonalCard = {**item.card, "side": side, "plannedOn": item.planned_on}
            found.append((item.match, mine))
    return found


def personal_state(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, estimator: Estimator, now: datetime,
                   view: BroadcastView | None = None, order: OrderRead | None = None) -> PersonalFeed:
    """The personal page's state (§21, without `version`, which the caller adds): the person, the match they are
    called to, the one in play, the next ones and their results; the event's switches. `view`: the broadcast's,
    when the caller keeps one (else read here)."""
    if view is None:
        view = broadcast_view(uow, broadcast, estimator=estimator, now=now, order=order)
    row = person_row(uow, broadcast, person_id, now=now, view=view)
    cards = [card for _, card in person_matches(uow, broadcast, person_id, estimator=estimator, view=view)]
    pending = sorted((c for c in cards if c["status"] == MatchStatus.PENDING),
                     key=lambda c: (c["calledOn"] is None, c["calledOn"] or "", c["estimatedStartOn"] or "~"))
    current = next((c for c in cards if c["status"] == MatchStatus.ACTIVE), None)
    results = sorted((c for c in cards if c["status"] == MatchStatus.COMPLETED),
                     key=lambda c: c["completedOn"] or "", reverse=True)
    called = next((c for c in pending if c["calledOn"]), None)
    banner: CalledShown | None = None
    if called is not None and called["calledOn"]:
        banner = {"matchID": called["matchID"], "court": called["court"], "calledOn": called["calledOn"]}
    return {
        "event": {"name": broadcast.name},
        "person": {"name": row["name"], "club": row["club"], "checkedIn": row["checkedIn"]},
        "called": banner,
        "current": current, "next": pending, "results": results,
        "reports": reports_of(uow, broadcast, {c["matchID"] for c in cards}, person_id),
        "selfCheckIn": broadcast.self_check_in, "selfReport": broadcast.self_report,
    }


# ------------------------------------------------------------------------------------------------ acting
def self_check_in(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, now: datetime) -> None:
    """Check the person in through their own link (§21): `409 self_check_in_off` unless the broadcast allows it.
    Audited as §14's check-in, by the unit of work's actor (the `player`)."""
    if not broadcast.self_check_in:
        raise Conflict("Self check-in is off for this event; check in at the desk.", code="self_check_in_off")
    check_in(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id, person=person_id,
             check=CheckIn(present=True), now=now)


# ------------------------------------------------------------------------------------------------ reports
# A report is a record of its own (`PlayerReport`, table `player_reports`): writing one never rewrites the broadcast.


@dataclass(frozen=True)
class Report:
    """`POST /me/{key}/matches/{matchID}/report`: the games as the player saw them."""

    game_scores: list[dict[str, Any]]
    op_id: str | None = None


def report_shown(report: PlayerReport, *, person_id: str) -> ReportShown:
    """A report on a personal page: `mine` says whether this person made it."""
    return {"reportID": report.id, "matchID": report.match_id, "gameScores": report.games,
            "reportedBy": report.reported_by, "status": report.status, "reportedOn": report.reported_on,
            "mine": report.reported_by == person_id}


def _broadcast_reports(uow: UnitOfWork, broadcast_id: str) -> list[PlayerReport]:
    """The broadcast's reports, oldest first."""
    return uow.player_reports.find(broadcast_id=broadcast_id)


def reports_of(uow: UnitOfWork, broadcast: Broadcast, match_ids: set[str], person_id: str) -> list[ReportShown]:
    """The reports on these matches, newest first, as the person's page shows them."""
    found = [r for match_id in match_ids for r in uow.player_reports.find(match_id=match_id)
             if r.broadcast_id == broadcast.id]
    found.sort(key=lambda r: r.seq, reverse=True)
    return [report_shown(r, person_id=person_id) for r in found]


def _own_match(uow: UnitOfWork, broadcast: Broadcast, person_id: str, match_id: str,
               estimator: Estimator) -> tuple[Match, PersonalCard]:
    for match, card in person_matches(uow, broadcast, person_id, estimator=estimator):
        if match.id == match_id:
            return match, card
    raise NotFound("No such match of yours.")


def _open_report(uow: UnitOfWork, broadcast: Broadcast, match_id: str) -> PlayerReport | None:
    """The match's report still to settle (waiting or disputed), the newest."""
    kept = [r for r in uow.player_reports.find(match_id=match_id) if r.broadcast_id == broadcast.id]
    return next((r for r in reversed(kept) if r.status in OPEN), None)


def _record(uow: UnitOfWork, broadcast: Broadcast, report: PlayerReport, *, games: list[dict[str, Any]],
            settled_by: str, now: datetime, rules: Rules) -> None:
    """Record the report's games (or the desk's) as §19's result, and mark it confirmed; audited with both
    persons (`report.confirmed`), beside §19's `match.result_entered`."""
    before = audited(report)
    reason = f"Reported by {report.reported_by}, confirmed by {settled_by}."
    enter_result(uow, account_id=broadcast.account_id, match_id=report.match_id,
                 entry=ResultEntry(game_scores=games, reason=reason), now=now, rules=rules)
    report.status, report.settled_by, report.games = ReportStatus.CONFIRMED, settled_by, games
    uow.player_reports.put(report)
    audit.record(uow, account_id=broadcast.account_id, action=AuditAction.REPORT_CONFIRMED,
                 target=(TargetType.MATCH, report.match_id), before=before, after=audited(report), now=now)


def _check_games(match: Match, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A reported result as the match keeps it: a match tiebreak given as its points (the phone's set rows take
    "10 | 7") is the set 1-0 with those points, as a desk's "10-7" is (`formats.as_written`, issue 51)."""
    kept = formats.as_written(scoring.format_of(match), [copy_item(g) for g in games])
    scoring.check(match, kept, final=True)
    return kept


def check_reportable(uow: UnitOfWork, match: Match) -> None:
    """§21's one rule for what a player may report: their match in play, a pending one first in its court's
    queue, or one they were called to. A completed match is `409 match_locked`; any other (in the draws' court
    pool, queued behind another, not called) is `409 match_not_active`: it has not been played yet. (A cancelled
    match no longer exists: the caller's lookup answers 404 for it.)"""
    if match.status == MatchStatus.COMPLETED:
        raise Conflict("This match already has its result.", code="match_locked")
    if match.status == MatchStatus.ACTIVE or match.called_on:
        return
    first = uow.matches.queue(match.table_id, stop=1) if match.table_id else []
    if not (first and first[0].id == match.id):
        raise Conflict("This match is not being played yet: report it once it is on court or you are called to "
                       "it.", code="match_not_active")


def report_result(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, match_id: str, report: Report,
                  estimator: Estimator, now: datetime, rules: Rules) -> None:
    """A player reports the games of their own match as `check_reportable` allows: `409 self_report_off`,
    `match_locked`, `match_not_active`; 404 for someone else's match. The same games as the opponent's waiting
    report confirm it (the result is recorded); different ones dispute both."""
    if not broadcast.self_report:
        raise Conflict("Reporting results is off for this event; hand your score in at the desk.",
                       code="self_report_off")
    scope = f"report:{broadcast.id}/{person_id}/{match_id}"
    if report.op_id is not None and operations.recall(uow, account_id=broadcast.account_id, scope=scope,
                                                      op_id=report.op_id, now=now) is not None:
        return  # a retry of a report made: nothing changes, the page's state answers
    match, card = _own_match(uow, broadcast, person_id, match_id, estimator)
    check_reportable(uow, match)
    if report.op_id is not None:
        operations.remember(uow, account_id=broadcast.account_id, scope=scope, op_id=report.op_id, now=now,
                            answer={})
    games = _check_games(match, report.game_scores)
    found = _open_report(uow, broadcast, match_id)
    side = card["side"]
    if found is not None and found.reported_by != person_id and found.side != side:
        if found.games == games:
            _record(uow, broadcast, found, games=games, settled_by=person_id, now=now, rules=rules)
            return
        before = audited(found)
        found.status = ReportStatus.DISPUTED
        uow.player_reports.put(found)
        audit.record(uow, account_id=broadcast.account_id, action=AuditAction.REPORT_DISPUTED,
                     target=(TargetType.MATCH, match_id), before=before, after=audited(found), now=now)
        status = ReportStatus.DISPUTED
    elif found is not None and found.status == ReportStatus.WAITING:  # theirs (or their partner's) again: newer stands
        uow.player_reports.delete(found.id)
        status = ReportStatus.WAITING
    else:
        disputed = found is not None and found.status == ReportStatus.DISPUTED
        status = ReportStatus.DISPUTED if disputed else ReportStatus.WAITING
    made = uow.player_reports.put(PlayerReport(
        id=new_id("rpt"), account_id=broadcast.account_id, broadcast_id=broadcast.id, match_id=match_id,
        games=games, reported_by=person_id, side=side, status=status, reported_on=iso(now)))
    audit.record(uow, account_id=broadcast.account_id, action=AuditAction.REPORT_SUBMITTED,
                 target=(TargetType.MATCH, match_id), after=audited(made), now=now)


def _report_for(uow: UnitOfWork, broadcast: Broadcast, report_id: str) -> PlayerReport:
    found = uow.player_reports.get(report_id)
    if found is None or found.broadcast_id != broadcast.id:
        raise NotFound("No such report.")
    return found


def _refuse_cancelled(report: PlayerReport) -> None:
    """`409 match_cancelled`: the report's match was cancelled, there is no result to record or dispute."""
    if report.status == ReportStatus.CANCELLED:
        raise Conflict("This report's match was cancelled; there is no result to record.", code="match_cancelled")


def settle_report(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, report_id: str, confirm: bool,
                  estimator: Estimator, now: datetime, rules: Rules) -> None:
    """The opponent confirms a waiting report (the result is recorded, §19) or disputes it. 404 for a report on
    someone else's match; `409 report_own` for the reporter's own; `409 report_settled` once confirmed;
    `409 match_locked` once the match is completed otherwise (nothing is written to its history);
    `409 match_cancelled` once it is cancelled."""
    if not broadcast.self_report:
        raise Conflict("Reporting results is off for this event.", code="self_report_off")
    report = _report_for(uow, broadcast, report_id)
    _refuse_cancelled(report)
    match, card = _own_match(uow, broadcast, person_id, report.match_id, estimator)
    if report.reported_by == person_id or report.side == card["side"]:
        raise Conflict("Your opponent confirms your report, not you.", code="report_own")
    if report.status == ReportStatus.CONFIRMED:
        raise Conflict("This report is already confirmed.", code="report_settled")
    if match.status == MatchStatus.COMPLETED:
        raise Conflict("This match already has its result; the desk corrects it.", code="match_locked")
    if confirm:
        _record(uow, broadcast, report, games=report.games, settled_by=person_id, now=now, rules=rules)
        return
    if report.status == ReportStatus.DISPUTED:
        return
    before = audited(report)
    report.status, report.settled_by = ReportStatus.DISPUTED, person_id
    uow.player_reports.put(report)
    audit.record(uow, account_id=broadcast.account_id, action=AuditAction.REPORT_DISPUTED,
                 target=(TargetType.MATCH, report.match_id), before=before, after=audited(report), now=now)


def desk_reports(uow: UnitOfWork, *, account_id: str, broadcast_id: str, status: ReportStatus | None
                 ) -> list[dict[str, Any]]:
    """The broadcast's reports for the desk (the board's "Results to check"), newest first."""
    get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    return [report_view(r) for r in reversed(_broadcast_reports(uow, broadcast_id))
            if status is None or r.status == status]


@dataclass(frozen=True)
class Acceptance:
    """`POST /operator/reports/{id}/accept`: the report's games, or the desk's own."""

    game_scores: list[dict[str, Any]] | None = None


def accept_report(uow: UnitOfWork, *, account_id: str, report_id: str, acceptance: Acceptance, now: datetime,
                  rules: Rules) -> dict[str, Any]:
    """The desk records a report (or its own games for it) as §19's result; the report, confirmed. `409
    report_settled` once confirmed, `match_cancelled` when its match was cancelled, `match_locked` when it was
    completed otherwise."""
    found = uow.player_reports.get(report_id)
    broadcast = uow.broadcasts.get(found.broadcast_id) if found is not None else None
    if found is None or found.account_id != account_id or broadcast is None:
        raise NotFound(f"No report '{report_id}'.")
    if found.status == ReportStatus.CONFIRMED:
        raise Conflict("This report is already confirmed.", code="report_settled")
    _refuse_cancelled(found)
    match = uow.matches.get(found.match_id)
    if match is None:  # gone without its reports being cancelled (reports made before issue 47)
        raise Conflict("This report's match was cancelled; there is no result to record.", code="match_cancelled")
    games = found.games if acceptance.game_scores is None else _check_games(match, acceptance.game_scores)
    _record(uow, broadcast, found, games=games, settled_by="desk", now=now, rules=rules)
    return report_view(found)


def confirm_due_reports(uow: UnitOfWork, *, now: datetime, rules: Rules) -> int:
    """Confirm every waiting report older than its broadcast's `selfReportConfirmMinutes` (0: never); how many.
    Run by the scheduler, recorded as the system's. A report whose match has since been settled otherwise is
    left as it is."""
    done = 0
    broadcasts: dict[str, Broadcast | None] = {}
    for report in uow.player_reports.find(status=ReportStatus.WAITING):
        if report.broadcast_id not in broadcasts:
            broadcasts[report.broadcast_id] = uow.broadcasts.get(report.broadcast_id)
        broadcast = broadcasts[report.broadcast_id]
        minutes = broadcast.self_report_confirm_minutes if broadcast is not None else 0
        if broadcast is None or not minutes or report.reported_on > iso(now - timedelta(minutes=minutes)):
            continue
        match = uow.matches.get(report.match_id)
        if match is None or match.status == MatchStatus.COMPLETED:
            continue
        _record(uow, broadcast, report, games=report.games, settled_by="server", now=now, rules=rules)
        done += 1
    return done


# ------------------------------------------------------------------------------------------------ paper
def player_cards(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, root: str
                 ) -> dict[str, Any]:
    """One card per person of the broadcast (name, club, their link; links made on first print), sorted by
    surname like the sign-in sheet."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    rows = broadcast_people(uow, account_id=account_id, broadcast_id=broadcast_id, now=now)
    rows.sort(key=lambda row: (str(row["name"]).split() or [""])[-1].casefold())
    cards = []
    for row in rows:
        link = personal_link(uow, account_id=account_id, broadcast_id=broadcast_id, person_id=row["personID"],
                             now=now)
        cards.append({"name": row["name"], "club": row["club"], "url": personal_view(link, root=root)["url"]})
    return {"event": broadcast.name, "printedOn": iso(now), "cards": cards}


def sign_in_sheet(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, root: str
                  ) -> dict[str, Any]:
    """§14's sign-in sheet (`domain.public.paper`) with each person's own link (§21), made on first print."""
    sheet = paper.sign_in_sheet(uow, account_id=account_id, broadcast_id=broadcast_id, now=now)
    for row in sheet["people"]:
        link = personal_link(uow, account_id=account_id, broadcast_id=broadcast_id,
                             person_id=person_id_of(broadcast_id, row["name"]), now=now)
        row["url"] = personal_view(link, root=root)["url"]
    return sheet
