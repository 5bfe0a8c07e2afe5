"""The match read (contract §5, §18) as a typed value, `domain.views.MatchRead`, and its one serialisation
`match_json`, on the in-memory unit of work: required fields always, optional ones only when set, the sides'
names last, the queue position from the court's queue."""

from __future__ import annotations

import pytest

from domain.match import matches as svc
from domain.views import Reader, match_json, match_read
from tests.domain.world import RULES, World

REQUIRED = ["id", "externalID", "scheduledMatchID", "tableID", "status", "participants", "playerListExternalID",
            "isActive", "isComplete", "queuePosition", "scheduledOn", "gameScores", "score", "scoreVersion",
            "scoring", "scoringName", "bestOf"]


@pytest.fixture
def world() -> World:
    return World()


def test_a_pending_match_reads_its_required_fields_then_the_set_ones_then_the_names(world: World) -> None:
    court = world.court()
    made = world.sync(court, "m1", event_name="Open singles")
    with world.uow() as uow:
        shown = Reader(uow).read(made)
    assert list(shown) == [*REQUIRED, "eventName", "playerA", "playerB"]
    assert (shown["queuePosition"], shown["isActive"], shown["score"]) == (1, False, {"a": 0, "b": 0})
    assert (shown["playerA"], shown["playerB"]) == ("Ann Lee", "Bo Chen")


def test_the_typed_read_carries_what_the_json_shows(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    scored = world.score(started, [{"a": 11, "b": 4}, {"a": 2, "b": 1}])
    read = match_read(scored, queue_position=None, player_list=None)
    assert (read.status, read.score, read.best_of, read.queue_position) == ("active", {"a": 1, "b": 0}, 5, None)
    shown = match_json(read)
    assert (shown["isActive"], shown["gameScores"], shown["startedOn"]) == (
        True, [{"a": 11, "b": 4}, {"a": 2, "b": 1}], scored.started_on)
    assert "completedOn" not in shown and "winnerSide" not in shown


def test_a_completed_read_names_its_winner_and_drops_the_call(world: World) -> None:
    court = world.court()
    made = world.sync(court, "m1")
    with world.uow() as uow:
        svc.call_match(uow, account_id=world.account_id, match_id=made.id, now=world.now)
    called = match_json(match_read(world.get(made), queue_position=1, player_list=None))
    assert called["calledOn"] == world.now.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    done = world.complete(world.start(made))
    shown = match_json(match_read(done, queue_position=None, player_list=None))
    assert (shown["isComplete"], shown["winnerSide"], shown["score"]) == (True, "a", {"a": 3, "b": 0})
    assert "calledOn" not in shown


def test_a_walkover_reads_its_result_type_and_winner(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with world.uow() as uow:
        done = svc.record_walkover(uow, account_id=world.account_id, match_id=made.id, winner_side="b",
                                   reason=svc.WalkoverReason.NO_SHOW, now=world.now, rules=RULES)
    shown = match_json(match_read(done, queue_position=None, player_list=None))
    assert (shown["resultType"], shown["winnerSide"], shown["gameScores"]) == ("walkover", "b", [])


def test_a_court_read_numbers_its_queue_from_one(world: World) -> None:
    court = world.court()
    world.start(world.sync(court, "live"))
    world.sync(court, "q1", a="Cy Dunn", b="Di Eve")
    world.sync(court, "q2", a="Ed Fox", b="Flo Gu")
    with world.uow() as uow:
        table = uow.tables.get(court.id)
        assert table is not None
        shown = Reader(uow).table(table, connection_id=None)
    assert shown["activeMatch"]["externalID"] == "live"
    assert [(m["externalID"], m["queuePosition"]) for m in shown["queue"]] == [("q1", 1), ("q2", 2)]
