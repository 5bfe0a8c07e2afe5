"""Where the CLI finds the running server (contract §8a): `courtside serve` records its address in the data dir
while it serves, and a command that needs the server sends the operator key there and nowhere else.

`--api-url` (or `COURTSIDE_API_URL`; a root, with or without `/api/v1`) wins; then the recorded address (when the
process that wrote it still serves); with neither, a command that needs a server says none is running, instead of
trying a default address, where another program could be listening for the key.

"Still serves" is not "its PID is alive": a PID is reused, and a foreign process with the recorded PID and a
listener on the recorded port would get the key. A serving process holds an OS lock on one byte of
`server.lock` in the data dir, the byte at the offset of its PID, from before it records its address until it
forgets it or exits (the kernel drops the lock with the process, however it ends). The CLI believes a record only
while that byte is locked, which only the process that wrote the record can do. A byte per PID (not the whole
file) because several processes serve one data dir with PostgreSQL (§12), each with its own record in turn.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from cli.data_dir import write_file_atomically
from cli.errors import CliError
from domain.settings import Settings

ADDRESS_FILE = "server.json"
LOCK_FILE = "server.lock"
PREFIX = "/api/v1"
#: The lock this process holds while it serves a data dir: data dir -> the lock file's descriptor.
_HELD: dict[Path, int] = {}


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
    """Record the serving process's address and PID in the data dir (0600), for the CLI on this machine, after
    taking this process's byte of the server lock (held until `forget_address` or the process's end)."""
    if data_dir not in _HELD:
        fd = os.open(data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, os.getpid())
        except BaseException:
            os.close(fd)
            raise
        _HELD[data_dir] = fd
    write_file_atomically(data_dir / ADDRESS_FILE, json.dumps({"url": url, "pid": os.getpid()}) + "\n")


def forget_address(data_dir: Path) -> None:
    """Remove the record when this process wrote it (another server of the same data dir may have since), then
    give the lock back."""
    path = data_dir / ADDRESS_FILE
    if _read(path).get("pid") == os.getpid():
        path.unlink(missing_ok=True)
    fd = _HELD.pop(data_dir, None)
    if fd is not None:
        os.close(fd)  # closing the descriptor releases the lock


def _read(path: Path) -> dict[str, object]:
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _serving(data_dir: Path, pid: object) -> bool:
    """Whether the process `pid` serves `data_dir`: it holds its byte of the data dir's server lock. A live
    process that merely has the PID (reused) does not."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    if pid == os.getpid():  # POSIX locks do not conflict within a process, and a close here would drop ours
        return data_dir in _HELD
    try:
        fd = os.open(data_dir / LOCK_FILE, os.O_RDWR)
    except OSError:
        return False  # no lock file: no server of this version ever served here
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, pid)
    except (BlockingIOError, PermissionError):
        return True  # held: by the process with that PID, the only one that locks that byte
    except OSError:
        return False  # cannot tell: never send the key on a guess
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, pid)
        return False
    finally:
        os.close(fd)


def recorded_address(data_dir: Path) -> str | None:
    """The address a running server of this data dir recorded; None when none did, or its process no longer serves
    (gone, or its PID now another program's)."""
    found = _read(data_dir / ADDRESS_FILE)
    url = found.get("url")
    return url if isinstance(url, str) and url and _serving(data_dir, found.get("pid")) else None


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
