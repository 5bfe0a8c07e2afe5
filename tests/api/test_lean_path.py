"""What the lean request path keeps true: cached reads and principals follow every change at once, the access
log is there when asked for, and every response is what its documented schema says (`check_responses`)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import pytest
from flask import Flask

from api.access_log import ACCESS
from api.app import create_app
from api.bootstrap import bootstrap as build_services
from domain.settings import Settings
from storage.engine import Store
from tests.api.test_matches import make_player_list, make_tables
from tests.conftest import Api


def queue_match(api: Api, external_id: str, table_id: str) -> None:
    body = {"externalID": external_id, "tableID": table_id, "playerListExternalID": "pl-1",
            "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}}
    response = api.put("/matches", json=body)
    assert response.status_code == 200, response.json


def test_a_match_read_follows_a_player_rename_at_once(partner: Api) -> None:
    table_id = make_tables(partner)[0]
    make_player_list(partner)
    queue_match(partner, "m1", table_id)
    assert partner.get("/matches/m1").json["data"]["playerA"] == "Ada Lovelace"
    renamed = [{"externalID": "p1", "firstName": "Ada", "lastName": "King"}, {"externalID": "p2", "firstName": "G"}]
    assert partner.put("/player-lists", json={"externalID": "pl-1", "name": "E", "players": renamed}).status_code == 200
    assert partner.get("/matches/m1").json["data"]["playerA"] == "Ada King"


def test_a_match_read_follows_its_queue_and_the_operator_at_once(partner: Api, operator: Api) -> None:
    table_id = make_tables(partner)[0]
    make_player_list(partner)
    queue_match(partner, "m1", table_id)
    queue_match(partner, "m2", table_id)
    assert partner.get("/matches/m2").json["data"]["queuePosition"] == 2
    assert partner.delete("/matches/m1").status_code == 200
    read = partner.get("/matches/m2").json["data"]
    assert read["queuePosition"] == 1
    assert operator.post(f"/operator/matches/{read['id']}/start").status_code == 200
    started = partner.get("/matches/m2").json["data"]
    assert (started["status"], started["queuePosition"], started["isActive"]) == ("active", None, True)
    assert partner.get("/matches/m1").status_code == 404


def test_a_key_revoked_after_use_is_refused_on_the_next_request(partner: Api, operator: Api) -> None:
    connection_id = partner.get("/connection").json["data"]["connectionID"]  # the principal is cached now
    assert operator.delete(f"/operator/connections/{connection_id}").status_code == 200
    response = partner.get("/connection")
    assert response.status_code == 401
    assert response.json["error"]["code"] == "invalid_token"


def test_the_access_log_is_on_unless_turned_off(
    settings: Settings, store: Store, caplog: pytest.LogCaptureFixture, app: Flask,
    new_partner: Callable[..., Api],
) -> None:
    partner = new_partner()
    ACCESS.flush()  # the lines of the set-up's requests
    with caplog.at_level(logging.INFO, logger="courtside.access"):
        response = partner.get("/connection")
        ACCESS.flush()  # lines are written in batches by the access log's thread
    lines = [line for r in caplog.records if r.name == "courtside.access" for line in r.getMessage().splitlines()]
    assert len(lines) == 1 and re.fullmatch(
        rf"GET /api/v1/connection 200 \d+\.\dms request_id={response.headers['Service-Request-ID']}", lines[0])
    caplog.clear()
    quiet = create_app(build_services(settings.with_(access_log=False), store))
    with caplog.at_level(logging.INFO, logger="courtside.access"):
        assert Api(quiet.test_client(), partner.token).get("/connection").status_code == 200
        ACCESS.flush()
    assert not [r for r in caplog.records if r.name == "courtside.access"]
