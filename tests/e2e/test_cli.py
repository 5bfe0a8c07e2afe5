"""The `courtside` CLI (contract §1): `init`, and the operator calls `keys create`, `apps create`, `oauth approve`."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from tests.conftest import ROOT
from tests.server_process import ServerProcess, free_port

REDIRECT = "https://partner.example/cb"


def clean_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("COURTSIDE_")}
    return env | extra


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env or clean_env(),
                          capture_output=True, text=True, timeout=60)


def output_of(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    parsed: dict[str, Any] = json.loads(lines[0])
    return parsed


def challenge_of(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


def verifier_with_dash_challenge() -> str:
    """A PKCE verifier whose S256 challenge starts with `-` (deterministic search)."""
    return next(v for v in (f"verifier-{i:040d}" for i in range(10_000)) if challenge_of(v).startswith("-"))


@pytest.fixture
def server(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory()


def remote(server: ServerProcess) -> list[str]:
    return ["--api-url", f"http://127.0.0.1:{server.port}", "--data-dir", str(server.data_dir)]


def test_init_is_idempotent_and_prints_the_same_object(tmp_path: Path) -> None:
    data_dir = tmp_path / "club"
    first = output_of(cli("init", "--data-dir", str(data_dir)))
    second = output_of(cli("init", f"--data-dir={data_dir}"))
    assert first == second
    assert list(first) == ["dataDir", "accountID", "operatorKey"]
    assert first["dataDir"] == str(data_dir.resolve())
    assert first["accountID"].startswith("acc_")
    assert first["operatorKey"].startswith("svc_op_")
    key_file = data_dir / "operator.key"
    assert key_file.read_text().strip() == first["operatorKey"]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    files = {p.name: stat.S_IMODE(p.stat().st_mode) for p in data_dir.iterdir() if p.is_file()}
    assert "courtside.json" in files and set(files.values()) == {0o600}, files  # §8a: every file of the data dir


def test_init_reads_the_data_dir_from_the_environment(tmp_path: Path) -> None:
    data_dir = tmp_path / "from-env"
    printed = output_of(cli("init", env=clean_env(COURTSIDE_DATA_DIR=str(data_dir))))
    assert printed["dataDir"] == str(data_dir.resolve())
    assert (data_dir / "operator.key").exists()


def test_keys_create_prints_a_working_developer_key(server: ServerProcess) -> None:
    printed = output_of(cli("keys", "create", "--name", "laptop", *remote(server)))
    assert list(printed) == ["key", "connectionID", "scopes"]
    assert printed["key"].startswith("svc_test_")
    me = requests.get(server.base + "/connection", timeout=10, headers={"Authorization": f"Bearer {printed['key']}"})
    assert me.status_code == 200
    assert me.json()["data"]["connectionID"] == printed["connectionID"]
    assert me.json()["data"]["scopes"] == printed["scopes"]


def test_keys_create_narrows_scopes_and_takes_equals_options(server: ServerProcess) -> None:
    printed = output_of(cli("keys", "create", "--scope=matches.write matches.read",
                            f"--api-url=http://127.0.0.1:{server.port}", f"--operator-key={server.operator_key}"))
    assert printed["scopes"] == ["matches.read", "matches.write"]


def test_apps_create_and_oauth_approve_with_a_dash_challenge(server: ServerProcess) -> None:
    app = output_of(cli("apps", "create", "--name", "Scoreboard", "--redirect-uri", REDIRECT,
                        "--scope", "matches.read matches.write", *remote(server)))
    assert list(app) == ["appID", "clientID", "clientSecret", "name", "redirectURIs", "scopes"]
    assert app["name"] == "Scoreboard"
    assert app["redirectURIs"] == [REDIRECT]
    assert app["scopes"] == ["matches.read", "matches.write"]

    verifier = verifier_with_dash_challenge()
    challenge = challenge_of(verifier)
    approved = output_of(cli("oauth", "approve", f"--client-id={app['clientID']}", f"--redirect-uri={REDIRECT}",
                             f"--code-challenge={challenge}", "--scope=matches.read", "--state=s-42",
                             *remote(server)))
    assert list(approved) == ["code", "redirectURL"]
    assert parse_qs(urlsplit(approved["redirectURL"]).query) == {"code": [approved["code"]], "state": ["s-42"]}

    token = requests.post(server.base + "/oauth/token", timeout=10, data={
        "grant_type": "authorization_code", "code": approved["code"], "code_verifier": verifier,
        "client_id": app["clientID"], "client_secret": app["clientSecret"], "redirect_uri": REDIRECT,
    })
    assert token.status_code == 200, token.text
    assert token.json()["scope"] == "matches.read"


def test_oauth_approve_takes_a_dash_challenge_as_a_separate_argument(server: ServerProcess) -> None:
    app = output_of(cli("apps", "create", "--name", "Spaces", "--redirect-uri", REDIRECT, *remote(server)))
    challenge = challenge_of(verifier_with_dash_challenge())
    approved = output_of(cli("oauth", "approve", "--client-id", app["clientID"], "--redirect-uri", REDIRECT,
                             "--code-challenge", challenge, *remote(server)))
    assert list(approved) == ["code", "redirectURL"]
    assert "state" not in parse_qs(urlsplit(approved["redirectURL"]).query)


def test_apps_create_accepts_several_redirect_uris(server: ServerProcess) -> None:
    app = output_of(cli("apps", "create", "--name=Two", "--redirect-uri", REDIRECT,
                        "--redirect-uri=http://127.0.0.1:7000/cb", *remote(server)))
    assert app["redirectURIs"] == [REDIRECT, "http://127.0.0.1:7000/cb"]
    assert len(app["scopes"]) == 14


def test_legacy_app_may_be_approved_without_a_challenge(server: ServerProcess) -> None:
    legacy = output_of(cli("apps", "create", "--name", "Old", "--redirect-uri", REDIRECT, "--legacy", *remote(server)))
    assert list(legacy) == ["appID", "clientID", "clientSecret", "name", "redirectURIs", "scopes"]
    approved = output_of(cli("oauth", "approve", "--client-id", legacy["clientID"], "--redirect-uri", REDIRECT,
                             *remote(server)))
    assert approved["code"]
    modern = output_of(cli("apps", "create", "--name", "New", "--redirect-uri", REDIRECT, *remote(server)))
    refused = cli("oauth", "approve", "--client-id", modern["clientID"], "--redirect-uri", REDIRECT, *remote(server))
    assert refused.returncode == 1
    assert "invalid_request" in refused.stderr


def test_api_errors_exit_non_zero_with_the_apis_message(server: ServerProcess) -> None:
    result = cli("apps", "create", "--name", "Bad", "--redirect-uri", REDIRECT, "--scope", "nope.read",
                 *remote(server))
    assert result.returncode == 1
    assert result.stdout == ""
    assert "invalid_scope" in result.stderr
    approve = cli("oauth", "approve", "--client-id", "client_unknown", "--redirect-uri", REDIRECT,
                  "--code-challenge=" + "-" * 43, *remote(server))
    assert approve.returncode == 1
    assert "not_found" in approve.stderr


def test_wrong_operator_key_is_reported(server: ServerProcess) -> None:
    result = cli("keys", "create", f"--api-url=http://127.0.0.1:{server.port}", "--operator-key", "svc_op_wrong")
    assert result.returncode == 1
    assert "invalid_token" in result.stderr


def test_no_server_running_is_a_clear_error(tmp_path: Path) -> None:
    output_of(cli("init", "--data-dir", str(tmp_path / "d")))
    port = free_port()
    result = cli("keys", "create", "--data-dir", str(tmp_path / "d"), "--api-url", f"http://127.0.0.1:{port}")
    assert result.returncode == 1
    assert result.stdout == ""
    assert "Cannot reach the Courtside API" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_operator_key_is_a_clear_error(tmp_path: Path) -> None:
    result = cli("keys", "create", "--data-dir", str(tmp_path / "empty"), "--api-url", "http://127.0.0.1:9")
    assert result.returncode == 1
    assert "No operator key" in result.stderr


def test_missing_required_option_is_a_usage_error() -> None:
    result = cli("apps", "create", "--name", "x")
    assert result.returncode == 2
    assert "--redirect-uri" in result.stderr


@pytest.mark.parametrize(("variable", "value"), [("COURTSIDE_PORT", "abc"), ("COURTSIDE_WEBHOOK_TIMEOUT", "soon"),
                                                 ("COURTSIDE_WEBHOOK_RETRY_SCHEDULE", "0,five")])
def test_a_bad_environment_value_is_one_line_naming_the_variable(tmp_path: Path, variable: str, value: str) -> None:
    env = dict(os.environ) | {variable: value}
    result = subprocess.run([sys.executable, "-m", "cli.main", "init", "--data-dir", str(tmp_path / "d")],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and variable in lines[0] and repr(value) in lines[0]


def test_a_lost_operator_key_is_reported_and_rotate_revokes_it(server_factory: Callable[..., ServerProcess],
                                                               tmp_path: Path) -> None:
    """Hardening issue, item 7: a lost key file mints a new key (said on stderr), the old key still works until
    `courtside operator-key rotate`, which revokes every older key and writes the new one to the key file."""
    data_dir = tmp_path / "club"
    lost = output_of(cli("init", "--data-dir", str(data_dir)))["operatorKey"]
    (data_dir / "operator.key").unlink()
    again = cli("init", "--data-dir", str(data_dir))
    minted = output_of(again)["operatorKey"]
    assert minted != lost
    assert "operator.key was missing" in again.stderr and "courtside operator-key rotate" in again.stderr
    server = server_factory(data_dir=data_dir)

    def works(key: str) -> bool:
        response = requests.get(server.base + "/operator/rules", headers={"Authorization": f"Bearer {key}"},
                                timeout=30)
        return response.status_code == 200

    assert works(lost) and works(minted)  # as the warning says
    rotated = output_of(cli("operator-key", "rotate", *remote(server)))
    assert rotated["revoked"] == 2 and rotated["operatorKey"].startswith("svc_op_")
    assert (data_dir / "operator.key").read_text().strip() == rotated["operatorKey"]
    assert stat.S_IMODE((data_dir / "operator.key").stat().st_mode) == 0o600
    assert not works(lost) and not works(minted) and works(rotated["operatorKey"])
