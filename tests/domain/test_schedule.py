"""Import matching (contract §9): a name cell is the court list's player called "First Last" (any case and
spacing), else a manual name; and busy detection across partner and operator matches of one list."""

from __future__ import annotations

from domain.event_day.schedule import name_index, participant_for
from domain.models import PlayerList

LIST = PlayerList(id="pl_1", account_id="acc", name="Club", created_on="", updated_on="", players=[
    {"externalID": "p1", "firstName": "Ann", "lastName": "Lee"},
    {"externalID": "p2", "firstName": "Bo"},
    {"externalID": "p3", "firstName": "Ann", "lastName": "Lee"},  # a namesake: the first one wins
    {"firstName": "No", "lastName": "Id"},  # without an externalID a player cannot be referenced
])


def test_a_listed_name_is_that_player_in_any_case_and_spacing() -> None:
    names = name_index(LIST)
    assert participant_for("Ann Lee", names) == {"externalID": "p1"}
    assert participant_for("  aNN   lee ", names) == {"externalID": "p1"}
    assert participant_for("bo", names) == {"externalID": "p2"}


def test_any_other_name_is_a_manual_name_with_spacing_collapsed() -> None:
    names = name_index(LIST)
    assert participant_for("Ann  Leeson", names) == {"manualName": "Ann Leeson"}
    assert participant_for("No Id", names) == {"manualName": "No Id"}
    assert participant_for("Ann Lee", name_index(None)) == {"manualName": "Ann Lee"}
