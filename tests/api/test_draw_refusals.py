"""Smaller holes of the draws routes (issue 37, point 12): a court named twice in `tableIDs` is refused as the
document's `uniqueItems` says, every 400 of a draw body names its field, and a withdrawal from a match in play
reads the same on the draw match and on the real match."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.test_draws import create, make_courts, match_read
from tests.conftest import Api


def body(broadcast_id: str, count: int = 4, **options: Any) -> dict[str, Any]:
    return {"broadcastID": broadcast_id, "name": "Open", "format": "round_robin",
            "entries": [{"players": [{"manualName": f"P{i}"}]} for i in range(count)]} | options


def test_duplicate_table_ids_are_refused(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    refused = operator.post("/operator/draws", json=body(broadcast_id, tableIDs=[courts[0], courts[0]]))
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_failed"
    assert refused.json["error"]["details"] == {"json": {"tableIDs": ["Items must be unique."]}}
    assert operator.get(f"/operator/draws?broadcastID={broadcast_id}").json["data"] == []


@pytest.mark.parametrize(("options", "field"), [
    ({"format": "single_elimination", "groupCount": 2}, "groupCount"),
    ({"groupCount": 3}, "groupCount"),
    ({"format": "groups_knockout", "groupCount": 2, "advancePerGroup": 3}, "advancePerGroup"),
    ({"format": "swiss", "rounds": 9}, "rounds"),
    ({"bestOf": 2}, "bestOf"),
    ({"entries": [{"players": [{"manualName": "A"}]}, {"players": [{"manualName": "B"}, {"manualName": "C"}]}]},
     "entries"),
    ({"entries": [{"players": [{"manualName": "A"}], "seed": 2}, {"players": [{"manualName": "B"}], "seed": 2}]},
     "entries"),
])
def test_every_draw_400_names_its_field(operator: Api, options: dict[str, Any], field: str) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    refused = operator.post("/operator/draws", json=body(broadcast_id) | options)
    assert refused.status_code == 400, refused.json
    error = refused.json["error"]
    assert error["code"] == "validation_failed"
    assert list(error["details"]["json"]) == [field], error


def test_withdrawing_from_a_match_in_play_reads_retired_on_both(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "single_elimination", 2)
    final = draw["rounds"][0]["drawMatches"][0]
    started = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert started.status_code == 200 and started.json["data"]["id"] == final["matchID"]
    quitter = final["slots"][0]["entryID"]
    withdrawn = operator.post(f"/operator/draws/{draw['id']}/entries/{quitter}/withdraw")
    assert withdrawn.status_code == 200, withdrawn.json
    walked = withdrawn.json["data"]["rounds"][0]["drawMatches"][0]
    real = match_read(operator, final["matchID"])
    assert real["status"] == "completed" and real["winnerSide"] == "b"
    assert walked["status"] == "complete" and walked["winnerEntryID"] == final["slots"][1]["entryID"]
    assert walked["resultType"] == real["resultType"] == "retired"
