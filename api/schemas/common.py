"""Schemas every route shares: the strict base, envelopes, the error shape and pagination."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from enum import StrEnum
from functools import cache
from typing import Any

from flask import has_request_context, request
from marshmallow import RAISE, Schema, ValidationError, fields, validate

from domain import clock, ids, names
from domain.errors import ERROR_CODES, Invalid


class FullMatch(validate.Regexp):
    """`validate.Regexp` over the whole value: marshmallow's matches at the start only, and a pattern's `$` also
    matches before a final newline, so `"abc\\n"` would pass `^[a-z]+$`. The document shows the pattern as is."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


class Strict(Schema):
    """A request body: unknown properties are rejected (400 validation_failed)."""

    class Meta:
        unknown = RAISE


class ErrorDetail(Schema):
    code = fields.String(required=True, validate=validate.OneOf(ERROR_CODES), metadata={
        "description": "what went wrong, for a program; each response's description names the codes it can have"})
    message = fields.String(required=True)
    details = fields.Raw()


class ErrorEnvelope(Schema):
    """Every error: `{"error": {"code", "message", "details"?}}`."""

    error = fields.Nested(ErrorDetail, required=True)


@cache
def envelope(schema: type[Schema]) -> type[Schema]:
    """`{"data": <schema>}`: the wrapping of every single-resource success response."""
    name = schema.__name__.removesuffix("Schema")
    return type(f"{name}Envelope", (Schema,), {"data": fields.Nested(schema, required=True)})


@cache
def list_envelope(schema: type[Schema]) -> type[Schema]:
    """`{"data": [...], "nextCursor": str | null}`: the wrapping of every list."""
    name = schema.__name__.removesuffix("Schema")
    return type(
        f"{name}List",
        (Schema,),
        {
            "data": fields.List(fields.Nested(schema), required=True),
            "nextCursor": fields.String(required=True, allow_none=True),
        },
    )


def list_tag(path: str) -> str:
    """The list a cursor belongs to: a short digest of the list's path (`/api/v1/matches`)."""
    return hashlib.sha256(path.encode()).hexdigest()[:8]


def _list_tag() -> str | None:
    """This request's list (None outside a request)."""
    return list_tag(request.path) if has_request_context() else None


def bind_cursor(body: Any) -> Any:
    """A list answer with its `nextCursor` (the domain's cursor, `domain.pagination`) bound to this list as
    `<list tag>.<cursor>`, still opaque to clients (contract §23: a cursor from another list is `400
    invalid_cursor`). Every answer passes here once (`api.blueprint`); other bodies are returned as they are."""
    tag = _list_tag()
    if tag is None or not isinstance(body, dict) or not isinstance(body.get("nextCursor"), str):
        return body
    return body | {"nextCursor": f"{tag}.{body['nextCursor']}"}


class Cursor(fields.String):
    """A `cursor` query parameter: the `nextCursor` of a page of this same list, else `400 invalid_cursor`."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        tag = _list_tag()
        if tag is None:
            return text
        given, dot, inner = text.partition(".")
        if not dot or given != tag:
            raise Invalid("The cursor is not one of this list's; pass the nextCursor of its previous page.",
                          code="invalid_cursor")
        return inner


class PageQuery(Schema):
    """`limit` (1 to 100, default 50) and an opaque `cursor` from the previous page's `nextCursor`."""

    limit = fields.Integer(validate=validate.Range(min=1, max=100))
    cursor = Cursor(metadata={"format": "cursor", "description": "`nextCursor` of the previous page of this list"})


def str_field(max_length: int = 500, *, required: bool = False, min_length: int | None = None,
              **kwargs: Any) -> fields.String:
    """A bounded string (contract: names 1-120, descriptions <= 800, URLs <= 1000, others <= 500)."""
    return fields.String(required=required, validate=validate.Length(min=min_length, max=max_length), **kwargs)


def external_id_field(*, required: bool = False, **kwargs: Any) -> fields.String:
    """A partner's `externalID` that names what it creates (contract §23): `domain.ids.EXTERNAL_ID`, so every
    route `/<resource>/{externalID}` reaches it; else 400 validation_failed naming the field."""
    return fields.String(required=required, validate=[
        validate.Length(min=1, max=ids.EXTERNAL_ID_MAX),
        FullMatch(ids.EXTERNAL_ID, error=ids.EXTERNAL_ID_MESSAGE)], **kwargs)


