"""Cursor pagination over records in a stable order (creation `seq`)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from typing import TypeVar

import orjson

from domain.errors import Invalid

T = TypeVar("T")
DEFAULT_LIMIT = 50


def encode_cursor(seq: int) -> str:
    return base64.urlsafe_b64encode(orjson.dumps({"after": seq})).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = orjson.loads(raw)["after"]
    except (binascii.Error, ValueError, KeyError, TypeError) as exc:
        raise Invalid("The cursor is not valid.", code="invalid_cursor") from exc
    if not isinstance(value, int) or isinstance(value, bool):
        raise Invalid("The cursor is not valid.", code="invalid_cursor")
    return value


def paginate(
    items: Sequence[T], *, seq: Callable[[T], int], limit: int | None, cursor: str | None,
    newest_first: bool = False,
) -> tuple[list[T], str | None]:
    """One page of `items` (already in order) after `cursor`, and the cursor of the next page or None."""
    limit = limit or DEFAULT_LIMIT
    if cursor is not None:
        after = decode_cursor(cursor)
        items = [item for item in items if (seq(item) < after if newest_first else seq(item) > after)]
    page = list(items[:limit])
    next_cursor = encode_cursor(seq(page[-1])) if len(items) > limit else None
    return page, next_cursor
