"""Scoring through the services on the in-memory unit of work: points one by one and their undo
(`domain.match.points`, contract §17-§18), results typed in from paper and a stopped match
(`domain.match.results_entry`, §19)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict, Invalid
from domain.match import points, results_entry
from domain.models import Match, MatchResultType, MatchStatus, Side
from tests.domain.world import RULES, World


@pytest.fixture
def world() -> World:
    return World()


def point(world: World, match: Match, side: str, version: int | None = None) -> Match:
    with world.uow() as uow:
        return points.add_point(uow, account_id=world.account_id, match_id=match.id, side=side, version=version,
                                now=world.now, rules=RULES)


def undo(world: World, match: Match) -> Match:
    with world.uow() as uow:
        return points.undo_point(uow, account_id=world.account_id, match_id=match.id, version=None, now=world.now,
                                 rules=RULES)


def enter(world: World, match: Match, games: list[dict[str, Any]], **more: Any) -> Match:
    with world.uow() as uow:
        return results_entry.enter_result(uow, account_id=world.account_id, match_id=match.id, now=world.now,
                                          rules=RULES, entry=results_entry.ResultEntry(game_scores=games, **more))


def test_a_point_adds_one_to_the_game_in_play(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    after = point(world, point(world, started, "a"), "b")
    assert after.game_scores == [{"a": 1, "b": 1}]
    assert after.point_log == ["a", "b"]
    assert world.audit_actions()[-1] == "match.point"


def test_the_point_that_wins_a_game_opens_the_next_with_the_next_point(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    current = started
    for _ in range(11):
        current = point(world, current, "a")
    assert current.game_scores == [{"a": 11, "b": 0}]
    assert point(world, current, "b").game_scores == [{"a": 11, "b": 0}, {"a": 0, "b": 1}]


def test_a_point_for_another_side_is_invalid(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    with pytest.raises(Invalid) as refused:
        point(world, started, "c")
    assert refused.value.details == {"json": {"side": ["Must be one of: a, b."]}}


def test_a_point_on_a_stale_version_is_refused(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    point(world, started, "a")
    with pytest.raises(Conflict) as refused:
        point(world, started, "a", version=started.score_version)
    assert refused.value.code == "stale_state"
    assert world.get(started).game_scores == [{"a": 1, "b": 0}]


def test_no_point_is_added_once_the_match_is_decided(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    world.score(started, [{"a": 11, "b": 0}, {"a": 11, "b": 0}, {"a": 11, "b": 0}])
    with pytest.raises(Conflict) as refused:
        point(world, started, "b")
    assert refused.value.code == "match_decided"


def test_undo_takes_back_the_last_point_whoever_added_it(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    after = undo(world, point(world, point(world, started, "a"), "b"))
    assert after.game_scores == [{"a": 1, "b": 0}]
    assert after.point_log == ["a"]
    assert world.audit_actions()[-1] == "match.point_undone"


def test_undo_walks_back_across_a_games_end(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    current = started
    for _ in range(11):
        current = point(world, current, "a")
    current = point(world, current, "b")
    assert undo(world, undo(world, current)).game_scores == [{"a": 10, "b": 0}]


def test_there_is_nothing_to_undo_after_a_whole_score(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    scored = world.score(point(world, started, "a"), [{"a": 5, "b": 5}])
    assert points.can_undo(scored) is False
    with pytest.raises(Conflict) as refused:
        undo(world, scored)
    assert refused.value.code == "nothing_to_undo"


def test_a_result_from_paper_completes_a_pending_match_typed_in(world: World) -> None:
    made = world.sync(world.court(), "m1")
    done = enter(world, made, [{"a": 11, "b": 2}, {"a": 11, "b": 3}, {"a": 11, "b": 4}], reason="from the sheet")
    assert (done.status, done.typed_in, done.started_on, done.result_type) == (
        MatchStatus.COMPLETED, True, None, MatchResultType.PLAYED)
    assert world.audit_actions()[-2:] == ["match.synced", "match.result_entered"]  # no start entry of its own


def test_a_played_result_must_agree_with_the_winner_named(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(Invalid) as refused:
        enter(world, made, [{"a": 11, "b": 2}, {"a": 11, "b": 3}, {"a": 11, "b": 4}], winner_side=Side.B)
    assert refused.value.details == {"json": {"winnerSide": ["The games give the match to side a, not b."]}}
    assert world.get(made).status == MatchStatus.PENDING


def test_a_walkover_typed_in_needs_a_winner_and_no_games(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(Invalid) as no_winner:
        enter(world, made, [], result_type=MatchResultType.WALKOVER)
    assert no_winner.value.details == {"json": {"winnerSide": ["A walkover result needs winnerSide ('a' or 'b')."]}}
    with pytest.raises(Invalid) as games:
        enter(world, made, [{"a": 3, "b": 0}], result_type=MatchResultType.WALKOVER, winner_side=Side.B)
    assert list(games.value.details["json"]) == ["gameScores"]
    done = enter(world, made, [], result_type=MatchResultType.WALKOVER, winner_side=Side.B)
    assert (done.winner_side, done.game_scores) == (Side.B, [])


def test_a_retirement_typed_in_must_be_undecided(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(Invalid) as decided:
        enter(world, made, [{"a": 11, "b": 2}, {"a": 11, "b": 3}, {"a": 11, "b": 4}],
              result_type=MatchResultType.RETIRED, winner_side=Side.A)
    assert decided.value.details == {"json": {"gameScores": [
        "These games already decide the match: enter it as played, not retired."]}}
    done = enter(world, made, [{"a": 11, "b": 2}, {"a": 4, "b": 1}], result_type=MatchResultType.RETIRED,
                 winner_side=Side.A)
    assert (done.result_type, done.game_scores) == (MatchResultType.RETIRED, [{"a": 11, "b": 2}, {"a": 4, "b": 1}])


def test_a_completed_match_takes_no_typed_result(world: World) -> None:
    done = world.played(world.court(), "m1")
    with pytest.raises(Conflict) as refused:
        enter(world, done, [{"a": 11, "b": 2}, {"a": 11, "b": 3}, {"a": 11, "b": 4}])
    assert refused.value.code == "match_locked"


def test_stopping_a_match_puts_it_first_in_its_queue_with_its_games_cleared(world: World) -> None:
    court = world.court()
    started = world.start(world.sync(court, "m1"))
    world.sync(court, "m2", a="Cy Dunn", b="Di Eve")
    world.score(started, [{"a": 4, "b": 2}])
    with world.uow() as uow:
        stopped = results_entry.stop_match(uow, account_id=world.account_id, match_id=started.id, now=world.now)
        assert [m.external_id for m in uow.matches.queue(court.id)] == ["m1", "m2"]
    assert (stopped.status, stopped.game_scores, stopped.started_on) == (MatchStatus.PENDING, [], None)
    assert world.audit_actions()[-1] == "match.stopped"


def test_only_a_match_in_play_is_stopped(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        results_entry.stop_match(uow, account_id=world.account_id, match_id=made.id, now=world.now)
    assert refused.value.code == "match_not_active"
