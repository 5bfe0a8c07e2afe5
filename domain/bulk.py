"""The one bulk mechanism: a batch is checked whole (no key twice) before anything is applied, then every item is
applied in request order inside one unit of work, each in its own savepoint, so a failing item leaves no write
behind and the others still apply (api-v1.md "Bulk operations": 200, or 207 with per-item results)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from domain.errors import DomainError, Invalid
from domain.ports import UnitOfWork

T = TypeVar("T")
R = TypeVar("R")


def repeats(keys: Sequence[str]) -> list[tuple[int, str]]:
    """Every (index, key) that names a key already named earlier in the batch, in request order."""
    seen: set[str] = set()
    found: list[tuple[int, str]] = []
    for index, key in enumerate(keys):
        if key in seen:
            found.append((index, key))
        seen.add(key)
    return found


def check_unique(
    keys: Sequence[str], *, field: str, member: str | None = None, code: str | None = None,
    message: str | None = None,
) -> None:
    """A batch naming the same item twice is malformed: 400 before anything is applied.

    Without `member` the details list the duplicates under `field` (`{"externalID": ["duplicate: m1"]}`); with it
    they point at the first repeat's index (`{"tables": {"2": {"tableID": ["Duplicate tableID."]}}}`). A
    `message` may name the repeated key as `{key}`.
    """
    found = repeats(keys)
    if not found:
        return
    if member is None:
        duplicates = sorted({key for _, key in found})
        named = ", ".join(duplicates)
        raise Invalid((message or "Duplicate " + field + " in the batch: {key}.").format(key=named), code=code,
                      details={"json": {field: [f"duplicate: {key}" for key in duplicates]}})
    index, key = found[0]
    raise Invalid((message or member + " '{key}' appears more than once.").format(key=key), code=code,
                  details={"json": {field: {str(index): {member: [f"Duplicate {member}."]}}}})


def each(uow: UnitOfWork, items: Sequence[T], apply: Callable[[T], R]) -> list[R | DomainError]:
    """Apply a service to every item in request order, each in a savepoint of `uow`: an item that breaks a rule
    becomes that item's result and its writes (and events) are undone; the others' stay."""
    outcomes: list[R | DomainError] = []
    for item in items:
        try:
            with uow.savepoint():
                outcomes.append(apply(item))
        except DomainError as error:
            outcomes.append(error)
    return outcomes
