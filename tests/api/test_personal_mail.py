"""Contract §21: call-up mail. With SMTP set up, a player with an email gets "Called to Court 3 – Ann Lee v Bo Kim"
with their personal link: queued with the call (never sent on the request path), sent by the scheduler's job to a
real SMTP server (aiosmtpd on 127.0.0.1), retried while the server fails, listed in `GET /operator/mail`. The
email is an operator field of a player: operator reads show it, partner reads never do."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from aiosmtpd.controller import Controller
from flask import Flask

from domain.clock import FixedClock, iso
from domain.public import mail
from domain.settings import Settings
from storage.repository import unit_of_work
from tests.api.test_matches import make_player_list, make_tables
from tests.api.test_partner_first_day import sync
from tests.api.test_plan import grid, plan, settle, slots
from tests.conftest import Api
from tests.server_process import free_port
from tests.webhook_receiver import closed_port_url


class Inbox:
    """An aiosmtpd handler keeping every message it receives."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler, port = Inbox(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


@pytest.fixture
def settings(settings: Settings, inbox: tuple[Inbox, int]) -> Settings:
    return settings.with_(smtp_url=f"smtp://127.0.0.1:{inbox[1]}", mail_from="desk@club.example")


def day_with_members(operator: Api) -> tuple[dict[str, Any], dict[str, Any]]:
    """Court 1 and Court 3 on the members' list; Ann Lee (with an email) v Bo Kim (without) on Court 3."""
    broadcast = operator.post("/operator/broadcasts", json={
        "name": "Club Day", "tables": [{"label": "Court 1"}, {"label": "Court 3"}]}).json["data"]
    house = operator.post("/operator/player-lists", json={"name": "Members"}).json["data"]
    added = operator.post(f"/operator/player-lists/{house['id']}/players", json={
        "firstName": "Ann", "lastName": "Lee", "email": "ann@example.org"})
    assert added.status_code == 201, added.json
    assert added.json["data"]["players"][-1]["email"] == "ann@example.org"
    operator.post(f"/operator/player-lists/{house['id']}/players", json={"firstName": "Bo", "lastName": "Kim"})
    court = broadcast["tables"][1]["id"]
    assert operator.patch(f"/operator/tables/{court}", json={"playerListExternalID": house["id"]}).status_code == 200
    match = operator.post("/operator/matches", json={
        "tableID": court, "playerA": {"manualName": "Ann Lee"}, "playerB": {"manualName": "Bo Kim"}}).json["data"]
    return broadcast, match


def test_a_call_up_mails_the_player_with_their_link_from_the_scheduler(
        operator: Api, app: Flask, inbox: tuple[Inbox, int]) -> None:
    broadcast, match = day_with_members(operator)
    assert operator.post(f"/operator/matches/{match['id']}/call").status_code == 200
    assert inbox[0].messages == []  # queued, not sent on the request path
    (queued,) = operator.get("/operator/mail").json["data"]
    assert queued["status"] == "pending" and queued["to"] == "ann@example.org"
    assert queued["subject"] == "Called to Court 3 – Ann Lee v Bo Kim"

    assert app.services.dispatcher.send_due_mail() == 1  # type: ignore[attr-defined]
    (received,) = inbox[0].messages
    assert received["To"] == "ann@example.org" and received["From"] == "desk@club.example"
    assert received["Subject"] == "Called to Court 3 – Ann Lee v Bo Kim"
    body = received.get_content()
    people = operator.get(f"/operator/broadcasts/{broadcast['id']}/people").json["data"]
    ann = next(p["personID"] for p in people if p["name"] == "Ann Lee")
    url = operator.get(f"/operator/broadcasts/{broadcast['id']}/people/{ann}/link").json["data"]["url"]
    assert url in body
    page: Any = app.test_client().get("/me/" + url.rsplit("/me/", 1)[1] + "/state")
    assert page.json["data"]["called"]["court"] == "Court 3"
    (sent,) = operator.get("/operator/mail", query_string={"status": "sent"}).json["data"]
    assert sent["attempts"] == 1 and sent["sentOn"] is not None and sent["nextAttemptOn"] is None
    assert app.services.dispatcher.send_due_mail() == 0  # type: ignore[attr-defined]
    assert len(inbox[0].messages) == 1


