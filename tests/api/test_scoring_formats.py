"""Scoring formats over HTTP (contract §18): presets, where a format is set and how it resolves, the check of every
score write, point by point under games and sets (tennis points, tiebreaks, match tiebreaks), and the reads."""

from __future__ import annotations

from typing import Any

import pytest

from domain.clock import FixedClock, iso
from tests.api.resources_support import make_broadcast, sync_list
from tests.conftest import Api

PRESET_KEYS = ["badminton", "badminton_15", "table_tennis", "table_tennis_7", "squash", "pickleball", "volleyball",
               "beach_volleyball", "tennis", "tennis_match_tiebreak", "padel", "padel_golden_point"]
BADMINTON = {"kind": "games", "bestOf": 3, "pointsToWin": 21, "winBy": 2, "cap": 30}
TENNIS = {"kind": "sets", "bestOf": 3, "gamesToWin": 6, "tiebreakAt": 6, "tiebreakTo": 7, "finalSet": "tiebreak",
          "noAd": False}


def house(operator: Api, **fields: Any) -> dict[str, Any]:
    response = operator.post("/operator/broadcasts", json={"name": "Club day", "tables": [
        {"label": "Court 1"}, {"label": "Court 2"}]} | fields)
    assert response.status_code == 201, response.json
    return dict(response.json["data"])


def new_match(operator: Api, court: str, **fields: Any) -> dict[str, Any]:
    response = operator.post("/operator/matches", json={"tableID": court, "playerA": {"manualName": "Ann Lee"},
                                                        "playerB": {"manualName": "Bo Kim"}} | fields)
    assert response.status_code == 201, response.json
    return dict(response.json["data"])


def started(operator: Api, court: str, **fields: Any) -> dict[str, Any]:
    match = new_match(operator, court, **fields)
    response = operator.post(f"/operator/matches/{match['id']}/start")
    assert response.status_code == 200, response.json
    return dict(response.json["data"])


def match_read(operator: Api, match_id: str) -> dict[str, Any]:
    found = {m["id"]: m for m in operator.get("/operator/matches?limit=100").json["data"]}
    return dict(found[match_id])


def points(operator: Api, match: dict[str, Any], sides: str) -> dict[str, Any]:
    for side in sides:
        response = operator.post(f"/operator/matches/{match['id']}/point",
                                 json={"side": side, "version": match["scoreVersion"]})
        assert response.status_code == 200, response.json
        match = dict(response.json["data"])
    return match


def test_scoring_formats_lists_every_preset_with_its_object_and_words(operator: Api) -> None:
    response = operator.get("/operator/scoring-formats")
    assert response.status_code == 200
    listed = response.json["data"]
    assert [p["name"] for p in listed] == PRESET_KEYS
    by_name = {p["name"]: p for p in listed}
    assert by_name["badminton"] == {"name": "badminton", "scoring": BADMINTON, "typicalMinutes": 40,
                                    "description": "Best of 3 games to 21, win by 2, 30 wins"}
    assert {p["name"]: p["typicalMinutes"] for p in listed} == {  # contract §20's list
        "badminton": 40, "badminton_15": 30, "table_tennis": 30, "table_tennis_7": 40, "squash": 45,
        "pickleball": 30, "volleyball": 90, "beach_volleyball": 50, "tennis": 90, "tennis_match_tiebreak": 75,
        "padel": 90, "padel_golden_point": 80}
    assert by_name["tennis"]["scoring"] == TENNIS
    assert by_name["volleyball"]["scoring"]["decidingGame"] == {"pointsToWin": 15, "winBy": 2, "cap": None}
    assert by_name["tennis_match_tiebreak"]["scoring"]["finalSet"] == "match_tiebreak"
    assert by_name["padel_golden_point"]["scoring"]["noAd"] is True


