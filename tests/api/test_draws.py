"""Draws over HTTP (contract §13): the five formats played to the end through start-next, feed-forward in the
request that completes a match, the court pool, withdrawals, corrections, delete and validation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.context import CourtsideFlask
from domain.draws import store as draw_store
from storage.backend import AnyStore
from storage.repository import unit_of_work
from tests.conftest import Api
from tests.responses import json_of

Json = dict[str, Any]


def make_courts(operator: Api, count: int, name: str = "Club day") -> tuple[str, list[str]]:
    made = operator.post("/operator/broadcasts", json={"name": name,
                                                       "tables": [{"label": f"Court {i + 1}"} for i in range(count)]})
    assert made.status_code == 201, made.json
    return made.json["data"]["id"], [t["id"] for t in made.json["data"]["tables"]]


def entries(count: int, *, seeded: bool = True) -> list[Json]:
    return [{"players": [{"manualName": f"Player {i + 1}"}]} | ({"seed": i + 1} if seeded else {})
            for i in range(count)]


def create(operator: Api, broadcast_id: str, fmt: str, count: int, **options: Any) -> Json:
    body = {"broadcastID": broadcast_id, "name": options.pop("name", f"{fmt} open"), "format": fmt,
            "entries": options.pop("entries", None) or entries(count), "bestOf": 1, "randomSeed": 7} | options
    made = operator.post("/operator/draws", json=body)
    assert made.status_code == 201, made.json
    return dict(made.json["data"])


def draw_matches(draw: Json) -> list[Json]:
    return [dm for rnd in draw["rounds"] for dm in rnd["drawMatches"]]


def read(operator: Api, draw_id: str) -> Json:
    got = operator.get(f"/operator/draws/{draw_id}")
    assert got.status_code == 200, got.json
    return dict(got.json["data"])


def match_read(operator: Api, match_id: str) -> Json:
    """A match as GET /operator/matches lists it."""
    listed = operator.get("/operator/matches?limit=100")
    assert listed.status_code == 200, listed.json
    return dict(next(m for m in listed.json["data"] if m["id"] == match_id))


def complete(operator: Api, match_id: str, winner: str = "a") -> Json:
    game = {"a": 11, "b": 4} if winner == "a" else {"a": 4, "b": 11}
    done = operator.post(f"/operator/matches/{match_id}/complete", json={"gameScores": [game]})
    assert done.status_code == 200, done.json
    return dict(done.json["data"])


def play_to_end(operator: Api, draw_id: str, courts: list[str]) -> Json:
    """Courts take matches with start-next; every active match is completed, side a winning."""
    for _ in range(500):
        draw = read(operator, draw_id)
        if draw["status"] == "complete":
            return draw
        for court in courts:
            started = operator.post(f"/operator/tables/{court}/start-next")
            assert started.status_code in (200, 409), started.json
            if started.status_code == 200:
                assert started.json["data"]["tableID"] == court
        active = [dm["matchID"] for dm in draw_matches(read(operator, draw_id)) if dm["status"] == "active"]
        assert active, "nothing could start although the draw is running"
        for match_id in active:
            complete(operator, match_id)
    raise AssertionError("the draw did not end")


@pytest.mark.parametrize(("fmt", "count", "options"), [
    ("single_elimination", 8, {"thirdPlace": True}),
    ("round_robin", 6, {"groupCount": 2}),
    ("groups_knockout", 8, {}),
    ("swiss", 8, {}),
    ("double_elimination", 6, {"grandFinalReset": True}),
])
def test_each_format_plays_to_the_end_through_start_next_on_three_courts(
    operator: Api, fmt: str, count: int, options: Json,
) -> None:
    broadcast_id, courts = make_courts(operator, 3)
    draw = create(operator, broadcast_id, fmt, count, **options)
    assert draw["format"] == fmt and draw["status"] == "running"
    done = play_to_end(operator, draw["id"], courts)
    assert done["status"] == "complete"
    assert done["placings"][0]["place"] == 1
    assert len({p["entryID"] for p in done["placings"]}) == len(done["placings"])
    for dm in draw_matches(done):
        assert dm["status"] in ("complete", "bye")
    assert operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"] == []
    if fmt in ("round_robin", "swiss"):
        assert len(done["placings"]) == count
    if fmt == "single_elimination":
        assert [p["place"] for p in done["placings"]] == [1, 2, 3, 4]  # the third-place match decides 4 too


def test_single_elimination_read_seeds_in_standard_positions_with_byes_to_the_top_seeds(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 6)
    assert [r["name"] for r in draw["rounds"]] == ["Quarterfinal", "Semifinal", "Final"]
    seed_of = {e["id"]: e["seed"] for e in draw["entries"]}
    first = draw["rounds"][0]["drawMatches"]
    pairs = [[seed_of.get(s["entryID"] or "") for s in dm["slots"]] for dm in first]
    assert pairs == [[1, None], [4, 5], [3, 6], [2, None]]  # the better seed first in each match
    assert [dm["status"] for dm in first] == ["bye", "ready", "ready", "bye"]
    assert first[0]["resultType"] == "bye" and first[0]["matchID"] is None
    assert first[1]["next"]["winner"] == {"drawMatchID": draw["rounds"][1]["drawMatches"][0]["id"], "slot": 1}
    semi = draw["rounds"][1]["drawMatches"][0]
    assert semi["slots"][0]["entryID"] == first[0]["slots"][0]["entryID"]  # the bye moved seed 1 on at once
    assert semi["slots"][1]["from"] == {"drawMatchID": first[1]["id"], "outcome": "winner"}


def test_draw_matches_wait_in_the_pool_as_ordinary_match_reads_with_null_table(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 8, name="Open singles")
    pool = operator.get(f"/operator/broadcasts/{broadcast_id}/pool")
    assert pool.status_code == 200
    reads = pool.json["data"]
    first_round = draw["rounds"][0]["drawMatches"]
    assert [m["drawMatchID"] for m in reads] == [dm["id"] for dm in first_round]  # same round: by number
    for match, dm in zip(reads, first_round, strict=True):
        assert match["tableID"] is None and match["status"] == "pending"
        assert match["drawID"] == draw["id"] and match["id"] == dm["matchID"]
        assert match["eventName"] == "Open singles" and match["matchRound"] == "Quarterfinal"
    assert match_read(operator, reads[0]["id"])["tableID"] is None
    assert operator.get("/operator/broadcasts/brd_nope/pool").status_code == 404


def test_feed_forward_is_in_the_very_next_read_and_the_next_match_joins_the_pool(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    semis = draw["rounds"][0]["drawMatches"]
    for court in courts:
        assert operator.post(f"/operator/tables/{court}/start-next").status_code == 200
    complete(operator, semis[0]["matchID"], winner="b")
    after = read(operator, draw["id"])
    final = after["rounds"][1]["drawMatches"][0]
    assert after["rounds"][0]["drawMatches"][0]["winnerEntryID"] == semis[0]["slots"][1]["entryID"]
    assert final["slots"][0]["entryID"] == semis[0]["slots"][1]["entryID"]
    assert final["status"] == "waiting" and final["matchID"] is None
    complete(operator, semis[1]["matchID"])
    final = read(operator, draw["id"])["rounds"][1]["drawMatches"][0]
    assert final["status"] == "ready" and final["matchID"] is not None
    pool = operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"]
    assert [m["id"] for m in pool] == [final["matchID"]] and pool[0]["matchRound"] == "Final"


def test_the_operator_match_list_filters_by_draw(operator: Api) -> None:
    """`GET /operator/matches?drawID=` lists only that draw's real matches (the console's bracket reads their
    games won without paging through every match of the account); an unknown draw lists none."""
    broadcast_id, tables = make_courts(operator, 2)
    knockout = create(operator, broadcast_id, "single_elimination", 4, name="Knockout")
    groups = create(operator, broadcast_id, "round_robin", 3, name="Groups", entries=[
        {"players": [{"manualName": f"Member {i}"}]} for i in range(3)])
    operator.post("/operator/matches", json={"tableID": tables[0], "playerA": {"manualName": "Guest A"},
                                             "playerB": {"manualName": "Guest B"}})
    for draw in (knockout, groups):
        listed = operator.get(f"/operator/matches?drawID={draw['id']}&limit=100")
        assert listed.status_code == 200
        assert sorted(m["id"] for m in listed.json["data"]) == sorted(
            dm["matchID"] for dm in draw_matches(draw) if dm["matchID"])
        assert {m["drawID"] for m in listed.json["data"]} == {draw["id"]}
    assert operator.get("/operator/matches?drawID=drw_nope").json["data"] == []
    assert operator.get("/operator/matches?drawID=").status_code == 400


def test_start_next_takes_the_tables_own_queue_before_the_pool(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    create(operator, broadcast_id, "single_elimination", 4)
    own = operator.post("/operator/matches", json={"tableID": courts[0], "playerA": {"manualName": "Walk In"},
                                                   "playerB": {"manualName": "Other One"}})
    assert own.status_code == 201
    started = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert started.status_code == 200 and started.json["data"]["id"] == own.json["data"]["id"]


def test_start_next_uses_only_the_draws_tables(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 2, tableIDs=[courts[1]])
    refused = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "queue_empty"
    started = operator.post(f"/operator/tables/{courts[1]}/start-next")
    assert started.status_code == 200 and started.json["data"]["drawID"] == draw["id"]
    assert read(operator, draw["id"])["rounds"][0]["drawMatches"][0]["status"] == "active"


def test_a_pool_match_moves_to_a_table_and_back_and_is_not_cancelled_alone(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    create(operator, broadcast_id, "single_elimination", 4)
    match_id = operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"][1]["id"]
    refused = operator.post(f"/operator/matches/{match_id}/start")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "match_in_pool"
    moved = operator.post(f"/operator/matches/{match_id}/move", json={"tableID": courts[1]})
    assert moved.status_code == 200 and moved.json["data"]["tableID"] == courts[1]
    assert [m["id"] for m in operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"]] != [match_id]
    back = operator.post(f"/operator/matches/{match_id}/move", json={"tableID": None})
    assert back.status_code == 200 and back.json["data"]["tableID"] is None
    assert match_id in [m["id"] for m in operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"]]
    cancelled = operator.post(f"/operator/matches/{match_id}/cancel")
    assert cancelled.status_code == 409 and cancelled.json["error"]["code"] == "match_in_draw"
    plain = operator.post("/operator/matches", json={"tableID": courts[0], "playerA": {"manualName": "X Y"},
                                                     "playerB": {"manualName": "Y Z"}}).json["data"]["id"]
    into_pool = operator.post(f"/operator/matches/{plain}/move", json={"tableID": None})
    assert into_pool.status_code == 400 and into_pool.json["error"]["code"] == "validation_failed"


def test_the_same_person_twice_is_400_and_a_taken_name_409(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 1)
    twice = entries(3) + [{"players": [{"manualName": "  player   1 "}]}]
    refused = operator.post("/operator/draws", json={"broadcastID": broadcast_id, "name": "Open",
                                                     "format": "round_robin", "entries": twice})
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_failed"
    create(operator, broadcast_id, "round_robin", 3, name="Open")
    again = operator.post("/operator/draws", json={"broadcastID": broadcast_id, "name": "Open",
                                                   "format": "swiss", "entries": entries(4)})
    assert again.status_code == 409 and again.json["error"]["code"] == "draw_exists"
    for bad in ({"extra": 1}, {"format": "ladder"}, {"entries": entries(1)}, {"bestOf": 2},
                {"entries": [{"players": [{"manualName": "A B"}]}, {"players": [{"manualName": "C D"},
                                                                                 {"manualName": "E F"}]}]},
                {"entries": [{"players": [{"manualName": "A B"}], "seed": 1}, {"players": [{"manualName": "C"}],
                                                                              "seed": 1}]}):
        body = {"broadcastID": broadcast_id, "name": "Other", "format": "round_robin", "entries": entries(4)} | bad
        response = operator.post("/operator/draws", json=body)
        assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed", bad
    missing = operator.post("/operator/draws", json={"broadcastID": "brd_nope", "name": "X", "format": "swiss",
                                                     "entries": entries(4)})
    assert missing.status_code == 404


def test_draws_are_listed_by_broadcast_and_deleted_only_before_a_match_started(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    first = create(operator, broadcast_id, "single_elimination", 4, name="First")
    second = create(operator, broadcast_id, "round_robin", 3, name="Second")
    listed = operator.get(f"/operator/draws?broadcastID={broadcast_id}")
    assert listed.status_code == 200 and [d["id"] for d in listed.json["data"]] == [first["id"], second["id"]]
    deleted = operator.delete(f"/operator/draws/{second['id']}")
    assert deleted.status_code == 200 and deleted.json["data"] == {"id": second["id"], "deleted": True}
    assert operator.get(f"/operator/draws/{second['id']}").status_code == 404
    pool = operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"]
    assert {m["drawID"] for m in pool} == {first["id"]}
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").status_code == 200
    refused = operator.delete(f"/operator/draws/{first['id']}")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "draw_started"


def test_a_withdrawn_entry_gives_walkovers_now_and_later(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    semi = draw["rounds"][0]["drawMatches"][0]
    quitter = semi["slots"][0]["entryID"]
    withdrawn = operator.post(f"/operator/draws/{draw['id']}/entries/{quitter}/withdraw")
    assert withdrawn.status_code == 200, withdrawn.json
    after = withdrawn.json["data"]
    assert next(e for e in after["entries"] if e["id"] == quitter)["withdrawn"] is True
    walked = after["rounds"][0]["drawMatches"][0]
    assert walked["status"] == "complete" and walked["resultType"] == "walkover"
    assert walked["winnerEntryID"] == semi["slots"][1]["entryID"]
    real = match_read(operator, semi["matchID"])
    assert real["status"] == "completed" and real["resultType"] == "walkover" and real["winnerSide"] == "b"
    assert after["rounds"][1]["drawMatches"][0]["slots"][0]["entryID"] == semi["slots"][1]["entryID"]
    assert operator.post(f"/operator/draws/{draw['id']}/entries/ent_nope/withdraw").status_code == 404


def test_a_winner_changing_correction_needs_confirmation_and_is_refused_once_downstream_started(
    operator: Api,
) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    semis = draw["rounds"][0]["drawMatches"]
    for court in courts:
        assert operator.post(f"/operator/tables/{court}/start-next").status_code == 200
    complete(operator, semis[0]["matchID"])
    final_id = draw["rounds"][1]["drawMatches"][0]["id"]
    flip = {"gameScores": [{"a": 4, "b": 11}], "reason": "scores swapped"}
    asked = operator.post(f"/operator/matches/{semis[0]['matchID']}/score", json=flip)
    assert asked.status_code == 409 and asked.json["error"]["code"] == "draw_change_required"
    assert asked.json["error"]["details"]["drawMatches"] == [{
        "drawMatchID": final_id, "slot": 0, "oldEntryID": semis[0]["slots"][0]["entryID"],
        "newEntryID": semis[0]["slots"][1]["entryID"]}]
    unchanged = read(operator, draw["id"])
    assert unchanged["rounds"][1]["drawMatches"][0]["slots"][0]["entryID"] == semis[0]["slots"][0]["entryID"]
    assert match_read(operator, semis[0]["matchID"])["gameScores"] == [{"a": 11, "b": 4}]
    same_winner = operator.post(f"/operator/matches/{semis[0]['matchID']}/score",
                                json={"gameScores": [{"a": 11, "b": 9}]})
    assert same_winner.status_code == 200
    confirmed = operator.post(f"/operator/matches/{semis[0]['matchID']}/score", json=flip | {"confirmDrawChange": True})
    assert confirmed.status_code == 200, confirmed.json
    after = read(operator, draw["id"])
    assert after["rounds"][0]["drawMatches"][0]["winnerEntryID"] == semis[0]["slots"][1]["entryID"]
    assert after["rounds"][1]["drawMatches"][0]["slots"][0]["entryID"] == semis[0]["slots"][1]["entryID"]
    complete(operator, semis[1]["matchID"])
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").status_code == 200  # the final starts
    refused = operator.post(f"/operator/matches/{semis[0]['matchID']}/score",
                            json={"gameScores": [{"a": 11, "b": 4}], "confirmDrawChange": True})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "downstream_started"
    assert refused.json["error"]["details"]["drawMatchIDs"] == [final_id]


def test_round_robin_standings_follow_each_result(operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "round_robin", 3)
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").status_code == 200
    first = next(dm for dm in draw_matches(read(operator, draw["id"])) if dm["status"] == "active")
    complete(operator, first["matchID"])
    standings = read(operator, draw["id"])["groups"][0]["standings"]
    winner = next(s for s in standings if s["entryID"] == first["slots"][0]["entryID"])
    assert winner == {"entryID": winner["entryID"], "rank": 1, "played": 1, "won": 1, "lost": 0, "gamesWon": 1,
                      "gamesLost": 0, "pointsWon": 11, "pointsLost": 4, "decidedBy": None}


@pytest.fixture
def phone(app: Flask) -> FlaskClient:
    return app.test_client()


def test_a_scorer_link_completion_and_a_walkover_feed_forward_too(operator: Api, phone: FlaskClient) -> None:
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    semis = draw["rounds"][0]["drawMatches"]
    path = "/" + operator.get(f"/operator/tables/{courts[0]}/scorer").json["data"]["url"].split("/", 3)[3]
    version = json_of(phone.get(path + "/state"))["data"]["version"]
    started = phone.post(path + "/start-next", json={"version": version})
    assert started.status_code == 200, started.json
    version = json_of(started)["data"]["version"]
    for _ in range(11):
        tapped = phone.post(path + "/point", json={"version": version, "side": "b"})
        assert tapped.status_code == 200, tapped.json
        version = json_of(tapped)["data"]["version"]
    done = phone.post(path + "/complete", json={"version": version})
    assert done.status_code == 200, done.json
    after = read(operator, draw["id"])
    assert after["rounds"][1]["drawMatches"][0]["slots"][0]["entryID"] == semis[0]["slots"][1]["entryID"]
    walked = operator.post(f"/operator/matches/{semis[1]['matchID']}/walkover",
                           json={"winnerSide": "a", "reason": "no_show"})
    assert walked.status_code == 200, walked.json
    after = read(operator, draw["id"])
    assert after["rounds"][0]["drawMatches"][1]["resultType"] == "walkover"
    final = after["rounds"][1]["drawMatches"][0]
    assert final["slots"][1]["entryID"] == semis[1]["slots"][0]["entryID"] and final["status"] == "ready"


def test_creating_withdrawing_and_deleting_a_draw_each_write_one_audit_entry(operator: Api) -> None:
    """Contract §16: draws (create, withdraw, delete) write one entry each, by the operator, on the draw."""
    broadcast_id, _ = make_courts(operator, 2)
    kept = create(operator, broadcast_id, "single_elimination", 4)
    dropped = create(operator, broadcast_id, "round_robin", 3, name="Veterans")
    quitter = kept["entries"][3]["id"]
    assert operator.post(f"/operator/draws/{kept['id']}/entries/{quitter}/withdraw").status_code == 200
    assert operator.delete(f"/operator/draws/{dropped['id']}").status_code == 200
    entries_of = {}
    for draw in (kept, dropped):
        listed = operator.get(f"/operator/audit?targetType=draw&targetID={draw['id']}&limit=100")
        assert listed.status_code == 200, listed.json
        entries_of[draw["id"]] = sorted(entry["action"] for entry in listed.json["data"])
        assert {entry["actor"]["kind"] for entry in listed.json["data"]} == {"operator"}
    assert entries_of == {kept["id"]: ["draw.created", "draw.withdrawn"],
                          dropped["id"]: ["draw.created", "draw.deleted"]}


def test_every_match_a_draw_makes_writes_its_created_entry(operator: Api) -> None:
    """Contract §16 "every change to matches (create, …)": the real matches a draw makes, at creation and as
    results move entries on, each have their `match.created` entry, by whoever acted, in the match's history."""
    broadcast_id, courts = make_courts(operator, 2)
    draw = create(operator, broadcast_id, "single_elimination", 4)

    def created(match_id: str) -> list[dict[str, Any]]:
        listed = operator.get(f"/operator/audit?targetType=match&targetID={match_id}&limit=100")
        assert listed.status_code == 200, listed.json
        return [e for e in listed.json["data"] if e["action"] == "match.created"]

    semis = draw["rounds"][0]["drawMatches"]
    for semi in semis:
        [entry] = created(semi["matchID"])
        assert entry["actor"]["kind"] == "operator"
        assert (entry["after"]["drawID"], entry["after"]["drawMatchID"]) == (draw["id"], semi["id"])
    for court in courts:
        started = operator.post(f"/operator/tables/{court}/start-next")
        assert started.status_code == 200, started.json
        done = operator.post(f"/operator/matches/{started.json['data']['id']}/complete",
                             json={"gameScores": [{"a": 11, "b": 5}]})
        assert done.status_code == 200, done.json
    final = read(operator, draw["id"])["rounds"][1]["drawMatches"][0]
    assert final["matchID"] and len(created(final["matchID"])) == 1


