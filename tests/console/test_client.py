"""The console's API client against a real server: how each kind of failure is told apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests
import requests.adapters

from console.client import ApiError, ConsoleClient, ConsoleError, NotAvailable, Unreachable, court_words
from domain.settings import Settings
from tests.console.conftest import Operator, Partner
from tests.server_process import ServerProcess, free_port


@pytest.fixture
def api(server: ServerProcess) -> ConsoleClient:
    return ConsoleClient(f"http://127.0.0.1:{server.port}", server.operator_key)


def test_a_path_no_route_serves_is_not_available(api: ConsoleClient) -> None:
    with pytest.raises(NotAvailable, match=r"This server does not offer GET /api/v1/operator/nothing yet\."):
        api.call("GET", "/operator/nothing")
    with pytest.raises(NotAvailable, match=r"does not offer DELETE /api/v1/operator/tables"):
        api.call("DELETE", "/operator/tables")  # 405


def test_an_unknown_resource_is_the_apis_own_404(api: ConsoleClient) -> None:
    with pytest.raises(ApiError) as caught:
        api.delivery("0" * 40)
    assert caught.value.status == 404
    assert not isinstance(caught.value, NotAvailable)


def test_a_refused_change_carries_the_error_code(api: ConsoleClient) -> None:
    with pytest.raises(ApiError) as caught:
        api.create_app("", [], None)
    assert (caught.value.status, caught.value.code) == (400, "validation_failed")
    assert "validation_failed" not in str(caught.value) and "HTTP" not in str(caught.value)  # the message alone
    assert caught.value.technical == "validation_failed, HTTP 400"


def test_a_start_next_refusal_names_the_court_not_its_id(api: ConsoleClient, partner: Partner) -> None:
    broadcast = partner.broadcast("Club night", ["Court 1"])
    [table] = broadcast["tables"]
    with pytest.raises(ApiError) as caught:
        api.start_next(table["id"])
    assert caught.value.code == "queue_empty"
    assert str(caught.value) == "No match is waiting on Court 1 or in the court pool.", str(caught.value)


def test_court_words_say_courts_by_label_and_matches_without_id() -> None:
    labels = {"tbl_1": "Court 1"}
    assert court_words("Table 'tbl_1' is already playing match 'mat_9'.", labels) == \
        "Court 1 is already playing a match."
    assert court_words("Table 'tbl_x' is already playing match 'mat_9'.", {}) == \
        "This court is already playing a match."


def test_no_server_is_unreachable_and_no_key_is_said_plainly(tmp_path: Path) -> None:
    with pytest.raises(Unreachable, match="Cannot reach the Courtside API at http://127.0.0.1:"):
        ConsoleClient(f"http://127.0.0.1:{free_port()}", "svc_op_x").tables()
    keyless = ConsoleClient.from_settings(Settings(data_dir=tmp_path / "none"))
    with pytest.raises(ConsoleError, match="No operator key"):
        keyless.tables()


def test_lists_follow_next_cursor_to_the_end(api: ConsoleClient, server: ServerProcess) -> None:
    for _ in range(3):
        server.developer_key()
    assert len(api.all("/operator/connections", limit=1)) == 4  # and the house connection
    assert len(list(api.pages("/operator/connections", limit=1, max_items=2))) == 2


def test_the_broadcast_lists_of_the_console_follow_next_cursor(api: ConsoleClient, operator_api: Operator,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """People, draws, the pool and outputs page (contract §2): the console still gets every row, page by page."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {
        "name": "Paged", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    for number in range(2):
        operator_api.data("POST", "/operator/draws", {
            "broadcastID": broadcast["id"], "name": f"Group {number}", "format": "round_robin", "bestOf": 1,
            "entries": [{"players": [{"manualName": f"Player {number}{i}"}]} for i in range(3)]})
    asked: list[Any] = []
    pages = ConsoleClient.pages

    def one_a_page(self: ConsoleClient, path: str, **filters: Any) -> Any:
        asked.append(path)
        return pages(self, path, **(filters | {"limit": 1}))

    monkeypatch.setattr(ConsoleClient, "pages", one_a_page)
    assert len({p["personID"] for p in api.people(broadcast["id"])}) == 6
    assert [d["name"] for d in api.draws(broadcast["id"])] == ["Group 0", "Group 1"]
    assert len({m["id"] for m in api.pool(broadcast["id"])}) == 6
    outputs = api.outputs(broadcast["id"])
    assert len({o["id"] for o in outputs}) == len(outputs) >= 1 and outputs[-1]["kind"] == "venue"
    assert len(asked) == 4


def test_the_key_file_of_the_data_dir_is_used_when_no_key_is_set(server: ServerProcess) -> None:
    api = ConsoleClient.from_settings(Settings(api_url=f"http://127.0.0.1:{server.port}", data_dir=server.data_dir))
    assert api.operator_key == server.operator_key
    assert api.tables() == []


class AnswerLostOnce(requests.adapters.HTTPAdapter):
    """The network between the console and the API: the first scoring request reaches the server, and its
    answer is lost on the way back (a Wi-Fi drop at the wrong moment)."""

    def __init__(self) -> None:
        super().__init__()
        self.lost = 0

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        response = super().send(request, *args, **kwargs)
        if request.method == "POST" and str(request.url).endswith("/point") and not self.lost:
            self.lost += 1
            raise requests.ConnectionError("the answer was lost")
        return response


def test_a_console_tap_whose_answer_was_lost_is_sent_again_and_counts_once(server: ServerProcess, partner: Partner,
                                                                          operator_api: Operator) -> None:
    """§17: the console's scoring operations carry an opID; when the answer is lost it asks again with the same
    opID and the server answers as the first time: one tap, one point."""
    operator = operator_api
    partner.players()
    table = partner.broadcast("Open", ["Court 1"])["tables"][0]["id"]
    match = partner.match("m1", table)
    operator.data("POST", f"/operator/matches/{match['id']}/start")
    api = ConsoleClient(f"http://127.0.0.1:{server.port}", server.operator_key)
    network = AnswerLostOnce()
    api.session.mount("http://", network)
    version = operator.tables()["Court 1"]["activeMatch"]["scoreVersion"]
    answer = api.add_point(match["id"], "a", version=version, op_id="tap-1", device_id="console-1")
    assert network.lost == 1
    assert answer["gameScores"] == [{"a": 1, "b": 0}]
    assert operator.tables()["Court 1"]["activeMatch"]["gameScores"] == [{"a": 1, "b": 0}]
