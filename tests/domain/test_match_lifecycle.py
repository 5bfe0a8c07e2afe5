"""A match's life through `domain.match.matches` on the in-memory unit of work (contract §9, §14): sync into a
court's queue, move, cancel, start, score, complete, walkovers, calls, the operator's moves and queue order."""

from __future__ import annotations

import pytest

from domain.errors import Conflict, Forbidden, Invalid, NotFound
from domain.match import matches as svc
from domain.models import MatchResultType, MatchStatus, Side
from tests.domain.world import RULES, World


@pytest.fixture
def world() -> World:
    return World()


def test_a_synced_match_is_pending_at_the_end_of_its_courts_queue(world: World) -> None:
    court = world.court()
    first = world.sync(court, "m1")
    second = world.sync(court, "m2")
    assert (first.status, second.status) == (MatchStatus.PENDING, MatchStatus.PENDING)
    assert second.queue_order == first.queue_order + 1
    with world.uow() as uow:
        assert [m.external_id for m in uow.matches.queue(court.id)] == ["m1", "m2"]


def test_a_resync_keeps_the_matchs_id_and_place_and_takes_the_new_fields(world: World) -> None:
    court = world.court()
    first = world.sync(court, "m1", event_name="Open")
    world.sync(court, "m2")
    world.clock.advance(60)
    again = world.sync(court, "m1", event_name="Open singles", a="Cy Dunn")
    assert (again.id, again.queue_order, again.created_on) == (first.id, first.queue_order, first.created_on)
    assert again.event_name == "Open singles"
    assert again.participants["playerA"] == {"manualName": "Cy Dunn"}
    assert again.updated_on > first.updated_on


def test_a_resync_that_changes_nothing_keeps_updated_on_and_writes_no_entry(world: World) -> None:
    court = world.court()
    first = world.sync(court, "m1")
    entries = world.audit_actions()
    world.clock.advance(60)
    again = world.sync(court, "m1")
    assert again.updated_on == first.updated_on
    assert world.audit_actions() == entries


def test_a_resync_to_another_court_goes_to_the_end_of_that_queue(world: World) -> None:
    _, (one, two) = world.broadcast("Court 1", "Court 2")
    world.sync(two, "there")
    world.sync(one, "m1")
    moved = world.sync(two, "m1")
    with world.uow() as uow:
        assert [m.external_id for m in uow.matches.queue(two.id)] == ["there", "m1"]
        assert uow.matches.queue(one.id) == []
    assert moved.table_id == two.id


def test_a_started_match_is_locked_against_a_resync(world: World) -> None:
    court = world.court()
    world.start(world.sync(court, "m1"))
    with pytest.raises(Conflict) as refused:
        world.sync(court, "m1", event_name="changed")
    assert refused.value.code == "match_locked"
    assert "is active and locked" in str(refused.value)


def test_a_sync_onto_an_unknown_court_is_not_found(world: World) -> None:
    court = world.court()
    court.id = "tbl_missing"
    with pytest.raises(NotFound, match="No table with ID 'tbl_missing'"):
        world.sync(court, "m1")


def test_a_partner_may_not_queue_on_a_court_it_does_not_manage(world: World) -> None:
    court = world.court()  # managed by the house
    partner = world.partner()
    with pytest.raises(Forbidden) as refused:
        world.sync(court, "m1", connection=partner)
    assert refused.value.code == "table_not_managed"


def test_a_sync_naming_an_unknown_list_is_not_found(world: World) -> None:
    court = world.court()
    with pytest.raises(NotFound, match="No player list with externalID 'nope'"):
        world.sync(court, "m1", list_external_id="nope")


def test_a_sync_naming_a_player_outside_the_list_is_invalid_per_side(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[{"externalID": "p1", "firstName": "Ann", "lastName": "Lee"}])
    _, (court,) = world.broadcast(manager=partner)
    with pytest.raises(Invalid) as refused:
        world.sync(court, "m1", connection=partner, a=None, b=None,
                   participants={"playerA": {"externalID": "p1"}, "playerB": {"externalID": "p9"}})
    assert refused.value.code == "unknown_player"
    assert refused.value.details == {"playerB": ["Player 'p9' is not in player list 'entrants'."]}


