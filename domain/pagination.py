"""Cursor pagination over records in a stable order: keyset pages, one mechanism for every list (contract §2).

A list is in the order of a key that never repeats within it: its creation `seq` (most lists), or, where the
contract orders a list otherwise, that order's own key (a name key, a tuple such as the court pool's). A cursor
names the last key of the page it ends, so a page never repeats an item nor skips one that was there when the
walk began, even when items come and go between pages.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from typing import TypeGuard, TypeVar

import orjson

from domain.errors import Invalid

T = TypeVar("T")
DEFAULT_LIMIT = 50

#: A position in a list's order: an int (creation seq), a string, or a tuple of those (compared in order).
CursorKey = int | str | tuple[int | str, ...]


def encode_cursor(seq: CursorKey) -> str:
    return base64.urlsafe_b64encode(orjson.dumps({"after": seq})).decode().rstrip("=")


def _invalid() -> Invalid:
    return Invalid("The cursor is not valid.", code="invalid_cursor")


def _key(value: object) -> CursorKey:
    """A decoded `after` as a key (a JSON array back to a tuple); anything else is not a cursor of ours."""
    if isinstance(value, list) and value and all(_scalar(part) for part in value):
        return tuple(value)
    if _scalar(value):
        return value
    raise _invalid()


def _scalar(value: object) -> TypeGuard[int | str]:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def decode_key(cursor: str) -> CursorKey:
    """The key a cursor names; `400 invalid_cursor` when it cannot be decoded."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = orjson.loads(raw)["after"]
    except (binascii.Error, ValueError, KeyError, TypeError) as exc:
        raise _invalid() from exc
    return _key(value)


def decode_cursor(cursor: str) -> int:
    """The creation `seq` a cursor names (lists in creation order); `400 invalid_cursor` otherwise."""
    value = decode_key(cursor)
    if not isinstance(value, int):
        raise _invalid()
    return value


def _ordinal(key: CursorKey) -> tuple[tuple[int, int | str], ...]:
    """`key` in one total order over every shape of key (ints before strings, part by part)."""
    parts = key if isinstance(key, tuple) else (key,)
    return tuple((0, part) if isinstance(part, int) else (1, part) for part in parts)


def _beyond(key: CursorKey, after: CursorKey, *, newest_first: bool) -> bool:
    """Whether `key` comes after `after` in the list's order. Keys of one list have one shape; a well-formed cursor
    of another list (another shape) still names a position in one total order, so it gives a page, as a seq cursor
    of another list always did."""
    if isinstance(key, int) and isinstance(after, int):
        return key < after if newest_first else key > after
    mine, theirs = _ordinal(key), _ordinal(after)
    return mine < theirs if newest_first else mine > theirs


def paginate(
    items: Sequence[T], *, seq: Callable[[T], CursorKey], limit: int | None, cursor: str | None,
    newest_first: bool = False,
) -> tuple[list[T], str | None]:
    """One page of `items` (already in the order of `seq`, ascending, or descending with `newest_first`) after
    `cursor`, and the cursor of the next page or None. `seq` gives each item's unique position key: its creation
    seq, or the key of the order the list is in. Only a cursor that does not decode is `invalid_cursor`."""
    limit = limit or DEFAULT_LIMIT
    if cursor is not None:
        after = decode_key(cursor)
        items = [item for item in items if _beyond(seq(item), after, newest_first=newest_first)]
    page = list(items[:limit])
    next_cursor = encode_cursor(seq(page[-1])) if len(items) > limit else None
    return page, next_cursor
