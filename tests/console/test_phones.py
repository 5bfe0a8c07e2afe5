"""The console's Phones page (contract §11): every court's scorer link with a QR code, rotate and revoke, the
printable sheet; the roster view shows sign-ups with the sign-up QR code."""

from __future__ import annotations

import re
from collections.abc import Callable

import requests
from streamlit.testing.v1 import AppTest

from console.phone import qr_png
from tests.console.conftest import Operator, Partner, texts
from tests.server_process import ServerProcess

Console = Callable[[str], AppTest]


def test_phones_page_shows_each_courts_scorer_link_and_qr_code(console: Console, partner: Partner,
                                                               operator_api: Operator) -> None:
    broadcast = partner.broadcast("Club Open", ["Court 1", "Court 2"])
    app = console("views/phones.py")
    assert not app.exception, app.exception
    assert [m for m in texts(app, "markdown") if m.startswith("####")] == ["#### Court 1", "#### Court 2"]
    codes = [c.value for c in app.code]
    expected = [operator_api.data("GET", f"/operator/tables/{t['id']}/scorer")["url"] for t in broadcast["tables"]]
    assert codes == expected and all(re.search(r"/score/scr_[A-Za-z0-9_-]{32,}$", url) for url in codes)
    assert len(app.get("image")) == 2


def test_rotate_and_revoke_from_the_console_kill_the_old_link(console: Console, partner: Partner,
                                                              operator_api: Operator, server: ServerProcess) -> None:
    table_id = partner.broadcast("Club Open", ["Court 1"])["tables"][0]["id"]
    app = console("views/phones.py")
    old = app.code[0].value
    app.button(key=f"rotate_{table_id}").click().run()
    assert not app.exception, app.exception
    assert operator_api.data("GET", f"/operator/tables/{table_id}/scorer")["url"] == old  # it asks first (§9a)
    assert "Give Court 1 a new scorer link? The old link and its printed QR code stop working at once." in texts(
        app, "warning")
    app.button(key=f"rotate_{table_id}_yes").click().run()
    new = operator_api.data("GET", f"/operator/tables/{table_id}/scorer")["url"]
    assert new != old and requests.get(old, timeout=10).status_code == 404
    assert requests.get(new, timeout=10).status_code == 200
    app.button(key=f"revoke_{table_id}").click().run()
    assert requests.get(new, timeout=10).status_code == 200  # asked, not yet revoked
    app.button(key=f"revoke_{table_id}_yes").click().run()
    assert requests.get(new, timeout=10).status_code == 404
    assert "Revoked: rotate to give this court a new link." in texts(app, "caption")


def test_qr_codes_for_the_console_are_png() -> None:
    assert qr_png("http://10.0.0.2:8000/score/scr_a").startswith(b"\x89PNG")


def test_roster_view_shows_sign_ups_with_the_sign_up_qr_code(console: Console, partner: Partner,
                                                             operator_api: Operator) -> None:
    roster = partner.call("POST", "/rosters", {"name": "Singles", "rosterType": "individual",
                                               "selfRegistrationEnabled": True})
    url = operator_api.data("GET", f"/operator/rosters/{roster['id']}/registration")["url"]
    session = requests.Session()
    token = re.search(r'name="csrf" value="([^"]+)"', session.get(url, timeout=10).text)
    assert token is not None
    assert session.post(url, data={"csrf": token.group(1), "firstName": "Mima", "lastName": "Ito"},
                        timeout=10).status_code == 201
    app = console("views/rosters.py")
    assert not app.exception, app.exception
    assert url in [c.value for c in app.code]
    assert any(e.label == "Sign-ups: Singles (1)" for e in app.expander)
    frames = [df.value for df in app.dataframe]
    assert any("Mima" in frame.to_string() and "Ito" in frame.to_string() for frame in frames)
