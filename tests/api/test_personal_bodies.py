"""Issue 47, point 14: a body that is not JSON at all on a personal page's action is `400 bad_request`, as on every
other route (it was `validation_failed`), and nothing is reported."""

from __future__ import annotations

from tests.api.test_personal_actions import day, reporting  # noqa: F401  (the `day` fixture)
from tests.api.test_personal_links import Day


def test_a_report_whose_body_is_not_json_is_400_bad_request(day: Day) -> None:  # noqa: F811
    match, ann, _ = reporting(day)
    answer = day.client.post(day.path(ann) + f"/matches/{match['id']}/report", data=b'{"gameScores": [',
                             content_type="application/json")
    assert answer.status_code == 400 and answer.json["error"]["code"] == "bad_request"
    assert answer.json["error"]["message"] == "The request body is not valid JSON."
    assert day.operator.get(f"/operator/broadcasts/{day.id}/reports").json["data"] == []
