"""The one name rule (contract §8a): how names are stored and when two names are the same person.

Names are compared after Unicode NFC, trimming, collapsing inner whitespace and case-folding, so "Ann  Lee",
"ann lee" and a decomposed "Ann Lée" are the person written "Ann Lee" / "Ann Lée". Every comparison of names (the
busy check, rest and check-in, import matching, duplicate sign-ups, draw entries, the event page's people) goes
through `name_key`; stored names go through `stored_name`.
"""

from __future__ import annotations

import unicodedata


def stored_name(name: str) -> str:
    """A name as it is kept: NFC, trimmed, inner whitespace collapsed to one space (case kept)."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """What two names must share to be one person: the stored form, case-folded (then NFC again, since folding
    can decompose)."""
    return unicodedata.normalize("NFC", stored_name(name).casefold())


def same_name(first: str, second: str) -> bool:
    """Whether two names are the same person under the rule."""
    return name_key(first) == name_key(second)
