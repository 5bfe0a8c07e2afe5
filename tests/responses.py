"""Reading a Flask test response's JSON body, typed: werkzeug types `response.json` as `Any | None` (None when the
body is not JSON), so a test that indexes it first checks that it is JSON, and says so when it is not."""

from __future__ import annotations

from typing import Any

from werkzeug.test import TestResponse


def json_of(response: TestResponse) -> Any:
    """The response's JSON body; fails with the status and body text when the response is not JSON."""
    body = response.json
    assert body is not None, f"{response.status}: not JSON: {response.get_data(as_text=True)[:500]}"
    return body
