"""The one merge rule of player lists and teams: a connection touches only the players it mapped."""

from __future__ import annotations

import pytest

from domain.errors import Invalid
from domain.partner.player_lists import patch_mapped, replace_mapped

MANUAL = {"id": "ply_1", "externalID": "m1", "source": "manual"}
FOREIGN = {"externalID": "p1", "source": "mapped", "connectionID": "conn_b"}
MINE = {"externalID": "p1", "firstName": "Old", "source": "mapped", "connectionID": "conn_a"}


def test_sync_replaces_only_the_callers_mapped_players() -> None:
    result = replace_mapped([MINE, MANUAL, FOREIGN], [{"externalID": "p2"}], connection_id="conn_a")
    assert result == [{"externalID": "p2", "source": "mapped", "connectionID": "conn_a"}, MANUAL, FOREIGN]


def test_sync_with_a_duplicate_external_id_is_invalid() -> None:
    with pytest.raises(Invalid) as raised:
        replace_mapped([], [{"externalID": "x"}, {"externalID": "x"}], connection_id="conn_a")
    assert raised.value.details == {"json": {"players": {"1": {"externalID": ["Duplicate externalID."]}}}}


def test_patch_replaces_in_place_appends_and_removes_only_mapped() -> None:
    result = patch_mapped([MINE, MANUAL, FOREIGN], upsert=[{"externalID": "p1", "lastName": "New"},
                                                           {"externalID": "p3"}],
                          remove=["m1"], connection_id="conn_a")
    assert result == [{"externalID": "p1", "lastName": "New", "source": "mapped", "connectionID": "conn_a"},
                      MANUAL, FOREIGN, {"externalID": "p3", "source": "mapped", "connectionID": "conn_a"}]
    assert patch_mapped(result, upsert=[], remove=["p1", "p3"], connection_id="conn_a") == [MANUAL, FOREIGN]


def test_patch_upserting_and_removing_one_id_is_conflicting() -> None:
    with pytest.raises(Invalid) as raised:
        patch_mapped([MINE], upsert=[{"externalID": "p1"}], remove=["p1"], connection_id="conn_a")
    assert raised.value.code == "conflicting_patch"
    assert raised.value.details == {"externalIDs": ["p1"]}


def test_the_inputs_are_not_mutated() -> None:
    existing = [dict(MINE), dict(MANUAL)]
    patch_mapped(existing, upsert=[{"externalID": "p1"}], remove=[], connection_id="conn_a")
    replace_mapped(existing, [], connection_id="conn_a")
    assert existing == [MINE, MANUAL]
