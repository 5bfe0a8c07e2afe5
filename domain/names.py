"""The one person rule (contract §8a, issue 36): how a person's name is stored, compared and shown.

Names are compared after Unicode NFC, trimming, collapsing inner whitespace and case-folding, so "Ann  Lee",
"ann lee" and a decomposed "Ann Lée" are the person written "Ann Lee" or "Ann Lée". Every comparison of names (the
busy check, rest and check-in, import matching, duplicate sign-ups, draw entries, the event page's people) goes
through `name_key`; stored names go through `stored_name`. A list player's whole name ("First Last", what an
operator picks and types) is `full_name`; the name shown for them (with the initials they ask for) is
`shown_name`; a side's names (doubles partners) are joined by `side_name`. Nothing else writes these joins
(tests/test_architecture.py greps for them), and the console and the page templates call these too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

#: What joins the names of one side (doubles partners) wherever a side is shown: reads, paper, pages, console.
SIDE_JOIN = " / "


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


def full_name(player: Mapping[str, Any]) -> str:
    """A list player's whole name, "First Last" in the stored form ("" when neither is given): what an operator
    picks and types, and what a typed name is matched against (through `name_key`)."""
    return stored_name(" ".join(str(player[part]) for part in ("firstName", "lastName") if player.get(part)))


def shown_name(player: Mapping[str, Any]) -> str:
    """A list player's name as shown to everyone ("" when neither is given): "First Last", each part as its
    initial ("A.") where the player asks for it (`firstNameInitial`, `lastNameInitial`)."""
    parts = []
    for part, initial in (("firstName", "firstNameInitial"), ("lastName", "lastNameInitial")):
        written = stored_name(str(player.get(part) or ""))
        if written:
            parts.append(f"{written[0]}." if player.get(initial) else written)
    return " ".join(parts)


def side_name(names: Iterable[str | None]) -> str:
    """One side's names as one text: doubles partners joined by `SIDE_JOIN`, missing names left out."""
    return SIDE_JOIN.join(name for name in names if name)


#: What a name may consist of and still be blank, as one regular-expression character class (Python and
#: ECMAScript alike, so the API document can state it as a `pattern`): white space under both languages' idea of
#: it, the C0/C1 controls, and the zero-width, format and other default-ignorable characters a keyboard or a
#: copy-paste leaves behind (U+200B-U+200F, U+2060-U+206F, U+FEFF, the soft hyphen, the Hangul fillers,
#: variation selectors, ...).
INVISIBLE = (r"\s\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
             r"\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb")
#: A string with at least one character outside `INVISIBLE` (searched, not anchored: JSON Schema's `pattern`).
VISIBLE = f"[^{INVISIBLE}]"
BLANK_MESSAGE = "Must have a visible character (not only spaces or invisible characters)."
_VISIBLE = re.compile(VISIBLE)


def is_blank(name: str) -> bool:
    """Whether a name is empty once spaces, zero-width and other format characters are taken away (§8a: such a
    name or label is refused, never stored as an empty name)."""
    return _VISIBLE.search(name) is None
