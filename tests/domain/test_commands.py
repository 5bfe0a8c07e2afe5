"""Commands in: schemas turn validated bodies into typed commands; in a patch, absent (`UNSET`) is not `null`."""

from __future__ import annotations

from api.schemas.resources import BroadcastCreate, BroadcastPatch, PlayerListPatch, RosterPatch, TeamPatch
from domain.broadcasts import BroadcastChange, Court, NewBroadcast
from domain.commands import UNSET, changed_fields, given
from domain.player_lists import PlayerListChange, TeamChange
from domain.rosters import RosterChange


def test_a_create_body_becomes_a_typed_command_with_its_courts() -> None:
    new = BroadcastCreate().load({"name": "Open", "tables": [{"label": "Court 1"}, {"id": "tbl_1", "label": "B",
                                                                                     "scoreboardIDs": ["s1"]}]})
    assert new == NewBroadcast(name="Open", tables=[Court(label="Court 1"), Court(label="B", id="tbl_1",
                                                                                 scoreboard_ids=["s1"])])


def test_a_patch_tells_absent_from_null() -> None:
    change = BroadcastPatch().load({"description": None, "name": "Renamed"})
    assert isinstance(change, BroadcastChange)
    assert change.description is None and given(change.description)
    assert change.name == "Renamed"
    assert change.default_scoreboard_id is UNSET and not given(change.tables)
    assert changed_fields(change) == ["name", "description"]


def test_roster_player_list_and_team_patches_are_commands() -> None:
    assert RosterPatch().load({"teamJerseyColor": "red"}) == RosterChange(team_jersey_color="red")
    assert PlayerListPatch().load({"removeExternalIDs": ["p1"]}) == PlayerListChange(remove_external_ids=["p1"])
    team = TeamPatch().load({"logoURL": "https://example.com/l.png"})
    assert team == TeamChange(logo_url="https://example.com/l.png")
    assert changed_fields(team) == ["logo_url"]


def test_sync_bodies_become_sync_commands() -> None:
    from api.schemas.resources import PlayerListSync, TeamSync
    from domain.player_lists import SyncPlayerList, SyncTeam

    players = [{"externalID": "p1", "firstName": "Ann"}]
    assert PlayerListSync().load({"externalID": "club", "name": "Club", "players": players}) == SyncPlayerList(
        external_id="club", name="Club", players=players)
    assert TeamSync().load({"externalID": "t1", "name": "Reds", "jerseyColor": "red", "players": []}) == SyncTeam(
        external_id="t1", name="Reds", players=[], jersey_color="red")
