"""The `courtside` command: init, serve, console, up, and operator calls (apps, keys, oauth approve)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

import requests

from domain.settings import Settings

KEY_FILE = "operator.key"
INFO_FILE = "courtside.json"


class CliError(Exception):
    """A failure to report in one line, exit status 1 (or 2 for usage)."""


def _print(obj: Any) -> None:
    print(json.dumps(obj, indent=None))


# ---------------------------------------------------------------- local commands (own the data dir)
def init_data_dir(settings: Settings) -> dict[str, str]:
    """Create the data dir, default account and operator key; idempotent."""
    from domain.auth import bootstrap, new_operator_key
    from domain.clock import SystemClock
    from storage.engine import DataDirBusy, Store
    from storage.repository import unit_of_work

    data_dir = settings.data_dir.resolve()
    key_path, info_path = data_dir / KEY_FILE, data_dir / INFO_FILE
    if key_path.exists() and info_path.exists():
        info = json.loads(info_path.read_text())
        return {"dataDir": str(data_dir), "accountID": info["accountID"], "operatorKey": key_path.read_text().strip()}
    data_dir.mkdir(parents=True, exist_ok=True)
    key = key_path.read_text().strip() if key_path.exists() else new_operator_key()
    try:
        store = Store(data_dir)
    except DataDirBusy as exc:
        raise CliError(str(exc)) from exc
    try:
        with unit_of_work(store) as uow:
            account = bootstrap(uow, operator_key=key, now=SystemClock().now())
    finally:
        store.close()
    if not key_path.exists():
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(key + "\n")
    info_path.write_text(json.dumps({"accountID": account.id}) + "\n")
    return {"dataDir": str(data_dir), "accountID": account.id, "operatorKey": key}


def serve(settings: Settings) -> None:
    """Run the API and the webhook dispatcher in this one process until SIGTERM or SIGINT."""
    from waitress import create_server

    from api.app import create_app
    from domain.clock import SystemClock
    from scheduler.dispatcher import Dispatcher
    from storage.engine import DataDirBusy, Store

    init_data_dir(settings)
    try:
        store = Store(settings.data_dir, compact_bytes=settings.journal_compact_bytes)
    except DataDirBusy as exc:
        raise CliError(str(exc)) from exc
    clock = SystemClock()
    dispatcher = Dispatcher(store, settings, clock)
    app = create_app(settings, store, clock=clock, wake_dispatcher=dispatcher.wake)
    server = create_server(app, host=settings.host, port=settings.port, threads=settings.threads)
    log = logging.getLogger("courtside")
    base = f"http://{settings.host}:{server.effective_port}/api/v1"  # type: ignore[union-attr]
    log.info("Courtside API on %s (docs %s/docs, data dir %s)", base, base, settings.data_dir.resolve())

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    dispatcher.start()
    try:
        server.run()
    except KeyboardInterrupt:
        log.info("stopping")
    finally:
        server.close()
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)  # type: ignore[union-attr]
        dispatcher.shutdown()
        store.close()
        log.info("stopped cleanly")


# ---------------------------------------------------------------- operator API calls
def _operator_key(settings: Settings) -> str:
    if settings.operator_key:
        return settings.operator_key
    key_path = settings.data_dir / KEY_FILE
    if key_path.exists():
        return key_path.read_text().strip()
    raise CliError(
        f"No operator key: pass --operator-key, set COURTSIDE_OPERATOR_KEY, or run `courtside init` ({key_path})."
    )


def call_operator(settings: Settings, method: str, path: str, body: dict[str, Any]) -> Any:
    """Call an operator route of the running server; return `data`, or fail with the API's message."""
    url = settings.api_url.rstrip("/") + "/api/v1/operator" + path
    try:
        response = requests.request(
            method, url, json=body, timeout=30,
            headers={"Authorization": f"Bearer {_operator_key(settings)}"},
        )
    except requests.RequestException as exc:
        raise CliError(f"Cannot reach the Courtside API at {settings.api_url}: is `courtside serve` running?") from exc
    try:
        payload = response.json()
    except ValueError as exc:
        raise CliError(f"Unexpected answer from {url}: HTTP {response.status_code}") from exc
    if response.status_code >= 400:
        error = payload.get("error", {})
        raise CliError(f"{error.get('code', response.status_code)}: {error.get('message', '')}")
    return payload["data"]


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
    return parser


def run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    overrides = {
        key: getattr(args, key, None)
        for key in ("data_dir", "host", "port", "api_url", "operator_key", "console_port")
    }
    settings = Settings.from_env(**overrides)
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
    elif command == "keys create":
        body: dict[str, Any] = {"name": args.name, "scope": args.scope}
        _print(call_operator(settings, "POST", "/keys", {k: v for k, v in body.items() if v is not None}))
    elif command == "apps create":
        body = {"name": args.name, "redirectURIs": args.redirect_uri, "scope": args.scope}
        _print(call_operator(settings, "POST", "/apps", {k: v for k, v in body.items() if v is not None}))
    elif command == "oauth approve":
        body = {
            "clientID": args.client_id, "redirectURI": args.redirect_uri,
            "codeChallenge": args.code_challenge, "scope": args.scope, "state": args.state,
        }
        _print(call_operator(settings, "POST", "/oauth/approve", {k: v for k, v in body.items() if v is not None}))
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
