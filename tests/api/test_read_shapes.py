"""A read declared in the domain (a `TypedDict`, issue 36 point 2) has the shape the OpenAPI document shows for it
(its marshmallow schema): the same members, the same ones required, level by level. mypy checks the service
writes each declared member; this checks the declaration is the documented one, so neither drifts alone."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from marshmallow import Schema, fields

from api.schemas.plan import MoveResult, PlanGrid, PlanResult
from domain.plan import reads


def _typeddict_of(hint: Any) -> Any:
    """The TypedDict a member holds (itself, in a list, or optional), else None."""
    if typing.is_typeddict(hint):
        return hint
    for arg in typing.get_args(hint):
        found = _typeddict_of(arg)
        if found is not None:
            return found
    return None


def _schema_of(field: fields.Field[Any]) -> Schema | None:
    if isinstance(field, fields.List):
        return _schema_of(field.inner)
    if isinstance(field, fields.Nested):
        schema = field.schema
        return schema if isinstance(schema, Schema) else None
    return None


def differences(declared: Any, schema: Schema, where: str = "$") -> list[str]:
    """Where the TypedDict `declared` and the schema differ: a member only one has, or required in only one."""
    required, optional = set(declared.__required_keys__), set(declared.__optional_keys__)
    documented = {field.data_key or name: field for name, field in schema.fields.items()}
    found = [f"{where}.{key}: declared, not documented" for key in sorted((required | optional) - set(documented))]
    found += [f"{where}.{key}: documented, not declared" for key in sorted(set(documented) - required - optional)]
    hints = typing.get_type_hints(declared)
    for key in sorted((required | optional) & set(documented)):
        field = documented[key]
        if (key in required) != bool(field.required):
            found.append(f"{where}.{key}: required {'in the declaration' if key in required else 'in the schema'}"
                         " only")
        inner_declared, inner_schema = _typeddict_of(hints[key]), _schema_of(field)
        if (inner_declared is None) != (inner_schema is None):
            found.append(f"{where}.{key}: an object in only one of them")
        elif inner_declared is not None and inner_schema is not None:
            found += differences(inner_declared, inner_schema, f"{where}.{key}")
    return found


@pytest.mark.parametrize(("declared", "schema"), [
    (reads.PlanGridRead, PlanGrid), (reads.MoveRead, MoveResult), (reads.PlanResultRead, PlanResult),
], ids=["plan grid", "hand move", "plan run"])
def test_the_order_of_plays_reads_are_declared_as_documented(declared: Any, schema: type[Schema]) -> None:
    assert differences(declared, schema()) == []


def test_the_comparison_finds_a_missing_member_and_a_required_one_that_is_not() -> None:
    class Slot(typing.TypedDict):
        plannedOn: str
        minutes: int

    class SlotSchema(Schema):
        plannedOn = fields.String()
        minutes = fields.Integer(required=True)
        tableID = fields.String(required=True)

    assert differences(Slot, SlotSchema()) == ["$.tableID: documented, not declared",
                                               "$.plannedOn: required in the declaration only"]
