"""Player lists (contract §5, §9a, §23) through `domain.partner.player_lists` on the in-memory unit of work: a
partner's sync and patch of its mapped players, players in use, the club's manual players, edits and imports."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import Conflict, DomainError, Invalid, NotFound
from domain.models import PlayerList, PlayerSource
from domain.partner import player_lists as lists
from tests.domain.world import World


@pytest.fixture
def world() -> World:
    return World()


def ann(**more: Any) -> dict[str, Any]:
    return {"externalID": "p1", "firstName": "Ann", "lastName": "Lee", **more}


def patch(world: World, connection: str, **change: Any) -> PlayerList:
    with world.uow() as uow:
        return lists.patch_list(uow, connection_id=connection, external_id="entrants",
                                change=lists.PlayerListChange(**change), now=world.now)


def add(world: World, list_id: str, first: str, last: str = "", external_id: str | None = None) -> PlayerList:
    fields: dict[str, Any] = {"firstName": first} | ({"lastName": last} if last else {})
    if external_id:
        fields["externalID"] = external_id
    with world.uow() as uow:
        return lists.add_manual_player(uow, account_id=world.account_id, list_id=list_id, now=world.now,
                                       player=lists.NewManualPlayer(first_name=first, external_id=external_id,
                                                                    fields=fields))


def test_a_sync_makes_the_mapped_players_exactly_the_ones_sent_with_their_source(world: World) -> None:
    partner = world.partner()
    made = world.partner_list(partner, players=[ann(), {"externalID": "p2", "firstName": "Bo"}])
    assert [p["externalID"] for p in made.players] == ["p1", "p2"]
    assert {p["source"] for p in made.players} == {"mapped"}
    assert {p["connectionID"] for p in made.players} == {partner}
    again = world.partner_list(partner, players=[{"externalID": "p2", "firstName": "Bo"}])
    assert again.id == made.id
    assert [p["externalID"] for p in again.players] == ["p2"]


def test_a_sync_stores_names_in_their_stored_form(world: World) -> None:
    partner = world.partner()
    made = world.partner_list(partner, players=[ann(firstName="  Ann ", lastName="Le\u0301e  ")])
    assert (made.players[0]["firstName"], made.players[0]["lastName"]) == ("Ann", "Lée")


def test_a_sync_naming_one_external_id_twice_is_invalid(world: World) -> None:
    partner = world.partner()
    with pytest.raises(Invalid, match="Each externalID may appear only once"):
        world.partner_list(partner, players=[ann(), ann()])


def test_a_sync_keeps_the_clubs_manual_players_after_the_mapped_ones(world: World) -> None:
    partner = world.partner()
    made = world.partner_list(partner, players=[ann()])
    add(world, made.id, "Cy", "Dunn")
    again = world.partner_list(partner, players=[{"externalID": "p2", "firstName": "Bo"}])
    assert [(p["firstName"], p["source"]) for p in again.players] == [("Bo", "mapped"), ("Cy", "manual")]


def test_a_sync_may_not_drop_a_player_an_open_match_names(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[ann()])
    _, (court,) = world.broadcast(manager=partner)
    made = world.sync(court, "m1", connection=partner, a=None, participants={"playerA": {"externalID": "p1"}})
    with pytest.raises(Conflict) as refused:
        world.partner_list(partner, players=[])
    assert refused.value.code == "player_in_use"
    assert refused.value.details == {"players": ["p1"], "matchIDs": [made.id]}


def test_a_completed_match_does_not_hold_its_players_in_the_list(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[ann()])
    _, (court,) = world.broadcast(manager=partner)
    world.played(court, "m1", connection=partner, a=None, participants={"playerA": {"externalID": "p1"}})
    assert world.partner_list(partner, players=[]).players == []


def test_a_patch_upserts_and_removes_mapped_players(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[ann(), {"externalID": "p2", "firstName": "Bo"}])
    changed = patch(world, partner, upsert=[ann(firstName="Anne"), {"externalID": "p3", "firstName": "Cy"}],
                    remove_external_ids=["p2"])
    assert [(p["externalID"], p["firstName"]) for p in changed.players] == [("p1", "Anne"), ("p3", "Cy")]


def test_a_patch_may_not_upsert_and_remove_one_player(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[ann()])
    with pytest.raises(Invalid) as refused:
        patch(world, partner, upsert=[ann()], remove_external_ids=["p1"])
    assert (refused.value.code, refused.value.details) == ("conflicting_patch", {"externalIDs": ["p1"]})


def test_a_patch_removing_an_unknown_external_id_changes_nothing(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[ann()])
    assert [p["externalID"] for p in patch(world, partner, remove_external_ids=["zz"]).players] == ["p1"]


def test_an_empty_patch_is_invalid(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[ann()])
    with pytest.raises(Invalid, match="Give at least one of upsert, removeExternalIDs, name, description"):
        patch(world, partner)


def test_a_patch_renames_the_list_in_its_stored_form(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner)
    assert patch(world, partner, name="  Open   entrants ").name == "Open entrants"


def test_another_connections_list_is_not_found(world: World) -> None:
    partner, other = world.partner(), world.partner("Other")
    world.partner_list(partner)
    with pytest.raises(NotFound, match="No player list with externalID 'entrants'"):
        patch(world, other, name="mine now")


def test_a_house_list_needs_a_name_and_is_named_by_its_id(world: World) -> None:
    made = world.house_list("  Harbour   Club ")
    assert (made.name, made.external_id, made.connection_id) == ("Harbour Club", made.id, world.house_id)
    with pytest.raises(Invalid) as refused, world.uow() as uow:
        lists.create_house_list(uow, account_id=world.account_id, new=lists.NewHouseList(name="  "), now=world.now)
    assert refused.value.details == {"json": {"name": ["A name is required."]}}


def test_a_manual_player_gets_an_id_that_is_also_its_external_id(world: World) -> None:
    made = world.house_list()
    player = add(world, made.id, "Ann", "Lee").players[0]
    assert player["id"].startswith("ply_")
    assert (player["externalID"], player["source"]) == (player["id"], PlayerSource.MANUAL.value)
    assert world.audit_actions()[-1] == "player.created"


def test_a_manual_player_keeps_an_external_id_it_brings(world: World) -> None:
    made = world.house_list()
    assert add(world, made.id, "Ann", external_id="lic-42").players[0]["externalID"] == "lic-42"


def test_a_manual_player_may_not_take_an_external_id_the_list_has(world: World) -> None:
    made = world.house_list()
    add(world, made.id, "Ann", "Lee", external_id="lic-42")
    with pytest.raises(Conflict) as refused:
        add(world, made.id, "Bo", external_id="lic-42")
    assert refused.value.code == "player_exists"
    assert refused.value.details == {"externalID": "lic-42", "name": "Ann Lee"}


def test_a_manual_player_needs_a_first_name(world: World) -> None:
    made = world.house_list()
    with pytest.raises(Invalid) as refused:
        add(world, made.id, "  ")
    assert refused.value.details == {"json": {"firstName": ["A name is required."]}}


def test_a_manual_player_of_an_unknown_list_is_not_found(world: World) -> None:
    with pytest.raises(NotFound, match="No player list 'pl_nope'"):
        add(world, "pl_nope", "Ann")


def test_editing_a_manual_player_changes_its_fields(world: World) -> None:
    made = world.house_list()
    player = add(world, made.id, "Ann", "Lee").players[0]
    with world.uow() as uow:
        edited = lists.edit_player(uow, account_id=world.account_id, list_id=made.id, player_id=player["id"],
                                   edit=lists.PlayerChanges(changes={"lastName": "Lee-Park"}), now=world.now)
    assert edited.players[0]["lastName"] == "Lee-Park"
    assert world.audit_actions()[-1] == "player.changed"


def test_an_edit_may_not_make_two_players_one_by_name(world: World) -> None:
    made = world.house_list()
    add(world, made.id, "Ann", "Lee")
    bo = add(world, made.id, "Bo", "Chen").players[1]
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        lists.edit_player(uow, account_id=world.account_id, list_id=made.id, player_id=bo["id"],
                          edit=lists.PlayerChanges(changes={"firstName": "ann", "lastName": "LEE"}), now=world.now)
    assert refused.value.code == "player_exists"
    assert refused.value.details["name"] == "Ann Lee"


def test_an_edit_may_not_blank_the_first_name(world: World) -> None:
    made = world.house_list()
    player = add(world, made.id, "Ann", "Lee").players[0]
    with pytest.raises(Invalid), world.uow() as uow:
        lists.edit_player(uow, account_id=world.account_id, list_id=made.id, player_id=player["id"],
                          edit=lists.PlayerChanges(changes={"firstName": " "}), now=world.now)


def test_a_mapped_player_is_not_the_operators_to_edit_or_remove(world: World) -> None:
    partner = world.partner()
    made = world.partner_list(partner, players=[ann(id="ply_mapped")])
    with pytest.raises(NotFound, match="No manual or self-registered player"), world.uow() as uow:
        lists.remove_manual_player(uow, account_id=world.account_id, list_id=made.id, player_id="ply_mapped",
                                   now=world.now)


def test_removing_a_manual_player_takes_it_out_and_records_it(world: World) -> None:
    made = world.house_list()
    player = add(world, made.id, "Ann", "Lee").players[0]
    with world.uow() as uow:
        left = lists.remove_manual_player(uow, account_id=world.account_id, list_id=made.id,
                                          player_id=player["id"], now=world.now)
    assert left.players == []
    assert world.audit_actions()[-1] == "player.deleted"


def test_an_import_adds_every_row_as_a_manual_player(world: World) -> None:
    made = world.house_list()
    with world.uow() as uow:
        outcomes, stored = lists.import_players(
            uow, account_id=world.account_id, list_id=made.id, now=world.now,
            sheet=lists.PlayerSheet(rows=[{"firstName": "Ann", "lastName": "Lee"}, {"firstName": "Bo"}]))
    assert stored is True
    assert [o["firstName"] for o in outcomes if not isinstance(o, DomainError)] == ["Ann", "Bo"]
    with world.uow() as uow:
        kept = uow.player_lists.get(made.id)
    assert kept is not None and [p["firstName"] for p in kept.players] == ["Ann", "Bo"]
    assert world.audit_actions()[-1] == "player.imported"


def test_an_import_with_a_name_already_listed_stores_nothing(world: World) -> None:
    made = world.house_list()
    add(world, made.id, "Ann", "Lee")
    with world.uow() as uow:
        outcomes, stored = lists.import_players(
            uow, account_id=world.account_id, list_id=made.id, now=world.now,
            sheet=lists.PlayerSheet(rows=[{"firstName": "Bo"}, {"firstName": "ANN", "lastName": "lee"}]))
    assert stored is False
    refused = outcomes[1]
    assert isinstance(refused, Conflict) and refused.code == "player_exists"
    assert str(refused) == "ANN lee is already in this list (as Ann Lee)."
    with world.uow() as uow:
        kept = uow.player_lists.get(made.id)
    assert kept is not None and len(kept.players) == 1


def test_an_import_refuses_a_name_twice_in_the_sheet(world: World) -> None:
    made = world.house_list()
    with world.uow() as uow:
        outcomes, stored = lists.import_players(
            uow, account_id=world.account_id, list_id=made.id, now=world.now,
            sheet=lists.PlayerSheet(rows=[{"firstName": "Bo"}, {"firstName": "bo"}]))
    assert stored is False
    assert isinstance(outcomes[1], Conflict) and not isinstance(outcomes[0], DomainError)


def test_a_dry_run_import_checks_every_row_and_stores_nothing(world: World) -> None:
    made = world.house_list()
    with world.uow() as uow:
        outcomes, stored = lists.import_players(
            uow, account_id=world.account_id, list_id=made.id, now=world.now,
            sheet=lists.PlayerSheet(rows=[{"firstName": "Bo"}], dry_run=True))
    assert stored is False and len(outcomes) == 1
    with world.uow() as uow:
        kept = uow.player_lists.get(made.id)
    assert kept is not None and kept.players == []


def test_replace_mapped_keeps_other_connections_players() -> None:
    existing = [{"externalID": "x", "source": "mapped", "connectionID": "other"}]
    result = lists.replace_mapped(existing, [{"externalID": "p1", "firstName": "Ann"}], connection_id="mine")
    assert result == [{"externalID": "p1", "firstName": "Ann", "source": "mapped", "connectionID": "mine"},
                      existing[0]]


def test_a_patch_of_the_description_alone_keeps_the_players_and_name(world: World) -> None:
    partner = world.partner()
    world.partner_list(partner, players=[ann()])
    changed = patch(world, partner, description="Saturday's entrants")
    assert (changed.name, changed.description) == ("Entrants", "Saturday's entrants")
    assert [p["externalID"] for p in changed.players] == ["p1"]
    assert world.audit_actions()[-1] == "player_list.changed"
