"""A request that changes nothing is not a change (contract §16 "no entry without its change"): a correction to
the scores a match already has, completing a completed match again, opening an open event page or closing a
closed one, revoking a revoked scorer link, withdrawing a withdrawn draw entry, restating a roster or a partner's
match. Each answers 200 with the current state, writes no audit entry, sends no webhook and keeps
`scoreVersion` / `updatedOn` / the draw as they were. Every test runs on TinyDB and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.test_audit import OTHER_WINS, WIN, Day, entries
from tests.api.test_draws import create, make_courts, read
from tests.api.test_self_registration import make_roster
from tests.conftest import Api


@pytest.fixture
def day(operator: Api, partner: Api, app: Flask) -> Day:
    return Day(operator, partner, app.test_client())


def deliveries(partner: Api) -> list[str]:
    """The partner's webhook deliveries, oldest first: the type of each."""
    response = partner.get("/webhooks?limit=100")
    assert response.status_code == 200, response.json
    return [d["payload"]["type"] for d in reversed(response.json["data"])]


def operator_read(operator: Api, match_id: str) -> dict[str, Any]:
    listed = operator.get("/operator/matches?limit=100")
    assert listed.status_code == 200, listed.json
    return dict(next(m for m in listed.json["data"] if m["id"] == match_id))


@pytest.fixture
def completed(day: Day, partner: Api, clock: Any) -> dict[str, Any]:
    """The partner's match m1 (subscribed to every match event), started and completed with WIN."""
    assert partner.patch("/webhooks/configuration", json={"url": "http://127.0.0.1:9/hooks"}).status_code == 200
    m1 = day.sync("m1")
    day.op("POST", f"/operator/matches/{m1['id']}/start", {})
    done: dict[str, Any] = day.op("POST", f"/operator/matches/{m1['id']}/complete", {"gameScores": WIN})
    clock.advance(30)
    return done


# ------------------------------------------------------------------------------------------------ matches
@pytest.mark.parametrize("body", [
    {"gameScores": WIN},
    {"gameScores": WIN, "reason": "Checked the sheet again"},
    {"gameScores": WIN, "version": None},  # the current scoreVersion, filled in below
])
def test_a_correction_to_the_scores_it_has_changes_nothing(
    day: Day, operator: Api, partner: Api, completed: dict[str, Any], body: dict[str, Any],
) -> None:
    if "version" in body:
        body = body | {"version": completed["scoreVersion"]}
    count, sent = len(entries(operator)), deliveries(partner)
    again = operator.post(f"/operator/matches/{completed['id']}/score", json=body)
    assert again.status_code == 200, again.json
    assert again.json["data"] == completed  # the current match, scoreVersion unchanged
    assert len(entries(operator)) == count
    assert deliveries(partner) == sent == ["match.started", "match.completed"]  # no match.result_updated
    assert operator_read(operator, completed["id"]) == completed
    assert partner.get("/matches/m1").json["data"]["scoreVersion"] == completed["scoreVersion"]


def test_a_stale_version_is_still_refused_and_a_real_correction_still_counts(
    day: Day, operator: Api, partner: Api, completed: dict[str, Any],
) -> None:
    stale = operator.post(f"/operator/matches/{completed['id']}/score",
                          json={"gameScores": WIN, "version": completed["scoreVersion"] - 1})
    assert stale.status_code == 409 and stale.json["error"]["code"] == "stale_state"
    count = len(entries(operator))
    fixed = day.op("POST", f"/operator/matches/{completed['id']}/score", {"gameScores": OTHER_WINS})
    assert fixed["scoreVersion"] == completed["scoreVersion"] + 1
    [entry] = entries(operator)[: len(entries(operator)) - count]
    assert entry["action"] == "match.corrected"
    assert (entry["before"]["gameScores"], entry["after"]["gameScores"]) == (WIN, OTHER_WINS)
    assert deliveries(partner)[-1] == "match.result_updated"


