"""The platform's HTTP constants, one copy each: the served prefix, the request-ID rule and the form-body paths.

`api/app.py` enforces them and `api/openapi.py` documents them from here, so the two cannot drift apart.
"""

from __future__ import annotations

import itertools
import re
import secrets

from api.access_log import ACCESS

PREFIX = "/api/v1"

REQUEST_ID_MIN, REQUEST_ID_MAX = 8, 120
REQUEST_ID_CHARACTERS = "A-Z a-z 0-9 . _ : -"  # as the error message says it; the pattern's class without spaces
REQUEST_ID_PATTERN = f"^[{''.join(REQUEST_ID_CHARACTERS.split())}]+$"
REQUEST_ID = re.compile(REQUEST_ID_PATTERN)


def log_access(method: str, path: str, status: int | str, ms: float, request_id: str) -> None:
    """One access-log line (§8a: method, path, status, ms, request ID), for a request the app answers and for a
    feed poll the network loop answers alike: only appended here; the access log's thread formats the waiting
    lines in batches and the log thread redacts link keys and writes them (`api.access_log`)."""
    ACCESS.add(method, path, status, ms, request_id)


def valid_request_id(value: str) -> bool:
    """A client's `Service-Request-ID` is echoed only when it keeps the documented rule."""
    return REQUEST_ID_MIN <= len(value) <= REQUEST_ID_MAX and REQUEST_ID.match(value) is not None


#: The OAuth endpoints take form bodies (RFC 6749); everything else JSON only.
FORM_BODY_PATHS = frozenset({f"{PREFIX}/oauth/token", f"{PREFIX}/oauth/authorize"})

#: The public sign-up form (contract §11) posts a plain HTML form too.
FORM_BODY_PREFIXES = ("/register/",)


def takes_form_body(path: str) -> bool:
    """Whether a path accepts `application/x-www-form-urlencoded` bodies."""
    return path in FORM_BODY_PATHS or path.startswith(FORM_BODY_PREFIXES)


def human_bytes(size: int) -> str:
    """`1048576` -> `1 MiB`, `65536` -> `64 KiB`, else bytes: the limit as the document states it."""
    for unit, factor in (("MiB", 1024 * 1024), ("KiB", 1024)):
        if size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} bytes"


def human_seconds(seconds: float) -> str:
    """`0` -> `0`, `5` -> `5 s`, `300` -> `5 min`, `7200` -> `2 h`: a retry delay as the document states it."""
    if seconds == 0:
        return "0"
    for unit, factor in (("h", 3600), ("min", 60)):
        if seconds % factor == 0:
            return f"{seconds / factor:g} {unit}"
    return f"{seconds:g} s"


_REQUEST_ID_PREFIX = secrets.token_hex(6)  # this process's, so IDs differ across processes and restarts
_request_numbers = itertools.count(1)


def new_request_id() -> str:
    """A request ID for support correlation: unique, not secret (a counter after a random per-process prefix,
    so minting one costs no system call)."""
    return f"req_{_REQUEST_ID_PREFIX}{next(_request_numbers):012x}"


WAIT_MAX = 25  # seconds a feed poll with `Prefer: wait=N` may be held for a change (RFC 7240)
_WAIT = re.compile(r"(?:^|[\s,;])wait\s*=\s*(\d{1,6})(?:$|[\s,;])", re.IGNORECASE)


def wanted_wait(prefer: str | None) -> int | None:
    """The seconds a `Prefer: wait=N` header asks a feed poll to be held for a change (at most `WAIT_MAX`);
    None without one (or `wait=0`)."""
    found = _WAIT.search(prefer or "")
    return min(int(found.group(1)), WAIT_MAX) or None if found else None
