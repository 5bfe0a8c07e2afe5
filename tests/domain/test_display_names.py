"""One rule for a participant's display name (issue 24 item 3): the queue and match reads, the results and the
public outputs all name a side with
`domain.partner.queues.display_name`; only what stands in for an unknown name differs
(the externalID for the operator and partners, "TBD" on a public page, which shows no IDs)."""

from __future__ import annotations

from typing import Any

from domain.models import Match, MatchStatus, PlayerList, PlayerSource
from domain.partner.queues import display_name, players_by_external_id, side_names
from domain.public.outputs import sides_shown


def player_list(*players: dict[str, Any]) -> PlayerList:
    return PlayerList(id="pl_1", account_id="acc", name="Club", players=list(players), created_on="",
                      updated_on="")


CLUB = player_list(
    {"externalID": "p1", "firstName": "Ann", "lastName": "Lee", "source": PlayerSource.MANUAL, "clubName": "Old"},
    {"externalID": "p1", "firstName": "Anna", "lastName": "Lee", "source": PlayerSource.MAPPED, "clubName": "TTC"},
    {"externalID": "p2", "firstName": "Bo", "lastName": "Chen", "lastNameInitial": True, "country": "CHN"},
    {"externalID": "p3", "source": PlayerSource.MANUAL},
)


def match(**participants: dict[str, str]) -> Match:
    return Match(id="m1", scheduled_match_id="sm", account_id="acc", connection_id="partner", external_id="m1",
                 table_id="t1", player_list_external_id="club", status=MatchStatus.PENDING, queue_order=1,
                 scheduled_on="", created_on="", updated_on="", participants=dict(participants))


def test_the_manual_name_wins_then_first_and_last_name_with_initials_where_asked() -> None:
    players = players_by_external_id(CLUB)
    assert display_name({"manualName": "Guest", "externalID": "p1"}, players) == "Guest"
    assert display_name({"externalID": "p1"}, players) == "Anna Lee"  # the mapped player wins over the manual one
    assert display_name({"externalID": "p2"}, players) == "Bo C."
    assert display_name({"externalID": "p3"}, players) is None  # listed without a name
    assert display_name({"externalID": "p9"}, players) is None  # not on the list


def test_only_the_wanted_players_are_looked_up() -> None:
    assert set(players_by_external_id(CLUB, {"p2"})) == {"p2"}
    assert players_by_external_id(CLUB, set()) == {}
    assert set(players_by_external_id(CLUB)) == {"p1", "p2", "p3"}


def test_reads_stand_in_the_external_id_and_public_pages_tbd_for_an_unknown_name() -> None:
    played = match(playerA={"externalID": "p1"}, playerB={"externalID": "p9"})
    assert side_names(played, CLUB) == {"playerA": "Anna Lee", "playerB": "p9"}
    shown = sides_shown(played, CLUB)
    assert [(side["names"], side["team"]) for side in shown] == [(["Anna Lee"], "TTC"), (["TBD"], None)]