def test_a_preview_is_the_draw_creating_would_make_and_stores_nothing(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    body = {"broadcastID": broadcast_id, "name": "Open", "format": "single_elimination", "entries": entries(6),
            "randomSeed": 11, "thirdPlace": True}
    previewed = operator.post("/operator/draws/preview", json=body)
    assert previewed.status_code == 200, previewed.json
    preview = previewed.json["data"]
    assert operator.get(f"/operator/draws?broadcastID={broadcast_id}").json["data"] == []
    assert operator.get(f"/operator/broadcasts/{broadcast_id}/pool").json["data"] == []
    assert operator.get("/operator/audit?targetType=draw").json["data"] == []
    made = create(operator, broadcast_id, "single_elimination", 6, **{k: v for k, v in body.items()
                                                                      if k not in ("broadcastID", "format")})
    names = {e["id"]: e["name"] for e in made["entries"]}
    preview_names = {e["id"]: e["name"] for e in preview["entries"]}

    def pairs(draw: Json, by_id: dict[str, str]) -> list[list[str | None]]:
        return [[by_id.get(s["entryID"] or "") for s in dm["slots"]] for dm in draw["rounds"][0]["drawMatches"]]

    assert pairs(preview, preview_names) == pairs(made, names)
    assert [r["name"] for r in preview["rounds"]] == [r["name"] for r in made["rounds"]]
    assert pairs(preview, preview_names)[0] == ["Player 1", None]  # a bye to the top seed


def test_a_preview_refuses_what_creating_would_refuse(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 1)
    create(operator, broadcast_id, "round_robin", 3, name="Open")
    taken = operator.post("/operator/draws/preview", json={"broadcastID": broadcast_id, "name": "open",
                                                           "format": "swiss", "entries": entries(4)})
    assert taken.status_code == 409 and taken.json["error"]["code"] == "draw_exists"
    strict = operator.post("/operator/draws/preview", json={"broadcastID": broadcast_id, "name": "B",
                                                            "format": "swiss", "entries": entries(4), "x": 1})
    assert strict.status_code == 400 and strict.json["error"]["code"] == "validation_failed"
    unknown = operator.post("/operator/draws/preview", json={"broadcastID": "brd_nope", "name": "B",
                                                             "format": "swiss", "entries": entries(4)})
    assert unknown.status_code == 404


# ------------------------------------------------------------------------------------ a draw stored in parts
@pytest.mark.parametrize(("fmt", "count", "options"), [
    ("double_elimination", 6, {}),
    ("swiss", 6, {"rounds": 3}),
    ("round_robin", 5, {}),
])
def test_a_draw_read_from_its_stored_parts_alone_is_the_draw_the_process_kept_after_every_change(
    operator: Api, app: Flask, fmt: str, count: int, options: Json,
) -> None:
    """A change writes only the parts of the draw it changed, and the process keeps the draw decoded: after every
    start, completion and withdrawal, the draw read from storage alone (as a new process reads it) is the same."""
    broadcast_id, courts = make_courts(operator, 2)
    draw_id = create(operator, broadcast_id, fmt, count, **options)["id"]

    def same_from_storage() -> Json:
        kept = read(operator, draw_id)
        cast(CourtsideFlask, app).services.draws.clear()
        assert read(operator, draw_id) == kept
        return kept

    completed, withdrawn = 0, False
    for _ in range(100):
        draw = same_from_storage()
        if draw["status"] == "complete":
            break
        if completed >= 2 and not withdrawn:  # between rounds: nothing is active
            quitter = draw["entries"][-1]["id"]
            assert operator.post(f"/operator/draws/{draw_id}/entries/{quitter}/withdraw").status_code == 200
            withdrawn = True
            continue
        for court in courts:
            assert operator.post(f"/operator/tables/{court}/start-next").status_code in (200, 409)
        for match_id in [dm["matchID"] for dm in draw_matches(same_from_storage()) if dm["status"] == "active"]:
            complete(operator, match_id)
            completed += 1
            same_from_storage()
    assert withdrawn and read(operator, draw_id)["status"] == "complete"


def test_the_decoded_draws_belong_to_the_app_and_a_draw_changed_behind_them_is_read_from_storage(
    operator: Api, app: Flask, store: AnyStore,
) -> None:
    """The decoded draws are the app's (`Services.draws`): a change made outside the app's units of work (a job,
    another process) writes a new version, and the app's next read decodes that version from storage."""
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "single_elimination", 4)
    kept = cast(CourtsideFlask, app).services.draws
    with unit_of_work(store) as uow:  # no draw cache: as the scheduler's jobs run
        assert uow.draw_cache is None
        record = uow.draws.get(draw["id"])
        assert record is not None
        held = draw_store.load(uow, record)
        held.draw.name = "Renamed behind the app's back"
        draw_store.save(uow, record, held, datetime(2026, 1, 1, tzinfo=UTC))
    assert read(operator, draw["id"])["name"] == "Renamed behind the app's back"
    kept.clear()
    assert read(operator, draw["id"])["name"] == "Renamed behind the app's back"
    started = operator.post(f"/operator/tables/{courts[0]}/start-next")
    assert started.status_code == 200, started.json
    complete(operator, started.json["data"]["id"])
    moved = read(operator, draw["id"])
    assert moved["rounds"][1]["drawMatches"][0]["slots"][0]["entryID"] is not None  # fed forward
    with store.transaction() as tx:
        assert len(tx.find("draw_parts", draw_id=draw["id"])) == 2 + 3  # head, entries, three draw matches
    kept.clear()
    assert read(operator, draw["id"]) == moved

