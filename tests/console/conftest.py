"""Console fixtures: a real `courtside serve`, a partner seeding it over HTTP, the operator API, AppTest."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT
from tests.eventually import eventually
from tests.server_process import ServerProcess
from tests.webhook_receiver import Receiver, running_receiver

APP = str(ROOT / "console" / "app.py")
PLAYERS = ("Ann Lee", "Bo Kim", "Cy Day", "Di Fox")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A webhook receiver on 127.0.0.1 answering 200."""
    yield from running_receiver()


@dataclass
class Partner:
    """A partner integration (developer key) that syncs data into the server over the partner API."""

    server: ServerProcess
    key: str

    def call(self, method: str, path: str, body: Any = None, expect: tuple[int, ...] = (200, 201)) -> Any:
        response = requests.request(method, self.server.base + path, json=body, timeout=30,
                                    headers={"Authorization": f"Bearer {self.key}"})
        assert response.status_code in expect, (method, path, response.status_code, response.text)
        return response.json().get("data")

    @property
    def connection_id(self) -> str:
        return str(self.call("GET", "/connection")["connectionID"])

    def broadcast(self, name: str, labels: list[str]) -> dict[str, Any]:
        return dict(self.call("POST", "/broadcasts", {"name": name, "tables": [{"label": x} for x in labels]}))

    def players(self, names: tuple[str, ...] = PLAYERS) -> None:
        """The `club` list: p1 Ann Lee, p2 Bo Kim, p3 Cy Day, p4 Di Fox."""
        players = [{"externalID": f"p{i}", "firstName": n.split()[0], "lastName": n.split()[1]}
                   for i, n in enumerate(names, start=1)]
        self.call("PUT", "/player-lists", {"externalID": "club", "name": "Club", "players": players})

    def match(self, external_id: str, table_id: str, a: str = "p1", b: str = "p2", **extra: Any) -> dict[str, Any]:
        body = {"externalID": external_id, "tableID": table_id, "playerListExternalID": "club",
                "playerA": {"externalID": a}, "playerB": {"externalID": b}} | extra
        return dict(self.call("PUT", "/matches", body))

    def webhook(self, url: str) -> None:
        self.call("PATCH", "/webhooks/configuration", {"url": url})


@dataclass
class Operator:
    """The operator API of the server, to check what the console did."""

    server: ServerProcess

    def data(self, method: str, path: str, body: Any = None) -> Any:
        response = self.server.operator_call(method, path, body)
        assert response.status_code < 400, response.text
        return response.json()["data"]

    def settled_deliveries(self, count: int, bound: float = 30) -> list[dict[str, Any]]:
        """The deliveries once `count` of them exist and none is pending or delivering (polled, bounded)."""
        def settled() -> list[dict[str, Any]] | None:
            deliveries = self.data("GET", "/operator/webhooks?limit=100")
            done = len(deliveries) >= count and all(d["status"] in ("delivered", "failed") for d in deliveries)
            return list(deliveries) if done else None

        return eventually(settled, timeout=bound, interval=0.1)

    def tables(self) -> dict[str, dict[str, Any]]:
        """Tables by label."""
        return {t["label"]: t for t in self.data("GET", "/operator/tables?limit=100")}


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    """A real server; webhooks are tried once (no retry) so a failing receiver gives a `failed` delivery."""
    return server_factory(env={"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0", "COURTSIDE_WEBHOOK_TIMEOUT": "5"})


@pytest.fixture
def partner(server: ServerProcess) -> Partner:
    return Partner(server, server.developer_key())


@pytest.fixture
def operator_api(server: ServerProcess) -> Operator:
    return Operator(server)


@pytest.fixture
def console(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], AppTest]:
    """Open a console page (a path under console/, e.g. `views/scoring.py`) against `server`; first run done."""
    monkeypatch.setenv("COURTSIDE_API_URL", f"http://127.0.0.1:{server.port}")
    monkeypatch.setenv("COURTSIDE_OPERATOR_KEY", server.operator_key)

    def open_page(page: str = "views/court_board.py") -> AppTest:
        app = AppTest.from_file(APP, default_timeout=60)
        app.run()
        if page != "views/court_board.py":
            app.switch_page(page).run()
        assert not app.exception, app.exception
        return app

    return open_page


def texts(app: AppTest, kind: str) -> list[str]:
    """The values of every element of one kind (`markdown`, `info`, `error`, `success`...)."""
    return [str(element.value) for element in getattr(app, kind)]