@pytest.mark.parametrize("body", [{"gameScores": WIN}, {}, None])
def test_completing_a_completed_match_again_changes_nothing(
    day: Day, operator: Api, partner: Api, completed: dict[str, Any], body: dict[str, Any] | None,
) -> None:
    count, sent = len(entries(operator)), deliveries(partner)
    again = operator.post(f"/operator/matches/{completed['id']}/complete", json=body)
    assert again.status_code == 200, again.json
    assert again.json["data"] == completed
    assert len(entries(operator)) == count and deliveries(partner) == sent
    other = operator.post(f"/operator/matches/{completed['id']}/complete", json={"gameScores": OTHER_WINS})
    assert other.status_code == 409 and other.json["error"]["code"] == "match_not_active"  # a correction: /score
    assert operator_read(operator, completed["id"]) == completed


def test_a_partner_restating_its_pending_match_changes_nothing(day: Day, operator: Api, clock: Any) -> None:
    first = day.sync("m1")
    count = len(entries(operator))
    clock.advance(30)
    assert day.sync("m1") == first
    assert len(entries(operator)) == count
    day.sync("m1", players=("p1", "p3"))
    assert entries(operator)[0]["action"] == "match.synced" and len(entries(operator)) == count + 1


# ------------------------------------------------------------------------------------------------ switches
def test_opening_an_open_event_page_or_closing_a_closed_one_writes_nothing(day: Day, operator: Api) -> None:
    page = f"/operator/broadcasts/{day.broadcast_id}/event-page"
    count = len(entries(operator))
    closed = day.op("POST", f"{page}/disable")  # closed until first opened: nothing to close
    assert closed["enabled"] is False and len(entries(operator)) == count
    opened = day.op("POST", f"{page}/enable")
    assert entries(operator)[0]["action"] == "link.enabled" and len(entries(operator)) == count + 1
    assert day.op("POST", f"{page}/enable") == opened
    assert len(entries(operator)) == count + 1
    day.op("POST", f"{page}/disable")
    assert entries(operator)[0]["action"] == "link.disabled" and len(entries(operator)) == count + 2
    assert day.op("POST", f"{page}/disable") == closed
    assert len(entries(operator)) == count + 2
    assert day.op("GET", page)["enabled"] is False


def test_revoking_a_revoked_scorer_link_writes_nothing(day: Day, operator: Api) -> None:
    link = f"/operator/tables/{day.tables[0]}/scorer"
    day.op("GET", link)
    revoked = day.op("DELETE", link)
    count = len(entries(operator))
    assert entries(operator)[0]["action"] == "link.revoked"
    assert day.op("DELETE", link) == revoked
    assert len(entries(operator)) == count


def test_restating_the_self_registration_switch_writes_nothing(
    operator: Api, partner: Api, clock: Any,
) -> None:
    roster = make_roster(partner)
    count = len(entries(operator))
    clock.advance(30)
    for switch in (True, False, False):
        response = partner.patch(f"/rosters/{roster['id']}", json={"selfRegistrationEnabled": switch})
        assert response.status_code == 200, response.json
    found = entries(operator)
    assert [e["action"] for e in found[: len(found) - count]] == ["link.disabled"]
    clock.advance(30)
    again = operator.patch(f"/operator/rosters/{roster['id']}", json={"selfRegistrationEnabled": False,
                                                                      "name": roster["name"]})
    assert again.status_code == 200, again.json
    assert again.json["data"]["updatedOn"] == response.json["data"]["updatedOn"]
    assert len(entries(operator)) == count + 1


# ------------------------------------------------------------------------------------------------ draws
def test_withdrawing_a_withdrawn_entry_again_changes_nothing(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    quitter = draw["rounds"][0]["drawMatches"][0]["slots"][0]["entryID"]
    path = f"/operator/draws/{draw['id']}/entries/{quitter}/withdraw"
    first = operator.post(path)
    assert first.status_code == 200, first.json
    count = len(entries(operator))
    matches = operator.get("/operator/matches?limit=100").json["data"]
    again = operator.post(path)
    assert again.status_code == 200, again.json
    assert again.json["data"] == first.json["data"] == read(operator, draw["id"])
    assert len(entries(operator)) == count
    assert operator.get("/operator/matches?limit=100").json["data"] == matches
    drawn = operator.get(f"/operator/audit?targetType=draw&targetID={draw['id']}&limit=100").json["data"]
    assert sorted(e["action"] for e in drawn) == ["draw.created", "draw.withdrawn"]
