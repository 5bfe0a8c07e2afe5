"""Our flask-smorest Blueprint: validation failures are 400 (not webargs' 422)."""

from __future__ import annotations

import flask_smorest
from webargs.flaskparser import FlaskParser


class Parser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()
