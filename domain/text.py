"""What text Courtside accepts (contract §8a): no U+0000 and no bidirectional control characters anywhere.

NUL cannot be stored by PostgreSQL and cuts strings short in C libraries; the bidi embeddings, overrides and
isolates (U+202A-U+202E, U+2066-U+2069) make a name display as something else than what it is ("Trojan Source").
Every string a client sends (body, query, path, form) is checked once, before anything reads it.
"""

from __future__ import annotations

import re
from typing import Any

FORBIDDEN = re.compile("[\x00\u202a-\u202e\u2066-\u2069]")
# The same characters as they may appear in raw JSON text (escaped), to skip parsing clean bodies cheaply.
FORBIDDEN_IN_JSON = re.compile(r"\\u(?:0000|202[a-eA-E]|206[6-9])|[\x00\u202a-\u202e\u2066-\u2069]")
MESSAGE = "Must not contain NUL or bidirectional control characters (U+202A-U+202E, U+2066-U+2069)."


def is_clean(text: str) -> bool:
    """Whether the text has none of the forbidden characters."""
    return FORBIDDEN.search(text) is None


def problems(value: Any) -> dict[str, Any]:
    """Where in a JSON value the forbidden characters are, as validation details: `{"field": [message]}`, nested
    like marshmallow's (`{"players": {"0": {"firstName": [...]}}}`); keys that hold them are named too."""
    found: dict[str, Any] = {}
    items: Any = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        name = str(key)
        if isinstance(item, str):
            if not is_clean(item):
                found[name] = [MESSAGE]
        elif isinstance(item, dict | list):
            inner = problems(item)
            if inner:
                found[name] = inner
        if not is_clean(name):
            found[name] = [MESSAGE]
    return found


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A CSV cell that a spreadsheet will not run as a formula (OWASP CSV injection, contract §8a): text starting
    with `=`, `+`, `-`, `@`, TAB or CR gets a leading `'`. Numbers stay numbers (a negative number is data)."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell
