"""The one shape of a bulk answer (api-v1.md "Bulk operations"): a result per item in request order, then the
counts; 200 when every item succeeded, else 207."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from api.errors import status_of
from domain.errors import DomainError

R = TypeVar("R")
Json = dict[str, Any]


def bulk_response(
    outcomes: Sequence[R | DomainError], *, key_field: str | None, keys: Sequence[str] | None,
    present: Callable[[R], Json], details: bool = False,
) -> tuple[Json, int]:
    """`{"data": {"results": [{index, <key_field>, status, data | error}], "succeeded", "failed"}}` and 200/207.

    Items without a key (schedule rows) have no `key_field`; `details` adds each error's details (a row's fields).
    """
    results: list[Json] = []
    for index, outcome in enumerate(outcomes):
        result: Json = {"index": index}
        if key_field is not None and keys is not None:
            result[key_field] = keys[index]
        if isinstance(outcome, DomainError):
            error = {"code": outcome.code, "message": outcome.message}
            if details and outcome.details:
                error["details"] = outcome.details
            result |= {"status": status_of(outcome), "error": error}
        else:
            result |= {"status": 200, "data": present(outcome)}
        results.append(result)
    failed = sum(1 for result in results if result["status"] != 200)
    return {"data": {"results": results, "succeeded": len(results) - failed, "failed": failed}}, (
        207 if failed else 200)
