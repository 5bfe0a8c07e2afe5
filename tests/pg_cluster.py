"""A throwaway PostgreSQL cluster for the tests: `initdb` in a temp dir, listening on a unix socket only.

Run as root (CI), the server runs as the `postgres` user (or `nobody`), since PostgreSQL refuses to run as root.
Each test gets its own database, copied from a template that `courtside db upgrade`'s code brought up to date.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from storage import pg_schema

TEMPLATE = "courtside_template"
SHARED = "courtside_tests"


def _bindir() -> Path:
    """Debian's newest /usr/lib/postgresql/N/bin, else wherever `initdb` is on PATH."""
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    if versions:
        return versions[-1].parent
    found = shutil.which("initdb")
    if found is None:
        raise RuntimeError("PostgreSQL is not installed: `apt-get install postgresql` (.ci/run does it).")
    return Path(found).parent


def _server_user() -> pwd.struct_passwd | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("Running as root and no `postgres` or `nobody` user to run PostgreSQL as.")


@dataclass
class Cluster:
    root: Path
    user: pwd.struct_passwd | None
    bindir: Path
    counter: itertools.count[int] = field(default_factory=itertools.count)
    shared_ready: bool = False

    @classmethod
    def start(cls) -> Cluster:
        user = _server_user()
        # beside the tests' temp dirs (tests/conftest.py puts them on /dev/shm where there is one): initdb's files
        # and their removal cost seconds on a disk the machine's other runs share
        root = Path(tempfile.mkdtemp(prefix="courtside-pg-", dir=os.environ.get("PYTEST_DEBUG_TEMPROOT")))
        cluster = cls(root, user, _bindir())
        if user is not None:
            os.chown(root, user.pw_uid, user.pw_gid)
        cluster._run("initdb", "-D", str(root / "data"), "-A", "trust", "-U", "courtside", "-E", "UTF8",
                     "--no-sync", "--no-instructions")
        options = (f"-k {root} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c max_connections=300")
        cluster._run("pg_ctl", "-D", str(root / "data"), "-o", options, "-l", str(root / "server.log"), "-w",
                     "start")
        with psycopg.connect(cluster.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {TEMPLATE}")
        with psycopg.connect(cluster.url(TEMPLATE), autocommit=True) as conn:
            pg_schema.upgrade(conn)
        return cluster

    def _run(self, tool: str, *args: str) -> None:
        kwargs: dict[str, Any] = {}
        if self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        subprocess.run([str(self.bindir / tool), *args], check=True, capture_output=True, cwd=self.root,
                       **kwargs)

    def url(self, database: str) -> str:
        return f"postgresql://courtside@/{database}?host={self.root}"

    def new_database(self, *, upgraded: bool = True) -> str:
        """A fresh database (schema at the latest version unless `upgraded` is False); returns its URL."""
        name = f"t{os.getpid()}_{next(self.counter)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            template = f" TEMPLATE {TEMPLATE} STRATEGY FILE_COPY" if upgraded else ""
            conn.execute(f"CREATE DATABASE {name}{template}")
        return self.url(name)

    def reused_database(self) -> str:
        """The one database most tests share, emptied first (much faster than a new database per test)."""
        url = self.url(SHARED)
        if not self.shared_ready:
            with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
                conn.execute(f"CREATE DATABASE {SHARED} TEMPLATE {TEMPLATE}")
            self.shared_ready = True
        with psycopg.connect(url, autocommit=True) as conn:  # DELETE: far cheaper than TRUNCATE on tiny tables
            conn.execute("".join(f"DELETE FROM {table};" for table in (*pg_schema.TABLES, "rate_windows")).encode())
            conn.execute("ALTER SEQUENCE doc_seq RESTART")
        return url

    def drop_database(self, url: str) -> None:
        name = url.split("?")[0].rsplit("/", 1)[1]
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


__all__ = ["Cluster", "pg_schema"]
