"""The assumptions `api/smorest_adapter.py` makes about flask-smorest, checked against the installed release (issue
48.6): if an upgrade changes what `Api.register_blueprint` or `Api.__init__` does, these fail before a served document
silently loses a route. The document itself is compared with the stock eager one in
`tests/contract/test_openapi.py::test_the_lazy_document_is_flask_smorests_eager_one`."""

from __future__ import annotations

import ast
import inspect
import textwrap
from importlib.metadata import version
from typing import Any

from apispec import APISpec
from flask import Flask
from flask_smorest import Api, current_api

from api.app import _openapi_config
from api.blueprint import Blueprint
from api.smorest_adapter import CourtsideApi


def _calls(function: Any) -> list[str]:
    """The dotted names `function` calls, in source order (`self._app.register_blueprint`, ...)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    return [ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)]


def test_flask_smorest_is_the_pinned_minor() -> None:
    """pyproject pins `>=0.47,<0.48`: 0.x releases may break a minor; the assumptions below are 0.47's."""
    assert version("flask-smorest").startswith("0.47.")


def test_register_blueprint_maps_registers_then_documents_as_the_adapter_copies() -> None:
    calls = _calls(Api.register_blueprint)
    assert calls == ["options.get", "self._app.register_blueprint", "blp.register_views_in_doc", "self.spec.tag"]
    source = inspect.getsource(Api.register_blueprint)
    assert 'self._app.extensions["flask-smorest"]["blp_name_to_api"][blp_name] = self' in source
    assert "self.spec,\n            name=blp_name,\n            parameters=parameters," in source
    assert 'self.spec.tag({"name": blp_name, "description": blp.description})' in source


def test_init_sets_spec_to_none_then_init_app_assigns_the_apispec() -> None:
    """The adapter's `spec` property answers its stored value until blueprints wait to be documented; `Api.__init__`
    assigns `None` first and `init_app` the APISpec, both through the property's setter."""
    init = inspect.getsource(Api.__init__)
    assert init.index("self.spec = None") < init.index("self.init_app(app)")
    app = Flask("adapter")
    _openapi_config(app)
    api = CourtsideApi(app)
    assert isinstance(api.spec, APISpec)
    assert api.spec.to_dict()["paths"] == {}


def test_a_blueprint_is_routed_at_once_and_documented_on_the_first_read() -> None:
    app = Flask("adapter")
    _openapi_config(app)
    api = CourtsideApi(app)
    blp = Blueprint("probe", __name__, description="Probe things.")

    @blp.route("/probe")
    @blp.response(200)
    def probe() -> dict[str, str]:
        """Probe."""
        return {"api": type(current_api._get_current_object()).__name__}

    api.register_blueprint(blp, url_prefix="/api/v1")
    assert app.test_client().get("/api/v1/probe").get_json() == {"api": "CourtsideApi"}
    document = api.spec.to_dict()
    assert "/api/v1/probe" in document["paths"]
    assert {"name": "probe", "description": "Probe things."} in document["tags"]
