"""Pure helpers of the court board: queue reordering."""

from __future__ import annotations

from typing import Literal

Where = Literal["up", "down", "top"]


def queue_after(order: list[str], match_id: str, where: Where) -> list[str]:
    """The queue order after moving `match_id` one place up, one down, or to the front."""
    new = list(order)
    index = new.index(match_id)
    target = {"up": max(index - 1, 0), "down": min(index + 1, len(new) - 1), "top": 0}[where]
    new.insert(target, new.pop(index))
    return new
