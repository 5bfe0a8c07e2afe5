"""Our flask-smorest Blueprint: validation failures are 400 (not webargs' 422); bodies parse with the app's
strict JSON parser (`StrictJSONProvider`), so hostile JSON is a 400 like any other unparseable body; a view that
declares a JSON body says so in its own attribute (`takes_json_body`), so the platform's strict-body rule needs
nothing private of flask-smorest; argument schemas are built once, when the route is declared (webargs
would build a schema class anew on every request).

What we rely on of flask-smorest (pinned in pyproject.toml): `Blueprint.arguments/response/alt_response/doc/route`,
`ARGUMENTS_PARSER`, `Api.ERROR_SCHEMA`, `Api.spec` (apispec plugins) and `Api.ma_plugin.converter`.

Responses are dumped through a plan compiled once per schema (`api.dumping`): the same output as marshmallow's
`dump`, at a fraction of its per-field cost. `Settings.check_responses` (on in the test suite) dumps every
response with marshmallow too and refuses any difference, byte for byte."""

from __future__ import annotations

import functools
import json
import typing

import flask
import flask_smorest
from flask_smorest.utils import resolve_schema_instance, unpack_tuple_response
from marshmallow import RAISE
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from api.dumping import check_plan, dump_plan
from api.schemas.common import bind_cursor


class Parser(FlaskParser):
    """Query parameters are checked like bodies (contract §23): one a route does not take is `400
    validation_failed` naming it, never silently ignored."""

    DEFAULT_VALIDATION_STATUS = 400
    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": RAISE, "querystring": RAISE}

    def _raw_load_json(self, req: flask.Request) -> typing.Any:
        if not is_json_request(req):
            return core.missing
        raw = req.get_data(cache=True)
        if not raw:
            return core.missing  # an empty body under a JSON content type is no body (decisions.md)
        try:
            return flask.current_app.json.loads(raw)
        except ValueError as exc:  # orjson's JSONDecodeError is a ValueError too
            raise json.JSONDecodeError(str(exc), str(exc), 0) from exc  # a non-empty doc: not "no body"


F = typing.TypeVar("F", bound=typing.Callable[..., typing.Any])


def takes_json_body(view: typing.Callable[..., typing.Any]) -> bool:
    """Whether a view function declares a JSON request body (`@blp.arguments` with the default location)."""
    return bool(getattr(view, "takes_json_body", False))


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]  # flask-smorest ships no type information
    """Every decorator here is typed to keep the view's own signature (flask-smorest's are untyped)."""

    ARGUMENTS_PARSER = Parser()

    def route(self, rule: str, *, parameters: typing.Any = None, **options: typing.Any) -> typing.Callable[[F], F]:
        """`flask_smorest.Blueprint.route`, typed."""
        decorate: typing.Callable[[F], F] = super().route(rule, parameters=parameters, **options)
        return decorate

    def alt_response(self, status_code: typing.Any, **kwargs: typing.Any) -> typing.Callable[[F], F]:
        """`flask_smorest.Blueprint.alt_response`, typed."""
        decorate: typing.Callable[[F], F] = super().alt_response(status_code, **kwargs)
        return decorate

    def after_request(self, hook: F) -> F:
        """`flask.Blueprint.after_request`, typed."""
        registered: F = super().after_request(hook)
        return registered

    @staticmethod
    def doc(**kwargs: typing.Any) -> typing.Callable[[F], F]:
        """`flask_smorest.Blueprint.doc` (a static method there too), typed."""
        decorate: typing.Callable[[F], F] = flask_smorest.Blueprint.doc(**kwargs)
        return decorate

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

    def response(
        self, status_code: typing.Any, schema: typing.Any = None, *, as_built: bool = False, **kwargs: typing.Any,
    ) -> typing.Callable[[F], F]:
        """`flask_smorest.Blueprint.response` (same documentation), dumping with the schema's compiled plan.

        `as_built`: the view returns the body already in the schema's shape and order (a read serialised by its one
        function, as `domain.draws.read.draw_json`), sent as it is; `Settings.check_responses` still dumps it with
        marshmallow and refuses any difference, so the test suite holds the two to the same bytes."""
        documented = super().response(status_code, schema, **kwargs)
        instance = resolve_schema_instance(schema) if schema is not None else None
        plan = dump_plan(instance) if instance is not None and not as_built else None

        def decorator(view: F) -> F:
            @functools.wraps(view)
            def presented(*args: typing.Any, **kw: typing.Any) -> typing.Any:
                body, status, headers = unpack_tuple_response(view(*args, **kw))
                if isinstance(body, flask.Response):
                    return body, status, headers
                if plan is not None:
                    dumped = plan(body)
                    if instance is not None and flask.current_app.config.get("COURTSIDE_CHECK_RESPONSES"):
                        check_plan(instance, body, dumped)
                    body = dumped
                elif instance is not None and flask.current_app.config.get("COURTSIDE_CHECK_RESPONSES"):
                    check_plan(instance, body, body)  # as built: the same bytes as marshmallow's dump
                response = flask.current_app.json.response(bind_cursor(body))
                response.status_code = int(status or status_code)
                return response, None, headers

            decorated: F = documented(presented)  # the view's signature; the response is the body it returns
            return decorated

        return decorator
