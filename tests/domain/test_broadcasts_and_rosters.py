"""Broadcasts, their courts and rosters (contract §3, §4, §9a, §14) through `domain.partner.broadcasts` and
`domain.partner.rosters` on the in-memory unit of work."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict, Forbidden, Invalid, NotFound
from domain.models import Broadcast, RosterType, Table
from domain.partner import broadcasts, rosters
from domain.partner.broadcasts import BroadcastChange, Court
from tests.domain.world import RULES, World


@pytest.fixture
def world() -> World:
    return World()


def courts_of(world: World, broadcast: Broadcast) -> list[Table]:
    with world.uow() as uow:
        found = uow.broadcasts.get(broadcast.id)
        assert found is not None
        return [t for t in (uow.tables.get(tid) for tid in found.table_ids) if t is not None]


def partner_patch(world: World, broadcast: Broadcast, connection: str | None, **change: Any) -> Broadcast:
    with world.uow() as uow:
        return broadcasts.patch_broadcast(uow, account_id=world.account_id, broadcast_id=broadcast.id,
                                          change=BroadcastChange(**change), now=world.now, server=RULES.scoring,
                                          connection_id=connection)


def new_roster(world: World, name: str = "Open", kind: RosterType = RosterType.INDIVIDUAL, **more: Any) -> Any:
    with world.uow() as uow:
        return rosters.create_roster(uow, account_id=world.account_id, now=world.now,
                                     new=rosters.NewRoster(name=name, roster_type=kind, **more))


def test_an_operators_broadcast_is_managed_by_the_house_with_its_courts_in_order(world: World) -> None:
    made, tables = world.broadcast("Court 1", "Court 2", "Centre")
    assert made.manager_connection_id == world.house_id
    assert [t.label for t in tables] == ["Court 1", "Court 2", "Centre"]
    assert {t.manager_connection_id for t in tables} == {world.house_id}
    assert world.audit_actions()[-1] == "broadcast.created"


def test_a_broadcasts_name_is_stored_in_its_stored_form(world: World) -> None:
    made, _ = world.broadcast(name="  Club   day ")
    assert made.name == "Club day"


def test_an_unknown_broadcast_is_not_found(world: World) -> None:
    with pytest.raises(NotFound, match="No broadcast 'brd_nope'"), world.uow() as uow:
        broadcasts.get_broadcast(uow, account_id=world.account_id, broadcast_id="brd_nope")


def test_a_default_list_must_be_a_rosters(world: World) -> None:
    plain = world.house_list()
    with pytest.raises(NotFound, match=f"No roster-backed player list '{plain.id}'"):
        world.broadcast(default_player_list_id=plain.id)


def test_a_patch_keeps_named_courts_adds_new_ones_and_removes_the_rest(world: World) -> None:
    made, (one, two) = world.broadcast("Court 1", "Court 2")
    world.patch(made, tables=[Court(label="Court 2 renamed", id=two.id), Court(label="Court 3")])
    after = courts_of(world, made)
    assert [t.label for t in after] == ["Court 2 renamed", "Court 3"]
    assert after[0].id == two.id
    with world.uow() as uow:
        assert uow.tables.get(one.id) is None


def test_a_patch_naming_a_court_of_another_broadcast_is_not_found(world: World) -> None:
    made, _ = world.broadcast("Court 1")
    _, (elsewhere,) = world.broadcast("Other court")
    with pytest.raises(NotFound) as refused:
        world.patch(made, tables=[Court(label="x", id=elsewhere.id)])
    assert refused.value.details == {"tableIDs": [elsewhere.id]}


def test_a_patch_naming_a_court_twice_is_invalid(world: World) -> None:
    made, (one,) = world.broadcast("Court 1")
    with pytest.raises(Invalid) as refused:
        world.patch(made, tables=[Court(label="a", id=one.id), Court(label="b", id=one.id)])
    assert refused.value.details == {"json": {"tables": {"id": [one.id]}}}


def test_removing_a_court_in_play_is_table_busy_and_changes_nothing(world: World) -> None:
    made, (one, two) = world.broadcast("Court 1", "Court 2")
    world.start(world.sync(one, "m1"))
    with pytest.raises(Conflict) as refused:
        world.patch(made, tables=[Court(label="Court 2", id=two.id)])
    assert (refused.value.code, refused.value.details) == ("table_busy", {"tableID": one.id})
    assert [t.id for t in courts_of(world, made)] == [one.id, two.id]


def test_removing_a_court_takes_its_pending_queue_with_it(world: World) -> None:
    made, (one, two) = world.broadcast("Court 1", "Court 2")
    queued = world.sync(one, "m1")
    world.patch(made, tables=[Court(label="Court 2", id=two.id)])
    with world.uow() as uow:
        assert uow.matches.get(queued.id) is None


def test_an_empty_patch_is_invalid(world: World) -> None:
    made, _ = world.broadcast()
    with pytest.raises(Invalid, match="Give at least one property to change"):
        world.patch(made)


def test_the_event_day_settings_change_in_an_entry_of_their_own(world: World) -> None:
    made, _ = world.broadcast()
    changed = world.patch(made, require_check_in=True, rest_minutes=15)
    assert broadcasts.event_day(changed) == {"requireCheckIn": True, "restMinutes": 15, "selfCheckIn": False,
                                             "selfReport": False,
                                             "selfReportConfirmMinutes": changed.self_report_confirm_minutes}
    assert world.audit_actions()[-1] == "broadcast.event_settings_changed"


def test_a_rename_is_a_broadcast_changed_entry(world: World) -> None:
    made, _ = world.broadcast()
    assert world.patch(made, name="Finals").name == "Finals"
    assert world.audit_actions()[-1] == "broadcast.changed"


def test_only_the_managing_partner_changes_courts_but_any_may_rename(world: World) -> None:
    manager, other = world.partner(), world.partner("Other")
    made, (court,) = world.broadcast(manager=manager)
    with pytest.raises(Forbidden) as refused:
        partner_patch(world, made, other, tables=[Court(label="mine", id=court.id)])
    assert refused.value.code == "table_not_managed"
    assert partner_patch(world, made, other, name="Renamed").name == "Renamed"


def test_deleting_a_broadcast_removes_its_courts_and_queues(world: World) -> None:
    made, (court,) = world.broadcast()
    queued = world.sync(court, "m1")
    with world.uow() as uow:
        broadcasts.delete_broadcast(uow, account_id=world.account_id, broadcast_id=made.id, now=world.now)
    with world.uow() as uow:
        assert (uow.broadcasts.get(made.id), uow.tables.get(court.id), uow.matches.get(queued.id)) == (
            None, None, None)
    assert "broadcast.deleted" in world.audit_actions()


def test_a_broadcast_in_play_is_not_deleted(world: World) -> None:
    made, (court,) = world.broadcast()
    world.start(world.sync(court, "m1"))
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        broadcasts.delete_broadcast(uow, account_id=world.account_id, broadcast_id=made.id, now=world.now)
    assert refused.value.code == "table_busy"


def test_a_handover_gives_every_court_to_the_new_manager_and_clears_its_list(world: World) -> None:
    partner = world.partner()
    made, (court,) = world.broadcast()
    with world.uow() as uow:
        table = uow.tables.get(court.id)
        assert table is not None
        table.player_list_external_id = "house-list"
        uow.tables.put(table)
    with world.uow() as uow:
        after = broadcasts.hand_over(uow, account_id=world.account_id, broadcast_id=made.id, now=world.now,
                                     handover=broadcasts.BroadcastHandover(connection_id=partner))
    assert after.manager_connection_id == partner
    [moved] = courts_of(world, made)
    assert (moved.manager_connection_id, moved.player_list_external_id) == (partner, None)
    assert world.audit_actions()[-1] == "broadcast.handed_over"


def test_a_handover_to_an_unknown_connection_is_not_found(world: World) -> None:
    made, _ = world.broadcast()
    with pytest.raises(NotFound, match="No active connection 'conn_nope'"), world.uow() as uow:
        broadcasts.hand_over(uow, account_id=world.account_id, broadcast_id=made.id, now=world.now,
                             handover=broadcasts.BroadcastHandover(connection_id="conn_nope"))


def test_a_courts_scoreboards_fall_back_to_the_broadcasts_then_its_default(world: World) -> None:
    made, (court,) = world.broadcast(default_scoreboard_id="sb_default")
    assert broadcasts.court_scoreboards(made, court) == ["sb_default"]
    made.scoreboard_ids = ["sb_all"]
    assert broadcasts.court_scoreboards(made, court) == ["sb_all"]
    court.scoreboard_ids = ["sb_own"]
    assert broadcasts.court_scoreboards(made, court) == ["sb_own"]


def test_a_roster_comes_with_its_backing_list(world: World) -> None:
    roster = new_roster(world, "  Open   singles ")
    with world.uow() as uow:
        backing = uow.player_lists.get(roster.player_list_id)
    assert roster.name == "Open singles"
    assert backing is not None and (backing.name, backing.roster_id) == ("Open singles", roster.id)
    assert world.audit_actions()[-1] == "roster.created"


def test_self_registration_is_for_individual_rosters_only(world: World) -> None:
    with pytest.raises(Invalid) as refused:
        new_roster(world, "Teams", RosterType.TEAM, self_registration_enabled=True)
    assert refused.value.details == {"json": {"selfRegistrationEnabled": ["Only for individual rosters."]}}


def test_a_rosters_type_cannot_change(world: World) -> None:
    roster = new_roster(world)
    with pytest.raises(Invalid) as refused, world.uow() as uow:
        rosters.patch_roster(uow, account_id=world.account_id, roster_id=roster.id, now=world.now,
                             change=rosters.RosterChange(roster_type=RosterType.TEAM))
    assert (refused.value.code, refused.value.details) == ("roster_type_immutable", {"rosterType": "individual"})


def test_renaming_a_roster_renames_its_list_and_turning_sign_up_on_is_a_link_entry(world: World) -> None:
    roster = new_roster(world)
    with world.uow() as uow:
        rosters.patch_roster(uow, account_id=world.account_id, roster_id=roster.id, now=world.now,
                             change=rosters.RosterChange(name="Open 2", self_registration_enabled=True))
    with world.uow() as uow:
        backing = uow.player_lists.get(roster.player_list_id)
    assert backing is not None and backing.name == "Open 2"
    assert world.audit_actions()[-2:] == ["link.enabled", "roster.changed"]


def test_a_patch_restating_the_roster_changes_nothing(world: World) -> None:
    roster = new_roster(world)
    entries = world.audit_actions()
    with world.uow() as uow:
        same = rosters.patch_roster(uow, account_id=world.account_id, roster_id=roster.id, now=world.now,
                                    change=rosters.RosterChange(name="Open"))
    assert same.updated_on == roster.updated_on
    assert world.audit_actions() == entries


def test_deleting_a_roster_clears_the_default_list_of_its_broadcasts(world: World) -> None:
    roster = new_roster(world)
    made, _ = world.broadcast(default_player_list_id=roster.player_list_id)
    with world.uow() as uow:
        rosters.delete_roster(uow, account_id=world.account_id, roster_id=roster.id, now=world.now)
    with world.uow() as uow:
        after = uow.broadcasts.get(made.id)
        assert uow.player_lists.get(roster.player_list_id) is None
    assert after is not None and after.default_player_list_id is None


def test_the_operators_roster_becomes_the_broadcasts_default_list_when_it_has_none(world: World) -> None:
    made, _ = world.broadcast()
    with world.uow() as uow:
        roster = rosters.operator_create_roster(
            uow, account_id=world.account_id, now=world.now,
            new=rosters.OperatorNewRoster(roster=rosters.NewRoster(name="Open", roster_type=RosterType.INDIVIDUAL),
                                          broadcast_id=made.id))
    with world.uow() as uow:
        after = uow.broadcasts.get(made.id)
    assert after is not None and after.default_player_list_id == roster.player_list_id
