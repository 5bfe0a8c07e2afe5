"""The one person rule (issue 36): `domain.names` says when two names are one person (`name_key`), what a list
player's whole name is (`full_name`, what an operator picks and types), the name shown for them (`shown_name`,
initials where asked) and how a side's names are joined (`side_name`); every layer calls these."""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from domain.names import SIDE_JOIN, full_name, name_key, shown_name, side_name, stored_name
from domain.partner.queues import display_name


def test_a_whole_name_is_first_then_last_in_the_stored_form() -> None:
    assert full_name({"firstName": "Ann", "lastName": "Lee"}) == "Ann Lee"
    assert full_name({"firstName": " Ann ", "lastName": unicodedata.normalize("NFD", "Lée")}) == "Ann Lée"
    assert full_name({"firstName": "Ann"}) == "Ann"
    assert full_name({"lastName": "Lee", "firstName": ""}) == "Lee"
    assert full_name({"externalID": "p1"}) == ""
    # the whole name ignores the initials a player asks to be shown with: it is what names are compared on
    assert full_name({"firstName": "Ann", "lastName": "Lee", "lastNameInitial": True}) == "Ann Lee"


def test_the_shown_name_puts_initials_where_the_player_asks() -> None:
    assert shown_name({"firstName": "Ann", "lastName": "Lee"}) == "Ann Lee"
    assert shown_name({"firstName": "Ann", "lastName": "Lee", "lastNameInitial": True}) == "Ann L."
    assert shown_name({"firstName": "Ann", "lastName": "Lee", "firstNameInitial": True}) == "A. Lee"
    assert shown_name({"firstName": "Ann", "lastName": "Lee", "firstNameInitial": True,
                       "lastNameInitial": True}) == "A. L."
    assert shown_name({"firstName": "  émile ", "firstNameInitial": True}) == "é."  # the letter, not a space
    assert shown_name({"lastNameInitial": True}) == ""


def test_a_side_joins_its_names_and_leaves_out_the_missing_ones() -> None:
    assert SIDE_JOIN == " / "
    assert side_name(["Ann Lee", "Bo Chen"]) == "Ann Lee / Bo Chen"
    assert side_name(["Ann Lee", None]) == "Ann Lee"
    assert side_name([None, "", "Bo Chen"]) == "Bo Chen"
    assert side_name([]) == ""


def test_a_participant_is_shown_by_the_rule() -> None:
    players = {"p1": {"firstName": "Ann", "lastName": "Lee", "firstNameInitial": True}}
    assert display_name({"externalID": "p1"}, players) == shown_name(players["p1"]) == "A. Lee"


names = st.text(max_size=12)
players = st.fixed_dictionaries({}, optional={"firstName": names, "lastName": names,
                                              "firstNameInitial": st.booleans(), "lastNameInitial": st.booleans()})


@given(players)
def test_whole_and_shown_names_are_stored_names(player: dict[str, Any]) -> None:
    for name in (full_name(player), shown_name(player)):
        assert stored_name(name) == name


@given(players)
def test_without_initials_the_shown_name_is_the_whole_name(player: dict[str, Any]) -> None:
    plain = {key: value for key, value in player.items() if not key.endswith("Initial")}
    assert shown_name(plain) == full_name(plain)


LETTERS = "aAbBzZéÉèÈçÇøØåÅ -'"
latin = st.fixed_dictionaries({"firstName": st.text(LETTERS, max_size=10), "lastName": st.text(LETTERS, max_size=10)})


@given(latin, st.sampled_from([str.upper, str.lower, lambda s: f"  {s} ".replace(" ", "\t "),
                               lambda s: unicodedata.normalize("NFD", s)]))
def test_a_respelled_whole_name_is_the_same_person(player: dict[str, Any], respell: Any) -> None:
    """What an operator types for a list player (any case, spacing, composition) has the player's key."""
    assert name_key(respell(full_name(player))) == name_key(full_name(player))


@given(st.lists(st.one_of(st.none(), st.just(""), st.text("ab cé", max_size=8)), max_size=4))
def test_a_joined_side_splits_back_into_its_names(side: list[str | None]) -> None:
    joined = side_name(side)
    assert (joined.split(SIDE_JOIN) if joined else []) == [name for name in side if name]