def test_a_partners_match_names_its_listed_players(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[{"externalID": "p1", "firstName": "Ann", "lastName": "Lee"}])
    _, (court,) = world.broadcast(manager=partner)
    made = world.sync(court, "m1", connection=partner, a=None, participants={"playerA": {"externalID": "p1"}})
    assert made.participants == {"playerA": {"externalID": "p1"}, "playerB": {"manualName": "Bo Chen"}}
    assert made.connection_id == partner


def test_moving_a_match_puts_it_at_the_end_of_the_other_queue(world: World) -> None:
    _, (one, two) = world.broadcast("Court 1", "Court 2")
    world.sync(two, "waiting")
    world.sync(one, "m1")
    world.clock.advance(5)
    with world.uow() as uow:
        moved = svc.move_match(uow, account_id=world.account_id, connection_id=world.house_id, external_id="m1",
                               table_id=two.id, now=world.now)
        assert [m.external_id for m in uow.matches.queue(two.id)] == ["waiting", "m1"]
    assert moved.scheduled_on == moved.updated_on
    assert world.audit_actions()[-1] == "match.moved"


def test_moving_a_match_to_its_own_court_changes_nothing(world: World) -> None:
    court = world.court()
    made = world.sync(court, "m1")
    entries = world.audit_actions()
    with world.uow() as uow:
        same = svc.move_match(uow, account_id=world.account_id, connection_id=world.house_id, external_id="m1",
                              table_id=court.id, now=world.now)
    assert same.queue_order == made.queue_order
    assert world.audit_actions() == entries


def test_moving_an_unknown_external_id_is_not_found(world: World) -> None:
    court = world.court()
    with pytest.raises(NotFound, match="No match with externalID 'ghost'"), world.uow() as uow:
        svc.move_match(uow, account_id=world.account_id, connection_id=world.house_id, external_id="ghost",
                       table_id=court.id, now=world.now)


def test_cancelling_removes_the_pending_match_and_records_it(world: World) -> None:
    court = world.court()
    made = world.sync(court, "m1")
    with world.uow() as uow:
        cancelled = svc.cancel_match(uow, connection_id=world.house_id, external_id="m1", now=world.now)
    assert cancelled.id == made.id
    with world.uow() as uow:
        assert uow.matches.get(made.id) is None
    assert world.audit_actions()[-1] == "match.cancelled"


def test_a_started_match_cannot_be_cancelled(world: World) -> None:
    court = world.court()
    world.start(world.sync(court, "m1"))
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        svc.cancel_match(uow, connection_id=world.house_id, external_id="m1", now=world.now)
    assert refused.value.code == "match_locked"


def test_starting_makes_the_match_active_with_its_start_time_and_a_new_version(world: World) -> None:
    court = world.court()
    made = world.sync(court, "m1")
    world.clock.advance(30)
    started = world.start(made)
    assert started.status == MatchStatus.ACTIVE
    assert started.started_on == started.updated_on
    assert started.score_version == made.score_version + 1
    with world.uow() as uow:
        assert uow.matches.queue(court.id) == []


def test_a_court_plays_one_match_at_a_time(world: World) -> None:
    court = world.court()
    world.start(world.sync(court, "m1", a="Ann Lee", b="Bo Chen"))
    second = world.sync(court, "m2", a="Cy Dunn", b="Di Eve")
    with pytest.raises(Conflict) as refused:
        world.start(second)
    assert refused.value.code == "table_busy"


def test_starting_a_started_match_is_not_pending(world: World) -> None:
    court = world.court()
    started = world.start(world.sync(court, "m1"))
    with pytest.raises(Conflict) as refused:
        world.start(started)
    assert refused.value.code == "match_not_pending"


def test_a_player_on_another_court_blocks_a_start_unless_forced(world: World) -> None:
    _, (one, two) = world.broadcast("Court 1", "Court 2")
    world.start(world.sync(one, "m1", a="Ann Lee", b="Bo Chen"))
    waiting = world.sync(two, "m2", a="ann  lee", b="Cy Dunn")
    with pytest.raises(Conflict) as refused:
        world.start(waiting)
    assert refused.value.code == "player_busy"
    assert world.start(waiting, force=True).status == MatchStatus.ACTIVE


