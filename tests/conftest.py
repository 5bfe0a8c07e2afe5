"""Shared fixtures: the real Flask app over a real store in a temp dir, a fake clock, real server processes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from domain.access.auth import bootstrap
from domain.clock import FixedClock
from domain.settings import Settings
from storage.backend import AnyStore, open_store
from storage.repository import unit_of_work
from tests.pg_cluster import Cluster
from tests.server_process import ROOT as ROOT  # the worktree root, for the tests that import it from here
from tests.server_process import ServerProcess, free_port

OPERATOR_KEY = "svc_op_test-operator-key-0123456789abcdefghijklmnop"



MEMORY_TEMP = Path("/dev/shm")


def pytest_configure(config: pytest.Config) -> None:
    """Temp dirs (`tmp_path`: every test's data dir) on a memory file system where the machine has one: the store
    runs the same code, fsync included, but an fsync there costs nothing, where on a disk shared with the other
    runs of the machine it cost 30 ms and more (a dozen per API test). `--basetemp` or `PYTEST_DEBUG_TEMPROOT`
    still choose."""
    if config.option.basetemp is None and "PYTEST_DEBUG_TEMPROOT" not in os.environ and MEMORY_TEMP.is_dir() \
            and os.access(MEMORY_TEMP, os.W_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_TEMP)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


# Test areas whose tests run on both storage backends (contract §12): the `backend` fixture parameter. An e2e
# module joins with `BOTH_BACKENDS = True` (its servers then run on PostgreSQL too); the others test the data dir.
BOTH_BACKENDS = {"api", "domain"}


BACKENDS = ("tinydb", "postgres")


def selected_backends() -> list[str]:
    """The backends those tests run on: both (the README's `make test` and CI), or those named in
    `COURTSIDE_TEST_BACKENDS` (comma-separated; `make test-fast` runs `tinydb` only, CI runs the PostgreSQL copy)."""
    chosen = [name.strip() for name in os.environ.get("COURTSIDE_TEST_BACKENDS", ",".join(BACKENDS)).split(",")]
    unknown = [name for name in chosen if name not in BACKENDS]
    if unknown or not chosen:
        raise pytest.UsageError(f"COURTSIDE_TEST_BACKENDS names {unknown or 'nothing'}; use tinydb, postgres or both.")
    return chosen


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every test of the areas above that uses storage on TinyDB and on PostgreSQL (a parameter, not a copy)."""
    if "backend" in metafunc.fixturenames:
        area = Path(metafunc.definition.path).relative_to(ROOT / "tests").parts[0]
        if area in BOTH_BACKENDS or getattr(metafunc.module, "BOTH_BACKENDS", False):
            metafunc.parametrize("backend", selected_backends(), indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """Which storage backend the test's store uses: "tinydb" (the default) or "postgres"."""
    return str(getattr(request, "param", "tinydb"))


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the whole run, started on first use."""
    cluster = Cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture
def database_url(backend: str, request: pytest.FixtureRequest) -> Iterator[str | None]:
    """An empty, upgraded PostgreSQL database for a postgres test; None on TinyDB."""
    if backend != "postgres":
        yield None
        return
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    yield cluster.reused_database()


@pytest.fixture
def settings(tmp_path: Path, request: pytest.FixtureRequest, database_url: str | None) -> Settings:
    """The server's settings; a test may change some with `@pytest.mark.parametrize("settings", [{...}],
    indirect=True)` (the app is built once from them, as `serve` does)."""
    # Every response checked against its schema; output states never lag (tests read right after a write).
    base = Settings(data_dir=tmp_path / "data", check_responses=True, output_max_stale=0, event_max_stale=0,
                    database_url=database_url)
    return base.with_(**getattr(request, "param", {}))


@pytest.fixture
def store(settings: Settings, clock: FixedClock) -> Iterator[AnyStore]:
    opened = open_store(settings)
    with unit_of_work(opened) as uow:
        bootstrap(uow, operator_key=OPERATOR_KEY, now=clock.now())
    yield opened
    opened.close()


@pytest.fixture
def app(settings: Settings, store: AnyStore, clock: FixedClock) -> Flask:
    return create_app(build_services(settings, store, clock=clock))


@dataclass
class Api:
    """A thin JSON client over the Flask test client, with a default bearer credential."""

    client: FlaskClient
    token: str | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, *, token: str | None = "default", **kwargs: Any) -> Any:
        headers = dict(self.headers)
        headers.update(kwargs.pop("headers", {}))
        bearer = self.token if token == "default" else token
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        url = path if path.startswith("/api/") else "/api/v1" + path
        return self.client.open(url, method=method, headers=headers, **kwargs)

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> Any:
        return self.request("PUT", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> Any:
        return self.request("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)


@pytest.fixture
def operator(app: Flask) -> Api:
    """The operator, calling operator routes with the operator key."""
    return Api(app.test_client(), OPERATOR_KEY)


@pytest.fixture
def new_partner(app: Flask, operator: Api) -> Callable[..., Api]:
    """Make a partner connection (a developer key, all scopes unless `scope` narrows them)."""

    def make(scope: str | None = None, name: str = "partner") -> Api:
        body = {"name": name} | ({"scope": scope} if scope is not None else {})
        response = operator.post("/operator/keys", json=body)
        assert response.status_code == 201, response.json
        return Api(app.test_client(), response.json["data"]["key"])

    return make


@pytest.fixture
def partner(new_partner: Callable[..., Api]) -> Api:
    return new_partner()


@pytest.fixture
def server_factory(tmp_path: Path, database_url: str | None) -> Iterator[Callable[..., ServerProcess]]:
    """Start real server processes (on the test's backend); each is stopped at the end of the test."""
    started: list[ServerProcess] = []

    def make(data_dir: Path | None = None, env: dict[str, str] | None = None, start: bool = True) -> ServerProcess:
        server_env = dict(os.environ)
        if database_url is not None:
            server_env["COURTSIDE_DATABASE_URL"] = database_url
        server_env.update(env or {})
        server = ServerProcess(data_dir or tmp_path / "data", free_port(), server_env)
        started.append(server)
        return server.start() if start else server

    yield make
    for server in started:
        server.stop()


def read_json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip().startswith("{")]
