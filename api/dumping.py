"""Response dumping without marshmallow's per-field machinery: a plan compiled once per schema.

A read model is a dict built by the presenters; dumping it through its schema keeps the declared fields in the
declared order (renaming by `data_key`) and converts values. Plain fields (strings, numbers, booleans, raw
values) pass through; nested schemas and lists follow their own plans; any other field type is serialized by
the field itself, so the output is what `schema.dump` gives. `check_plan` proves it for every response of the
test suite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import orjson
from marshmallow import Schema, fields
from marshmallow.decorators import POST_DUMP, PRE_DUMP

from api.schemas.common import Vocabulary

Plan = Callable[[Any], Any]
PASS_THROUGH = (fields.String, Vocabulary, fields.Integer, fields.Boolean, fields.Float, fields.Raw)


class ResponseMismatch(AssertionError):
    """A dump plan gave something else than marshmallow (a bug: the test suite turns this check on)."""


def _as_is(value: Any) -> Any:
    return value


def _field_plan(field: fields.Field[Any]) -> Plan | None:
    """How to dump one field's value; None when only the field itself knows (it needs the whole object)."""
    if type(field) in PASS_THROUGH or type(field) is fields.Field:
        return _as_is
    if isinstance(field, fields.Nested) and type(field) is fields.Nested:
        inner = dump_plan(field.schema)
        if field.many:
            return lambda value: None if value is None else [inner(item) for item in value]
        return lambda value: None if value is None else inner(value)
    if type(field) is fields.List:
        item_plan = _field_plan(field.inner)
        if item_plan is None:
            return None
        if item_plan is _as_is:
            return lambda value: None if value is None else list(value)
        return lambda value: None if value is None else [item_plan(item) for item in value]
    if type(field) is fields.Dict and field.key_field is None and field.value_field is None:
        return lambda value: None if value is None else dict(value)
    return None


_PLANS: dict[int, Plan] = {}


def dump_plan(schema: Schema) -> Plan:
    """The compiled dump of one schema instance (made once; schemas with dump hooks keep marshmallow's dump)."""
    found = _PLANS.get(id(schema))
    if found is not None:
        return found
    if schema._hooks[PRE_DUMP] or schema._hooks[POST_DUMP] or schema.many:
        plan: Plan = schema.dump
    else:
        steps: list[tuple[str, str, Plan | None, fields.Field[Any]]] = [
            (field.data_key or name, field.attribute or name, _field_plan(field), field)
            for name, field in schema.dump_fields.items()
        ]

        def plan(obj: Any) -> Any:
            if not isinstance(obj, Mapping):
                return schema.dump(obj)
            out: dict[str, Any] = {}
            for key, attribute, convert, field in steps:
                if attribute in obj:
                    out[key] = convert(obj[attribute]) if convert is not None else field.serialize(attribute, obj)
            return out

    _PLANS[id(schema)] = plan
    _KEEP.append(schema)  # the id stays this schema's while the plan is cached
    return plan


_KEEP: list[Schema] = []


def check_plan(schema: Schema, body: Any, dumped: Any) -> None:
    """Refuse a plan's output that differs from marshmallow's dump of the same body, byte for byte."""
    expected = schema.dump(body)
    if orjson.dumps(dumped) != orjson.dumps(expected):
        raise ResponseMismatch(f"{type(schema).__name__}: plan gave {orjson.dumps(dumped)[:1500]!r}, "
                               f"marshmallow gives {orjson.dumps(expected)[:1500]!r}")
