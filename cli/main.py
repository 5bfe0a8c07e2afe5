"""The `courtside` command: init, serve, console, up, and operator calls (apps, keys, oauth approve)."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import logging.handlers
import os
import queue
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from domain import links
from domain.settings import Settings, SettingsError

if TYPE_CHECKING:
    from storage.backend import AnyStore

KEY_FILE = "operator.key"
INFO_FILE = "courtside.json"


class CliError(Exception):
    """A failure to report in one line, exit status 1 (or 2 for usage)."""


def _print(obj: Any) -> None:
    print(json.dumps(obj, indent=None))


# ---------------------------------------------------------------- local commands (own the data dir)
def _write_file_atomically(path: Path, text: str, mode: int = 0o644) -> None:
    """Write `path` whole or not at all (temp file, fsync, rename, fsync the dir): a crash never leaves half."""
    temp = path.with_name(path.name + ".tmp")
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
    from domain.auth import bootstrap, has_operator_key, new_operator_key
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
    minted = not key
    if not key:
        key = new_operator_key()
        _write_file_atomically(key_path, key + "\n", mode=0o600)
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
        _write_file_atomically(info_path, json.dumps({"accountID": account.id}) + "\n")
    if lost_key:
        logging.getLogger("courtside").warning(
            "%s was missing: a new operator key was written there, and the lost key STILL WORKS. Once the server "
            "runs, revoke it with `courtside operator-key rotate`.", key_path)
    return {"dataDir": str(data_dir), "accountID": account.id, "operatorKey": key}


def lan_address() -> str:
    """This machine's address on the local network (the interface of its default route; no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the route
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def phone_settings(settings: Settings, port: int) -> Settings:
    """Bound to every interface (`--host 0.0.0.0`) without `COURTSIDE_PUBLIC_URL`: phone links use this machine's
    network address, which phones on the venue's Wi-Fi can reach."""
    if settings.public_url or settings.host not in ("0.0.0.0", "::", ""):
        return settings
    return settings.with_(public_url=f"http://{lan_address()}:{port}")


def serve(settings: Settings) -> None:
    """Run the API and the webhook dispatcher in this one process until SIGTERM or SIGINT.

    The data dir is locked first, so a second `serve` fails at once; on a signal the server stops taking
    connections, lets requests under way finish, stops the dispatcher and closes (compacts) the store.
    """
    from storage.backend import describe, open_store
    from storage.engine import StorageError

    log = logging.getLogger("courtside")
    listener = _log_off_the_request_path()
    try:
        store = open_store(settings)
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        init_data_dir(settings, store)
        from api.app import create_app
        from api.bootstrap import bootstrap
        from cli.serving import venue_server

        settings = phone_settings(settings, settings.port)
        services = bootstrap(settings, store)
        dispatcher = services.dispatcher
        app = create_app(services)
        try:
            server = venue_server(app, settings)
        except OSError as exc:
            raise CliError(f"Cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}") from exc
    except BaseException:
        store.close()
        raise
    gc.collect()
    gc.freeze()  # the loaded documents and the app live as long as the process: keep full GC passes off them

    def stop(signum: int, frame: Any) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)  # a second signal must not interrupt the clean stop
        log.info("%s received, stopping", signal.Signals(signum).name)
        raise KeyboardInterrupt

    base = f"http://{settings.host}:{server.effective_port}/api/v1"
    try:
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        dispatcher.start()
        log.info("Courtside API on %s (docs %s/docs, health %s/health, %s)", base, base, base, describe(settings))
        if settings.public_url:
            log.info("Scorer and sign-up links use %s (phones on this network)", settings.public_url)
        server.run()  # returns when a signal raised KeyboardInterrupt (waitress stops its threads then)
    except KeyboardInterrupt:
        pass
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        server.close()
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        dispatcher.shutdown()
        store.close()
        log.info("stopped cleanly")
        listener.stop()


def _redact_keys(record: logging.LogRecord) -> bool:
    """No public link key in any log line (contract §8a): access lines, errors and tracebacks alike. Runs in the
    log thread, on the record as the queue handler prepared it (message and traceback already text)."""
    record.msg = links.redact(record.getMessage())
    record.args = None
    if record.exc_text:
        record.exc_text = links.redact(record.exc_text)
    return True


def _log_off_the_request_path() -> logging.handlers.QueueListener:
    """Request threads only queue their log records (the access log's line per request); one thread formats and
    writes them, so requests never wait on the stream's lock or its write."""
    root = logging.getLogger()
    records: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    for handler in root.handlers:
        handler.addFilter(_redact_keys)
    listener = logging.handlers.QueueListener(records, *root.handlers, respect_handler_level=True)
    root.handlers = [logging.handlers.QueueHandler(records)]
    listener.start()
    # waitress warns "Task queue depth is N" for every request that waits for a free thread: under load that is
    # a log line per request, saying only that the server is busy.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return listener


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
        store = open_store(settings)
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        temp = out.with_name(out.name + ".tmp")
        with open(temp, "wb") as file:
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


