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
#: variation selectors, the braille blank U+2800, ...). The document's `pattern` is this class (Basic
#: Multilingual Plane only, which both languages read alike); `is_blank` is the whole rule.
INVISIBLE = (r"\s\x00-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
             r"\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb")
#: A string with at least one character outside `INVISIBLE` (searched, not anchored: JSON Schema's `pattern`).
VISIBLE = f"[^{INVISIBLE}]"
BLANK_MESSAGE = "Must have a visible character (not only spaces or invisible characters)."
#: Characters of the visible categories that show nothing: `INVISIBLE`'s, and the variation selectors beyond the
#: Basic Multilingual Plane (U+E0100-U+E01EF).
_SHOWS_NOTHING = re.compile(f"[{INVISIBLE}\U000e0100-\U000e01ef]")
#: The Unicode general categories of visible characters: letters, marks, numbers, punctuation, symbols.
VISIBLE_CATEGORIES = frozenset("LMNPS")


def is_visible(char: str) -> bool:
    """Whether one character shows: its general category is L, M, N, P or S (not a space, control, format
    character such as the tag characters U+E0001 and U+E0020-U+E007F or U+1D173 and U+13430, private use or
    unassigned), and it is not one of those that show nothing (`_SHOWS_NOTHING`: Hangul fillers, the braille
    blank U+2800, variation selectors, ...)."""
    return unicodedata.category(char)[0] in VISIBLE_CATEGORIES and _SHOWS_NOTHING.match(char) is None


def is_blank(name: str) -> bool:
    """Whether a name, label or broadcast name has no visible character (`is_visible`): §8a refuses such a one,
    never stores it as an empty name. The one rule for every name (the API's `Visible` validator, sign-up, draw
    entries, imports)."""
    return not any(is_visible(char) for char in name)


CONTROL_MESSAGE = "Must not contain control characters (line breaks, tabs and the like)."


def has_control(text: str) -> bool:
    """Whether the text holds a control character (general category Cc: CR, LF, TAB, ...). A court label is one
    line wherever it is written (a mail's subject, a board, a CSV): it refuses them, where a person's name has its
    white space collapsed (`stored_name`)."""
    return any(unicodedata.category(char) == "Cc" for char in text)
