"""Where the CLI finds the running server (contract §8a): `courtside serve` records its address in the data dir
while it serves, and a command that needs the server sends the operator key there and nowhere else.

`--api-url` (or `COURTSIDE_API_URL`; a root, with or without `/api/v1`) wins; then the recorded address (when the
process that wrote it still runs); with neither, a command that needs a server says none is running, instead of
trying a default address, where another program could be listening for the key.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cli.data_dir import write_file_atomically
from cli.errors import CliError
from domain.settings import Settings

ADDRESS_FILE = "server.json"
PREFIX = "/api/v1"


def api_root(url: str) -> str:
    """The server's root from a URL given with or without the API prefix (`…/api/v1` is not doubled)."""
    root = url.strip().rstrip("/")
    return root[: -len(PREFIX)] if root.endswith(PREFIX) else root


def local_url(host: str, port: int) -> str:
    """The address this machine reaches a server bound to `host` at (every interface: the loopback one)."""
    shown = "127.0.0.1" if host in ("", "0.0.0.0") else "[::1]" if host == "::" else (
        f"[{host}]" if ":" in host else host)
    return f"http://{shown}:{port}"


def record_address(data_dir: Path, url: str) -> None:
    """Record the serving process's address and PID in the data dir (0600), for the CLI on this machine."""
    write_file_atomically(data_dir / ADDRESS_FILE, json.dumps({"url": url, "pid": os.getpid()}) + "\n")


def forget_address(data_dir: Path) -> None:
    """Remove the record when this process wrote it (another server of the same data dir may have since)."""
    path = data_dir / ADDRESS_FILE
    if _read(path).get("pid") == os.getpid():
        path.unlink(missing_ok=True)


def _read(path: Path) -> dict[str, object]:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _running(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recorded_address(data_dir: Path) -> str | None:
    """The address a running server of this data dir recorded; None when none did, or its process is gone."""
    found = _read(data_dir / ADDRESS_FILE)
    url = found.get("url")
    return url if isinstance(url, str) and url and _running(found.get("pid")) else None


def server_settings(settings: Settings, given_url: str | None, *, required: bool) -> Settings:
    """`settings` with `api_url` the server to call: the given URL's root, else the recorded address; else, when
    `required`, fail saying no server is running (else `api_url` is left empty)."""
    if given_url:
        return settings.with_(api_url=api_root(given_url))
    recorded = recorded_address(settings.data_dir.resolve())
    if recorded:
        return settings.with_(api_url=recorded)
    if required:
        raise CliError(f"No Courtside server is running for the data dir {settings.data_dir.resolve()} (it records "
                       "its address there while it serves): start `courtside serve`, or pass --api-url.")
    return settings.with_(api_url="")
