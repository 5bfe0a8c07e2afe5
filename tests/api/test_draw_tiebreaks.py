"""Tie-break rules over HTTP (contract §22): a round robin made with each rule, results that leave entries level,
the standings read with `decidedBy`; the rule decides who advances from a group; refusals name `tiebreak`."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.api.test_draws import draw_matches, make_courts, read
from tests.conftest import Api

Json = dict[str, Any]
Games = list[tuple[int, int]]

# docs/draws.md's BWF example, badminton: Ann, Bea and Cat win two each in a circle, Dot none.
# Games: Ann 5:2 (+3), Bea 4:3 (+1), Cat 5:4 (+1); points: Bea -16, Cat +25.
BWF_RESULTS: dict[tuple[str, str], Games] = {
    ("Ann", "Bea"): [(21, 10), (21, 10)],
    ("Bea", "Cat"): [(21, 19), (19, 21), (21, 19)],
    ("Cat", "Ann"): [(21, 10), (10, 21), (21, 10)],
    ("Ann", "Dot"): [(21, 5), (21, 5)],
    ("Bea", "Dot"): [(21, 19), (21, 19)],
    ("Cat", "Dot"): [(21, 5), (5, 21), (21, 5)],
}
# ITTF, table tennis (best of 5): Ann beat Bea 3-1, Bea beat Cat 3-2, Cat beat Ann 3-0; all three beat Dot.
ITTF_RESULTS: dict[tuple[str, str], Games] = {
    ("Ann", "Bea"): [(11, 5), (5, 11), (11, 5), (11, 5)],
    ("Bea", "Cat"): [(11, 5), (5, 11), (11, 5), (5, 11), (11, 9)],
    ("Cat", "Ann"): [(11, 5), (11, 5), (11, 5)],
    ("Ann", "Dot"): [(11, 1), (11, 1), (11, 1)],
    ("Bea", "Dot"): [(11, 1), (11, 1), (11, 1)],
    ("Cat", "Dot"): [(11, 1), (11, 1), (11, 1)],
}
NAMES = ("Ann", "Bea", "Cat", "Dot")


def make(operator: Api, broadcast_id: str, tiebreak: Any, *, fmt: str = "round_robin", scoring: str = "badminton",
         name: str | None = None, **options: Any) -> Json:
    body = {"broadcastID": broadcast_id, "name": name or f"Group {tiebreak}", "format": fmt,
            "entries": [{"players": [{"manualName": n}]} for n in NAMES], "scoring": scoring, "randomSeed": 3,
            **({} if tiebreak is None else {"tiebreak": tiebreak}), **options}
    made = operator.post("/operator/draws", json=body)
    assert made.status_code == 201, made.json
    return dict(made.json["data"])


def play(operator: Api, draw_id: str, courts: list[str], results: dict[tuple[str, str], Games]) -> Json:
    """Start-next on every court, complete each match in play with its result, until no group match is open."""
    for _ in range(40):
        draw = read(operator, draw_id)
        names = {e["id"]: e["name"] for e in draw["entries"]}
        group = [dm for dm in draw_matches(draw) if dm["group"] is not None]
        if all(dm["status"] == "complete" for dm in group):
            return draw
        for court in courts:
            assert operator.post(f"/operator/tables/{court}/start-next").status_code in (200, 409)
        for dm in draw_matches(read(operator, draw_id)):
            if dm["status"] != "active" or dm["group"] is None:
                continue
            a, b = (names[s["entryID"]] for s in dm["slots"])
            games = results.get((a, b)) or [(y, x) for x, y in results[(b, a)]]
            done = operator.post(f"/operator/matches/{dm['matchID']}/complete",
                                 json={"gameScores": [{"a": x, "b": y} for x, y in games]})
            assert done.status_code == 200, done.json
    raise AssertionError("the group did not finish")


def table(draw: Json) -> list[tuple[str, int, str | None]]:
    names = {e["id"]: e["name"] for e in draw["entries"]}
    return [(names[s["entryID"]], s["rank"], s["decidedBy"]) for s in draw["groups"][0]["standings"]]


@pytest.mark.parametrize(("tiebreak", "expected"), [
    ("bwf", [("Ann", 1, "game_difference"), ("Bea", 2, "head_to_head"), ("Cat", 3, None), ("Dot", 4, None)]),
    # default starts again among the two still level too: Bea beat Cat (issue 51)
    ("default", [("Ann", 1, "game_difference"), ("Bea", 2, "head_to_head"), ("Cat", 3, None), ("Dot", 4, None)]),
    (None, [("Ann", 1, "game_difference"), ("Bea", 2, "head_to_head"), ("Cat", 3, None), ("Dot", 4, None)]),
    # a custom list goes on with its next step, as written
    (["wins", "head_to_head", "game_difference", "point_difference"],
     [("Ann", 1, "game_difference"), ("Cat", 2, "point_difference"), ("Bea", 3, None), ("Dot", 4, None)]),
    (["wins", "points_won"], [("Cat", 1, "points_won"), ("Ann", 2, "points_won"), ("Bea", 3, None),
                              ("Dot", 4, None)]),
])
def test_a_round_robin_ranks_its_level_entries_by_its_rule_and_says_which_step_decided(
        operator: Api, tiebreak: Any, expected: list[tuple[str, int, str | None]]) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = make(operator, broadcast_id, tiebreak)
    assert draw["tiebreak"] == (tiebreak or "default")
    done = play(operator, draw["id"], courts, BWF_RESULTS)
    assert table(done) == expected
    assert done["placings"] == [{"place": i, "entryID": e["entryID"]}
                                for i, e in enumerate(done["groups"][0]["standings"], start=1)]
    bea = next(s for s in done["groups"][0]["standings"] if s["rank"] == 2)
    assert set(bea) == {"entryID", "rank", "played", "won", "lost", "gamesWon", "gamesLost", "pointsWon",
                        "pointsLost", "decidedBy"}


def test_ittf_ranks_by_match_points_then_game_ratio_among_the_level_and_a_walkover_scores_nothing(
        operator: Api) -> None:
    broadcast_id, courts = make_courts(operator, 2)
    draw = make(operator, broadcast_id, "ittf", scoring="table_tennis")
    assert draw["tiebreak"] == "ittf"
    done = play(operator, draw["id"], courts, ITTF_RESULTS)
    # 5 match points each for Ann, Bea, Cat; among them games Cat 5:3, Bea 4:5, Ann 3:4
    assert table(done) == [("Cat", 1, "game_ratio"), ("Bea", 2, "game_ratio"), ("Ann", 3, None), ("Dot", 4, None)]


def test_ittf_a_walkover_lost_is_no_match_point_so_a_played_loss_ranks_above_it(operator: Api) -> None:
    """Dot withdraws before playing: every match of Dot is a walkover. Bea beats Cat, Cat beats Ann, Ann beats
    Bea: level on wins and match points (each 2 wins, 1 loss); Dot last with 0 points."""
    broadcast_id, courts = make_courts(operator, 2)
    draw = make(operator, broadcast_id, "ittf", scoring="table_tennis")
    dot = next(e["id"] for e in draw["entries"] if e["name"] == "Dot")
    withdrawn = operator.post(f"/operator/draws/{draw['id']}/entries/{dot}/withdraw")
    assert withdrawn.status_code == 200, withdrawn.json
    done = play(operator, draw["id"], courts, ITTF_RESULTS)
    rows = {row[0]: row for row in table(done)}
    assert rows["Dot"] == ("Dot", 4, None)
    dot_row = next(s for s in done["groups"][0]["standings"] if s["entryID"] == dot)
    assert (dot_row["won"], dot_row["lost"], dot_row["gamesWon"], dot_row["gamesLost"]) == (0, 3, 0, 0)
    # the walkovers count as won matches for the three, not games: among them, as before
    assert [row for row in table(done) if row[0] != "Dot"] == [("Cat", 1, "game_ratio"), ("Bea", 2, "game_ratio"),
                                                               ("Ann", 3, None)]


def test_the_rule_decides_who_leaves_a_group_for_the_knockout(operator: Api) -> None:
    finals = {}
    steps = ["wins", "head_to_head", "game_difference", "point_difference"]
    for rule, setting in (("bwf", "bwf"), ("steps", steps)):
        broadcast_id, courts = make_courts(operator, 2, name=f"Club day {rule}")
        draw = make(operator, broadcast_id, setting, fmt="groups_knockout", name=f"Cup {rule}", groupCount=1,
                    advancePerGroup=2)
        done = play(operator, draw["id"], courts, BWF_RESULTS)
        names = {e["id"]: e["name"] for e in done["entries"]}
        final = next(dm for dm in draw_matches(done) if dm["group"] is None)
        finals[rule] = sorted(names[s["entryID"]] for s in final["slots"])
    assert finals == {"bwf": ["Ann", "Bea"], "steps": ["Ann", "Cat"]}


def test_swiss_takes_a_rule_and_a_knockout_reads_none(operator: Api) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    assert make(operator, broadcast_id, ["wins", "lot"], fmt="swiss")["tiebreak"] == ["wins", "lot"]
    knockout = make(operator, broadcast_id, None, fmt="single_elimination", name="KO")
    assert knockout["tiebreak"] is None and knockout["groups"] == []
    preview = operator.post("/operator/draws/preview", json={
        "broadcastID": broadcast_id, "name": "Try", "format": "round_robin", "tiebreak": "ittf",
        "entries": [{"players": [{"manualName": n}]} for n in NAMES]})
    assert preview.status_code == 200 and preview.json["data"]["tiebreak"] == "ittf"
    # before any result: all level on wins; ITTF ends with lot, so every boundary is a lot
    assert [s["decidedBy"] for s in preview.json["data"]["groups"][0]["standings"]] == ["lot", "lot", "lot", None]


@pytest.mark.parametrize(("options", "message"), [
    ({"tiebreak": "fivb"}, "Unknown tie-break rule 'fivb': give bwf, ittf, default or a list of steps."),
    ({"tiebreak": ["wins", "sets_won"]}, "Unknown tie-break step 'sets_won': steps are wins, head_to_head, "
                                         "game_difference, point_difference, games_won, points_won, seed, lot."),
    ({"tiebreak": ["lot", "lot"]}, "A tie-break step is named twice."),
    ({"tiebreak": []}, "Give a rule (bwf, ittf, default) or a non-empty list of steps."),
    ({"tiebreak": {"rule": "bwf"}}, "Give a rule (bwf, ittf, default) or a non-empty list of steps."),
    ({"tiebreak": "bwf", "format": "single_elimination"},
     "tiebreak is for groups_knockout, round_robin, round_robin_playoff, swiss draws, not single_elimination."),
])
@pytest.mark.parametrize("path", ["/operator/draws", "/operator/draws/preview"])
def test_a_tiebreak_that_is_no_rule_is_400_naming_it_and_nothing_is_made(
        operator: Api, options: Json, message: str, path: str) -> None:
    broadcast_id, _ = make_courts(operator, 2)
    body = {"broadcastID": broadcast_id, "name": "Open", "format": "round_robin",
            "entries": [{"players": [{"manualName": n}]} for n in NAMES]} | options
    refused = operator.post(path, json=body)
    assert refused.status_code == 400, refused.json
    assert refused.json["error"]["code"] == "validation_failed"
    assert refused.json["error"]["details"] == {"json": {"tiebreak": [message]}}
    assert operator.get(f"/operator/draws?broadcastID={broadcast_id}").json["data"] == []
    assert operator.get("/operator/matches?limit=100").json["data"] == []


def test_an_unknown_broadcast_is_404_before_a_rule_on_a_knockout_is_400(operator: Api) -> None:
    """As for every draw body: the broadcast is looked up first (the document allows `tiebreak` on any format)."""
    body = {"broadcastID": "brd_nothing", "name": "Open", "format": "single_elimination", "tiebreak": "bwf",
            "entries": [{"players": [{"manualName": n}]} for n in NAMES]}
    for path in ("/operator/draws", "/operator/draws/preview"):
        missing = operator.post(path, json=body)
        assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found", missing.json


def test_tennis_standings_count_sets_and_games_and_say_so(operator: Api, app: Flask) -> None:
    """Issue 51: tennis standings labelled sets as "Games" and games as "Points"; a sets format's group table says
    "Sets" on the event page."""
    broadcast_id, _ = make_courts(operator, 1)
    draw = make(operator, broadcast_id, "default", scoring="tennis")
    url = operator.post(f"/operator/broadcasts/{broadcast_id}/event-page/enable").json["data"]["url"]
    path = "/event/" + url.rsplit("/event/", 1)[1] + "/state"
    page: Any = app.test_client().get(path).json
    (shown,) = page["data"]["draws"]
    assert shown["standingUnit"] == "Sets" and draw["scoring"]["kind"] == "sets"
    make(operator, broadcast_id, "default", name="Badminton group")
    page = app.test_client().get(path).json
    assert [d["standingUnit"] for d in page["data"]["draws"]] == ["Sets", "Games"]
