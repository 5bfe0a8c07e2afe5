"""The console's plain words (found by the QA walk-through in a browser): the Scoring page's court states."""

from __future__ import annotations

from typing import Any

from console.scoring import court_states


def test_court_states_say_which_courts_play_now() -> None:
    tables: list[dict[str, Any]] = [{"label": "Court 1", "activeMatch": None},
                                    {"label": "Court 2", "activeMatch": {"id": "m"}}, {"label": "Court 3"}]
    assert court_states(tables) == "In play: Court 2 · free: Court 1, Court 3"
    assert court_states(tables[:1]) == "Free: Court 1"
    assert court_states(tables[1:2]) == "In play: Court 2"