def test_a_failing_mail_server_is_retried_and_shown(
        operator: Api, app: Flask, inbox: tuple[Inbox, int], clock: FixedClock) -> None:
    _, match = day_with_members(operator)
    operator.post(f"/operator/matches/{match['id']}/call")
    dispatcher = app.services.dispatcher  # type: ignore[attr-defined]
    working = dispatcher.mailer
    dispatcher.mailer.port = free_port()  # nobody listens there
    assert dispatcher.send_due_mail() == 0
    (failing,) = operator.get("/operator/mail").json["data"]
    assert failing["status"] == "failing" and failing["attempts"] == 1 and failing["lastError"]
    assert dispatcher.send_due_mail() == 0 and inbox[0].messages == []  # not due again yet
    dispatcher.mailer.port = inbox[1]
    assert dispatcher.mailer is working
    clock.advance(11)
    assert dispatcher.send_due_mail() == 1
    assert len(inbox[0].messages) == 1
    (sent,) = operator.get("/operator/mail").json["data"]
    assert sent["status"] == "sent" and sent["attempts"] == 2


def test_no_mail_without_an_email_and_partner_reads_never_show_it(operator: Api, partner: Api) -> None:
    house = operator.post("/operator/player-lists", json={"name": "Members"}).json["data"]
    bad = operator.post(f"/operator/player-lists/{house['id']}/players", json={"firstName": "X", "email": "nope"})
    assert bad.status_code == 400 and "email" in bad.json["error"]["details"]["json"]
    added = operator.post(f"/operator/player-lists/{house['id']}/players", json={"firstName": "Cy"}).json["data"]
    cy = added["players"][-1]
    edited = operator.patch(f"/operator/player-lists/{house['id']}/players/{cy['id']}", json={"email": "cy@x.org"})
    assert edited.status_code == 200, edited.json
    assert edited.json["data"]["players"][-1]["email"] == "cy@x.org"
    assert "cy@x.org" not in str(partner.get("/player-lists").json)


def called_events(partner: Api) -> list[dict[str, Any]]:
    return [d["payload"] for d in partner.get("/webhooks?eventType=match.called").json["data"]]


def test_match_called_reaches_a_partner_only_when_named(partner: Api, operator: Api) -> None:
    tables = make_tables(partner)
    make_player_list(partner)
    partner.patch("/webhooks/configuration", json={"url": closed_port_url()})
    first = sync(partner, tables, "m1")
    assert operator.post(f"/operator/matches/{first['id']}/call").status_code == 200
    assert called_events(partner) == []  # the seed's four stay the default
    partner.patch("/webhooks/configuration", json={"url": closed_port_url(), "events": ["match.called"]})
    second = sync(partner, tables, "m2")
    assert operator.post(f"/operator/matches/{second['id']}/call").status_code == 200
    [event] = called_events(partner)
    assert event["type"] == "match.called"
    assert event["data"]["match"]["id"] == second["id"] and event["data"]["match"]["calledOn"] is not None


AT_10 = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)


def time_moved(app: Flask, match_id: str, old: datetime, new: datetime, **extra: Any) -> int:
    """What the order of play (§20) calls when a published planned time moves: queue the players' mail."""
    with unit_of_work(app.services.store) as uow:  # type: ignore[attr-defined]
        return mail.queue_time_moved(uow, match_id=match_id, old=old, new=new,
                                     now=app.services.clock.now(),  # type: ignore[attr-defined]
                                     setup=mail.MailSetup(root="https://club.example"), **extra)