class Visible(validate.Regexp):
    """A name or label has a visible character (contract §8a): searched anywhere, as JSON Schema's `pattern` is,
    so the document states the rule the server applies (`domain.names.VISIBLE`). With `allow_empty`, `""` (an
    optional name left out) passes; only a non-empty blank one is refused."""

    def __init__(self, *, allow_empty: bool = False, pattern: str = names.VISIBLE) -> None:
        super().__init__(f"^$|{pattern}" if allow_empty else pattern, error=names.BLANK_MESSAGE)
        self.allow_empty = allow_empty

    def __call__(self, value: Any) -> Any:
        if (value == "" and self.allow_empty) or not names.is_blank(value):
            return value
        raise ValidationError(self._format_error(value))


def name_field(max_length: int = 120, *, required: bool = False, allow_empty: bool = False,
               **kwargs: Any) -> fields.String:
    """A name or label: 1 to `max_length` characters with a visible one (§8a: blank is 400 naming the field);
    `allow_empty` keeps `""` for an optional name (a partner's empty last name)."""
    return fields.String(required=required, validate=[
        validate.Length(min=0 if allow_empty else 1, max=max_length), Visible(allow_empty=allow_empty)], **kwargs)


class Rfc3339(fields.AwareDateTime):
    """A date-time in a body or query: RFC 3339 in full (`T`/`Z` in either case, `Z` or `±HH:MM`), loaded as an
    aware datetime (`domain.clock.parse_rfc3339`). One without an offset is `400 validation_failed` naming the
    field, never read as UTC (contract §23); a space for `T` or `+0100` is not RFC 3339 and is refused too."""

    default_error_messages = {
        "invalid": "Not an RFC 3339 date-time (2026-11-28T10:00:00Z, 2026-11-28T10:00:00.000+01:00).",
        "invalid_awareness": "Must carry 'Z' or an offset (2026-11-28T10:00:00Z, 2026-11-28T10:00:00+01:00); "
                             "a date-time without one is not read as UTC.",
    }

    def __init__(self, **kwargs: Any) -> None:
        metadata = dict(kwargs.pop("metadata", {}))
        metadata["description"] = (metadata.get("description", "RFC 3339 date-time") + "; with `Z` or an offset "
                                   "(one without is 400, never read as UTC)")
        super().__init__(format="iso", metadata=metadata, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        try:
            return clock.parse_rfc3339(value)
        except clock.NoOffset as exc:
            raise self.make_error("invalid_awareness") from exc
        except (ValueError, OverflowError) as exc:
            raise self.make_error("invalid") from exc


class OneLine(validate.Validator):
    """A label is one line (`domain.names.has_control`): no CR, LF, TAB or other control character."""

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str) and names.has_control(value):
            raise ValidationError(names.CONTROL_MESSAGE)
        return value


#: The document's `pattern` of a label: no control character anywhere, and a visible one (the end written as
#: "no character follows": Python's `$` also matches before a final line break).
ONE_LINE_VISIBLE = f"^[^\\x00-\\x1f\\x7f-\\x9f]*{names.VISIBLE}[^\\x00-\\x1f\\x7f-\\x9f]*(?![\\s\\S])"


def label_field(max_length: int = 120, *, required: bool = False, **kwargs: Any) -> fields.String:
    """A court label: a name (`name_field`) on one line (`OneLine`), as a call-up mail's subject needs it."""
    return fields.String(required=required, validate=[
        validate.Length(min=1, max=max_length), Visible(pattern=ONE_LINE_VISIBLE), OneLine()], **kwargs)


class Vocabulary(fields.String):
    """A string taking exactly the values of one of the domain's StrEnums (or of a tuple of its members): the
    document lists them as its `enum`; a request with another value is refused (400 "Must be one of: ..."), an
    accepted one loads as the enum's member. A response dumps it as the plain string (`api.dumping` passes it)."""

    def __init__(self, vocabulary: Iterable[StrEnum], **kwargs: Any) -> None:
        self.members = {member.value: member for member in vocabulary}
        super().__init__(validate=validate.OneOf(list(self.members)), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        return self.members.get(text, text)  # another value stays a string, for `OneOf` to refuse


class DeletedByID(Schema):
    """A delete's answer for a resource named by `id` (an operator match, a draw)."""

    id = fields.String(required=True)
    deleted = fields.Boolean(required=True)


class Deleted(Schema):
    id = fields.String()
    externalID = fields.String()
    deleted = fields.Boolean(required=True)
