"""Our flask-smorest Blueprint: validation failures are 400 (not webargs' 422); bodies parse with the app's
strict JSON parser (`StrictJSONProvider`), so hostile JSON is a 400 like any other unparseable body."""

from __future__ import annotations

import json
import typing

import flask
import flask_smorest
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


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()
