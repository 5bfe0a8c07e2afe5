"""The people of a broadcast, their check-in, rest and who may start (contract §8a, §14), through
`domain.event_day.people` and `domain.event_day.availability` on the in-memory unit of work."""

from __future__ import annotations

from typing import Any

import pytest

from domain.clock import iso
from domain.errors import Conflict, NotFound
from domain.event_day import people
from domain.event_day.availability import Availability, Block
from domain.match import matches as svc
from domain.models import BlockReason, Broadcast, Match
from tests.domain.world import World


@pytest.fixture
def world() -> World:
    return World()


def rows(world: World, broadcast: Broadcast) -> list[people.PersonRowFeed]:
    with world.uow() as uow:
        return people.broadcast_people(uow, account_id=world.account_id, broadcast_id=broadcast.id, now=world.now)


def check(world: World, broadcast: Broadcast, name: str, present: bool = True) -> people.PersonRowFeed:
    with world.uow() as uow:
        return people.check_in(uow, account_id=world.account_id, broadcast_id=broadcast.id,
                               person=people.person_id(broadcast.id, name), check=people.CheckIn(present=present),
                               now=world.now)


def block(world: World, match: Match) -> Any:
    with world.uow() as uow:
        return Availability(uow, account_id=world.account_id, now=world.now).block(world.get(match))


def test_a_person_id_is_stable_and_follows_the_name_rule() -> None:
    assert people.person_id("brd_1", "Ann Lee") == people.person_id("brd_1", "  ann   LEE ")
    assert people.person_id("brd_1", "Ann Lee") != people.person_id("brd_2", "Ann Lee")
    assert people.person_id("brd_1", "Ann Lee").startswith("psn_")
    assert len(people.person_id("brd_1", "Ann Lee")) == len("psn_") + 20


