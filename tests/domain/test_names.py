"""Contract §8a: one name rule for every comparison, and the stored form of a name."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from domain.names import name_key, same_name, stored_name

DECOMPOSED = unicodedata.normalize("NFD", "Ann Lée")


def test_spaces_case_and_decomposition_are_one_person() -> None:
    assert DECOMPOSED != "Ann Lée"
    for spelling in ("Ann  Lee", "ann lee", " ANN\tLEE ", "Ann\u00a0Lee"):
        assert same_name(spelling, "Ann Lee"), spelling
    assert same_name(DECOMPOSED, "ann  lée")
    assert not same_name("Ann Lee", "Ann Lée")  # an accent is a different letter
    assert not same_name("Ann Lee", "Anne Lee")


def test_stored_names_are_nfc_with_whitespace_collapsed_and_case_kept() -> None:
    assert stored_name("  Ann   Lee ") == "Ann Lee"
    assert stored_name(DECOMPOSED) == "Ann Lée"
    assert stored_name("McDONALD") == "McDONALD"


def test_folding_catches_case_pairs_lower_does_not() -> None:
    assert same_name("STRASSE", "straße")
    assert name_key("ΣΊΣΥΦΟΣ") == name_key("σίσυφος")


@given(st.text())
def test_the_key_is_stable(name: str) -> None:
    assert name_key(name_key(name)) == name_key(name)
    assert name_key(stored_name(name)) == name_key(name)
    assert stored_name(stored_name(name)) == stored_name(name)
