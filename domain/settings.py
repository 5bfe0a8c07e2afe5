"""Every setting, read once from `COURTSIDE_*` environment variables (this is the only file that reads them)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from domain.match.formats import PRESETS

DEFAULT_RETRY_SCHEDULE = (0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400)


def _bool(text: str) -> bool:
    return text.strip().lower() in {"1", "true", "yes", "on"}


def _schedule(text: str) -> tuple[float, ...]:
    return tuple(float(part) for part in text.split(",") if part.strip())


def _zone_name(text: str) -> str:
    """An IANA time zone name this machine knows (`Europe/Berlin`, `UTC`)."""
    try:
        ZoneInfo(text.strip())
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(text) from exc
    return text.strip()


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _scoring_preset(text: str) -> str:
    """A scoring preset key (contract §18: `badminton`, `table_tennis`, `tennis`, ...)."""
    if text.strip() not in PRESETS:
        raise ValueError(text)
    return text.strip()


def _log_level(text: str) -> str:
    """A logging level name (`DEBUG`, `INFO`, `WARNING`, `ERROR`), any case."""
    if text.strip().upper() not in LOG_LEVELS:
        raise ValueError(text)
    return text.strip().upper()


KINDS = {"int": "whole number", "float": "number", "_schedule": "comma-separated list of seconds",
         "_zone_name": "time zone name (IANA, e.g. Europe/Berlin)",
         "_log_level": "log level (DEBUG, INFO, WARNING, ERROR)",
         "_scoring_preset": "scoring preset (" + ", ".join(PRESETS) + ")"}


class SettingsError(ValueError):
    """An environment variable holds a value Courtside cannot use; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    """Configuration of one Courtside process. Defaults are what a club wants on a laptop."""

    data_dir: Path = Path("courtside-data")
    host: str = "127.0.0.1"
    port: int = 8000
    api_url: str = "http://127.0.0.1:8000"
    operator_key: str | None = None
    console_port: int = 8501
    console_sign_in: bool = False  # the console asks each browser for the operator key (set beyond loopback)
    threads: int = 8
    rate_limit: int = 600
    dev_key_rate_limit: int = 120
    token_rate_limit: int = 30
    access_token_ttl: int = 3600
    refresh_token_ttl: int = 30 * 24 * 3600
    code_ttl: int = 600
    dev_key_ttl: int = 90 * 24 * 3600
    webhook_retry_schedule: tuple[float, ...] = DEFAULT_RETRY_SCHEDULE
    webhook_timeout: float = 10.0
    webhook_allow_private: bool = True
    webhook_poll_seconds: float = 1.0
    webhook_workers: int = 8
    scoring: str = "table_tennis"  # the server's scoring format, a preset key (contract §18)
    points_per_game: int | None = None  # legacy: games of the server's format go to this many points
    default_best_of: int | None = None  # legacy: the server's format is best of this many
    max_body_bytes: int = 1024 * 1024
    max_header_bytes: int = 64 * 1024  # all request headers together; more is 431 with the JSON envelope
    journal_compact_bytes: int = 16 * 1024 * 1024
    database_url: str | None = None  # postgresql://...: the PostgreSQL backend (several processes); unset: TinyDB
    # typical match duration of a broadcast without history (estimates); unset: each match's format's typical
    # minutes (contract §9, §20: tennis 90, badminton 40, ...)
    default_match_minutes: float | None = None
    output_max_stale: float = 0.2  # seconds an output page's state may lag a write (bounds rebuilds under load)
    event_max_stale: float = 1.0  # seconds the event page's snapshot may lag a write (it polls every 5 s, §15)
    log_level: str = "INFO"  # Courtside's own loggers; DEBUG adds a line per dispatcher recovery pass
    access_log: bool = True  # one log line per request (method, path, status, ms, request ID), off the request path
    check_responses: bool = False  # tests: every response is dumped through its schema and must not change
    scorer_rate_limit: int = 300  # actions per minute per scorer link (contract §11)
    registration_rate_limit: int = 20  # successful sign-ups per 10 minutes per client address (contract §8a)
    registration_failure_limit: int = 100  # failed sign-up attempts per 10 minutes per client address (§8a)
    connection_limit: int = 2000  # open connections the server holds (phones and screens of a venue, §8a)
    idle_timeout: int = 120  # seconds an idle keep-alive connection stays open
    trusted_proxies: int = 0  # proxies in front whose X-Forwarded-For/Proto/Host/Port are believed (§8a)
    public_url: str | None = None  # the address phones reach for scorer and sign-up links (contract §11)
    time_zone: str | None = None  # IANA zone a schedule's HH:MM times are in (§9a); unset: this machine's zone
    smtp_url: str | None = None  # smtp://host:port or smtps://user:pass@host:port: players' call-up mail (§21)
    mail_from: str | None = None  # the sender of that mail; both set or no mail is queued

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Read `COURTSIDE_*` variables; keyword overrides (CLI flags) win over the environment."""
        env = os.environ if environ is None else environ
        readers: dict[str, tuple[str, Any]] = {
            "data_dir": ("COURTSIDE_DATA_DIR", Path),
            "host": ("COURTSIDE_HOST", str),
            "port": ("COURTSIDE_PORT", int),
            "api_url": ("COURTSIDE_API_URL", str),
            "operator_key": ("COURTSIDE_OPERATOR_KEY", str),
            "console_port": ("COURTSIDE_CONSOLE_PORT", int),
            "console_sign_in": ("COURTSIDE_CONSOLE_SIGN_IN", _bool),
            "threads": ("COURTSIDE_THREADS", int),
            "rate_limit": ("COURTSIDE_RATE_LIMIT", int),
            "dev_key_rate_limit": ("COURTSIDE_DEV_KEY_RATE_LIMIT", int),
            "token_rate_limit": ("COURTSIDE_TOKEN_RATE_LIMIT", int),
            "access_token_ttl": ("COURTSIDE_ACCESS_TOKEN_TTL", int),
            "webhook_retry_schedule": ("COURTSIDE_WEBHOOK_RETRY_SCHEDULE", _schedule),
            "webhook_timeout": ("COURTSIDE_WEBHOOK_TIMEOUT", float),
            "webhook_allow_private": ("COURTSIDE_WEBHOOK_ALLOW_PRIVATE", _bool),
            "webhook_poll_seconds": ("COURTSIDE_WEBHOOK_POLL_SECONDS", float),
            "scoring": ("COURTSIDE_SCORING", _scoring_preset),
            "points_per_game": ("COURTSIDE_POINTS_PER_GAME", int),
            "default_best_of": ("COURTSIDE_DEFAULT_BEST_OF", int),
            "journal_compact_bytes": ("COURTSIDE_JOURNAL_COMPACT_BYTES", int),
            "database_url": ("COURTSIDE_DATABASE_URL", str),
            "default_match_minutes": ("COURTSIDE_DEFAULT_MATCH_MINUTES", float),
            "access_log": ("COURTSIDE_ACCESS_LOG", _bool),
            "log_level": ("COURTSIDE_LOG_LEVEL", _log_level),
            "output_max_stale": ("COURTSIDE_OUTPUT_MAX_STALE", float),
            "event_max_stale": ("COURTSIDE_EVENT_MAX_STALE", float),
            "scorer_rate_limit": ("COURTSIDE_SCORER_RATE_LIMIT", int),
            "registration_rate_limit": ("COURTSIDE_REGISTRATION_RATE_LIMIT", int),
            "registration_failure_limit": ("COURTSIDE_REGISTRATION_FAILURE_LIMIT", int),
            "trusted_proxies": ("COURTSIDE_TRUSTED_PROXIES", int),
            "connection_limit": ("COURTSIDE_CONNECTION_LIMIT", int),
            "idle_timeout": ("COURTSIDE_IDLE_TIMEOUT", int),
            "public_url": ("COURTSIDE_PUBLIC_URL", str),
            "time_zone": ("COURTSIDE_TIME_ZONE", _zone_name),
            "smtp_url": ("COURTSIDE_SMTP_URL", str),
            "mail_from": ("COURTSIDE_MAIL_FROM", str),
        }
        values: dict[str, Any] = {}
        for name, (variable, convert) in readers.items():
            if env.get(variable):
                try:
                    values[name] = convert(env[variable])
                except ValueError as exc:
                    kind = KINDS.get(getattr(convert, "__name__", ""), "value")
                    raise SettingsError(f"{variable}={env[variable]!r} is not a valid {kind}.") from exc
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values)

    def zone(self) -> tzinfo:
        """The event's time zone: `time_zone`, else this machine's local zone."""
        if self.time_zone:
            return ZoneInfo(self.time_zone)
        local = datetime.now().astimezone().tzinfo
        return local if local is not None else UTC

    def with_(self, **changes: Any) -> Settings:
        """A copy with some settings changed (tests, CLI)."""
        return replace(self, **changes)


def child_environment(variables: Mapping[str, str], *, without: tuple[str, ...] = ()) -> dict[str, str]:
    """This process's environment plus `variables`, less `without`: what a child process (the console) gets."""
    return {key: value for key, value in {**os.environ, **variables}.items() if key not in without}


def is_loopback(host: str) -> bool:
    """Whether a bind address is reachable from this machine only."""
    return host in ("localhost", "::1") or host.startswith("127.")
