"""The `courtside` command: init, serve, console, up, and operator calls (apps, keys, oauth approve)."""

from __future__ import annotations

import argparse
import json
import logging
import logging.handlers
import os
import sys
from pathlib import Path
from typing import Any

from cli.address import recorded_address, server_settings
from cli.audit import audit_export, audit_verify
from cli.data_dir import KEY_FILE, db_upgrade, export_store, import_store, init_data_dir, write_file_atomically
from cli.errors import CliError
from cli.operator import call_operator
from cli.serve import serve
from domain.settings import Settings, SettingsError


def _print(obj: Any) -> None:
    print(json.dumps(obj, indent=None))


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


#: Commands that call the running server's operator API, and those that do only while a server holds the data dir.
NEEDS_SERVER = {"keys create", "apps create", "oauth approve", "operator-key rotate"}
MAY_NEED_SERVER = {"audit verify", "audit export"}


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
    given_url = getattr(args, "api_url", None) or os.environ.get("COURTSIDE_API_URL")
    if command in NEEDS_SERVER or command in MAY_NEED_SERVER:  # the operator key goes to that server only (§8a)
        settings = server_settings(settings, given_url, required=command in NEEDS_SERVER)
    elif command == "console" and (given_url or recorded_address(settings.data_dir.resolve())):
        settings = server_settings(settings, given_url, required=False)
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
        write_file_atomically(key_path, rotated["operatorKey"] + "\n", mode=0o600)
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