# ---------------------------------------------------------------- the audit log (contract §16)
def _audit_chains(settings: Settings) -> Iterator[tuple[str, Iterator[Any]]]:
    """Each account's audit chain, oldest first: from the store (the data dir, or COURTSIDE_DATABASE_URL), or,
    while a server owns the data dir, from that server's operator API (the hashes are checked here either way)."""
    from domain import audit
    from storage.backend import open_store
    from storage.engine import DataDirBusy, StorageError
    from storage.repository import unit_of_work

    try:
        store = open_store(settings)
    except DataDirBusy:
        yield "", (audit.from_view("", view) for view in reversed(_served_audit(settings)))
        return
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        with unit_of_work(store) as uow:
            for account in uow.accounts.find():
                yield account.id, audit.chain(uow, account.id)
    finally:
        store.close()


def _served_audit(settings: Settings) -> list[dict[str, Any]]:
    """Every entry of the running server's account, newest first, over its operator API."""
    from console.client import ConsoleClient, ConsoleError

    client = ConsoleClient.from_settings(settings)
    try:
        return client.all("/operator/audit", max_items=10**9)
    except ConsoleError as exc:
        raise CliError(f"The data dir is in use by a running server, and its API answered: {exc}") from exc


def audit_verify(settings: Settings) -> tuple[dict[str, Any], bool]:
    """Walk every account's chain: the entry count, and the first bad `seq` of a chain that was changed, had an
    entry removed or reordered. Returns the report and whether every chain is intact."""
    from domain import audit

    total, bad = 0, None
    for account_id, chain in _audit_chains(settings):
        verdict = audit.walk(account_id, chain)
        total += verdict.count
        if not verdict.intact and bad is None:
            bad = verdict
    if bad is None:
        return {"entries": total, "intact": True}, True
    return {"entries": total, "intact": False, "firstBadSeq": bad.first_bad, "accountID": bad.account_id or None}, False


def audit_export(settings: Settings, out: Path) -> dict[str, Any]:
    """Write every entry (oldest first) to `out` as JSON lines, one entry per line as the API shows it."""
    from domain import audit

    temp = out.with_name(out.name + ".tmp")
    count = 0
    with open(temp, "wb") as file:
        for _account_id, chain in _audit_chains(settings):
            for entry in chain:
                file.write(audit.canonical(entry.view()) + b"\n")
                count += 1
    os.replace(temp, out)
    return {"out": str(out), "entries": count}


# ---------------------------------------------------------------- operator API calls
def call_operator(settings: Settings, method: str, path: str, body: dict[str, Any]) -> Any:
    """Call an operator route of the running server with the console's HTTP client; return `data`, or fail with
    the API's message. The key: `--operator-key`, else COURTSIDE_OPERATOR_KEY, else the data dir's key file."""
    from console.client import ApiError, ConsoleClient, ConsoleError, Unreachable

    client = ConsoleClient.from_settings(settings)
    if client.operator_key is None:
        raise CliError(f"No operator key: pass --operator-key, set COURTSIDE_OPERATOR_KEY, or run `courtside init` "
                       f"({settings.data_dir / KEY_FILE}).")
    try:
        return client.data(method, "/operator" + path, json=body)
    except Unreachable as exc:
        raise CliError(f"Cannot reach the Courtside API at {settings.api_url}: is `courtside serve` running?") from exc
    except ApiError as exc:
        raise CliError(f"{exc.code}: {exc.message}") from exc
    except ConsoleError as exc:
        raise CliError(str(exc)) from exc