def test_an_unknown_match_id_is_not_found_for_the_operator(world: World) -> None:
    with pytest.raises(NotFound, match="No match with ID 'mat_nope'"), world.uow() as uow:
        svc.get_match(uow, account_id=world.account_id, match_id="mat_nope")


def test_another_accounts_match_is_not_found(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(NotFound), world.uow() as uow:
        svc.get_match(uow, account_id="acc_other", match_id=made.id)


def test_scoring_a_pending_match_is_refused(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(Conflict) as refused:
        world.score(made, [{"a": 1, "b": 0}])
    assert refused.value.code == "match_not_active"


def test_a_score_replaces_the_games_and_moves_the_version(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    scored = world.score(started, [{"a": 11, "b": 5}, {"a": 3, "b": 4}])
    assert scored.game_scores == [{"a": 11, "b": 5}, {"a": 3, "b": 4}]
    assert scored.score_version == started.score_version + 1
    assert world.audit_actions()[-1] == "match.scored"


def test_a_score_on_a_stale_version_is_refused_and_changes_nothing(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    world.score(started, [{"a": 1, "b": 0}])
    with pytest.raises(Conflict) as refused:
        world.score(started, [{"a": 2, "b": 0}], version=started.score_version)
    assert refused.value.code == "stale_state"
    assert refused.value.details == {"matchID": started.id}
    assert world.get(started).game_scores == [{"a": 1, "b": 0}]


def test_a_score_the_format_cannot_reach_is_invalid(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    with pytest.raises(Invalid):
        world.score(started, [{"a": 40, "b": 0}])
    assert world.get(started).game_scores == []


def test_the_writer_is_noted_among_the_matchs_scorers(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    scored = world.score(started, [{"a": 1, "b": 0}], device="phone-1")
    assert list(scored.scorers) == ["system:courtside:phone-1"]


def test_completing_freezes_the_names_as_played(world: World) -> None:
    done = world.played(world.court(), "m1", a="Ann Lee", b="Bo Chen")
    assert done.status == MatchStatus.COMPLETED
    assert done.recorded_names == {"playerA": "Ann Lee", "playerB": "Bo Chen"}
    assert done.completed_on == done.updated_on
    assert world.audit_actions()[-1] == "match.completed"


def test_completing_an_undecided_match_is_refused(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    with pytest.raises(Conflict) as refused:
        world.complete(started, [{"a": 11, "b": 5}])
    assert refused.value.code == "match_undecided"
    assert world.get(started).status == MatchStatus.ACTIVE


def test_completing_a_pending_match_is_not_active(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(Conflict) as refused:
        world.complete(made)
    assert refused.value.code == "match_not_active"


def test_completing_again_with_the_same_scores_changes_nothing(world: World) -> None:
    done = world.played(world.court(), "m1")
    entries = world.audit_actions()
    again = world.complete(done)
    assert again.score_version == done.score_version
    assert world.audit_actions() == entries


def test_correcting_a_completed_result_keeps_it_decided(world: World) -> None:
    done = world.played(world.court(), "m1")
    corrected = world.score(done, [{"a": 12, "b": 10}, {"a": 11, "b": 9}, {"a": 11, "b": 4}], reason="typo")
    assert corrected.game_scores == [{"a": 12, "b": 10}, {"a": 11, "b": 9}, {"a": 11, "b": 4}]
    assert world.audit_actions()[-1] == "match.corrected"
    with pytest.raises(Conflict) as refused:
        world.score(done, [{"a": 12, "b": 10}])
    assert refused.value.code == "match_undecided"


def test_a_correction_to_the_same_result_changes_nothing(world: World) -> None:
    done = world.played(world.court(), "m1")
    again = world.score(done, done.game_scores, reason="checked")
    assert again.score_version == done.score_version


def test_a_walkover_completes_a_pending_match_for_the_winner(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with world.uow() as uow:
        done = svc.record_walkover(uow, account_id=world.account_id, match_id=made.id, winner_side="b",
                                   reason=svc.WalkoverReason.NO_SHOW, now=world.now, rules=RULES)
    assert (done.status, done.result_type, done.winner_side, done.result_reason) == (
        MatchStatus.COMPLETED, MatchResultType.WALKOVER, Side.B, "no_show")
    assert world.audit_actions()[-1] == "match.walkover"


def test_a_walkover_of_an_active_match_is_a_retirement_keeping_the_games(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    world.score(started, [{"a": 11, "b": 3}, {"a": 2, "b": 5}])
    with world.uow() as uow:
        done = svc.record_walkover(uow, account_id=world.account_id, match_id=started.id, winner_side="a",
                                   reason=svc.WalkoverReason.INJURY, now=world.now, rules=RULES)
    assert done.result_type == MatchResultType.RETIRED
    assert done.game_scores == [{"a": 11, "b": 3}, {"a": 2, "b": 5}]
    assert world.audit_actions()[-1] == "match.retired"


def test_a_walkover_of_a_completed_match_is_locked(world: World) -> None:
    done = world.played(world.court(), "m1")
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        svc.record_walkover(uow, account_id=world.account_id, match_id=done.id, winner_side="b",
                            reason=svc.WalkoverReason.WITHDRAWN, now=world.now, rules=RULES)
    assert refused.value.code == "match_locked"


def test_calling_a_match_sets_called_on_and_calling_again_moves_it(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with world.uow() as uow:
        first = svc.call_match(uow, account_id=world.account_id, match_id=made.id, now=world.now)
    world.clock.advance(60)
    with world.uow() as uow:
        second = svc.call_match(uow, account_id=world.account_id, match_id=made.id, now=world.now)
    assert first.called_on is not None and second.called_on is not None
    assert second.called_on > first.called_on
    assert world.audit_actions()[-2:] == ["match.called", "match.called"]


def test_only_a_pending_match_is_called(world: World) -> None:
    started = world.start(world.sync(world.court(), "m1"))
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        svc.call_match(uow, account_id=world.account_id, match_id=started.id, now=world.now)
    assert refused.value.code == "match_not_pending"


def test_start_next_prefers_a_called_match_then_the_queue(world: World) -> None:
    court = world.court()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    called = world.sync(court, "m2", a="Cy Dunn", b="Di Eve")
    with world.uow() as uow:
        svc.call_match(uow, account_id=world.account_id, match_id=called.id, now=world.now)
        assert [m.external_id for m in svc.next_candidates(uow, court.id)] == ["m2", "m1"]
    with world.uow() as uow:
        started = svc.start_next(uow, account_id=world.account_id, table_id=court.id, now=world.now, rules=RULES)
    assert started.id == called.id


def test_start_next_on_an_empty_court_is_queue_empty(world: World) -> None:
    court = world.court()
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        svc.start_next(uow, account_id=world.account_id, table_id=court.id, now=world.now, rules=RULES)
    assert refused.value.code == "queue_empty"


def test_start_next_skips_a_match_whose_player_is_busy(world: World) -> None:
    _, (one, two) = world.broadcast("Court 1", "Court 2")
    world.start(world.sync(one, "live", a="Ann Lee", b="Bo Chen"))
    world.sync(two, "blocked", a="Ann Lee", b="Cy Dunn")
    free = world.sync(two, "free", a="Di Eve", b="Ed Fox")
    with world.uow() as uow:
        started = svc.start_next(uow, account_id=world.account_id, table_id=two.id, now=world.now, rules=RULES)
    assert started.id == free.id


def test_start_next_when_every_match_waits_for_a_busy_player(world: World) -> None:
    _, (one, two) = world.broadcast("Court 1", "Court 2")
    world.start(world.sync(one, "live", a="Ann Lee", b="Bo Chen"))
    blocked = world.sync(two, "blocked", a="Bo Chen", b="Cy Dunn")
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        svc.start_next(uow, account_id=world.account_id, table_id=two.id, now=world.now, rules=RULES)
    assert refused.value.code == "all_players_busy"
    assert [s["matchID"] for s in refused.value.details["skipped"]] == [blocked.id]
    assert refused.value.details["skipped"][0]["reason"] == "player_busy"


def test_start_next_on_a_busy_court_is_refused(world: World) -> None:
    court = world.court()
    world.start(world.sync(court, "m1"))
    world.sync(court, "m2", a="Cy Dunn", b="Di Eve")
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        svc.start_next(uow, account_id=world.account_id, table_id=court.id, now=world.now, rules=RULES)
    assert refused.value.code == "table_busy"


def test_start_next_on_an_unknown_court_is_not_found(world: World) -> None:
    with pytest.raises(NotFound, match="No table 'tbl_x'"), world.uow() as uow:
        svc.start_next(uow, account_id=world.account_id, table_id="tbl_x", now=world.now, rules=RULES)


def test_the_operator_moves_any_pending_match_to_any_court(world: World) -> None:
    _, (one, two) = world.broadcast("Court 1", "Court 2")
    made = world.sync(one, "m1")
    with world.uow() as uow:
        moved = svc.operator_move_match(uow, account_id=world.account_id, match_id=made.id, table_id=two.id,
                                        now=world.now)
    assert moved.table_id == two.id


def test_only_a_draws_match_goes_back_to_the_pool(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with pytest.raises(Invalid) as refused, world.uow() as uow:
        svc.operator_move_match(uow, account_id=world.account_id, match_id=made.id, table_id=None, now=world.now)
    assert refused.value.details == {"json": {"tableID": ["null is only for a draw's match"]}}


def test_the_operator_cancels_a_pending_match(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with world.uow() as uow:
        svc.operator_cancel_match(uow, account_id=world.account_id, match_id=made.id, now=world.now)
        assert uow.matches.get(made.id) is None


def test_reordering_a_queue_sets_the_new_order_and_records_it(world: World) -> None:
    court = world.court()
    ids = [world.sync(court, f"m{i}", a=f"A{i} X", b=f"B{i} Y").id for i in range(3)]
    with world.uow() as uow:
        svc.reorder_queue(uow, account_id=world.account_id, table_id=court.id, match_ids=ids[::-1], now=world.now)
    with world.uow() as uow:
        assert [m.id for m in uow.matches.queue(court.id)] == ids[::-1]
    assert world.audit_actions()[-1] == "table.queue_reordered"


def test_reordering_must_name_exactly_the_pending_matches(world: World) -> None:
    court = world.court()
    ids = [world.sync(court, f"m{i}", a=f"A{i} X", b=f"B{i} Y").id for i in range(2)]
    with pytest.raises(Invalid) as refused, world.uow() as uow:
        svc.reorder_queue(uow, account_id=world.account_id, table_id=court.id, match_ids=ids[:1], now=world.now)
    assert refused.value.details == {"json": {"matchIDs": [f"expected the 2 pending matches of table '{court.id}'"]}}


def test_reordering_in_the_same_order_writes_no_entry(world: World) -> None:
    court = world.court()
    ids = [world.sync(court, f"m{i}", a=f"A{i} X", b=f"B{i} Y").id for i in range(2)]
    entries = world.audit_actions()
    with world.uow() as uow:
        svc.reorder_queue(uow, account_id=world.account_id, table_id=court.id, match_ids=ids, now=world.now)
    assert world.audit_actions() == entries


def test_a_connection_lists_only_its_own_matches_in_creation_order(world: World) -> None:
    court = world.court()
    world.sync(court, "m1")
    world.sync(court, "m2", a="Cy Dunn", b="Di Eve")
    partner = world.partner()
    with world.uow() as uow:
        mine, cursor = svc.list_matches(uow, connection_id=world.house_id, limit=None, cursor=None)
        theirs, _ = svc.list_matches(uow, connection_id=partner, limit=None, cursor=None)
    assert [m.external_id for m in mine] == ["m1", "m2"]
    assert cursor is None and theirs == []


def test_the_operators_list_filters_by_status_newest_first(world: World) -> None:
    court = world.court()
    world.played(court, "done")
    world.sync(court, "p1", a="Cy Dunn", b="Di Eve")
    world.sync(court, "p2", a="Ed Fox", b="Flo Gu")
    with world.uow() as uow:
        pending, _ = svc.account_matches(uow, account_id=world.account_id, status="pending", table_id=None,
                                         limit=None, cursor=None)
        done, _ = svc.account_matches(uow, account_id=world.account_id, status="completed", table_id=court.id,
                                      limit=None, cursor=None)
    assert [m.external_id for m in pending] == ["p2", "p1"]
    assert [m.external_id for m in done] == ["done"]
