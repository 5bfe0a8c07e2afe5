"""The club day's draws over HTTP (contract §22): consolation, feed_in, playoff_all and round_robin_playoff played
to the end through start-next, a withdrawn entry replaced, seeds from ratings."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.test_draws import complete, create, draw_matches, make_courts, play_to_end, read
from tests.conftest import Api

Json = dict[str, Any]


@pytest.mark.parametrize(("fmt", "count", "options", "stages"), [
    ("consolation", 16, {}, {"main", "consolation"}),
    ("feed_in", 12, {"feedInRounds": 2}, {"main", "consolation"}),
    ("playoff_all", 8, {}, {"main", "playoff"}),
    ("round_robin_playoff", 9, {"groupCount": 3}, {"group", "playoff"}),
])
def test_each_club_format_plays_to_the_end_through_start_next_and_places_its_entries(
    operator: Api, fmt: str, count: int, options: Json, stages: set[str],
) -> None:
    broadcast_id, courts = make_courts(operator, 3)
    draw = create(operator, broadcast_id, fmt, count, **options)
    assert draw["format"] == fmt and draw["status"] == "running"
    assert {r["stage"] for r in draw["rounds"]} == stages
    done = play_to_end(operator, draw["id"], courts)
    assert all(dm["status"] in ("complete", "bye") for dm in draw_matches(done))
    assert operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"] == []
    main_places = [p for p in done["placings"] if "stage" not in p]
    if fmt in ("playoff_all", "round_robin_playoff"):
        assert [p["place"] for p in main_places] == list(range(1, count + 1))
        assert {p["entryID"] for p in main_places} == {e["id"] for e in done["entries"]}
    else:
        assert [p["place"] for p in main_places] == [1, 2]
        consolation = [p for p in done["placings"] if p.get("stage") == "consolation"]
        assert [p["place"] for p in consolation] == [1]
        entrants = {s["entryID"] for r in done["rounds"] if r["stage"] == "consolation"
                    for dm in r["drawMatches"] for s in dm["slots"] if s["entryID"]}
        assert consolation[0]["entryID"] in entrants
        assert main_places[0]["entryID"] not in entrants


def test_a_consolation_round_waits_for_the_first_round_losers_and_names_its_rounds(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "consolation", 8)
    names = [(r["stage"], r["name"]) for r in draw["rounds"]]
    assert names == [("main", "Quarterfinal"), ("main", "Semifinal"), ("main", "Final"),
                     ("consolation", "Consolation semifinal"), ("consolation", "Consolation final")]
    first = draw["rounds"][0]["drawMatches"][0]
    consolation = draw["rounds"][3]["drawMatches"][0]
    assert first["next"]["loser"] == {"drawMatchID": consolation["id"], "slot": 0}
    assert consolation["slots"][0]["from"] == {"drawMatchID": first["id"], "outcome": "loser"}
    started = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert started.status_code == 200 and started.json["data"]["id"] == first["matchID"]
    complete(operator, first["matchID"], winner="b")
    moved = read(operator, draw["id"])
    assert moved["rounds"][3]["drawMatches"][0]["slots"][0]["entryID"] == first["slots"][0]["entryID"]


def test_club_format_options_are_checked(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 1)
    body: Json = {"broadcastID": broadcast_id, "name": "Open", "entries": [{"players": [{"manualName": f"P{i}"}]}
                                                                             for i in range(8)]}
    cases: list[tuple[Json, str, str | None]] = [
        ({"format": "feed_in", "feedInRounds": 3}, "feedInRounds", "feedInRounds must be 1 to 2 for 8 entries."),
        ({"format": "consolation", "thirdPlace": True}, "thirdPlace",
         "thirdPlace is not for consolation: its consolation plays the losers on."),
        ({"format": "playoff_all", "groupCount": 2}, "groupCount",
         "groupCount is for round_robin, groups_knockout, round_robin_playoff."),
        ({"format": "round_robin", "seedBy": "elo"}, "seedBy", None),
        ({"format": "round_robin", "seedCount": 2}, "seedCount", "seedCount is for seedBy: rating."),
        ({"format": "knockout_plus"}, "format", None),
    ]
    for extra, field, message in cases:
        refused = operator.post("/operator/draws", json=body | extra)
        assert refused.status_code == 400, (extra, refused.json)
        assert refused.json["error"]["code"] == "validation_failed"
        details = refused.json["error"]["details"]["json"]
        assert list(details) == [field]
        if message is not None:
            assert details[field] == [message]
    assert operator.get(f"/operator/draws?broadcastID={broadcast_id}").json["data"] == []


def test_a_withdrawn_entry_is_replaced_and_its_walkover_is_played_by_the_newcomer(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    first = draw["rounds"][0]["drawMatches"][0]
    leaving = first["slots"][1]["entryID"]
    not_yet = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/replace",
                            json={"players": [{"manualName": "Lea Moss"}]})
    assert not_yet.status_code == 409 and not_yet.json["error"]["code"] == "entry_not_withdrawn"
    withdrawn = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/withdraw")
    assert withdrawn.status_code == 200
    walked = withdrawn.json["data"]["rounds"][0]["drawMatches"][0]
    assert walked["resultType"] == "walkover" and walked["matchID"] == first["matchID"]
    twice = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/replace",
                          json={"players": [{"manualName": "player 2"}]})
    assert twice.status_code == 400 and twice.json["error"]["code"] == "validation_failed"
    replaced = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/replace",
                             json={"players": [{"manualName": "Lea Moss"}], "club": "TTC Süd", "rating": 1480})
    assert replaced.status_code == 200, replaced.json
    data = replaced.json["data"]
    newcomer = data["entries"][-1]
    assert newcomer | {"id": None} == {"id": None, "name": "Lea Moss", "club": "TTC Süd", "seed": 4, "rating": 1480.0,
                                       "withdrawn": False, "players": [{"manualName": "Lea Moss"}]}
    again = data["rounds"][0]["drawMatches"][0]
    assert again["status"] == "ready" and again["resultType"] is None and again["winnerEntryID"] is None
    assert again["slots"][1]["entryID"] == newcomer["id"] and again["matchID"] not in (None, first["matchID"])
    assert data["rounds"][1]["drawMatches"][0]["slots"][0]["entryID"] is None
    pool = operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"]
    new_match = next(m for m in pool if m["id"] == again["matchID"])
    assert new_match["drawMatchID"] == again["id"] and new_match["matchRound"] == "Semifinal"
    history = operator.get("/operator/audit?limit=5").json["data"]
    assert history[0]["action"] == "draw.replaced" and history[0]["target"] == {"type": "draw", "id": draw["id"]}
    done = play_to_end(operator, draw["id"], courts)
    assert any(newcomer["id"] in (s["entryID"] for s in dm["slots"]) and dm["resultType"] == "played"
               for dm in draw_matches(done))
    unknown = operator.post(f"/operator/draws/{draw['id']}/entries/ent_nope/replace",
                            json={"players": [{"manualName": "Kim Ode"}]})
    assert unknown.status_code == 404


def test_a_replacement_after_the_walkover_winner_played_on_is_refused_and_changes_nothing(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    first, second = draw["rounds"][0]["drawMatches"]
    leaving = first["slots"][1]["entryID"]
    assert operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/withdraw").status_code == 200
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").json["data"]["id"] == second["matchID"]
    complete(operator, second["matchID"])
    final = read(operator, draw["id"])["rounds"][1]["drawMatches"][0]
    started = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert started.status_code == 200 and started.json["data"]["id"] == final["matchID"]
    before = read(operator, draw["id"])
    refused = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/replace",
                            json={"players": [{"manualName": "Lea Moss"}]})
    assert refused.status_code == 409, refused.json
    assert refused.json["error"]["code"] == "downstream_started"
    assert refused.json["error"]["details"] == {"drawMatchIDs": [final["id"]]}
    assert read(operator, draw["id"]) == before


def test_seeds_come_from_the_player_lists_ratings(operator: Api, partner: Api) -> None:
    synced = partner.put("/player-lists", json={"externalID": "ladder", "name": "Ladder", "players": [
        {"externalID": f"p{i}", "firstName": f"Ann{i}", "lastName": "Lee", "rating": rating}
        for i, rating in enumerate([1500, 1720.5, "1610", "n/a", 1800, 1300, 1400, 1650])]})
    assert synced.status_code == 200, synced.json
    broadcast_id, _ = make_courts(operator, 1)
    picked: list[Json] = [{"players": [{"playerListExternalID": "ladder", "externalID": f"p{i}"}]} for i in range(8)]
    picked[5]["rating"] = 1900  # the body's rating before the list's
    draw = create(operator, broadcast_id, "single_elimination", 8, entries=picked, seedBy="rating", seedCount=3)
    seeds = {e["name"]: (e["seed"], e["rating"]) for e in draw["entries"]}
    assert seeds["Ann5 Lee"] == (1, 1900.0) and seeds["Ann4 Lee"] == (2, 1800.0)
    assert seeds["Ann1 Lee"] == (3, 1720.5) and seeds["Ann2 Lee"] == (None, 1610.0)
    assert seeds["Ann3 Lee"] == (None, None)
    first_round = draw["rounds"][0]["drawMatches"]
    by_id = {e["id"]: e["seed"] for e in draw["entries"]}
    assert by_id[first_round[0]["slots"][0]["entryID"]] == 1 and by_id[first_round[-1]["slots"][0]["entryID"]] == 2
    both = operator.post("/operator/draws", json={
        "broadcastID": broadcast_id, "name": "Both", "format": "swiss", "seedBy": "rating",
        "entries": [{"players": [{"manualName": f"P{i}"}], "seed": i + 1} for i in range(4)]})
    assert both.status_code == 400 and list(both.json["error"]["details"]["json"]) == ["seedBy"]


def test_a_withdrawn_entry_in_a_playoff_draw_gives_walkovers_and_every_place_is_still_decided(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "playoff_all", 8)
    leaving = draw["entries"][7]["id"]
    withdrawn = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/withdraw")
    assert withdrawn.status_code == 200
    done = play_to_end(operator, draw["id"], courts)
    assert [p["place"] for p in done["placings"]] == list(range(1, 9))
    theirs = [dm for dm in draw_matches(done) if leaving in (s["entryID"] for s in dm["slots"])]
    assert len(theirs) == 3 and all(dm["resultType"] == "walkover" and dm["loserEntryID"] == leaving
                                    for dm in theirs)
    assert done["placings"][-1]["entryID"] == leaving


def test_play_off_rounds_carry_the_best_place_they_decide_and_other_rounds_none(operator: Api) -> None:
    """`firstPlace` in the draw read (contract §22, issue 38 point 4): what the event page and the console group
    play-off sub-brackets by; absent on rounds that decide no place range."""
    broadcast_id, _courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "playoff_all", 8)
    assert [(r["stage"], r["name"], r.get("firstPlace")) for r in draw["rounds"]] == [
        ("main", "Quarterfinal", 1), ("main", "Semifinal", 1), ("playoff", "Places 5-8", 5), ("main", "Final", 1),
        ("playoff", "Places 3-4", 3), ("playoff", "Places 5-6", 5), ("playoff", "Places 7-8", 7)]
    assert read(operator, draw["id"])["rounds"] == draw["rounds"]
    consolation = create(operator, broadcast_id, "consolation", 8)
    assert all("firstPlace" not in r for r in consolation["rounds"])


def test_a_first_round_loser_comes_back_as_a_lucky_loser_and_the_undone_walkover_leaves_the_results(
        operator: Api) -> None:
    """Issue 51, §22: "no person twice" counts only entries still in play, so a first-round loser of the same draw
    takes a withdrawn entry's place; the walkover undone leaves the results, their CSV and print (no stale row)."""
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "single_elimination", 8)
    first, second = draw["rounds"][0]["drawMatches"][:2]
    names = {e["id"]: e["name"] for e in draw["entries"]}
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").json["data"]["id"] == first["matchID"]
    complete(operator, first["matchID"], winner="a")
    loser = names[first["slots"][1]["entryID"]]
    leaving = second["slots"][1]["entryID"]
    assert operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/withdraw").status_code == 200
    results = operator.get(f"/operator/results?broadcastID={broadcast_id}").json["data"]
    assert len(results) == 2  # the played match and the walkover
    in_play = names[second["slots"][0]["entryID"]]
    twice = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/replace",
                          json={"players": [{"manualName": in_play}]})
    assert twice.status_code == 400 and twice.json["error"]["code"] == "validation_failed"
    lucky = operator.post(f"/operator/draws/{draw['id']}/entries/{leaving}/replace",
                          json={"players": [{"manualName": loser}]})
    assert lucky.status_code == 200, lucky.json
    again = lucky.json["data"]["rounds"][0]["drawMatches"][1]
    assert again["status"] == "ready" and names.get(again["slots"][1]["entryID"]) is None
    assert lucky.json["data"]["entries"][-1]["name"] == loser
    results = operator.get(f"/operator/results?broadcastID={broadcast_id}").json["data"]
    assert [r["games"] for r in results] == ["11-4"]  # the played match alone
    csv = operator.get(f"/operator/results?broadcastID={broadcast_id}&format=csv")
    assert csv.status_code == 200 and len(csv.get_data(as_text=True).strip().splitlines()) == 2  # header + 1
    printed = operator.get(f"/operator/broadcasts/{broadcast_id}/print/results").get_data(as_text=True)
    assert "w/o" not in printed


