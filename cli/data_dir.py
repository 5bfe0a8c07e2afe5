"""The data dir's own commands (they own it, no server needed): init with the operator key file, export and
import, and `db upgrade` for PostgreSQL."""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from domain.settings import Settings

if TYPE_CHECKING:
    from storage.backend import AnyStore

from cli.errors import CliError

KEY_FILE = "operator.key"
INFO_FILE = "courtside.json"


def write_file_atomically(path: Path, text: str, mode: int = 0o600) -> None:
    """Write `path` whole or not at all (temp file, fsync, rename, fsync the dir): a crash never leaves half.
    Private by default: a data dir's files are 0600 (contract §8a). The temp file is this process's own: several
    processes serving one data dir (PostgreSQL, §12) each record their address at once without taking another's
    temp file away."""
    temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temp.unlink(missing_ok=True)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "w") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def open_private(path: Path) -> BinaryIO:
    """`path` opened to write from empty, `0600` whatever the umask or the mode of a file left there before (an
    export holds webhook secrets and players' emails; §16: `export` and `audit export` write `0600`)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # O_CREAT applies the mode only to a new file, and then through the umask
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def keep_private(data_dir: Path) -> None:
    """The data dir is 0700 and its files 0600 (contract §8a) on either backend: with PostgreSQL it holds the
    operator key and the server's address, and no store tightens it (TinyDB's does so again on open)."""
    os.chmod(data_dir, 0o700)
    for path in data_dir.iterdir():
        if path.is_file() and path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)


def _read_key_and_account(key_path: Path, info_path: Path) -> tuple[str | None, str | None]:
    """The operator key and account ID written by an earlier `init`, each None if missing or unreadable."""
    key = key_path.read_text().strip() if key_path.exists() else ""
    try:
        account_id = json.loads(info_path.read_text())["accountID"] if info_path.exists() else None
    except (ValueError, KeyError, TypeError):
        account_id = None
    return key or None, account_id if isinstance(account_id, str) else None


def init_data_dir(settings: Settings, store: AnyStore | None = None) -> dict[str, str]:
    """Create the data dir, default account and operator key; idempotent (the same object every time).

    The key file (mode 0600) is written before storage learns the key's hash, so a crash at any point leaves
    a data dir that the next `init` completes with the same key. `store` is the already open store of `serve`.
    """
    from domain.access.auth import bootstrap, has_operator_key, new_operator_key
    from domain.clock import SystemClock
    from storage.backend import open_store
    from storage.engine import StorageError
    from storage.repository import unit_of_work

    data_dir = settings.data_dir.resolve()
    key_path, info_path = data_dir / KEY_FILE, data_dir / INFO_FILE
    key, account_id = _read_key_and_account(key_path, info_path)
    if key and account_id and store is None:
        return {"dataDir": str(data_dir), "accountID": account_id, "operatorKey": key}
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    keep_private(data_dir)  # also a dir made beforehand (by hand, or by an older version) with other modes
    minted = not key
    if not key:
        key = new_operator_key()
        write_file_atomically(key_path, key + "\n", mode=0o600)
    try:
        opened = store or open_store(settings)
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        with unit_of_work(opened) as uow:
            if account_id and not uow.accounts.find():
                raise CliError(
                    f"{info_path} names account {account_id}, but the store in {data_dir} holds no account "
                    "(db.json and journal.jsonl are gone?); restore the data dir from a backup. Courtside never "
                    "starts an empty store over an existing one."
                )
            lost_key = minted and has_operator_key(uow)  # the key file was lost, not a new data dir
            account = bootstrap(uow, operator_key=key, now=SystemClock().now())
    finally:
        if store is None:
            opened.close()
    if account.id != account_id:
        write_file_atomically(info_path, json.dumps({"accountID": account.id}) + "\n")
    if lost_key:
        logging.getLogger("courtside").warning(
            "%s was missing: a new operator key was written there, and the lost key STILL WORKS. Once the server "
            "runs, revoke it with `courtside operator-key rotate`.", key_path)
    return {"dataDir": str(data_dir), "accountID": account.id, "operatorKey": key}


def db_upgrade(settings: Settings) -> dict[str, Any]:
    """Create or upgrade the PostgreSQL schema named by COURTSIDE_DATABASE_URL (versioned, idempotent)."""
    if not settings.database_url:
        raise CliError("`courtside db upgrade` needs COURTSIDE_DATABASE_URL=postgresql://... (the TinyDB data dir "
                       "needs no upgrade).")
    import psycopg

    from storage import pg_schema

    try:
        with psycopg.connect(settings.database_url, autocommit=True) as conn:
            before, after = pg_schema.upgrade(conn)
    except psycopg.Error as exc:
        raise CliError(f"Cannot upgrade the database at COURTSIDE_DATABASE_URL: {exc}".strip()) from exc
    return {"schemaVersion": after, "previousVersion": before, "upgraded": after != before}


def export_store(settings: Settings, out: Path) -> dict[str, Any]:
    """Write the whole store (TinyDB data dir or PostgreSQL) to `out` as JSON lines."""
    from storage.backend import open_store
    from storage.engine import StorageError
    from storage.transfer import export_to

    try:
        store = open_store(settings, read_only=True)  # an export changes nothing in the data dir it reads
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        temp = out.with_name(out.name + ".tmp")
        with open_private(temp) as file:
            count = export_to(store, file)
        os.replace(temp, out)
    finally:
        store.close()
    return {"out": str(out), "documents": count}


def import_store(settings: Settings, source: Path) -> dict[str, Any]:
    """Load an export into the configured store, which must be empty (IDs, hashes and deliveries are kept)."""
    from storage.backend import open_store
    from storage.engine import StorageError
    from storage.transfer import import_from

    if not source.is_file():
        raise CliError(f"{source} is not a file.")
    try:
        store = open_store(settings)
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        counts = import_from(store, source)
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    finally:
        store.close()
    return {"imported": sum(counts.values()), "tables": counts}