def test_a_published_time_moved_by_more_than_15_minutes_mails_the_players(
        operator: Api, app: Flask, inbox: tuple[Inbox, int]) -> None:
    broadcast, match = day_with_members(operator)
    assert time_moved(app, match["id"], AT_10, AT_10 + timedelta(minutes=15)) == 0  # 15 minutes: no mail
    assert time_moved(app, match["id"], AT_10, AT_10 - timedelta(minutes=15)) == 0
    assert operator.get("/operator/mail").json["data"] == []
    assert time_moved(app, match["id"], AT_10, AT_10 + timedelta(minutes=40), zone=ZoneInfo("Europe/Lisbon"),
                      court="Court 3") == 1
    assert inbox[0].messages == []  # queued, not sent in the caller's unit of work
    (queued,) = operator.get("/operator/mail").json["data"]
    assert queued["status"] == "pending" and queued["to"] == "ann@example.org"
    assert queued["subject"] == "Time changed – Ann Lee v Bo Kim now 10:40"

    assert app.services.dispatcher.send_due_mail() == 1  # type: ignore[attr-defined]
    (received,) = inbox[0].messages
    assert received["To"] == "ann@example.org"
    assert received["Subject"] == "Time changed – Ann Lee v Bo Kim now 10:40"
    body = received.get_content()
    assert "not before 10:40 on Court 3, instead of 10:00" in body
    people = operator.get(f"/operator/broadcasts/{broadcast['id']}/people").json["data"]
    ann = next(p["personID"] for p in people if p["name"] == "Ann Lee")
    url = operator.get(f"/operator/broadcasts/{broadcast['id']}/people/{ann}/link").json["data"]["url"]
    assert "https://club.example/me/" + url.rsplit("/me/", 1)[1] in body


def test_a_time_moved_to_another_day_names_the_day_and_unknown_matches_mail_nobody(
        operator: Api, app: Flask, inbox: tuple[Inbox, int]) -> None:
    _, match = day_with_members(operator)
    assert time_moved(app, match["id"], AT_10, AT_10 + timedelta(days=1, hours=-1)) == 1
    (queued,) = operator.get("/operator/mail").json["data"]
    assert queued["subject"] == "Time changed – Ann Lee v Bo Kim now Sun 29 Nov 09:00"
    assert time_moved(app, "mat_nobody", AT_10, AT_10 + timedelta(hours=1)) == 0
    assert len(operator.get("/operator/mail").json["data"]) == 1


def test_a_deleted_broadcast_takes_its_mail_with_it(operator: Api, inbox: tuple[Inbox, int]) -> None:
    broadcast, match = day_with_members(operator)
    assert operator.post(f"/operator/matches/{match['id']}/call").status_code == 200
    assert len(operator.get("/operator/mail").json["data"]) == 1
    assert operator.delete(f"/operator/broadcasts/{broadcast['id']}").status_code == 200
    assert operator.get("/operator/mail").json["data"] == []
    assert operator.get("/operator/mail", query_string={"broadcastID": broadcast["id"]}).status_code == 404


def test_a_match_moved_in_a_published_plan_mails_its_players_and_in_an_unpublished_one_nobody(
        operator: Api, inbox: tuple[Inbox, int]) -> None:
    """The order of play (§20) tells the players when a published planned time moves more than 15 minutes (§21):
    a hand move or a re-plan, in the unit of work that moves it; before publishing, nobody is told."""
    broadcast, match = day_with_members(operator)
    settle(operator, broadcast["id"], matchMinutes={"default": 30})
    plan(operator, broadcast["id"])
    where = slots(grid(operator, broadcast["id"]))[match["id"]]
    planned = datetime.fromisoformat(where["plannedOn"].replace("Z", "+00:00"))

    def move(minutes: int) -> None:
        moved = operator.post(f"/operator/matches/{match['id']}/plan", json={
            "tableID": where["tableID"], "plannedOn": iso(planned + timedelta(minutes=minutes))})
        assert moved.status_code == 200, moved.json

    move(60)
    assert operator.get("/operator/mail").json["data"] == []  # not published: nobody was told a time
    settle(operator, broadcast["id"], matchMinutes={"default": 30}, published=True)
    move(70)  # 10 minutes from the published time: no mail
    assert operator.get("/operator/mail").json["data"] == []
    move(120)
    (queued,) = operator.get("/operator/mail").json["data"]
    assert queued["to"] == "ann@example.org"  # Bo Kim has no email
    new = (planned + timedelta(minutes=120)).strftime("%H:%M")
    assert queued["subject"] == f"Time changed – Ann Lee v Bo Kim now {new}"