def test_everyone_named_by_the_broadcasts_matches_is_one_row_in_name_order(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Cy Dunn", b="Ann Lee")
    world.sync(court, "m2", a="ann lee", b="Bo Chen")
    listed = rows(world, broadcast)
    assert [r["name"] for r in listed] == ["Ann Lee", "Bo Chen", "Cy Dunn"]
    assert all(r["status"] == "free" and r["checkedIn"] is False for r in listed)


def test_a_person_is_spelled_as_their_earliest_match_spells_them(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    world.sync(court, "m2", a="ANN LEE", b="Cy Dunn")
    assert [r["name"] for r in rows(world, broadcast)][0] == "Ann Lee"


def test_a_players_next_match_is_the_first_in_their_courts_queue(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    first = world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    world.sync(court, "m2", a="Ann Lee", b="Cy Dunn")
    ann = next(r for r in rows(world, broadcast) if r["name"] == "Ann Lee")
    assert ann["nextMatchID"] == first.id


def test_a_player_on_court_is_playing_with_the_courts_label(world: World) -> None:
    broadcast, (court,) = world.broadcast("Centre")
    world.start(world.sync(court, "m1", a="Ann Lee", b="Bo Chen"))
    ann = next(r for r in rows(world, broadcast) if r["name"] == "Ann Lee")
    assert (ann["status"], ann["tableLabel"]) == ("playing", "Centre")


def test_a_called_player_is_called_to_the_matchs_court(world: World) -> None:
    broadcast, (court,) = world.broadcast("Court 7")
    made = world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    with world.uow() as uow:
        svc.call_match(uow, account_id=world.account_id, match_id=made.id, now=world.now)
    ann = next(r for r in rows(world, broadcast) if r["name"] == "Ann Lee")
    assert (ann["status"], ann["tableLabel"]) == ("called", "Court 7")


def test_a_player_rests_after_a_match_for_the_broadcasts_rest_minutes(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.patch(broadcast, rest_minutes=10)
    world.played(court, "m1", a="Ann Lee", b="Bo Chen")
    ann = next(r for r in rows(world, broadcast) if r["name"] == "Ann Lee")
    assert ann["status"] == "resting"
    assert ann["restingUntil"] == iso(world.now.replace(minute=10))
    world.clock.advance(10 * 60)
    assert next(r for r in rows(world, broadcast) if r["name"] == "Ann Lee")["status"] == "free"


def test_without_rest_minutes_a_finished_player_is_free_at_once(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.played(court, "m1", a="Ann Lee", b="Bo Chen")
    assert {r["status"] for r in rows(world, broadcast)} == {"free"}


def test_an_unchecked_player_is_absent_only_when_the_event_requires_check_in(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    assert {r["status"] for r in rows(world, broadcast)} == {"free"}
    world.patch(broadcast, require_check_in=True)
    assert {r["status"] for r in rows(world, broadcast)} == {"absent"}


def test_checking_in_marks_the_person_present_with_the_time(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.patch(broadcast, require_check_in=True)
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    row = check(world, broadcast, "Ann Lee")
    assert (row["checkedIn"], row["checkedInOn"], row["status"]) == (True, iso(world.now), "free")
    assert world.audit_actions()[-1] == "person.checked_in"


def test_a_check_in_holds_whichever_spelling_a_match_uses(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    check(world, broadcast, "Ann Lee")
    world.sync(court, "m2", a="ANN  LEE", b="Cy Dunn")
    ann = next(r for r in rows(world, broadcast) if r["personID"] == people.person_id(broadcast.id, "ann lee"))
    assert ann["checkedIn"] is True


def test_checking_in_twice_writes_one_entry(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    check(world, broadcast, "Ann Lee")
    entries = world.audit_actions()
    check(world, broadcast, "Ann Lee")
    assert world.audit_actions() == entries


def test_checking_out_removes_the_check_in(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    check(world, broadcast, "Ann Lee")
    row = check(world, broadcast, "Ann Lee", present=False)
    assert (row["checkedIn"], row["checkedInOn"]) == (False, None)
    assert world.audit_actions()[-1] == "person.checked_out"


def test_checking_in_a_stranger_is_not_found(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    with pytest.raises(NotFound, match="No person"):
        check(world, broadcast, "Zed Nobody")


def test_people_of_an_unknown_broadcast_are_not_found(world: World) -> None:
    with pytest.raises(NotFound), world.uow() as uow:
        people.broadcast_people(uow, account_id=world.account_id, broadcast_id="brd_nope", now=world.now)


def test_the_people_list_pages_in_name_order(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    world.sync(court, "m2", a="Cy Dunn", b="Di Eve")
    with world.uow() as uow:
        first, cursor = people.people_page(uow, account_id=world.account_id, broadcast_id=broadcast.id,
                                           now=world.now, limit=3, cursor=None)
        rest, last = people.people_page(uow, account_id=world.account_id, broadcast_id=broadcast.id,
                                        now=world.now, limit=3, cursor=cursor)
    assert [r["name"] for r in first] == ["Ann Lee", "Bo Chen", "Cy Dunn"]
    assert [r["name"] for r in rest] == ["Di Eve"]
    assert cursor is not None and last is None


def test_an_unchecked_player_blocks_a_start_when_check_in_is_required(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.patch(broadcast, require_check_in=True)
    made = world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    check(world, broadcast, "Ann Lee")
    found = block(world, made)
    assert (found.reason, found.players) == (BlockReason.NOT_CHECKED_IN, ["Bo Chen"])
    with pytest.raises(Conflict) as refused:
        world.start(made)
    assert refused.value.code == "not_checked_in"
    assert str(refused.value) == "Bo Chen has not checked in; start anyway with force."


def test_with_everyone_checked_in_the_match_may_start(world: World) -> None:
    broadcast, (court,) = world.broadcast()
    world.patch(broadcast, require_check_in=True)
    made = world.sync(court, "m1", a="Ann Lee", b="Bo Chen")
    check(world, broadcast, "Ann Lee")
    check(world, broadcast, "Bo Chen")
    assert block(world, made) is None
    assert world.start(made).status == "active"


def test_a_resting_player_blocks_a_start_until_the_rest_ends(world: World) -> None:
    broadcast, (one, two) = world.broadcast("Court 1", "Court 2")
    world.patch(broadcast, rest_minutes=5)
    world.played(one, "m1", a="Ann Lee", b="Bo Chen")
    waiting = world.sync(two, "m2", a="Ann Lee", b="Cy Dunn")
    found = block(world, waiting)
    assert (found.reason, found.players, found.until) == (
        BlockReason.PLAYER_RESTING, ["Ann Lee"], iso(world.now.replace(minute=5)))
    world.clock.advance(5 * 60)
    assert block(world, waiting) is None


def test_a_busy_block_names_the_players_and_their_courts(world: World) -> None:
    _, (one, two) = world.broadcast("Court 1", "Court 2")
    world.start(world.sync(one, "m1", a="Ann Lee", b="Bo Chen"))
    waiting = world.sync(two, "m2", a="Bo Chen", b="Ann Lee")
    found = block(world, waiting)
    assert found.reason == BlockReason.PLAYER_BUSY
    assert sorted(found.players) == ["Ann Lee", "Bo Chen"]
    assert found.details() == {"players": found.players, "tableIDs": found.table_ids}
    assert set(found.table_ids) == {one.id}


def test_names_are_compared_within_one_broadcast_only(world: World) -> None:
    _, (one,) = world.broadcast(name="Day one")
    _, (other,) = world.broadcast(name="Day two")
    world.start(world.sync(one, "m1", a="Player 1", b="Player 2"))
    elsewhere = world.sync(other, "m2", a="Player 1", b="Player 3")
    assert block(world, elsewhere) is None


def test_a_not_before_time_blocks_until_it_passes(world: World) -> None:
    court = world.court()
    made = world.sync(court, "m1")
    with world.uow() as uow:
        match = uow.matches.get(made.id)
        assert match is not None
        match.not_before = iso(world.now.replace(minute=30))
        uow.matches.put(match)
    found = block(world, made)
    assert (found.reason, found.until) == (BlockReason.NOT_BEFORE, iso(world.now.replace(minute=30)))
    assert found.message() == f"This match is not to start before {found.until}; start anyway with force."
    world.clock.advance(30 * 60)
    assert block(world, made) is None


def test_a_block_view_leaves_out_an_absent_until() -> None:
    assert Block(BlockReason.NOT_CHECKED_IN, ["Ann"]).view() == {"reason": "not_checked_in", "players": ["Ann"]}
    assert Block(BlockReason.PLAYER_RESTING, ["Ann"], until="T").view() == {
        "reason": "player_resting", "players": ["Ann"], "until": "T"}
    assert Block(BlockReason.PLAYER_BUSY, ["Ann", "Bo"]).message() == (
        "Ann, Bo are still playing on another table; start anyway with force.")