# ---------------------------------------------------------------- argument parsing
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="courtside", description="Courtside tournament management service")
    sub = parser.add_subparsers(dest="command", required=True)

    data = argparse.ArgumentParser(add_help=False)
    data.add_argument("--data-dir", type=Path)
    remote = argparse.ArgumentParser(add_help=False)
    remote.add_argument("--api-url")
    remote.add_argument("--operator-key")
    remote.add_argument("--data-dir", type=Path)

    sub.add_parser("init", parents=[data], help="create the data dir, account and operator key")
    serve_p = sub.add_parser("serve", parents=[data], help="run the API and webhook dispatcher")
    serve_p.add_argument("--host")
    serve_p.add_argument("--port", type=int)
    console_p = sub.add_parser("console", parents=[remote], help="run the operator console")
    console_p.add_argument("--port", type=int, dest="console_port")
    up_p = sub.add_parser("up", parents=[data], help="serve and console together")
    up_p.add_argument("--host")
    up_p.add_argument("--port", type=int)
    up_p.add_argument("--console-port", type=int)

    apps = sub.add_parser("apps", help="partner applications").add_subparsers(dest="action", required=True)
    apps_create = apps.add_parser("create", parents=[remote])
    apps_create.add_argument("--name", required=True)
    apps_create.add_argument("--redirect-uri", required=True, action="append")
    apps_create.add_argument("--scope")
    apps_create.add_argument("--legacy", action="store_true", help="allow authorization without PKCE")

    keys = sub.add_parser("keys", help="developer keys").add_subparsers(dest="action", required=True)
    keys_create = keys.add_parser("create", parents=[remote])
    keys_create.add_argument("--name")
    keys_create.add_argument("--scope")

    oauth = sub.add_parser("oauth", help="OAuth consent without a browser").add_subparsers(
        dest="action", required=True
    )
    approve = oauth.add_parser("approve", parents=[remote])
    approve.add_argument("--client-id", required=True)
    approve.add_argument("--redirect-uri", required=True)
    approve.add_argument("--code-challenge")
    approve.add_argument("--scope")
    approve.add_argument("--state")
    export_p = sub.add_parser("export", parents=[data], help="write the whole store to a file (JSON lines)")
    export_p.add_argument("--out", type=Path, required=True)
    import_p = sub.add_parser("import", parents=[data], help="load an export into an empty store")
    import_p.add_argument("file", type=Path)
    db = sub.add_parser("db", help="the PostgreSQL database").add_subparsers(dest="action", required=True)
    db.add_parser("upgrade", help="create or upgrade the schema (COURTSIDE_DATABASE_URL)")
    rotate = sub.add_parser("operator-key", help="the operator key").add_subparsers(dest="action", required=True)
    rotate.add_parser("rotate", parents=[remote], help="new operator key; every older one stops working")
    audit_p = sub.add_parser("audit", help="the audit log").add_subparsers(dest="action", required=True)
    audit_p.add_parser("verify", parents=[remote], help="walk the hash chain: entry count, or the first bad seq")
    audit_export_p = audit_p.add_parser("export", parents=[remote], help="write the audit log as JSON lines")
    audit_export_p.add_argument("--out", type=Path, required=True)
    return parser


# Options whose value may start with `-` (a PKCE challenge is base64url): `--opt -abc` is read as `--opt=-abc`.
DASH_VALUE_OPTIONS = {"--code-challenge", "--state", "--scope", "--name", "--client-id", "--redirect-uri"}


def _join_dash_values(argv: list[str]) -> list[str]:
    """Rewrite `--opt -value` as `--opt=-value` for the options above, so argparse keeps the value."""
    joined: list[str] = []
    index = 0
    while index < len(argv):
        current = argv[index]
        following = argv[index + 1] if index + 1 < len(argv) else None
        if (current in DASH_VALUE_OPTIONS and following is not None and following.startswith("-")
                and not following.startswith("--") and following not in ("-h",)):
            joined.append(f"{current}={following}")
            index += 2
        else:
            joined.append(current)
            index += 1
    return joined


def run(argv: list[str]) -> int:
    args = _parser().parse_args(_join_dash_values(argv))
    overrides = {
        key: getattr(args, key, None)
        for key in ("data_dir", "host", "port", "api_url", "operator_key", "console_port")
    }
    try:
        settings = Settings.from_env(**overrides)
    except SettingsError as exc:
        raise CliError(str(exc)) from exc
    command = args.command if not hasattr(args, "action") else f"{args.command} {args.action}"
    if command == "init":
        _print(init_data_dir(settings))
    elif command == "serve":
        serve(settings)
    elif command == "console":
        from console.launch import run_console

        return run_console(settings)
    elif command == "up":
        from console.launch import run_up

        return run_up(settings)
    elif command == "export":
        _print(export_store(settings, args.out))
    elif command == "import":
        _print(import_store(settings, args.file))
    elif command == "audit verify":
        report, intact = audit_verify(settings)
        _print(report)
        return 0 if intact else 1
    elif command == "audit export":
        _print(audit_export(settings, args.out))
    elif command == "db upgrade":
        _print(db_upgrade(settings))
    elif command == "keys create":
        body: dict[str, Any] = {"name": args.name, "scope": args.scope}
        _print(call_operator(settings, "POST", "/keys", {k: v for k, v in body.items() if v is not None}))
    elif command == "apps create":
        body = {"name": args.name, "redirectURIs": args.redirect_uri, "scope": args.scope,
                "legacy": True if args.legacy else None}
        _print(call_operator(settings, "POST", "/apps", {k: v for k, v in body.items() if v is not None}))
    elif command == "oauth approve":
        body = {
            "clientID": args.client_id, "redirectURI": args.redirect_uri,
            "codeChallenge": args.code_challenge, "scope": args.scope, "state": args.state,
        }
        _print(call_operator(settings, "POST", "/oauth/approve", {k: v for k, v in body.items() if v is not None}))
    elif command == "operator-key rotate":
        rotated = call_operator(settings, "POST", "/operator-key/rotate", {})
        key_path = settings.data_dir.resolve() / KEY_FILE
        _write_file_atomically(key_path, rotated["operatorKey"] + "\n", mode=0o600)
        _print({"operatorKey": rotated["operatorKey"], "revoked": rotated["revoked"], "keyFile": str(key_path)})
    return 0


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except CliError as exc:
        print(f"courtside: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
