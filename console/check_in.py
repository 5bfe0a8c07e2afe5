"""The check-in desk's pure helpers (contract §14): counts and the search labels (the sign-in sheet to print is
the API's print view, `console/paper.py`)."""

from __future__ import annotations

from typing import Any

STATUS_WORDS = {"playing": "playing", "called": "called to court", "resting": "resting", "absent": "not here yet",
                "free": "here"}


def now_text(person: dict[str, Any]) -> str:
    """The "Now" column: where the person is. A free person is "here" only once checked in: without the event-day
    rule the API calls someone who never checked in "free" too, and the desk must not read that as present."""
    if person["status"] == "free" and not person["checkedIn"]:
        words = "not checked in"
    else:
        words = STATUS_WORDS.get(person["status"], person["status"])
    return words + (f" ({person['tableLabel']})" if person.get("tableLabel") else "")


def counts(people: list[dict[str, Any]]) -> tuple[int, int]:
    """(present, expected): how many of the broadcast's people have checked in, of all of them."""
    return sum(1 for p in people if p["checkedIn"]), len(people)


def label(person: dict[str, Any]) -> str:
    """What the search list shows for a person: name, and club when there is one."""
    return f"{person['name']} · {person['club']}" if person.get("club") else str(person["name"])
