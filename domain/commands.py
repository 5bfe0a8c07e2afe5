"""What commands share: `UNSET`, the default of a patch command's fields, tells "absent" from `null`.

A command is a frozen dataclass a route's schema builds from a validated body (`MatchSync`, `NewBroadcast`,
`BroadcastChange`, ...): services take it and never read request dicts or camelCase names. In a patch command
a field left `UNSET` keeps the stored value, `None` clears it.
"""

from __future__ import annotations

from typing import Any

UNSET: Any = object()


def given(value: object) -> bool:
    """Whether a patch command's field was in the request (`None` included: it clears)."""
    return value is not UNSET


def changed_fields(command: object) -> list[str]:
    """The names of a patch command's fields that were given."""
    return [name for name, value in vars(command).items() if given(value)]
