"""The people of a broadcast (contract §14, §15): one person per name under the one name rule (§8a).

A person is whoever appears under one display name in the broadcast's matches (and draws): "Ann  Lee", "ann lee"
and a decomposed "Ann Lée" are one person. Their `personID` is derived from the broadcast and the name's
comparison key, so it is the same in every process and after a restart, and says nothing about anyone.
"""

from __future__ import annotations

import hashlib

from domain.names import name_key


def person_id(broadcast_id: str, name: str) -> str:
    """The stable ID of the person written `name` in a broadcast (`psn_` + 20 hex characters)."""
    digest = hashlib.sha256(f"{broadcast_id}\x00{name_key(name)}".encode()).hexdigest()
    return f"psn_{digest[:20]}"
