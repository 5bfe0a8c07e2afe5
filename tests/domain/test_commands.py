"""Commands in: schemas turn validated bodies into typed commands; in a patch, absent (`UNSET`) is not `null`."""

from __future__ import annotations

from api.schemas.resources import BroadcastCreate, BroadcastPatch, PlayerListPatch, RosterPatch, TeamPatch
from domain.commands import UNSET, changed_fields, given
from domain.models import EventType, Side
from domain.partner.broadcasts import BroadcastChange, Court, NewBroadcast
from domain.partner.player_lists import PlayerListChange, TeamChange
from domain.partner.rosters import RosterChange


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
    from domain.partner.player_lists import SyncPlayerList, SyncTeam

    players = [{"externalID": "p1", "firstName": "Ann"}]
    assert PlayerListSync().load({"externalID": "club", "name": "Club", "players": players}) == SyncPlayerList(
        external_id="club", name="Club", players=players)
    assert TeamSync().load({"externalID": "t1", "name": "Reds", "jerseyColor": "red", "players": []}) == SyncTeam(
        external_id="t1", name="Reds", players=[], jersey_color="red")


def test_a_webhook_patch_tells_a_removed_url_from_an_absent_one() -> None:
    from api.schemas.webhooks import WebhookConfigPatch
    from domain.webhooks import WebhookChange

    assert WebhookConfigPatch().load({"url": None}) == WebhookChange(url=None)
    events_only = WebhookConfigPatch().load({"events": ["match.started"]})
    assert events_only == WebhookChange(events=[EventType.MATCH_STARTED]) and not given(events_only.url)
    assert type(events_only.events[0]) is EventType  # a vocabulary loads as its member


def test_bulk_bodies_become_lists_of_item_commands() -> None:
    from api.schemas.matches import BulkAssignSchema, BulkCancelSchema
    from api.schemas.resources import BulkTableAssign
    from domain.match.matches import MatchAssignment
    from domain.partner.tables import TableAssignment

    tables = BulkTableAssign().load({"tables": [{"tableID": "t1", "playerListExternalID": None}]})
    assert tables == [TableAssignment(table_id="t1", player_list_external_id=None)]
    moves = BulkAssignSchema().load({"matches": [{"externalID": "m1", "tableID": "t2"}]})
    assert moves == [MatchAssignment(external_id="m1", table_id="t2")]
    assert BulkCancelSchema().load({"externalIDs": ["m1", "m2"]}) == ["m1", "m2"]


def test_a_match_patch_is_a_move_or_a_full_sync() -> None:
    from api.schemas.matches import MatchPatchSchema
    from domain.match.matches import MatchMove, MatchSync

    assert MatchPatchSchema().load({"tableID": "t2"}) == MatchMove(table_id="t2")
    sync = MatchPatchSchema().load({"externalID": "m1", "tableID": "t2", "playerListExternalID": "club"})
    assert isinstance(sync, MatchSync) and sync.external_id == "m1"


def test_scoring_bodies_become_writes_with_their_op_and_device() -> None:
    from api.routes.operator_matches import OperatorScoreBody
    from api.schemas.matches import PointBody, UndoBody
    from domain.match.matches import ScoreWrite
    from domain.match.points import PointWrite, UndoWrite

    assert OperatorScoreBody().load({"gameScores": [{"a": 11, "b": 3}], "opID": "op-1", "confirmDrawChange": True}) \
        == ScoreWrite(game_scores=[{"a": 11, "b": 3}], op_id="op-1", confirm_draw_change=True)
    point = PointBody().load({"side": "a", "version": 4, "deviceID": "phone-1"})
    assert point == PointWrite(side=Side.A, version=4, device_id="phone-1") and point.side is Side.A
    assert UndoBody().load({"version": 5}) == UndoWrite(version=5)


def test_an_approval_defaults_to_s256_only_with_a_challenge() -> None:
    from api.routes.oauth import ApproveSchema
    from domain.access.oauth import Approval

    body = {"clientID": "c1", "redirectURI": "https://app.example/cb"}
    assert ApproveSchema().load(body) == Approval(client_id="c1", redirect_uri="https://app.example/cb")
    challenged = ApproveSchema().load(body | {"codeChallenge": "x" * 43})
    assert challenged.code_challenge_method == "S256"


def test_draw_entry_players_are_typed() -> None:
    from api.schemas.draws import DrawCreateBody
    from domain.draws.service import EntryPlayer

    new = DrawCreateBody().load({"broadcastID": "b1", "name": "Open", "format": "single_elimination", "entries": [
        {"players": [{"manualName": "Ann Lee"}]},
        {"players": [{"playerListExternalID": "club", "externalID": "p7"}]}]})
    assert [entry.players for entry in new.entries] == [
        [EntryPlayer(manual_name="Ann Lee")], [EntryPlayer(player_list_external_id="club", external_id="p7")]]


def test_operator_player_bodies_become_commands() -> None:
    from api.schemas.resources import ManualPlayer, PlayerEdit, PlayerImport
    from domain.partner.player_lists import NewManualPlayer, PlayerChanges, PlayerSheet

    added = ManualPlayer().load({"firstName": "Ann", "externalID": "p9"})
    assert added == NewManualPlayer(first_name="Ann", external_id="p9", fields={"firstName": "Ann", "externalID": "p9"})
    assert PlayerEdit().load({"lastName": "Lee"}) == PlayerChanges(changes={"lastName": "Lee"})
    assert PlayerImport().load({"rows": [{"firstName": "Ann", "lastName": "Lee"}]}) == PlayerSheet(
        rows=[{"firstName": "Ann", "lastName": "Lee"}], dry_run=False)