class SlowInbox(Inbox):
    """An SMTP server that takes its time over each message (a send still under way when the next job runs)."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        await asyncio.sleep(0.5)
        return await super().handle_DATA(server, session, envelope)


def test_two_runs_of_the_mail_job_at_once_send_a_message_once(operator: Api, app: Flask) -> None:
    """The mail job may run again while a send is under way (or a second scheduler shares PostgreSQL): a message
    is claimed by the run that sends it, and the other run finds nothing due."""
    _, match = day_with_members(operator)
    operator.post(f"/operator/matches/{match['id']}/call")
    slow, port = SlowInbox(), free_port()
    controller = Controller(slow, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        dispatcher = app.services.dispatcher  # type: ignore[attr-defined]
        dispatcher.mailer.port = port
        start = threading.Barrier(2)
        sent: list[int] = []

        def run() -> None:
            start.wait()
            sent.append(dispatcher.send_due_mail())

        runs = [threading.Thread(target=run) for _ in range(2)]
        for thread in runs:
            thread.start()
        for thread in runs:
            thread.join(timeout=30)
        assert sorted(sent) == [0, 1] and len(slow.messages) == 1
    finally:
        controller.stop()
    (message,) = operator.get("/operator/mail").json["data"]
    assert message["status"] == "sent" and message["attempts"] == 1


def test_a_message_claimed_by_a_process_that_was_killed_is_sent_after_restart(
        operator: Api, app: Flask, inbox: tuple[Inbox, int], clock: FixedClock) -> None:
    _, match = day_with_members(operator)
    operator.post(f"/operator/matches/{match['id']}/call")
    dispatcher = app.services.dispatcher  # type: ignore[attr-defined]
    with unit_of_work(dispatcher.store) as uow:  # claimed, then the process died before recording the attempt
        assert len(mail.claim_due(uow, now=clock.now(), owner="this-process")) == 1
    assert dispatcher.send_due_mail() == 0 and inbox[0].messages == []  # claimed: nobody else's to send
    assert dispatcher.recover(periodic=True) == 0  # a periodic pass leaves this process's own claims
    assert dispatcher.send_due_mail() == 0
    dispatcher.recover()  # what `start` does after a restart
    assert dispatcher.send_due_mail() == 1 and len(inbox[0].messages) == 1


def test_a_draw_made_from_a_player_list_mails_its_players_on_a_call_up(
        operator: Api, app: Flask, inbox: tuple[Inbox, int]) -> None:
    """Issue 51: a draw's matches have no player list of their own (`playerListID: null`); a person's email is
    found from the person (the list player the draw's entry names), whatever made the match."""
    broadcast = operator.post("/operator/broadcasts", json={
        "name": "Club Day", "tables": [{"label": "Court 1"}]}).json["data"]
    house = operator.post("/operator/player-lists", json={"name": "Members"}).json["data"]
    for pid, first, last in (("p1", "Ann", "Lee"), ("p2", "Bo", "Kim"), ("p3", "Cy", "Day"), ("p4", "Di", "Ray")):
        added = operator.post(f"/operator/player-lists/{house['id']}/players", json={
            "externalID": pid, "firstName": first, "lastName": last, "email": f"{first.lower()}@example.org"})
        assert added.status_code == 201, added.json
    draw = operator.post("/operator/draws", json={
        "broadcastID": broadcast["id"], "name": "Open", "format": "single_elimination", "randomSeed": 7,
        "entries": [{"players": [{"playerListExternalID": house["id"], "externalID": p}], "seed": i + 1}
                    for i, p in enumerate(("p1", "p2", "p3", "p4"))]})
    assert draw.status_code == 201, draw.json
    first = operator.get(f"/operator/broadcasts/{broadcast['id']}/pool").json["data"][0]
    assert "playerListExternalID" not in first  # the draw's match names no list of its own
    court = broadcast["tables"][0]["id"]
    assert operator.post(f"/operator/matches/{first['id']}/move", json={"tableID": court}).status_code == 200
    assert operator.post(f"/operator/matches/{first['id']}/call").status_code == 200
    queued = operator.get("/operator/mail").json["data"]
    a, b = first["playerA"], first["playerB"]
    assert sorted(m["to"] for m in queued) == sorted(f"{n.split()[0].lower()}@example.org" for n in (a, b))
    assert {m["subject"] for m in queued} == {f"Called to Court 1 – {a} v {b}"}
    assert app.services.dispatcher.send_due_mail() == 2  # type: ignore[attr-defined]
    assert sorted(m["To"] for m in inbox[0].messages) == sorted(m["to"] for m in queued)
    second = operator.get(f"/operator/broadcasts/{broadcast['id']}/pool").json["data"][0]
    assert operator.post(f"/operator/matches/{second['id']}/call").status_code == 200  # still in the pool: mailed
    assert len(operator.get("/operator/mail").json["data"]) == 4
