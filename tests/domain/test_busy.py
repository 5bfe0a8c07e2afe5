"""Busy detection (contract §9, §8a) through `domain.event_day.availability.Availability` over the in-memory
store: a player is busy while in an active match on another table, by list player (whoever's match names them) or
by name."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from domain.event_day.availability import Availability
from domain.models import Match, MatchStatus, PlayerList
from storage.memory import MemoryStore
from storage.repository import StoreUnitOfWork, unit_of_work


@pytest.fixture
def uow() -> Iterator[StoreUnitOfWork]:
    store = MemoryStore()
    try:
        with unit_of_work(store) as work:
            work.player_lists.put(PlayerList(id="pl_club", account_id="acc", name="Club", created_on="",
                                             updated_on="", connection_id="partner", external_id="club",
                                             players=[{"externalID": "p1"}, {"externalID": "p2"}]))
            yield work
    finally:
        store.close()


def Playing(uow: StoreUnitOfWork) -> Availability:  # noqa: N802 - reads like the thing it builds
    return Availability(uow, account_id="acc", now=datetime(2026, 11, 21, 10, tzinfo=UTC))


def match(match_id: str, table: str, status: MatchStatus = MatchStatus.PENDING, connection: str = "partner",
          **participants: dict[str, str]) -> Match:
    extra: dict[str, Any] = {"player_list_id": "pl_club"} if connection == "house" else {}
    return Match(id=match_id, scheduled_match_id="sm", account_id="acc", connection_id=connection,
                 external_id=match_id, table_id=table, player_list_external_id="club", status=status, queue_order=1,
                 scheduled_on="", created_on="", updated_on="", participants=participants, **extra)


def test_singles_player_in_an_active_match_elsewhere_is_busy(uow: StoreUnitOfWork) -> None:
    uow.matches.put(match("live", "t1", MatchStatus.ACTIVE, playerA={"externalID": "p1"}, playerB={"externalID": "p2"}))
    playing = Playing(uow)
    assert playing.busy(match("next", "t2", playerA={"externalID": "p1"})) == [("playerA", "t1")]
    assert playing.busy(match("same", "t1", playerA={"externalID": "p1"})) == []  # the same table is not "elsewhere"
    assert playing.busy(match("other-list", "t2", connection="other", playerA={"externalID": "p1"})) == []


def test_doubles_partners_count(uow: StoreUnitOfWork) -> None:
    uow.matches.put(match("live", "t1", MatchStatus.ACTIVE, playerA={"manualName": "Cy"},
                          playerA2={"externalID": "p2"}))
    waiting = match("next", "t2", playerB={"manualName": "Di"}, playerB2={"externalID": "p2"})
    assert Playing(uow).busy(waiting) == [("playerB2", "t1")]


def test_manual_names_compare_trimmed_and_case_insensitive(uow: StoreUnitOfWork) -> None:
    uow.matches.put(match("live", "t1", MatchStatus.ACTIVE, playerA={"manualName": "Ann Walker"}))
    playing = Playing(uow)
    assert playing.busy(match("next", "t2", playerB={"manualName": "  ann WALKER "})) == [("playerB", "t1")]
    assert playing.busy(match("next", "t2", playerB={"manualName": "Ann Walke"})) == []


def test_an_operators_match_on_the_same_list_shares_its_players(uow: StoreUnitOfWork) -> None:
    uow.matches.put(match("live", "t1", MatchStatus.ACTIVE, playerA={"externalID": "p1"}))
    house = match("house", "t2", connection="house", playerA={"externalID": "p1"})
    assert Playing(uow).busy(house) == [("playerA", "t1")]


def test_completed_matches_free_their_players(uow: StoreUnitOfWork) -> None:
    uow.matches.put(match("done", "t1", MatchStatus.COMPLETED, playerA={"externalID": "p1"}))
    assert Playing(uow).busy(match("next", "t2", playerA={"externalID": "p1"})) == []


def test_manual_names_follow_the_one_name_rule(uow: StoreUnitOfWork) -> None:
    uow.matches.put(match("live", "t1", MatchStatus.ACTIVE, playerA={"manualName": "Ann Lée"}))
    decomposed = "Ann Le\u0301e"
    assert Playing(uow).busy(match("next", "t2", playerB={"manualName": "ann  " + decomposed[4:]})) == [
        ("playerB", "t1")]
