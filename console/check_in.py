"""The check-in desk's pure helpers (contract §14): counts and the search labels (the sign-in sheet to print is
the API's print view, `console/paper.py`)."""

from __future__ import annotations

from typing import Any

STATUS_WORDS = {"playing": "playing", "called": "called to court", "resting": "resting", "absent": "not here yet",
                "free": "here"}


def counts(people: list[dict[str, Any]]) -> tuple[int, int]:
    """(present, expected): how many of the broadcast's people have checked in, of all of them."""
    return sum(1 for p in people if p["checkedIn"]), len(people)


def label(person: dict[str, Any]) -> str:
    """What the search list shows for a person: name, and club when there is one."""
    return f"{person['name']} · {person['club']}" if person.get("club") else str(person["name"])
