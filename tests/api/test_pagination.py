"""Every list endpoint of the account resources: cursor walk, default limit, limit bounds, bad cursors."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from api.schemas.common import list_tag
from domain.clock import FixedClock
from domain.models import RosterType
from domain.pagination import encode_cursor
from domain.partner import broadcasts, player_lists, rosters
from storage.engine import Store
from storage.repository import unit_of_work
from tests.api.resources_support import error_code, walk
from tests.conftest import Api

PARTNER_LISTS = ["/broadcasts", "/rosters", "/player-lists", "/teams", "/tables"]
OPERATOR_LISTS = ["/operator/broadcasts", "/operator/rosters", "/operator/player-lists"]


def _seed(store: Store, partner: Api, count: int) -> None:
    """`count` of each resource, straight through the domain services (the HTTP rate limit stays out of it)."""
    connection_id = partner.get("/connection").json["data"]["connectionID"]
    with unit_of_work(store) as uow:
        connection = uow.connections.get(connection_id)
        assert connection is not None
        now, account_id = FixedClock().now(), connection.account_id
        for i in range(count):
            broadcasts.create_broadcast(uow, account_id=account_id, now=now, new=broadcasts.NewBroadcast(
                name=f"B{i}", tables=[broadcasts.Court(label="C")], manager_connection_id=connection_id))
            rosters.create_roster(uow, account_id=account_id, now=now,
                                  new=rosters.NewRoster(name=f"R{i}", roster_type=RosterType.TEAM))
            player_lists.sync_list(uow, account_id=account_id, connection_id=connection_id, now=now,
                                   sync=player_lists.SyncPlayerList(external_id=f"list-{i}", name=f"L{i}", players=[]))
            player_lists.sync_team(uow, account_id=account_id, connection_id=connection_id, now=now,
                                   sync=player_lists.SyncTeam(external_id=f"t{i}", name=f"T{i}", players=[]))


@pytest.fixture
def filled(partner: Api, store: Store) -> Api:
    """7 of each: broadcasts (one court each, so 7 tables), rosters (+7 team rosters), lists and teams."""
    _seed(store, partner, 7)
    return partner


@pytest.mark.parametrize("path", PARTNER_LISTS)
@pytest.mark.parametrize("limit", [1, 3, 7, 100])
def test_walking_a_list_with_next_cursor_returns_every_item_once_in_order(filled: Api, path: str, limit: int) -> None:
    everything = filled.get(path + "?limit=100").json["data"]
    assert walk(filled, path, limit) == everything


@pytest.mark.parametrize("path", OPERATOR_LISTS)
def test_walking_operator_lists(filled: Api, operator: Api, path: str) -> None:
    everything = operator.get(path + "?limit=100").json["data"]
    assert walk(operator, path, 2) == everything
    expected = {"/operator/broadcasts": 7, "/operator/rosters": 14, "/operator/player-lists": 7 + 14}
    assert len(everything) == expected[path]


def test_counts_of_each_list(filled: Api) -> None:
    counts = {path: len(filled.get(path + "?limit=100").json["data"]) for path in PARTNER_LISTS}
    assert counts == {"/broadcasts": 7, "/rosters": 14, "/player-lists": 7, "/teams": 7, "/tables": 7}


@pytest.mark.parametrize("path", PARTNER_LISTS)
def test_default_limit_is_fifty(partner: Api, store: Store, path: str) -> None:
    _seed(store, partner, 51)
    first = partner.get(path) if path != "/player-lists" else partner.get(path + "?cursor=" + cursor_of(path, 0))
    assert len(first.json["data"]) == 50
    assert first.json["nextCursor"] is not None
    second = partner.get(f"{path}?cursor={first.json['nextCursor']}")
    assert len(second.json["data"]) >= 1
    assert not {i["id"] for i in first.json["data"]} & {i["id"] for i in second.json["data"]}


def test_player_lists_without_limit_or_cursor_return_the_whole_set(partner: Api, store: Store) -> None:
    _seed(store, partner, 60)
    whole = partner.get("/player-lists")
    assert len(whole.json["data"]) == 60
    assert whole.json["nextCursor"] is None
    paged = partner.get("/player-lists?limit=25")
    assert len(paged.json["data"]) == 25
    assert paged.json["nextCursor"] is not None
    from_cursor = partner.get(f"/player-lists?cursor={paged.json['nextCursor']}")
    assert len(from_cursor.json["data"]) == 35
    assert from_cursor.json["nextCursor"] is None
    assert [i["externalID"] for i in whole.json["data"]] == [f"list-{i}" for i in range(60)]
    assert walk(partner, "/player-lists", 25) == whole.json["data"]


@pytest.mark.parametrize("path", PARTNER_LISTS)
@pytest.mark.parametrize("limit", ["0", "101", "-1", "abc", "1.5", ""])
def test_limit_outside_one_to_one_hundred_is_400(partner: Api, path: str, limit: str) -> None:
    response = partner.get(f"{path}?limit={limit}")
    assert response.status_code == 400
    assert error_code(response) == "validation_failed"
    assert "limit" in response.json["error"]["details"]["query"]


@pytest.mark.parametrize("path", PARTNER_LISTS + OPERATOR_LISTS)
@pytest.mark.parametrize("cursor", ["not-a-cursor!", "abc", encode_cursor(3)[:-2] + "~~", "e30"])
def test_undecodable_cursor_is_400_invalid_cursor(partner: Api, operator: Api, path: str, cursor: str) -> None:
    api = operator if path.startswith("/operator") else partner
    response = api.get(f"{path}?cursor={cursor}")
    assert response.status_code == 400
    assert error_code(response) == "invalid_cursor"


def cursor_of(path: str, key: int) -> str:
    """The cursor a page of the partner list `path` ending at `key` gives (bound to its list)."""
    return f"{list_tag('/api/v1' + path)}.{encode_cursor(key)}"


@pytest.mark.parametrize(("issued_by", "used_on"), [("/tables", "/matches"), ("/broadcasts", "/tables"),
                                                    ("/player-lists", "/teams")])
def test_a_cursor_of_another_list_is_400_invalid_cursor(filled: Api, issued_by: str, used_on: str) -> None:
    cursor = filled.get(f"{issued_by}?limit=1").json["nextCursor"]
    assert cursor is not None
    response = filled.get(f"{used_on}?cursor={cursor}")
    assert response.status_code == 400
    assert error_code(response) == "invalid_cursor"
    assert filled.get(f"{issued_by}?cursor={cursor}").status_code == 200


def test_a_cursor_past_the_end_gives_an_empty_last_page(filled: Api) -> None:
    response = filled.get(f"/broadcasts?cursor={cursor_of('/broadcasts', 10**9)}")
    assert response.json == {"data": [], "nextCursor": None}


def test_pages_of_other_connections_do_not_leak(filled: Api, new_partner: Callable[..., Api]) -> None:
    other = new_partner(name="second")
    for path in ("/player-lists", "/teams", "/tables"):
        assert other.get(path + "?limit=1").json == {"data": [], "nextCursor": None}
