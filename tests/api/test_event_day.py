"""Contract §14: event-day settings, the people of a broadcast and check-in, who may start (busy, resting, not
checked in, not before) with start and start-next, `blockedBy` on the board, call-up preference, walkovers and
retirements (also from a scorer link) and how the results export shows them."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import pytest

from domain.clock import FixedClock
from tests.conftest import Api

BEST_OF_ONE = [{"a": 11, "b": 5}]


@dataclass
class Day:
    operator: Api
    clock: FixedClock
    broadcast: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.broadcast["id"])

    @property
    def tables(self) -> list[str]:
        return [t["id"] for t in self.broadcast["tables"]]

    def match(self, a: str, b: str, table: int = 0, **extra: Any) -> dict[str, Any]:
        body = {"tableID": self.tables[table], "playerA": {"manualName": a}, "playerB": {"manualName": b},
                "bestOf": 1} | extra
        response = self.operator.post("/operator/matches", json=body)
        assert response.status_code == 201, response.json
        return dict(response.json["data"])

    def post(self, path: str, body: Any = None) -> Any:
        return self.operator.post(path, json=body)

    def settings(self, **event_day: Any) -> Any:
        return self.operator.patch(f"/operator/broadcasts/{self.id}", json={"eventDay": event_day})

    def people(self) -> dict[str, dict[str, Any]]:
        response = self.operator.get(f"/operator/broadcasts/{self.id}/people")
        assert response.status_code == 200, response.json
        assert response.json["nextCursor"] is None
        return {row["name"]: row for row in response.json["data"]}

    def check_in(self, name: str, present: bool = True) -> Any:
        person = self.people()[name]["personID"]
        return self.post(f"/operator/broadcasts/{self.id}/people/{person}/check-in", {"present": present})

    def play(self, match: dict[str, Any]) -> None:
        assert self.post(f"/operator/matches/{match['id']}/start", {"force": True}).status_code == 200
        assert self.post(f"/operator/matches/{match['id']}/complete", {"gameScores": BEST_OF_ONE}).status_code == 200

    def queue(self, table: int = 0) -> list[dict[str, Any]]:
        courts = self.operator.get("/operator/tables?limit=100").json["data"]
        return list(next(c for c in courts if c["id"] == self.tables[table])["queue"])


@pytest.fixture
def day(operator: Api, clock: FixedClock) -> Day:
    response = operator.post("/operator/broadcasts", json={
        "name": "Club Open", "tables": [{"label": "Court 1"}, {"label": "Court 2"}, {"label": "Court 3"}]})
    assert response.status_code == 201, response.json
    return Day(operator, clock, response.json["data"])


# ------------------------------------------------------------------------------------------------ settings
SELF = {"selfCheckIn": False, "selfReport": False, "selfReportConfirmMinutes": 10}  # §21's keys, at their defaults


def test_event_day_defaults_and_patch(day: Day) -> None:
    assert day.broadcast["eventDay"] == {"requireCheckIn": False, "restMinutes": 0} | SELF
    response = day.settings(requireCheckIn=True, restMinutes=15)
    assert response.status_code == 200
    assert response.json["data"]["eventDay"] == {"requireCheckIn": True, "restMinutes": 15} | SELF
    assert day.settings(restMinutes=0).json["data"]["eventDay"] == {"requireCheckIn": True, "restMinutes": 0} | SELF


@pytest.mark.parametrize("event_day", [{"restMinutes": 241}, {"restMinutes": -1}, {"restMinutes": "5"},
                                       {"restMinutes": 1.5}, {"requireCheckIn": "yes"}, {"other": 1},
                                       {"selfReportConfirmMinutes": 121}, {"selfCheckIn": "yes"}])
def test_bad_event_day_is_400_and_changes_nothing(day: Day, event_day: dict[str, Any]) -> None:
    response = day.settings(**event_day)
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    read = day.operator.get("/operator/broadcasts").json["data"][0]
    assert read["eventDay"] == {"requireCheckIn": False, "restMinutes": 0} | SELF


def test_an_empty_event_day_is_400_even_beside_another_change(day: Day) -> None:
    """`eventDay: {}` changes nothing: refused whole (the document says `minProperties: 1`), the name kept."""
    response = day.operator.patch(f"/operator/broadcasts/{day.id}", json={"name": "Renamed", "eventDay": {}})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    details = response.json["error"]["details"]["json"]
    assert details["eventDay"] == {"_schema": ["Give at least one event-day rule to change."]}
    read = day.operator.get("/operator/broadcasts").json["data"][0]
    assert read["name"] != "Renamed"
    document = day.operator.get("/openapi.json").json
    assert document["components"]["schemas"]["EventDay"]["minProperties"] == 1


def test_partner_reads_have_no_event_day(day: Day, partner: Api) -> None:
    response = partner.post("/broadcasts", json={"name": "Partner day", "tables": [{"label": "T1"}]})
    assert response.status_code == 201 and "eventDay" not in response.json["data"]
    assert partner.patch(f"/broadcasts/{response.json['data']['id']}",
                         json={"eventDay": {"restMinutes": 5}}).status_code == 400


# ------------------------------------------------------------------------------------------------ people
def test_people_are_one_row_per_person_under_the_name_rule(day: Day) -> None:
    day.match("Ann Lee", "Bo Chen")
    day.match("ann  lee", "Cy Diaz", table=1)
    rows = day.people()
    assert list(rows) == ["Ann Lee", "Bo Chen", "Cy Diaz"]
    assert set(rows["Ann Lee"]) == {"personID", "name", "club", "checkedIn", "checkedInOn", "status",
                                    "restingUntil", "tableLabel", "nextMatchID"}
    assert rows["Ann Lee"]["status"] == "free" and rows["Ann Lee"]["checkedIn"] is False
    assert rows["Ann Lee"]["personID"].startswith("psn_")


def test_check_in_and_out(day: Day) -> None:
    match = day.match("Ann Lee", "Bo Chen")
    response = day.check_in("Ann Lee")
    assert response.status_code == 200
    row = response.json["data"]
    assert row["checkedIn"] is True and row["checkedInOn"] == "2026-11-21T10:00:00.000Z"
    assert row["nextMatchID"] == match["id"]
    assert day.people()["Ann Lee"]["checkedIn"] is True
    assert day.check_in("Ann Lee", present=False).json["data"]["checkedIn"] is False


def test_check_in_of_an_unknown_person_or_broadcast_is_404_and_present_is_required(day: Day) -> None:
    day.match("Ann Lee", "Bo Chen")
    missing = day.post(f"/operator/broadcasts/{day.id}/people/psn_00000000000000000000/check-in", {"present": True})
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"
    assert day.operator.get("/operator/broadcasts/brd_missing/people").status_code == 404
    person = day.people()["Ann Lee"]["personID"]
    for body in ({}, {"present": "true"}, {"present": True, "extra": 1}):
        response = day.post(f"/operator/broadcasts/{day.id}/people/{person}/check-in", body)
        assert response.status_code == 400, body


def test_statuses_playing_called_resting_absent(day: Day) -> None:
    assert day.settings(requireCheckIn=True, restMinutes=10).status_code == 200
    live = day.match("Ann Lee", "Bo Chen")
    called = day.match("Cy Diaz", "Di Evans", table=1)
    done = day.match("Ed Fox", "Flo Gu", table=2)
    day.play(done)
    assert day.post(f"/operator/matches/{live['id']}/start", {"force": True}).status_code == 200
    assert day.post(f"/operator/matches/{called['id']}/call").status_code == 200
    rows = day.people()
    assert (rows["Ann Lee"]["status"], rows["Ann Lee"]["tableLabel"]) == ("playing", "Court 1")
    assert (rows["Cy Diaz"]["status"], rows["Cy Diaz"]["tableLabel"]) == ("called", "Court 2")
    assert rows["Ed Fox"]["status"] == "resting" and rows["Ed Fox"]["restingUntil"] == "2026-11-21T10:10:00.000Z"
    waiting = day.match("Gus Hart", "Ida Jo")
    day.clock.advance(seconds=600)
    rows = day.people()
    assert rows["Ed Fox"]["status"] == "free"  # has played: at the venue (decisions: check-in)
    assert rows["Gus Hart"]["status"] == "absent" and rows["Gus Hart"]["nextMatchID"] == waiting["id"]
    assert day.check_in("Gus Hart").json["data"]["status"] == "free"


# ------------------------------------------------------------------------------------------------ who may start
def test_start_refuses_an_unchecked_player_unless_forced(day: Day) -> None:
    assert day.settings(requireCheckIn=True).status_code == 200
    match = day.match("Ann Lee", "Bo Chen")
    day.check_in("Ann Lee")
    refused = day.post(f"/operator/matches/{match['id']}/start")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "not_checked_in"
    assert refused.json["error"]["details"] == {"reason": "not_checked_in", "players": ["Bo Chen"]}
    assert day.post(f"/operator/matches/{match['id']}/start", {"force": True}).status_code == 200


def test_check_in_counts_by_the_name_rule(day: Day) -> None:
    assert day.settings(requireCheckIn=True).status_code == 200
    day.match("Ann Lee", "Bo Chen")
    later = day.match("ANN   lee", "Bo  Chen", table=1)
    day.check_in("Ann Lee")
    day.check_in("Bo Chen")
    assert day.post(f"/operator/matches/{later['id']}/start").status_code == 200


def test_start_refuses_a_resting_player_until_rest_is_over(day: Day) -> None:
    assert day.settings(restMinutes=10).status_code == 200
    first = day.match("Ann Lee", "Bo Chen")
    second = day.match("Ann Lee", "Cy Diaz", table=1)
    day.play(first)
    refused = day.post(f"/operator/matches/{second['id']}/start")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "player_resting"
    assert refused.json["error"]["details"] == {"reason": "player_resting", "players": ["Ann Lee"],
                                                "until": "2026-11-21T10:10:00.000Z"}
    day.clock.advance(seconds=599)
    assert day.post(f"/operator/matches/{second['id']}/start").status_code == 409
    day.clock.advance(seconds=1)
    assert day.post(f"/operator/matches/{second['id']}/start").status_code == 200


def test_a_walkover_gives_no_rest(day: Day) -> None:
    assert day.settings(restMinutes=10).status_code == 200
    first = day.match("Ann Lee", "Bo Chen")
    second = day.match("Ann Lee", "Cy Diaz", table=1)
    assert day.post(f"/operator/matches/{first['id']}/walkover", {"winnerSide": "a", "reason": "no_show"}
                    ).status_code == 200
    assert day.post(f"/operator/matches/{second['id']}/start").status_code == 200


def test_start_refuses_before_not_before(day: Day) -> None:
    imported = day.post("/operator/matches/import", {"broadcastID": day.id, "dryRun": False, "rows": [
        {"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Chen", "scheduledOn": "2026-11-21T14:00:00Z"}]})
    assert imported.status_code == 200, imported.json
    match = day.queue()[0]
    assert match["notBefore"] == "2026-11-21T14:00:00.000Z"
    refused = day.post(f"/operator/matches/{match['id']}/start")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "not_before"
    assert refused.json["error"]["details"] == {"reason": "not_before", "players": ["Ann Lee", "Bo Chen"],
                                                "until": "2026-11-21T14:00:00.000Z"}
    day.clock.advance(seconds=4 * 3600)
    assert day.post(f"/operator/tables/{day.tables[0]}/start-next").json["data"]["id"] == match["id"]


def test_busy_still_names_the_tables(day: Day) -> None:
    live = day.match("Ann Lee", "Bo Chen")
    waiting = day.match("ann lee", "Cy Diaz", table=1)
    assert day.post(f"/operator/matches/{live['id']}/start").status_code == 200
    refused = day.post(f"/operator/matches/{waiting['id']}/start")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "player_busy"
    assert refused.json["error"]["details"] == {"players": ["ann lee"], "tableIDs": [day.tables[0]]}


# ------------------------------------------------------------------------------------------------ start-next
def test_start_next_skips_with_reasons_and_starts_the_first_that_may(day: Day) -> None:
    assert day.settings(requireCheckIn=True, restMinutes=10).status_code == 200
    done = day.match("Ann Lee", "Bo Chen", table=1)
    unchecked = day.match("Cy Diaz", "Di Evans")
    resting = day.match("Ann Lee", "Ed Fox")
    ready = day.match("Flo Gu", "Gil Ho")
    for name in ("Ann Lee", "Bo Chen", "Ed Fox", "Flo Gu", "Gil Ho", "Cy Diaz"):
        day.check_in(name)
    day.check_in("Cy Diaz", present=False)
    day.play(done)
    blocked = {m["id"]: m["blockedBy"] for m in day.queue()}
    assert blocked == {unchecked["id"]: {"reason": "not_checked_in", "players": ["Cy Diaz", "Di Evans"]},
                       resting["id"]: {"reason": "player_resting", "players": ["Ann Lee"],
                                       "until": "2026-11-21T10:10:00.000Z"},
                       ready["id"]: None}
    started = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert started.status_code == 200 and started.json["data"]["id"] == ready["id"]


def test_start_next_with_nothing_startable_is_409_with_every_skip(day: Day) -> None:
    assert day.settings(requireCheckIn=True, restMinutes=10).status_code == 200
    done = day.match("Ann Lee", "Bo Chen", table=1)
    unchecked = day.match("Cy Diaz", "Di Evans")
    resting = day.match("Ann Lee", "Ed Fox")
    for name in ("Ann Lee", "Bo Chen", "Ed Fox"):
        day.check_in(name)
    day.play(done)
    refused = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "nothing_startable"
    assert refused.json["error"]["details"] == {"skipped": [
        {"matchID": unchecked["id"], "reason": "not_checked_in", "players": ["Cy Diaz", "Di Evans"]},
        {"matchID": resting["id"], "reason": "player_resting", "players": ["Ann Lee"],
         "until": "2026-11-21T10:10:00.000Z"}]}


def test_start_next_when_every_skip_is_busy_stays_all_players_busy(day: Day) -> None:
    live = day.match("Ann Lee", "Bo Chen", table=1)
    waiting = day.match("Ann Lee", "Cy Diaz")
    assert day.post(f"/operator/matches/{live['id']}/start").status_code == 200
    refused = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "all_players_busy"
    assert refused.json["error"]["details"] == {"skipped": [
        {"matchID": waiting["id"], "reason": "player_busy", "players": ["Ann Lee"]}]}


def test_start_next_prefers_a_called_match(day: Day) -> None:
    day.match("Ann Lee", "Bo Chen")
    called = day.match("Cy Diaz", "Di Evans")
    assert day.post(f"/operator/matches/{called['id']}/call").status_code == 200
    started = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert started.json["data"]["id"] == called["id"]


def test_scorer_start_next_skips_the_same_way(day: Day, app: Any) -> None:
    assert day.settings(requireCheckIn=True).status_code == 200
    day.match("Cy Diaz", "Di Evans")
    ready = day.match("Flo Gu", "Gil Ho")
    day.check_in("Flo Gu")
    day.check_in("Gil Ho")
    url = day.operator.get(f"/operator/tables/{day.tables[0]}/scorer").json["data"]["url"]
    path = "/" + url.split("/", 3)[3]
    phone = app.test_client()
    version = phone.get(path + "/state").json["data"]["version"]
    started = phone.post(path + "/start-next", json={"version": version})
    assert started.status_code == 200, started.json
    assert day.operator.get(f"/operator/matches?tableID={day.tables[0]}&status=active").json["data"][0]["id"] \
        == ready["id"]


# ------------------------------------------------------------------------------------------------ walkovers
def test_walkover_of_a_pending_match_completes_it_for_the_winner(day: Day) -> None:
    match = day.match("Ann Lee", "Bo Chen")
    response = day.post(f"/operator/matches/{match['id']}/walkover", {"winnerSide": "b", "reason": "no_show"})
    assert response.status_code == 200, response.json
    read = response.json["data"]
    assert read["status"] == "completed" and read["resultType"] == "walkover" and read["winnerSide"] == "b"
    assert read["gameScores"] == [] and read["completedOn"] == "2026-11-21T10:00:00.000Z"
    assert day.queue() == []


def test_retirement_of_an_active_match_keeps_its_games(day: Day) -> None:
    match = day.match("Ann Lee", "Bo Chen", bestOf=3)
    assert day.post(f"/operator/matches/{match['id']}/start").status_code == 200
    assert day.post(f"/operator/matches/{match['id']}/score", {"gameScores": [{"a": 11, "b": 4}, {"a": 3, "b": 5}]}
                    ).status_code == 200
    read = day.post(f"/operator/matches/{match['id']}/walkover", {"winnerSide": "b", "reason": "injury"}).json["data"]
    assert read["resultType"] == "retired" and read["gameScores"] == [{"a": 11, "b": 4}, {"a": 3, "b": 5}]
    again = day.post(f"/operator/matches/{match['id']}/walkover", {"winnerSide": "a", "reason": "injury"})
    assert again.status_code == 409 and again.json["error"]["code"] == "match_locked"


@pytest.mark.parametrize("body", [{"winnerSide": "c", "reason": "no_show"}, {"winnerSide": "a"},
                                  {"winnerSide": "a", "reason": "bored"}, {"reason": "no_show"}])
def test_bad_walkover_bodies_are_400(day: Day, body: dict[str, Any]) -> None:
    match = day.match("Ann Lee", "Bo Chen")
    response = day.post(f"/operator/matches/{match['id']}/walkover", body)
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert day.queue()[0]["id"] == match["id"]


def test_walkover_emits_match_completed_to_the_partner(partner: Api, operator: Api) -> None:
    assert partner.patch("/webhooks/configuration", json={"url": "http://127.0.0.1:9/hook"}).status_code == 200
    broadcast = partner.post("/broadcasts", json={"name": "Partner day", "tables": [{"label": "T1"}]}).json["data"]
    assert partner.put("/player-lists", json={"externalID": "pl", "name": "P", "players": [
        {"externalID": "p1", "firstName": "Ann", "lastName": "Lee"}]}).status_code == 200
    made = partner.put("/matches", json={"externalID": "m1", "tableID": broadcast["tables"][0]["id"],
                                         "playerListExternalID": "pl", "playerA": {"externalID": "p1"},
                                         "playerB": {"manualName": "Bo Chen"}}).json["data"]
    assert operator.post(f"/operator/matches/{made['id']}/walkover",
                         json={"winnerSide": "a", "reason": "withdrawn"}).status_code == 200
    events = [d["eventType"] for d in partner.get("/webhooks").json["data"]]
    assert events[0] == "match.completed"
    payload = partner.get("/webhooks").json["data"][0]["payload"]
    assert payload["data"]["match"]["resultType"] == "walkover"


def test_results_export_says_w_o_and_ret(day: Day) -> None:
    walkover = day.match("Ann Lee", "Bo Chen")
    retired = day.match("Cy Diaz", "Di Evans", table=1, bestOf=3)
    day.post(f"/operator/matches/{walkover['id']}/walkover", {"winnerSide": "a", "reason": "no_show"})
    day.post(f"/operator/matches/{retired['id']}/start")
    day.post(f"/operator/matches/{retired['id']}/score", {"gameScores": [{"a": 11, "b": 9}]})
    day.post(f"/operator/matches/{retired['id']}/walkover", {"winnerSide": "b", "reason": "retired"})
    response = day.operator.get(f"/operator/results?broadcastID={day.id}&format=csv")
    rows = list(csv.DictReader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    assert [(r["games"], r["winner"], r["winnerNames"]) for r in rows] == [
        ("w/o", "A", "Ann Lee"), ("11-9 ret.", "B", "Di Evans")]


def test_a_walkover_in_a_draw_moves_the_winner_on_and_is_w_o_in_the_results_export(day: Day) -> None:
    """§14 walkovers feed draws (§13): the draw shows the walkover and its winner in the next round, and the
    results CSV says w/o for the draw's match."""
    made = day.post("/operator/draws", {
        "broadcastID": day.id, "name": "Open", "format": "single_elimination", "bestOf": 1, "randomSeed": 7,
        "entries": [{"players": [{"manualName": name}], "seed": n + 1}
                    for n, name in enumerate(("Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"))]})
    assert made.status_code == 201, made.json
    semi = made.json["data"]["rounds"][0]["drawMatches"][0]
    walked = day.post(f"/operator/matches/{semi['matchID']}/walkover", {"winnerSide": "a", "reason": "no_show"})
    assert walked.status_code == 200, walked.json
    draw = day.operator.get(f"/operator/draws/{made.json['data']['id']}").json["data"]
    assert draw["rounds"][0]["drawMatches"][0]["resultType"] == "walkover"
    assert draw["rounds"][1]["drawMatches"][0]["slots"][0]["entryID"] == semi["slots"][0]["entryID"]
    response = day.operator.get(f"/operator/results?broadcastID={day.id}&format=csv")
    rows = list(csv.DictReader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    assert walked.json["data"]["playerA"] == "Ann Lee"  # seed 1 meets seed 4 in the first semi-final
    assert [(r["games"], r["winner"], r["winnerNames"]) for r in rows] == [("w/o", "A", "Ann Lee")]


def test_a_scorer_link_records_a_retirement(day: Day, app: Any) -> None:
    match = day.match("Ann Lee", "Bo Chen", bestOf=3)
    assert day.post(f"/operator/matches/{match['id']}/start").status_code == 200
    url = day.operator.get(f"/operator/tables/{day.tables[0]}/scorer").json["data"]["url"]
    path = "/" + url.split("/", 3)[3]
    phone = app.test_client()
    version = phone.get(path + "/state").json["data"]["version"]
    bad = phone.post(path + "/retire", json={"winnerSide": "x", "version": version})
    assert bad.status_code == 400
    stale = phone.post(path + "/retire", json={"winnerSide": "a", "version": "old"})
    assert stale.status_code == 409 and stale.json["error"]["code"] == "stale_state"
    done = phone.post(path + "/retire", json={"winnerSide": "a", "version": version})
    assert done.status_code == 200, done.json
    read = day.operator.get(f"/operator/matches?tableID={day.tables[0]}").json["data"][0]
    assert read["status"] == "completed" and read["resultType"] == "retired" and read["winnerSide"] == "a"


def knockout_of_four(day: Day) -> dict[str, Any]:
    made = day.post("/operator/draws", {
        "broadcastID": day.id, "name": "Open", "format": "single_elimination", "bestOf": 1, "randomSeed": 7,
        "entries": [{"players": [{"manualName": name}], "seed": n + 1}
                    for n, name in enumerate(("Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"))]})
    assert made.status_code == 201, made.json
    return dict(made.json["data"])


def test_draw_entries_are_people_and_start_next_takes_no_pool_match_of_an_absent_player(day: Day) -> None:
    """§14 with §13's court pool: a draw's people are the broadcast's people (checked in at the desk, also those
    with no match yet), and start-next skips a pool match whose players have not checked in, saying why."""
    assert day.settings(requireCheckIn=True).status_code == 200
    knockout_of_four(day)
    assert set(day.people()) == {"Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"}
    refused = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "nothing_startable"
    assert [(s["reason"], sorted(s["players"])) for s in refused.json["error"]["details"]["skipped"]] == [
        ("not_checked_in", ["Ann Lee", "Di Evans"]), ("not_checked_in", ["Bo Chen", "Cy Diaz"])]
    for name in ("Bo Chen", "Cy Diaz"):
        assert day.check_in(name).status_code == 200
    started = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert started.status_code == 200, started.json
    assert {started.json["data"]["playerA"], started.json["data"]["playerB"]} == {"Bo Chen", "Cy Diaz"}


def test_turning_on_check_in_mid_day_holds_back_nobody_who_has_played(day: Day) -> None:
    """§14: a person who has started a match of the broadcast is at the venue: from their first start they count
    as checked in (people row, blockedBy, start and start-next), without a desk check-in, even when the event
    asks for check-in only after they played (the QA walk-through: finalists were 'not here yet')."""
    knockout_of_four(day)
    semis = []
    for table in (0, 1):
        started = day.post(f"/operator/tables/{day.tables[table]}/start-next")
        assert started.status_code == 200, started.json
        semis.append(started.json["data"])
        day.clock.advance(seconds=60)
    for semi in semis:
        done = day.post(f"/operator/matches/{semi['id']}/complete", {"gameScores": BEST_OF_ONE})
        assert done.status_code == 200, done.json
    friendly = day.match("Eve Fox", "Gus Hart", table=2)
    assert day.settings(requireCheckIn=True).status_code == 200
    rows = day.people()
    first_starts = {"2026-11-21T10:00:00.000Z": semis[0], "2026-11-21T10:01:00.000Z": semis[1]}
    for started_on, semi in first_starts.items():
        for name in (semi["playerA"], semi["playerB"]):
            assert (rows[name]["checkedIn"], rows[name]["checkedInOn"], rows[name]["status"]) == (
                True, started_on, "free"), name
    assert (rows["Eve Fox"]["checkedIn"], rows["Eve Fox"]["status"]) == (False, "absent")
    final = day.operator.get(f"/operator/broadcasts/{day.id}/pool").json["data"]
    assert [m.get("blockedBy") for m in final] == [None]  # the pool names only a block that holds
    assert day.post(f"/operator/matches/{friendly['id']}/start").json["error"]["code"] == "not_checked_in"
    started = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert started.status_code == 200, started.json
    assert started.json["data"]["id"] == final[0]["id"]
    # a desk check-out cannot make someone who has played absent again; a desk check-in before it counts first
    assert day.check_in(semis[0]["playerA"], present=False).json["data"]["checkedIn"] is True


def test_a_desk_check_in_before_the_first_start_is_the_check_in_time(day: Day) -> None:
    assert day.settings(requireCheckIn=True).status_code == 200
    match = day.match("Ann Lee", "Bo Chen")
    day.check_in("Ann Lee")
    day.clock.advance(seconds=300)
    day.check_in("Bo Chen")
    assert day.post(f"/operator/matches/{match['id']}/start").status_code == 200
    day.clock.advance(seconds=300)
    rows = day.people()
    assert rows["Ann Lee"]["checkedInOn"] == "2026-11-21T10:00:00.000Z"
    assert rows["Bo Chen"]["checkedInOn"] == "2026-11-21T10:05:00.000Z"


def test_a_pool_match_waits_while_its_player_plays_on_a_court_and_while_they_rest(day: Day, clock: Any) -> None:
    """§14 busy and rest hold for a draw's match in the court pool as for a court's own queue: the pool's
    players are the same people as on the broadcast's courts."""
    assert day.settings(restMinutes=10).status_code == 200
    friendly = day.match("Ann Lee", "Eve Fox", table=1)
    assert day.post(f"/operator/matches/{friendly['id']}/start").status_code == 200
    knockout_of_four(day)
    started = day.post(f"/operator/tables/{day.tables[0]}/start-next")
    assert started.status_code == 200, started.json
    assert {started.json["data"]["playerA"], started.json["data"]["playerB"]} == {"Bo Chen", "Cy Diaz"}
    done = day.post(f"/operator/matches/{friendly['id']}/complete", {"gameScores": BEST_OF_ONE})
    assert done.status_code == 200, done.json
    resting = day.post(f"/operator/tables/{day.tables[1]}/start-next")
    assert resting.status_code == 409, resting.json
    assert [(s["reason"], s["players"]) for s in resting.json["error"]["details"]["skipped"]] == [
        ("player_resting", ["Ann Lee"])]
    clock.advance(seconds=10 * 60)
    again = day.post(f"/operator/tables/{day.tables[1]}/start-next")
    assert again.status_code == 200, again.json
    assert {again.json["data"]["playerA"], again.json["data"]["playerB"]} == {"Ann Lee", "Di Evans"}


def test_a_person_keeps_the_spelling_of_their_earliest_match(day: Day) -> None:
    """§8a's one name rule makes "Ann Lee" and "ann  lee" one person; the row shows her as her first match spells
    her, also once that match has started and only the later spelling is still waiting."""
    first = day.match("Ann Lee", "Bo Chen", table=1)
    day.match("ann  lee", "Cy Diaz")  # waiting on the court listed first
    def spellings() -> list[str]:
        return [name for name in day.people() if name.lower().split() == ["ann", "lee"]]

    assert spellings() == ["Ann Lee"]
    assert day.post(f"/operator/matches/{first['id']}/start").status_code == 200
    assert spellings() == ["Ann Lee"] and day.people()["Ann Lee"]["status"] == "playing"
    assert day.post(f"/operator/matches/{first['id']}/complete", {"gameScores": BEST_OF_ONE}
                    ).status_code == 200
    assert spellings() == ["Ann Lee"]


def test_a_draw_entrys_club_is_the_persons_club_once_their_match_exists(day: Day) -> None:
    """Found by the QA walk-through: the Check-in page and the sign-in sheet showed no club for anyone of a draw,
    because a person took the club of their match's name (none) and not the one their draw entry gives."""
    made = day.post("/operator/draws", {
        "broadcastID": day.id, "name": "Open", "format": "single_elimination", "bestOf": 1, "randomSeed": 7,
        "entries": [{"players": [{"manualName": name}]} | ({"club": club} if club else {})
                    for name, club in (("Ann Lee", "Harbour"), ("Bo Chen", "Hilltop"), ("Cy Diaz", ""),
                                       ("Di Evans", "Harbour"))]})
    assert made.status_code == 201, made.json
    people = day.people()
    assert {name: row["club"] for name, row in people.items()} == {
        "Ann Lee": "Harbour", "Bo Chen": "Hilltop", "Cy Diaz": None, "Di Evans": "Harbour"}
    sheet = day.operator.get(f"/operator/broadcasts/{day.id}/print/sign-in").get_data(as_text=True)
    assert "Hilltop" in sheet


def test_every_reason_a_waiting_match_is_held_back_is_listed_not_only_the_first(day: Day) -> None:
    """§19 (issue 35): `blockedByAll` lists busy, resting, not checked in and not before together; `blockedBy`
    stays the first of them."""
    playing = day.match("Ethan Nguyen", "Zoe Park")
    assert day.post(f"/operator/matches/{playing['id']}/start").status_code == 200
    imported = day.post("/operator/matches/import", {"broadcastID": day.id, "dryRun": False, "rows": [
        {"court": "Court 2", "playerA": "Ethan Nguyen", "playerB": "Emily Chen",
         "scheduledOn": "2026-11-21T14:00:00Z"}]})
    assert imported.status_code == 200, imported.json
    assert day.settings(requireCheckIn=True).status_code == 200
    queued = day.queue(1)[0]
    assert [b["reason"] for b in queued["blockedByAll"]] == ["player_busy", "not_checked_in", "not_before"]
    assert queued["blockedByAll"][1]["players"] == ["Emily Chen"]
    assert queued["blockedBy"] == queued["blockedByAll"][0]
    free = day.match("Flo Gu", "Gil Ho", table=2)
    assert day.settings(requireCheckIn=False).status_code == 200
    assert next(m for m in day.queue(2) if m["id"] == free["id"])["blockedByAll"] == []
