"""The console's Event page (contract §15): the broadcast's event-page link with its QR code, open and close,
a new link only after confirming, and the printable A4 poster."""

from __future__ import annotations

import re
from collections.abc import Callable

import requests
from streamlit.testing.v1 import AppTest

from console.phone import event_poster
from tests.console.conftest import Operator, Partner, texts

Console = Callable[[str], AppTest]


def test_event_page_shows_the_link_and_qr_and_opens_and_closes_it(console: Console, partner: Partner,
                                                                  operator_api: Operator) -> None:
    broadcast = partner.broadcast("Club Open", ["Court 1", "Court 2"])
    app = console("views/event_page.py")
    assert not app.exception, app.exception
    url = app.code[0].value
    assert re.search(r"/event/evt_[A-Za-z0-9_-]{43}$", url)
    assert len(app.get("image")) == 1
    assert requests.get(url, timeout=10).status_code == 404  # closed until opened
    app.button(key="event_open").click().run()
    assert not app.exception, app.exception
    assert operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/event-page")["enabled"] is True
    page = requests.get(url, timeout=10)
    assert page.status_code == 200 and "Club Open" in page.text
    app.button(key="event_close").click().run()
    assert requests.get(url, timeout=10).status_code == 404
    assert any("closed" in text for text in texts(app, "warning"))


def test_new_link_needs_confirmation_and_kills_the_old_one(console: Console, partner: Partner,
                                                           operator_api: Operator) -> None:
    broadcast = partner.broadcast("Club Open", ["Court 1"])
    app = console("views/event_page.py")
    old = app.code[0].value
    app.button(key="event_rotate").click().run()  # asks first: the link is unchanged
    assert operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/event-page")["url"] == old
    assert "Give the event page a new link? Printed posters and shared links stop working." in [
        w.value for w in app.warning]
    app.button(key="event_rotate_yes").click().run()
    assert not app.exception, app.exception
    new = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/event-page")["url"]
    assert new != old and app.code[0].value == new


def test_the_poster_is_a4_black_on_white_with_the_qr_code_and_link() -> None:
    poster = event_poster("Club <Open>", "http://10.0.0.2:8000/event/evt_abc")
    assert "size: A4 portrait" in poster and "Club &lt;Open&gt;" in poster
    assert poster.count("<svg") == 1 and "http://10.0.0.2:8000/event/evt_abc" in poster
    assert "<button" not in poster and "<script" not in poster


def test_a_poster_of_a_link_only_this_computer_opens_says_so_on_the_paper() -> None:
    """Issue 35: the console's loopback warning is printed on the poster itself."""
    poster = event_poster("Club Open", "http://127.0.0.1:8000/event/evt_abc")
    assert '<p class="warn">Do not put this up: These links name this computer only (127.0.0.1)' in poster
    assert "courtside up --host 0.0.0.0" in poster and "`" not in poster
    assert "Do not put this up" not in event_poster("Club Open", "http://10.0.0.2:8000/event/evt_abc")
