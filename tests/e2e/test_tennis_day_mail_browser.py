"""A tennis club's day as a volunteer runs it (issue 51.1, "no player ever got an email"), in a real browser on a
real console and server, with a real SMTP server (aiosmtpd on 127.0.0.1): a knockout made from the club's player
list on the Draws page, its first match called from the board to a free court, and both players get "Called to
Court 1" with their own link, which opens their page saying so."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, expect

from bench.browser_support import ConsoleDidNotStart, run_finished, running_console
from tests.api.test_personal_mail import Inbox
from tests.eventually import eventually
from tests.server_process import ServerProcess, free_port

MEMBERS = (("Ann", "Lee", "ann@club.example"), ("Bo", "Kim", "bo@bürstadt.example"),
           ("Cy", "Day", "cy@club.example"), ("Di", "Fox", "di@club.example"))


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler, port = Inbox(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


@pytest.fixture
def club(tmp_path: Path, inbox: tuple[Inbox, int]) -> Iterator[tuple[str, ServerProcess]]:
    """A server with mail set up (as the README says: COURTSIDE_SMTP_URL, COURTSIDE_MAIL_FROM) and a console."""
    server = ServerProcess(tmp_path / "data", free_port(), dict(os.environ) | {
        "COURTSIDE_TIME_ZONE": "UTC", "COURTSIDE_SMTP_URL": f"smtp://127.0.0.1:{inbox[1]}",
        "COURTSIDE_MAIL_FROM": "desk@club.example"})
    server.start()
    try:
        with running_console(server.root, server.data_dir, log=tmp_path / "console.log") as url:
            yield url, server
    except ConsoleDidNotStart as failure:
        pytest.fail(str(failure), pytrace=False)
    finally:
        server.stop()


def test_players_of_a_draw_made_from_the_list_get_their_call_up_mail_from_the_board(
        browser: Browser, club: tuple[str, ServerProcess], inbox: tuple[Inbox, int]) -> None:
    url, server = club
    server.call("POST", "/operator/broadcasts", {"name": "Tennis club day", "scoring": "tennis",
                                                 "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    members = server.call("POST", "/operator/player-lists", {"name": "Members"})["data"]
    for first, last, email in MEMBERS:
        server.call("POST", f"/operator/player-lists/{members['id']}/players",
                    {"firstName": first, "lastName": last, "email": email})
    page = browser.new_page(viewport={"width": 1440, "height": 1600})
    page.set_default_timeout(30_000)

    page.goto(url + "/draws")  # the draw from the list, as the desk makes it
    page.get_by_text("From a player list", exact=True).click()
    expect(page.get_by_text("4 entries", exact=True)).to_be_visible()
    run_finished(page)
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("Preview: nothing is saved yet.")).to_be_visible()
    run_finished(page)
    page.get_by_role("button", name="Save the draw").click()
    expect(page.get_by_text("Singles is saved and running")).to_be_visible()

    page.goto(url + "/")  # the board: a free court calls the pool's next match to itself
    call = page.get_by_role("button", name=re.compile(r"^Call .* to Court 1$"))
    expect(call).to_be_visible()
    run_finished(page)
    call.click()
    expect(page.get_by_text(re.compile(r"^Called .* to Court 1\.$"))).to_be_visible()

    [called] = [m for m in server.call("GET", "/operator/matches?status=pending")["data"] if m.get("calledOn")]
    players = {called["playerA"], called["playerB"]}
    addresses = {f"{first} {last}": email for first, last, email in MEMBERS}
    sent: list[EmailMessage] = eventually(lambda: inbox[0].messages if len(inbox[0].messages) >= 2 else None,
                                          timeout=30)
    wanted = {addresses[name].replace("bürstadt", "xn--brstadt-n2a") for name in players}  # IDNA on the wire
    assert {str(m["To"]) for m in sent} == wanted and len(sent) == 2
    subject = f"Called to Court 1 – {called['playerA']} v {called['playerB']}"
    assert {str(m["Subject"]) for m in sent} == {subject}
    link = re.search(r"Your page: (\S+)", sent[0].get_content())
    assert link is not None

    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(link.group(1))  # the player's own page, from the mail
    expect(phone.get_by_text("Called to Court 1", exact=True)).to_be_visible()
    phone.screenshot(path=str(Path(__file__).resolve().parents[2] / "docs" / "personal" / "called-from-mail-390.png"))