def test_an_unknown_preset_is_400_validation_failed_naming_scoring(operator: Api) -> None:
    response = operator.post("/operator/broadcasts", json={"name": "X", "tables": [{"label": "C1"}],
                                                           "scoring": "curling"})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert "scoring" in response.json["error"]["details"]["json"]
    assert operator.get("/operator/broadcasts").json["data"] == []


@pytest.mark.parametrize(("scoring", "field"), [
    ({"kind": "games", "bestOf": 2, "pointsToWin": 21}, "bestOf"),
    ({"kind": "games", "bestOf": 3, "pointsToWin": 21, "cap": 21}, "cap"),
    ({"kind": "sets", "bestOf": 3, "tiebreakTo": 9}, "tiebreakTo"),
])
def test_a_bad_format_object_is_400_naming_its_field(operator: Api, scoring: dict[str, Any], field: str) -> None:
    response = operator.post("/operator/broadcasts", json={"name": "X", "tables": [{"label": "C1"}],
                                                           "scoring": scoring})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert field in response.json["error"]["details"]["json"]["scoring"]


def test_a_broadcasts_format_is_its_matches_and_the_server_default_else(operator: Api) -> None:
    plain = house(operator)
    assert plain["scoring"] is None and plain["scoringName"] is None
    match = new_match(operator, plain["tables"][0]["id"])
    assert match["scoringName"] == "table_tennis" and match["bestOf"] == 5
    badminton = house(operator, name="Shuttle day", scoring="badminton")
    assert badminton["scoring"] == BADMINTON and badminton["scoringName"] == "badminton"
    match = new_match(operator, badminton["tables"][0]["id"])
    assert match["scoring"] == BADMINTON and match["scoringName"] == "badminton" and match["bestOf"] == 3


def test_a_matchs_own_format_wins_over_its_broadcasts(operator: Api) -> None:
    broadcast = house(operator, scoring="badminton")
    match = new_match(operator, broadcast["tables"][0]["id"], scoring="squash")
    assert match["scoringName"] == "squash" and match["scoring"]["pointsToWin"] == 11


def test_a_draws_format_wins_over_its_broadcasts(operator: Api) -> None:
    broadcast = house(operator, scoring="badminton")
    drawn = operator.post("/operator/draws", json={
        "broadcastID": broadcast["id"], "name": "Beach cup", "format": "single_elimination",
        "scoring": "beach_volleyball", "entries": [{"players": [{"manualName": n}]} for n in ("A1", "B2", "C3", "D4")]})
    assert drawn.status_code == 201, drawn.json
    assert drawn.json["data"]["scoringName"] == "beach_volleyball"
    pool = operator.get(f"/operator/broadcasts/{broadcast['id']}/pool").json["data"]
    assert len(pool) == 2 and {m["scoringName"] for m in pool} == {"beach_volleyball"}


def test_pending_matches_follow_the_broadcasts_format_and_a_started_one_keeps_its_own(operator: Api) -> None:
    broadcast = house(operator, scoring="badminton")
    court, other = (t["id"] for t in broadcast["tables"])
    playing = started(operator, court)
    waiting = new_match(operator, other)
    own = new_match(operator, other, scoring="squash")
    patched = operator.patch(f"/operator/broadcasts/{broadcast['id']}", json={"scoring": "volleyball"})
    assert patched.status_code == 200 and patched.json["data"]["scoringName"] == "volleyball"
    read = {m["id"]: m for m in operator.get("/operator/matches?limit=100").json["data"]}
    assert read[waiting["id"]]["scoringName"] == "volleyball"
    assert read[playing["id"]]["scoringName"] == "badminton"  # fixed from its start
    assert read[own["id"]]["scoringName"] == "squash"
    cleared = operator.patch(f"/operator/broadcasts/{broadcast['id']}", json={"scoring": None})
    assert cleared.status_code == 200 and cleared.json["data"]["scoring"] is None
    assert match_read(operator, waiting["id"])["scoringName"] == "table_tennis"


