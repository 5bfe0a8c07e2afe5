"""Validating a value against a schema of the OpenAPI 3.0 document as generators and schemathesis read it.

OpenAPI 3.0.3 says `nullable: true` only counts beside a `type`, so `openapi-schema-validator` refuses `null` for a
nullable reference (`allOf: [{$ref}]` + `nullable: true`) and a nullable `oneOf`. Generators
(openapi-python-client types it `X | None`) and schemathesis read such a node as "the schema, or null"; so does
this validator: each nullable node without a `type` becomes `anyOf: [<node>, {enum: [null]}]` first.
"""

from __future__ import annotations

from typing import Any

from openapi_schema_validator import OAS30Validator


def nullable_as_null(node: Any) -> Any:
    """`node` with each typeless nullable schema written as "it, or null" (a copy)."""
    if isinstance(node, list):
        return [nullable_as_null(item) for item in node]
    if not isinstance(node, dict):
        return node
    copied = {key: nullable_as_null(value) for key, value in node.items()}
    if copied.get("nullable") is True and "type" not in copied:
        del copied["nullable"]
        return {"anyOf": [copied, {"enum": [None]}]}
    return copied


def validator(schema: dict[str, Any]) -> OAS30Validator:
    """An OAS 3.0 validator of `schema` (with its `components`) reading a nullable reference as "it, or null"."""
    return OAS30Validator(nullable_as_null(schema))
