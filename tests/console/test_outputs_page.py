"""The console's Outputs page (contract §10): every output of a broadcast with its design, a copyable URL, a QR
code, a live preview and a new link on demand, all through the operator API of a real server."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import requests
from streamlit.testing.v1 import AppTest

from console.ui import plain
from tests.console.conftest import APP, Operator, Partner, texts
from tests.server_process import free_port

Console = Callable[[str], AppTest]
PAGE = "views/outputs.py"


def test_outputs_page_without_broadcasts_says_where_to_make_one(console: Console) -> None:
    app = console(PAGE)
    assert texts(app, "info") == [
        "No broadcasts yet: create one on the Broadcasts page, and its outputs appear here."]


def test_outputs_page_without_the_api_shows_one_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COURTSIDE_API_URL", f"http://127.0.0.1:{free_port()}")
    monkeypatch.setenv("COURTSIDE_OPERATOR_KEY", "svc_op_whatever")
    app = AppTest.from_file(APP, default_timeout=60).run()
    app.switch_page(PAGE).run()
    assert not app.exception
    errors = texts(app, "error")
    assert len(errors) == 1 and errors[0].startswith("Cannot reach the Courtside API at http://127.0.0.1:")


def test_each_output_shows_its_design_url_qr_code_and_preview(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    broadcast = partner.call("POST", "/broadcasts", {"name": "Club Open", "scoreboardIDs": ["classic", "tv"],
                                                     "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    outputs = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/outputs")
    app = console(PAGE)
    assert not texts(app, "error")
    titles = [text for text in texts(app, "markdown") if text.startswith("**")]
    assert titles == [f"**{plain(title)}**" for title in (  # a partner's own scoreboard ID names its design
        "Court 1 · classic", "Court 1 · tv (classic design)", "Court 2 · classic", "Court 2 · tv (classic design)",
        "Venue display (every court: now playing, up next)")]
    assert [code.value for code in app.code] == [output["url"] for output in outputs]
    qr_codes = list(app.image)
    assert len(qr_codes) == len(outputs)
    for output in outputs:  # every listed URL is a live page
        assert requests.get(output["url"], timeout=10).status_code == 200


def test_new_link_needs_a_tick_and_retires_the_old_url(
    console: Console, partner: Partner, operator_api: Operator,
) -> None:
    broadcast = partner.call("POST", "/broadcasts", {"name": "Club Open", "scoreboardIDs": ["classic"],
                                                     "tables": [{"label": "Court 1"}]})
    before = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/outputs")
    court = next(output for output in before if output["kind"] == "court")
    app = console(PAGE)
    app.button(key=f"out_rotate_{court['id']}").click().run()  # nothing happens by accident: it asks first
    assert requests.get(court["url"], timeout=10).status_code == 200
    app.button(key=f"out_rotate_{court['id']}_no").click().run()
    assert not [b for b in app.button if b.key == f"out_rotate_{court['id']}_yes"]
    app.button(key=f"out_rotate_{court['id']}").click().run()
    app.button(key=f"out_rotate_{court['id']}_yes").click().run()
    assert not app.exception, app.exception
    after = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/outputs")
    rotated = next(output for output in after if output["id"] == court["id"])
    assert rotated["url"] != court["url"]
    assert requests.get(court["url"], timeout=10).status_code == 404
    assert requests.get(rotated["url"], timeout=10).status_code == 200
    assert [code.value for code in app.code][0] == rotated["url"]
    assert f"{plain('Court 1 · classic')}: new link made." in texts(app, "success")


def test_the_court_board_links_each_court_output(console: Console, partner: Partner, operator_api: Operator) -> None:
    broadcast = partner.call("POST", "/broadcasts", {"name": "Club Open", "scoreboardIDs": ["classic", "court"],
                                                     "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    outputs = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/outputs")
    app = console("views/court_board.py")
    links = [text for text in texts(app, "caption") if text.startswith("Overlay: ")]
    expected = []
    for table in broadcast["tables"]:
        mine = [o for o in outputs if o["tableID"] == table["id"]]
        expected.append("Overlay: " + " · ".join(f"[{o['design']}]({o['url']})" for o in mine))
    assert links == expected