def test_a_deleted_draw_leaves_no_part_behind(operator: Api, store: AnyStore) -> None:
    broadcast_id, _ = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "round_robin", 4)
    with store.transaction() as tx:
        assert len(tx.find("draw_parts", draw_id=draw["id"])) == 2 + 6
    assert operator.delete(f"/operator/draws/{draw['id']}").status_code == 200
    with store.transaction() as tx:
        assert tx.find("draw_parts", draw_id=draw["id"]) == []


def test_a_list_player_is_drawn_by_the_name_shown_for_them_and_is_one_person_by_the_whole_name(
    operator: Api, partner: Api,
) -> None:
    """Issue 36 (one person rule): a draw names a list player as every read does, with the initials the player
    asks for, so the event page and check-in see one person; two entries are the same person by the whole name
    (an entry typed "ann lee" is the listed Ann Lee), not by the initials two people may share."""
    synced = partner.put("/player-lists", json={"externalID": "club", "name": "Club", "players": [
        {"externalID": "p1", "firstName": "Ann", "lastName": "Lee", "lastNameInitial": True},
        {"externalID": "p2", "firstName": "Ann", "lastName": "Long", "lastNameInitial": True},
        {"externalID": "p3", "firstName": "Bo", "lastName": "Chen"}]})
    assert synced.status_code == 200, synced.json
    broadcast_id, _ = make_courts(operator, 1)
    listed = [{"players": [{"playerListExternalID": "club", "externalID": p}]} for p in ("p1", "p2", "p3")]
    draw = create(operator, broadcast_id, "round_robin", 3, entries=listed, name="Open")
    assert sorted(e["name"] for e in draw["entries"]) == ["Ann L.", "Ann L.", "Bo Chen"]
    twice = listed + [{"players": [{"manualName": " ann  LEE "}]}]
    refused = operator.post("/operator/draws", json={"broadcastID": broadcast_id, "name": "Other",
                                                     "format": "round_robin", "entries": twice})
    assert refused.status_code == 400 and refused.json["error"]["code"] == "validation_failed"
    assert refused.json["error"]["details"]["json"] == {"entries.3.players.0": ["The same person as "
                                                                                 "entries.0.players.0."]}


