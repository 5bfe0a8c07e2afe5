"""Players' mail (contract §21): a call-up email to each player with an address, and one when a published planned
time moves by more than 15 minutes (`queue_time_moved`), queued in the unit of work that calls the match (or moves
it) and sent later by the scheduler (never on the request path), retried like a webhook.

A message is a record of its own (`MailMessage`, table `mail`): queuing or attempting one never rewrites its
broadcast. `status` (`MailStatus`) is `pending` (not sent yet), `failing` (the last attempt failed; retried on the
schedule until it runs out) or `sent`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from domain.clock import iso
from domain.draws import store as draw_store
from domain.event_day.people import person_id
from domain.events import record_event
from domain.ids import new_id
from domain.match import matches as match_service
from domain.models import Broadcast, EventType, MailMessage, MailStatus, Match
from domain.names import full_name, name_key, side_name
from domain.partner import queues
from domain.partner.broadcasts import get_broadcast
from domain.plan import live
from domain.ports import UnitOfWork
from domain.public import personal
from domain.views import Reader

RETRY_SECONDS = (10, 30, 60, 300, 900, 1800, 3600)  # after each failed attempt; then it stays failing
MAX_EMAIL = 254


@dataclass(frozen=True)
class MailSetup:
    """What a call-up needs to queue mail: the root of personal links (mail is queued only when SMTP is set)."""

    root: str


def _list_player(uow: UnitOfWork, account_id: str, reference: str | None, external_id: str | None
                 ) -> dict[str, Any] | None:
    """The player of one of the account's lists (named by its externalID or id) with that externalID."""
    if not reference or not external_id:
        return None
    for player_list in uow.player_lists.find(account_id=account_id):
        if reference in (player_list.external_id, player_list.id):
            found = next((p for p in player_list.players if p.get("externalID") == external_id), None)
            if found is not None:
                return found
    return None


def _draw_emails(uow: UnitOfWork, broadcast: Broadcast | None) -> dict[str, str]:
    """Emails of the list players the broadcast's draws' entries name, by the key of the name the draw shows
    (a draw's match names its players by hand, with no player list of its own)."""
    if broadcast is None:
        return {}
    found: dict[str, str] = {}
    for record in uow.draws.find(account_id=broadcast.account_id, broadcast_id=broadcast.id):
        for entry in draw_store.entries(uow, record):
            for player in entry.players:
                listed = _list_player(uow, broadcast.account_id, player.player_list_external_id,
                                      player.external_id)
                if listed is not None and listed.get("email"):
                    found.setdefault(name_key(player.name), str(listed["email"]))
    return found


def _addresses(uow: UnitOfWork, match: Match, broadcast: Broadcast | None) -> dict[str, str]:
    """Each side's player's email, by the name the match shows, found from the person whatever made the match:
    the list entry the side names (externalID), else the entry of the match's list with that display name, else
    the list player a draw's entry of the broadcast names under that name (issue 51)."""
    player_list = queues.player_list_of(uow, match)
    players = player_list.players if player_list else []
    names = queues.side_names(match, player_list)
    drawn: dict[str, str] | None = None
    found: dict[str, str] = {}
    for side, ref in match.participants.items():
        if not ref:
            continue
        name = names.get(side) or ref.get("manualName") or ""
        if not name:
            continue
        entry = next((p for p in players if ref.get("externalID") and p.get("externalID") == ref.get("externalID")),
                     None) or next((p for p in players if name_key(full_name(p)) == name_key(name)), None)
        if entry is not None and entry.get("email"):
            found[name] = str(entry["email"])
            continue
        drawn = _draw_emails(uow, broadcast) if drawn is None else drawn
        if name_key(name) in drawn:
            found[name] = drawn[name_key(name)]
    return found


def _side_names(uow: UnitOfWork, match: Match) -> dict[str, str]:
    """Each side's name as the match shows it ("Ann Lee", "Ann Lee / Cy Day"; "TBD" for a side not known yet)."""
    shown = queues.side_names(match, queues.player_list_of(uow, match))

    def team(*slots: str) -> str:
        named = [shown.get(slot) or (match.participants.get(slot) or {}).get("manualName") for slot in slots]
        return side_name(named) or "TBD"

    return {"a": team("playerA", "playerA2"), "b": team("playerB", "playerB2")}


