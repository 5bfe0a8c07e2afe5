"""Our flask-smorest Blueprint: validation failures are 400 (not webargs' 422); bodies parse with the app's
strict JSON parser (`StrictJSONProvider`), so hostile JSON is a 400 like any other unparseable body; a view that
declares a JSON body says so in its own attribute (`takes_json_body`), so the platform's strict-body rule needs
nothing private of flask-smorest; argument schemas are built once, when the route is declared (webargs
would build a schema class anew on every request).

What we rely on of flask-smorest (pinned in pyproject.toml): `Blueprint.arguments/response/alt_response/doc/route`,
`ARGUMENTS_PARSER`, `Api.ERROR_SCHEMA`, `Api.spec` (apispec plugins) and `Api.ma_plugin.converter`."""

from __future__ import annotations

import json
import typing

import flask
import flask_smorest
from flask_smorest.utils import resolve_schema_instance
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request


class Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: flask.Request) -> typing.Any:
        if not is_json_request(req):
            return core.missing
        try:
            return flask.current_app.json.loads(req.get_data(cache=True))
        except ValueError as exc:  # orjson's JSONDecodeError is a ValueError too
            raise json.JSONDecodeError(str(exc), str(exc), 0) from exc  # a non-empty doc: not "no body"


F = typing.TypeVar("F", bound=typing.Callable[..., typing.Any])


def takes_json_body(view: typing.Callable[..., typing.Any]) -> bool:
    """Whether a view function declares a JSON request body (`@blp.arguments` with the default location)."""
    return bool(getattr(view, "takes_json_body", False))


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()

    def arguments(self, schema: typing.Any, *, location: str = "json",
                  **kwargs: typing.Any) -> typing.Callable[[F], F]:
        """flask-smorest's `arguments` with one schema instance for every request (schemas hold no per-request
        state), and a JSON body marks the view (`takes_json_body`)."""
        decorate = super().arguments(resolve_schema_instance(schema), location=location, **kwargs)

        def decorator(view: F) -> F:
            decorated: F = decorate(view)
            if location == "json":  # decorators above copy the attribute (functools.wraps updates __dict__)
                decorated.takes_json_body = True  # type: ignore[attr-defined]
            return decorated

        return decorator
