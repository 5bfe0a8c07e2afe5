"""Contract §8a (issue 37, point 6), through the real `courtside serve`: deleting a broadcast closes its event
page and its courts' scorer links at once, as a rotation does. Its page was still served from the kept snapshot
for about a second (`COURTSIDE_EVENT_MAX_STALE`), and its link stayed behind, never to be closed again."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import requests

from tests.server_process import ServerProcess

BOTH_BACKENDS = True


def test_deleting_a_broadcast_closes_its_event_page_and_scorer_links_at_once(
        server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory(env={"COURTSIDE_EVENT_MAX_STALE": "30"})  # a kept snapshot may lag a write for 30 s
    made = server.call("POST", "/operator/broadcasts", {"name": "Day", "tables": [{"label": "Court 1"}]})["data"]
    server.call("POST", "/operator/matches", {"tableID": made["tables"][0]["id"], "playerA": {"manualName": "Ann"},
                                               "playerB": {"manualName": "Bo"}})
    event = server.call("POST", f"/operator/broadcasts/{made['id']}/event-page/enable")["data"]
    scorer = server.call("GET", f"/operator/tables/{made['tables'][0]['id']}/scorer")["data"]
    page = server.root + urlsplit(event["url"]).path
    score = server.root + urlsplit(scorer["url"]).path
    first = requests.get(page + "/state", timeout=10)
    assert first.status_code == 200 and first.json()["data"]["event"]["name"] == "Day"
    assert requests.get(page + "/state", timeout=10, headers={"If-None-Match": first.headers["ETag"]}).status_code \
        == 304  # kept: answered from the snapshot
    assert requests.get(score + "/state", timeout=10).status_code == 200
    server.call("DELETE", f"/operator/broadcasts/{made['id']}")
    assert requests.get(page + "/state", timeout=10).status_code == 404
    assert requests.get(page + "/state", timeout=10, headers={"If-None-Match": first.headers["ETag"]}).status_code \
        == 404
    assert requests.get(page, timeout=10).status_code == 404
    assert requests.get(score + "/state", timeout=10).status_code == 404
    assert server.operator_call("GET", f"/operator/broadcasts/{made['id']}/event-page").status_code == 404


def test_deleting_a_broadcast_closes_its_personal_pages_at_once(server_factory: Callable[..., ServerProcess]) -> None:
    """Issue 47, point 6: an open personal page was served from its kept state for about a second after the delete."""
    server = server_factory(env={"COURTSIDE_EVENT_MAX_STALE": "30"})
    made = server.call("POST", "/operator/broadcasts", {"name": "Day", "tables": [{"label": "Court 1"}]})["data"]
    server.call("POST", "/operator/matches", {"tableID": made["tables"][0]["id"], "playerA": {"manualName": "Ann"},
                                               "playerB": {"manualName": "Bo"}})
    people = server.call("GET", f"/operator/broadcasts/{made['id']}/people")["data"]
    ann = next(p["personID"] for p in people if p["name"] == "Ann")
    link = server.call("GET", f"/operator/broadcasts/{made['id']}/people/{ann}/link")["data"]
    page = server.root + urlsplit(link["url"]).path
    first = requests.get(page + "/state", timeout=10)
    assert first.status_code == 200 and first.json()["data"]["person"]["name"] == "Ann"
    assert requests.get(page + "/state", timeout=10, headers={"If-None-Match": first.headers["ETag"]}).status_code \
        == 304  # kept
    server.call("DELETE", f"/operator/broadcasts/{made['id']}")
    assert requests.get(page + "/state", timeout=10).status_code == 404
    assert requests.get(page + "/state", timeout=10, headers={"If-None-Match": first.headers["ETag"]}).status_code \
        == 404
    assert requests.get(page, timeout=10).status_code == 404
