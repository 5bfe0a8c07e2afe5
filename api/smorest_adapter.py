"""The one place Courtside leans on flask-smorest beyond its documented calls: an `Api` that documents the blueprints
when the OpenAPI document is first read rather than while the app is made (most of `create_app`'s time, paid by
every test and every server start).

flask-smorest is pinned to one minor (`pyproject.toml`, 0.x: a minor may break) and
`tests/api/test_smorest_adapter.py` checks each assumption below against the installed version:
- `Api.register_blueprint` does three things: maps the blueprint's name to the Api in
  `app.extensions["flask-smorest"]["blp_name_to_api"]` (what `current_api` reads), registers the blueprint with
  Flask, then documents it with `Blueprint.register_views_in_doc(api, app, spec, name=, parameters=)` and
  `spec.tag({"name", "description"})`; this class does the first two at once and the third on the first read;
- `Api.__init__` reads `self.spec` before `init_app` sets it, and `init_app` assigns `self.spec`;
- the document this Api serves equals the one the stock `Api` makes for the same blueprints.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_smorest import Api

from api.schemas.common import ErrorEnvelope


class CourtsideApi(Api):  # type: ignore[misc]  # flask-smorest ships no type information
    """flask-smorest's Api, documenting the registered blueprints when the OpenAPI document is first read rather
    than while the app is made: the platform's parts (`on_first_read`, e.g. `openapi.install`) and then every
    registered blueprint's views, in the order `create_app` gave them. The routes are live at once; the document
    (most of `create_app`'s time, paid by every test that makes an app) is the same, in the same order.

    Only flask-smorest's public surface is used (docs/decisions.md, "No private framework internals"): the spec
    object is made by `Api.init_app` as usual; the documentation step is the public
    `Blueprint.register_views_in_doc` and `spec.tag`, as `Api.register_blueprint` itself calls them; and the
    blueprint is mapped to this Api in `app.extensions["flask-smorest"]["blp_name_to_api"]` (what `current_api`
    reads) as `Api.register_blueprint` does. tests/contract/test_openapi.py checks the document and `current_api`."""

    ERROR_SCHEMA = ErrorEnvelope

    def __init__(self, app: Flask) -> None:
        self.flask_app = app
        self._first_read: list[Callable[[], None]] = []
        self._undocumented: list[tuple[Any, str, Any]] = []
        self._documenting = threading.RLock()
        self._building = False
        self._ready = False
        self._spec: Any = None
        super().__init__(app)

    def on_first_read(self, step: Callable[[], None]) -> None:
        """Run `step` (which may read `spec`) once, before any blueprint is documented."""
        with self._documenting:
            self._first_read.append(step)
            self._ready = False

    @property
    def spec(self) -> Any:
        """The OpenAPI document, with every registered blueprint's views in it."""
        if self._ready or self._spec is None:  # None: `Api.__init__` reads it before `init_app` makes it
            return self._spec
        with self._documenting:
            if self._building:  # a read from inside the build itself (same thread: the lock is re-entrant)
                return self._spec
            self._building = True
            try:
                while self._first_read:
                    self._first_read.pop(0)()
                while self._undocumented:
                    blp, name, parameters = self._undocumented.pop(0)
                    blp.register_views_in_doc(self, self.flask_app, self._spec, name=name, parameters=parameters)
                    self._spec.tag({"name": name, "description": blp.description})
                self._ready = True
            finally:
                self._building = False
        return self._spec

    @spec.setter
    def spec(self, value: Any) -> None:
        self._spec = value

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        """Register the blueprint's routes now, its documentation on the document's first read (`spec`)."""
        name = options.get("name", blp.name)
        self.flask_app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self.flask_app.register_blueprint(blp, **options)
        with self._documenting:
            self._undocumented.append((blp, name, parameters))
            self._ready = False
