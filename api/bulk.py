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
    outcomes: Sequence[R | DomainError], *, key_field: str, keys: Sequence[str], present: Callable[[R], Json],
) -> tuple[Json, int]:
    """`{"data": {"results": [{index, <key_field>, status, data | error}], "succeeded", "failed"}}` and 200/207."""
    results: list[Json] = []
    for index, (key, outcome) in enumerate(zip(keys, outcomes, strict=True)):
        result: Json = {"index": index, key_field: key}
        if isinstance(outcome, DomainError):
            result |= {"status": status_of(outcome), "error": {"code": outcome.code, "message": outcome.message}}
        else:
            result |= {"status": 200, "data": present(outcome)}
        results.append(result)
    failed = sum(1 for result in results if result["status"] != 200)
    return {"data": {"results": results, "succeeded": len(results) - failed, "failed": failed}}, (
        207 if failed else 200)
