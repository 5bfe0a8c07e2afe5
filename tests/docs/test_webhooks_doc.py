"""docs/webhooks.md's event catalogue: one full example body per event type, made from the samples the OpenAPI
document shows (and the test endpoint sends), each valid against the document's payload schema."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask

from domain.models import EventType
from tests.docs.webhook_catalogue import catalogue, written
from tests.openapi_validation import validator


def test_the_catalogue_is_the_generated_one() -> None:
    assert written() == catalogue(), "run: .venv/bin/python -m tests.docs.webhook_catalogue"


def test_every_event_type_has_a_full_example_valid_against_the_document(app: Flask) -> None:
    document: dict[str, Any] = app.test_client().get("/api/v1/openapi.json").json or {}
    sections = dict(re.findall(r"### `([a-z._]+)`\n\n.*?\n\n```json\n(.*?)\n```", written(), re.DOTALL))
    assert list(sections) == [event.value for event in EventType]
    for event, text in sections.items():
        body = json.loads(text)
        assert body["type"] == event
        schema = document["x-webhooks"][event]["post"]["requestBody"]["content"]["application/json"]["schema"]
        validator({**schema, "components": document["components"]}).validate(body)
        if event.startswith("match."):
            assert {"id", "externalID", "status", "score", "gameScores", "startTime"} <= set(body["data"]["match"])