def test_a_replacement_of_an_entry_that_retired_from_a_started_match_is_refused_and_changes_nothing(
        operator: Api) -> None:
    """Issue 51, §22: in a 4-entry knockout whose first semifinal started and whose seed 1 then withdrew (the
    match retired), the match a replacement would change has started: `409 downstream_started`, nothing changed
    (no phantom entry that plays nowhere)."""
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    first = draw["rounds"][0]["drawMatches"][0]
    seed_one = next(e["id"] for e in draw["entries"] if e["seed"] == 1)
    assert seed_one in [s["entryID"] for s in first["slots"]]
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").json["data"]["id"] == first["matchID"]
    assert operator.post(f"/operator/draws/{draw['id']}/entries/{seed_one}/withdraw").status_code == 200
    retired = read(operator, draw["id"])["rounds"][0]["drawMatches"][0]
    assert retired["resultType"] == "retired"
    before = read(operator, draw["id"])
    refused = operator.post(f"/operator/draws/{draw['id']}/entries/{seed_one}/replace",
                            json={"players": [{"manualName": "Lea Moss"}]})
    assert refused.status_code == 409, refused.json
    assert refused.json["error"]["code"] == "downstream_started"
    assert refused.json["error"]["details"] == {"drawMatchIDs": [first["id"]]}
    assert read(operator, draw["id"]) == before
