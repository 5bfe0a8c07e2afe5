"""Contract §12 on the command line: `courtside db upgrade`, serve refusing an older schema, export and import."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from storage import pg_schema
from tests.conftest import ROOT
from tests.e2e.test_match_events import ENV, Partner
from tests.eventually import eventually
from tests.pg_cluster import Cluster
from tests.server_process import ServerProcess
from tests.webhook_receiver import Receiver, running_receiver


def courtside(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


def test_serve_refuses_a_database_without_the_schema_naming_db_upgrade(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.new_database(upgraded=False)
    result = courtside("serve", "--data-dir", str(tmp_path / "data"), "--port", "0",
                       env={"COURTSIDE_DATABASE_URL": url})
    assert result.returncode == 1
    assert "schema is at version 0" in result.stderr
    assert "run `courtside db upgrade` first" in result.stderr


def test_serve_refuses_an_older_schema(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.new_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM courtside_schema WHERE version = %s", (pg_schema.LATEST,))
    result = courtside("serve", "--data-dir", str(tmp_path / "data"), "--port", "0",
                       env={"COURTSIDE_DATABASE_URL": url})
    assert result.returncode == 1
    assert f"needs version {pg_schema.LATEST}: run `courtside db upgrade` first" in result.stderr


def test_db_upgrade_creates_the_schema_once_and_is_idempotent(pg_cluster: Cluster) -> None:
    env = {"COURTSIDE_DATABASE_URL": pg_cluster.new_database(upgraded=False)}
    first = courtside("db", "upgrade", env=env)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == {"schemaVersion": pg_schema.LATEST, "previousVersion": 0, "upgraded": True}
    again = courtside("db", "upgrade", env=env)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == {"schemaVersion": pg_schema.LATEST, "previousVersion": pg_schema.LATEST,
                                        "upgraded": False}
    with psycopg.connect(env["COURTSIDE_DATABASE_URL"]) as conn:
        rows = conn.execute("SELECT version FROM courtside_schema ORDER BY version").fetchall()
    assert [row[0] for row in rows] == list(range(1, pg_schema.LATEST + 1))


def test_db_upgrade_without_a_database_url_says_what_it_needs(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "COURTSIDE_DATABASE_URL"}
    result = subprocess.run([sys.executable, "-m", "cli.main", "db", "upgrade"], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, env=env)
    assert result.returncode == 1
    assert "needs COURTSIDE_DATABASE_URL" in result.stderr


def test_export_import_round_trip_tinydb_postgres_tinydb_is_identical(
    pg_cluster: Cluster, tmp_path: Path, server_factory: Callable[..., ServerProcess], receiver: Receiver,
) -> None:
    laptop = server_factory(tmp_path / "laptop", env=ENV)
    partner = Partner(laptop, receiver, events=None)
    partner.play("m-1")
    eventually(partner.settled_deliveries)
    laptop.kill(signal.SIGTERM)
    first = tmp_path / "first.jsonl"
    exported = courtside("export", "--data-dir", str(tmp_path / "laptop"), "--out", str(first))
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["documents"] > 3

    url = pg_cluster.new_database()
    loaded = courtside("import", str(first), env={"COURTSIDE_DATABASE_URL": url})
    assert loaded.returncode == 0, loaded.stderr
    second = tmp_path / "second.jsonl"
    assert courtside("export", "--out", str(second), env={"COURTSIDE_DATABASE_URL": url}).returncode == 0
    assert second.read_bytes() == first.read_bytes()

    back = courtside("import", "--data-dir", str(tmp_path / "back"), str(second))
    assert back.returncode == 0, back.stderr
    third = tmp_path / "third.jsonl"
    assert courtside("export", "--data-dir", str(tmp_path / "back"), "--out", str(third)).returncode == 0
    assert third.read_bytes() == first.read_bytes()
    tables = {json.loads(line).get("table") for line in first.read_text().splitlines()[1:]}
    assert {"accounts", "credentials", "broadcasts", "tables", "player_lists", "matches", "webhook_configs",
            "deliveries"} <= tables


def test_import_refuses_a_store_that_is_not_empty(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.new_database()
    init = courtside("init", "--data-dir", str(tmp_path / "data"), env={"COURTSIDE_DATABASE_URL": url})
    assert init.returncode == 0, init.stderr
    export = tmp_path / "x.jsonl"
    assert courtside("export", "--out", str(export), env={"COURTSIDE_DATABASE_URL": url}).returncode == 0
    again = courtside("import", str(export), env={"COURTSIDE_DATABASE_URL": url})
    assert again.returncode == 1
    assert "import needs an empty one" in again.stderr


def test_import_refuses_a_file_that_is_not_an_export(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.jsonl"
    bogus.write_text('{"hello": 1}\n')
    result = courtside("import", "--data-dir", str(tmp_path / "data"), str(bogus))
    assert result.returncode == 1
    assert "is not a Courtside export" in result.stderr


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()