def _page_url(uow: UnitOfWork, broadcast: Broadcast, name: str, *, setup: MailSetup, now: datetime) -> str:
    """The person's own page (their link made on first use)."""
    link = personal.personal_link(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id,
                                  person_id=person_id(broadcast.id, name), now=now)
    return str(personal.personal_view(link, root=setup.root)["url"])


def _broadcast_of(uow: UnitOfWork, match: Match) -> Broadcast | None:
    """The match's broadcast: its court's, or (in the court pool) its draw's."""
    table = uow.tables.get(match.table_id) if match.table_id else None
    if table is not None:
        return uow.broadcasts.get(table.broadcast_id)
    draw = uow.draws.get(match.draw_id) if match.draw_id else None
    return uow.broadcasts.get(draw.broadcast_id) if draw is not None else None


def queue_call_up(uow: UnitOfWork, match: Match, *, setup: MailSetup, now: datetime) -> int:
    """Queue "Called to Court 3 – Ann Lee v Bo Kim" with their personal link for each player with an email;
    how many."""
    broadcast = _broadcast_of(uow, match)
    if broadcast is None:
        return 0
    table = uow.tables.get(match.table_id) if match.table_id else None
    planned = live.planned(broadcast, match) if table is None else None
    table = uow.tables.get(planned[0]) if planned is not None else table  # a pool match: its planned court
    court = table.label if table is not None else "your court"
    names = _side_names(uow, match)
    title = f"Called to {court} – {names['a']} v {names['b']}"
    queued = 0
    for name, address in _addresses(uow, match, broadcast).items():
        url = _page_url(uow, broadcast, name, setup=setup, now=now)
        body = (f"{name},\n\nyou are called to {court} now: {names.get('a')} v {names.get('b')}"
                f" ({broadcast.name}).\n\nYour page: {url}\n")
        _queue(uow, broadcast, to=address, subject=title, body=body, now=now)
        queued += 1
    return queued


MOVED_MINUTES = 15  # a published planned time moving by more than this mails the players (§21)


def queue_time_moved(uow: UnitOfWork, *, match_id: str, old: datetime, new: datetime, now: datetime,
                     setup: MailSetup, zone: tzinfo = UTC, court: str | None = None) -> int:
    """Queue "Time changed – Ann Lee v Bo Kim now 10:40" with their personal link for each player of the match
    with an email, when its published planned time (§20) moved by more than 15 minutes; how many (0 for a smaller
    move, an unknown match, or a match of no broadcast). Times are written in `zone` (the event's time zone,
    `COURTSIDE_TIME_ZONE`); `court` names the planned court when known. The caller calls it for a published plan
    only, in the unit of work that moves the time (mail is sent later by the scheduler)."""
    if abs(new - old) <= timedelta(minutes=MOVED_MINUTES):
        return 0
    match = uow.matches.get(match_id)
    broadcast = _broadcast_of(uow, match) if match is not None else None
    if match is None or broadcast is None:
        return 0
    names = _side_names(uow, match)
    was, now_at = old.astimezone(zone), new.astimezone(zone)
    when = now_at.strftime("%H:%M") if now_at.date() == was.date() else now_at.strftime("%a %d %b %H:%M")
    title = f"Time changed – {names['a']} v {names['b']} now {when}"
    where = f" on {court}" if court else ""
    queued = 0
    for name, address in _addresses(uow, match, broadcast).items():
        url = _page_url(uow, broadcast, name, setup=setup, now=now)
        body = (f"{name},\n\nthe time of your match {names['a']} v {names['b']} ({broadcast.name}) changed: "
                f"not before {when}{where}, instead of {was.strftime('%H:%M')}.\n\nYour page: {url}\n")
        _queue(uow, broadcast, to=address, subject=title, body=body, now=now)
        queued += 1
    return queued


def _queue(uow: UnitOfWork, broadcast: Broadcast, *, to: str, subject: str, body: str, now: datetime) -> None:
    """Queue one message, due now (the scheduler sends it)."""
    uow.mail.put(MailMessage(id=new_id("mail"), account_id=broadcast.account_id, broadcast_id=broadcast.id, to=to,
                             subject=subject, body=body, status=MailStatus.PENDING, created_on=iso(now),
                             next_attempt_on=iso(now)))


