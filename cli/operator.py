"""Operator calls from the command line (keys, apps, OAuth approval, key rotation) over the running server's API,
through the console's HTTP client."""

from __future__ import annotations

from typing import Any

from cli.data_dir import KEY_FILE
from cli.errors import CliError
from domain.settings import Settings


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