def test_start_next_keeps_a_round_of_the_pool_waiting_until_the_round_before_it_is_complete(operator: Api) -> None:
    """Issue 51 (§20 "Keeping to it", as the plan orders it): start-next does not start a draw's round r match from
    the pool before every match of round r - 1 of its stage is complete, even when round 1 waits for a player."""
    broadcast_id, courts = make_courts(operator, 1)
    draw = create(operator, broadcast_id, "round_robin", 6)
    first, *others = draw["rounds"][0]["drawMatches"]
    by_id = {e["id"]: e["name"] for e in draw["entries"]}
    absent = {by_id[s["entryID"]] for s in first["slots"]}
    assert operator.patch(f"/operator/broadcasts/{broadcast_id}",
                          json={"eventDay": {"requireCheckIn": True}}).status_code == 200
    for person in operator.get(f"/operator/broadcasts/{broadcast_id}/people").json["data"]:
        if person["name"] not in absent:
            checked = operator.post(f"/operator/broadcasts/{broadcast_id}/people/{person['personID']}/check-in",
                                    json={"present": True})
            assert checked.status_code == 200, checked.json
    for dm in others:
        started = operator.post(f"/operator/tables/{courts[0]}/start-next")
        assert started.status_code == 200 and started.json["data"]["id"] == dm["matchID"]
        complete(operator, dm["matchID"])
    held = operator.post(f"/operator/tables/{courts[0]}/start-next")  # round 2 has a match of four present players
    assert held.status_code == 409, held.json
    assert held.json["error"]["code"] == "nothing_startable"
    assert [s["matchID"] for s in held.json["error"]["details"]["skipped"]] == [first["matchID"]]
    forced = operator.post(f"/operator/matches/{first['matchID']}/move", json={"tableID": courts[0]})
    assert forced.status_code == 200, forced.json
    assert operator.post(f"/operator/matches/{first['matchID']}/start", json={"force": True}).status_code == 200
    complete(operator, first["matchID"])
    assert operator.post(f"/operator/tables/{courts[0]}/start-next").status_code == 200  # round 2 may start now