def call_match(uow: UnitOfWork, *, account_id: str, match_id: str, now: datetime, setup: MailSetup | None
               ) -> Match:
    """§14's call-up, §21's `match.called` for the match's connection (when it named the event), and (with SMTP
    set up) the players' call-up mail, queued in the same unit of work."""
    match = match_service.call_match(uow, account_id=account_id, match_id=match_id, now=now)
    record_event(uow, account_id=match.account_id, connection_id=match.connection_id,
                 event_type=EventType.MATCH_CALLED, data={"match": Reader(uow).read(match)}, now=now)
    if setup is not None:
        queue_call_up(uow, match, setup=setup, now=now)
    return match


def mail_view(message: MailMessage) -> dict[str, Any]:
    """A message as the operator's list shows it."""
    return {"id": message.id, "broadcastID": message.broadcast_id, "to": message.to, "subject": message.subject,
            "status": message.status, "attempts": message.attempts, "createdOn": message.created_on,
            "sentOn": message.sent_on, "nextAttemptOn": message.next_attempt_on, "lastError": message.last_error}


def list_mail(uow: UnitOfWork, *, account_id: str, broadcast_id: str | None, status: MailStatus | None
              ) -> list[dict[str, Any]]:
    """The account's mail, newest first (`GET /operator/mail`); 404 for a broadcast it does not have."""
    if broadcast_id:
        get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
        kept = uow.mail.find(broadcast_id=broadcast_id)
    else:
        kept = uow.mail.find(account_id=account_id)
    rows = [m for m in kept if status is None or m.status == status]
    rows.sort(key=lambda m: (m.created_on, m.seq), reverse=True)
    return [mail_view(m) for m in rows]


@dataclass(frozen=True)
class Outgoing:
    """One message due: which it is and what to send."""

    mail_id: str
    to: str
    subject: str
    body: str


def claim_due(uow: UnitOfWork, *, now: datetime, owner: str) -> list[Outgoing]:
    """Messages due for an attempt, oldest first, claimed by `owner` (the sending process) in this unit of work:
    a message claimed is nobody else's to send (two schedulers sharing PostgreSQL, or two runs of the mail job in
    one process) until its attempt is recorded or its owner is gone (`recover_interrupted`)."""
    due = [m for status in (MailStatus.PENDING, MailStatus.FAILING) for m in uow.mail.find(status=status)
           if m.claimed_by is None and m.next_attempt_on and m.next_attempt_on <= iso(now)]
    due.sort(key=lambda m: m.seq)
    for message in due:
        message.claimed_by = owner
        uow.mail.put(message)
    return [Outgoing(m.id, m.to, m.subject, m.body) for m in due]


def recover_interrupted(uow: UnitOfWork, *, live_owners: Collection[str] = ()) -> int:
    """Messages claimed by a process that is gone (killed while sending) are due again, as they were: sent at
    least once, as webhooks are."""
    stranded = [m for status in (MailStatus.PENDING, MailStatus.FAILING) for m in uow.mail.find(status=status)
                if m.claimed_by is not None and m.claimed_by not in live_owners]
    for message in stranded:
        message.claimed_by = None
        uow.mail.put(message)
    return len(stranded)


def record_attempt(uow: UnitOfWork, outgoing: Outgoing, *, error: str | None, now: datetime) -> None:
    """Record an attempt's outcome: sent, or failing with the next attempt on the retry schedule; the claim ends."""
    message = uow.mail.get(outgoing.mail_id)
    if message is None:
        return
    message.claimed_by = None
    message.attempts += 1
    if error is None:
        message.status, message.sent_on = MailStatus.SENT, iso(now)
        message.next_attempt_on = message.last_error = None
    else:
        wait = RETRY_SECONDS[message.attempts - 1] if message.attempts <= len(RETRY_SECONDS) else None
        message.status, message.last_error = MailStatus.FAILING, error[:500]
        message.next_attempt_on = iso(now + timedelta(seconds=wait)) if wait is not None else None
    uow.mail.put(message)


Sender = Callable[[Outgoing], None]  # sends one message; raises on failure