def test_a_partners_best_of_overrides_the_formats(partner: Api, operator: Api) -> None:
    broadcast = make_broadcast(partner, scoring="badminton")
    assert broadcast["scoringName"] == "badminton"
    sync_list(partner)
    body = {"externalID": "m1", "tableID": broadcast["tables"][0]["id"], "playerListExternalID": "list-1",
            "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}}
    three = partner.put("/matches", json=body).json["data"]
    assert three["bestOf"] == 3 and three["scoringName"] == "badminton"
    five = partner.put("/matches", json=body | {"externalID": "m2", "bestOf": 5}).json["data"]
    assert five["bestOf"] == 5 and five["scoring"] == BADMINTON | {"bestOf": 5} and five["scoringName"] is None


def test_a_table_tennis_best_of_3_is_not_named_pickleball(partner: Api, operator: Api) -> None:
    """Issue 51, point 10: a format was named by the first preset equal to it, not by the sport the club chose."""
    broadcast = make_broadcast(partner, scoring="table_tennis")
    sync_list(partner)
    body = {"externalID": "m1", "tableID": broadcast["tables"][0]["id"], "playerListExternalID": "list-1",
            "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}, "bestOf": 3}
    three = partner.put("/matches", json=body).json["data"]
    assert three["bestOf"] == 3 and three["scoring"]["pointsToWin"] == 11 and three["scoringName"] is None
    seven = partner.put("/matches", json=body | {"externalID": "m2", "bestOf": 7}).json["data"]
    assert seven["scoringName"] == "table_tennis_7"  # another preset of the same sport keeps its name


def test_scores_are_checked_against_the_matchs_format_naming_the_item(operator: Api) -> None:
    broadcast = house(operator, scoring="badminton")
    match = started(operator, broadcast["tables"][0]["id"])
    refused = operator.post(f"/operator/matches/{match['id']}/score",
                            json={"gameScores": [{"a": 21, "b": 19}, {"a": 31, "b": 29}]})
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_failed"
    assert list(refused.json["error"]["details"]["json"]["gameScores"]) == ["1"]
    undecided = operator.post(f"/operator/matches/{match['id']}/complete", json={"gameScores": [{"a": 21, "b": 19}]})
    assert undecided.status_code == 409 and undecided.json["error"]["code"] == "match_undecided"
    done = operator.post(f"/operator/matches/{match['id']}/complete",
                         json={"gameScores": [{"a": 21, "b": 19}, {"a": 30, "b": 29}]})
    assert done.status_code == 200 and done.json["data"]["score"] == {"a": 2, "b": 0}
    wrong = operator.post(f"/operator/matches/{match['id']}/score", json={
        "gameScores": [{"a": 21, "b": 19}, {"a": 30, "b": 27}], "reason": "sheet"})
    assert wrong.status_code == 400 and list(wrong.json["error"]["details"]["json"]["gameScores"]) == ["1"]


def test_badminton_is_scored_to_30_point_by_point_and_a_point_after_is_409(operator: Api) -> None:
    broadcast = house(operator, scoring="badminton")
    match = started(operator, broadcast["tables"][0]["id"])
    match = points(operator, match, "a" * 21 + "ab" * 29)
    assert match["gameScores"] == [{"a": 21, "b": 0}, {"a": 29, "b": 29}]
    match = points(operator, match, "b")
    assert match["gameScores"][-1] == {"a": 29, "b": 30} and match["score"] == {"a": 1, "b": 1}
    match = points(operator, match, "a" * 21)
    assert match["score"] == {"a": 2, "b": 1}
    late = operator.post(f"/operator/matches/{match['id']}/point", json={"side": "b",
                                                                        "version": match["scoreVersion"]})
    assert late.status_code == 409 and late.json["error"]["code"] == "match_decided"


def test_tennis_is_scored_15_30_40_deuce_advantage_and_the_read_shows_the_point(operator: Api) -> None:
    broadcast = house(operator, scoring="tennis")
    match = started(operator, broadcast["tables"][0]["id"])
    assert match["currentGame"] == {"a": "0", "b": "0"}
    match = points(operator, match, "ab")
    assert match["currentGame"] == {"a": "15", "b": "15"} and match["gameScores"] == [{"a": 0, "b": 0}]
    match = points(operator, match, "aabb")
    assert match["currentGame"] == {"a": "40", "b": "40"}
    match = points(operator, match, "b")
    assert match["currentGame"] == {"a": "40", "b": "AD"}
    match = points(operator, match, "a")
    assert match["currentGame"] == {"a": "40", "b": "40"}  # deuce again
    match = points(operator, match, "bb")  # advantage, game
    assert match["gameScores"] == [{"a": 0, "b": 1}] and match["currentGame"] == {"a": "0", "b": "0"}


def test_a_tiebreak_set_and_a_match_tiebreak_point_by_point_with_undo_across_the_set(operator: Api) -> None:
    broadcast = house(operator, scoring="tennis_match_tiebreak")
    match = started(operator, broadcast["tables"][0]["id"])
    match = points(operator, match, "aaaabbbb" * 6)
    assert match["gameScores"] == [{"a": 6, "b": 6}]
    match = points(operator, match, "aaaaaab")
    assert match["currentGame"] == {"a": "6", "b": "1"}
    match = points(operator, match, "a")
    assert match["gameScores"] == [{"a": 7, "b": 6, "tiebreak": {"a": 7, "b": 1}}]
    undone = operator.post(f"/operator/matches/{match['id']}/undo", json={"version": match["scoreVersion"]})
    assert undone.status_code == 200, undone.json
    assert undone.json["data"]["gameScores"] == [{"a": 6, "b": 6}]
    assert undone.json["data"]["currentGame"] == {"a": "6", "b": "1"}
    match = points(operator, undone.json["data"], "a" + "bbbb" * 6)
    assert match["score"] == {"a": 1, "b": 1}
    match = points(operator, match, "ab" * 9 + "aa")
    assert match["gameScores"][2] == {"a": 1, "b": 0, "tiebreak": {"a": 11, "b": 9}}
    assert match["score"] == {"a": 2, "b": 1} and "currentGame" in match
    done = operator.post(f"/operator/matches/{match['id']}/complete")
    assert done.status_code == 200 and done.json["data"]["status"] == "completed"
    assert "currentGame" not in done.json["data"]
    rows = operator.get(f"/operator/results?broadcastID={broadcast['id']}").json["data"]
    assert rows[0]["games"] == "7-6(1) 0-6 [11-9]" and rows[0]["format"] == "tennis_match_tiebreak"


def test_a_whole_tennis_score_is_written_with_tiebreaks(operator: Api) -> None:
    broadcast = house(operator, scoring="tennis")
    match = started(operator, broadcast["tables"][0]["id"])
    refused = operator.post(f"/operator/matches/{match['id']}/complete", json={
        "gameScores": [{"a": 6, "b": 4}, {"a": 7, "b": 6}]})
    assert refused.status_code == 400 and list(refused.json["error"]["details"]["json"]["gameScores"]) == ["1"]
    done = operator.post(f"/operator/matches/{match['id']}/complete", json={
        "gameScores": [{"a": 6, "b": 4}, {"a": 7, "b": 6, "tiebreak": {"a": 7, "b": 4}}]})
    assert done.status_code == 200, done.json
    assert done.json["data"]["gameScores"][1]["tiebreak"] == {"a": 7, "b": 4}
    csv = operator.get(f"/operator/results?broadcastID={broadcast['id']}&format=csv").get_data(as_text=True)
    assert "6-4 7-6(4)" in csv and "tennis" in csv


def test_an_import_row_sets_its_matchs_format(operator: Api) -> None:
    broadcast = house(operator)
    response = operator.post("/operator/matches/import", json={"broadcastID": broadcast["id"], "rows": [
        {"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Kim", "scoring": "squash"},
        {"court": "Court 2", "playerA": "Cy Day", "playerB": "Di Eve", "scoring": "hockey"}]})
    assert response.status_code == 400
    assert "scoring" in response.json["error"]["details"]["json"]["rows"]["1"]
    assert operator.get("/operator/matches").json["data"] == []  # the file is checked whole first
    response = operator.post("/operator/matches/import", json={"broadcastID": broadcast["id"], "rows": [
        {"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Kim", "scoring": "squash"}]})
    assert response.status_code in (200, 201), response.json
    [queued] = operator.get("/operator/matches").json["data"]
    assert queued["scoringName"] == "squash"


@pytest.mark.parametrize("settings", [{"scoring": "badminton"}], indirect=True)
def test_the_servers_format_is_courtside_scoring(operator: Api) -> None:
    rules = operator.get("/operator/rules").json["data"]
    assert rules["scoringName"] == "badminton" and rules["pointsPerGame"] == 21 and rules["defaultBestOf"] == 3
    match = new_match(operator, house(operator)["tables"][0]["id"])
    assert match["scoring"] == BADMINTON


def test_webhooks_carry_the_match_read_in_its_format(partner: Api, operator: Api) -> None:
    assert partner.patch("/webhooks/configuration", json={"url": "http://127.0.0.1:9/hooks"}).status_code == 200
    broadcast = make_broadcast(partner, scoring="tennis")
    sync_list(partner)
    match = partner.put("/matches", json={"externalID": "m1", "tableID": broadcast["tables"][0]["id"],
                                          "playerListExternalID": "list-1", "playerA": {"externalID": "p1"},
                                          "playerB": {"externalID": "p2"}}).json["data"]
    assert operator.post(f"/operator/matches/{match['id']}/start").status_code == 200
    points(operator, match_read(operator, match["id"]), "a")
    payloads = [d["payload"] for d in partner.get("/webhooks?limit=10").json["data"]]
    scored = next(p for p in payloads if p["type"] == "match.score_updated")
    assert scored["data"]["match"]["scoring"] == TENNIS and scored["data"]["match"]["currentGame"] == {
        "a": "15", "b": "0"}


def test_without_history_the_board_expects_each_match_for_its_formats_typical_minutes(
        operator: Api, clock: FixedClock) -> None:
    """Issue 51, §9 sharpened: with fewer than 3 real durations a match's own format's `typicalMinutes` (§20)
    applies (tennis with a match tiebreak: 75, not a flat 20), for the expected end, the queue and the overdue
    warning; a typed-in result is no duration."""
    made = operator.post("/operator/broadcasts", json={"name": "Tennis day", "tables": [{"label": "Court 1"}],
                                                       "scoring": "tennis_match_tiebreak"})
    assert made.status_code == 201, made.json
    court = made.json["data"]["tables"][0]["id"]
    ids = [operator.post("/operator/matches", json={
        "tableID": court, "playerA": {"manualName": f"A{i}"}, "playerB": {"manualName": f"B{i}"}}).json["data"]["id"]
        for i in range(3)]
    sets = [{"a": 6, "b": 0}, {"a": 6, "b": 0}]
    typed = operator.post(f"/operator/matches/{ids[0]}/result", json={"gameScores": sets})
    assert typed.status_code == 200, typed.json
    assert operator.post(f"/operator/matches/{ids[1]}/start").status_code == 200
    clock.advance(100 * 60)  # 100 minutes in play: over 20 × 1.5, not over 75 × 1.5
    (board,) = operator.get("/operator/tables").json["data"]
    assert board["typicalMinutes"] == 75 and board["attention"] is None
    assert board["activeMatch"]["expectedEndOn"] == iso(clock.now())  # 75 minutes passed: it ends now
    assert board["queue"][0]["estimatedStartOn"] == iso(clock.now())
    clock.advance(13 * 60)  # 113 minutes: more than 112.5
    (board,) = operator.get("/operator/tables").json["data"]
    assert board["attention"] == "overdue"
