"""The sport picker (contract §18): a scoring format picked by name (a preset), or set field by field with a
plain-words preview ("Best of 3 games to 21, win by 2, 30 wins"). Used on the Broadcasts and Draws pages; it sits
outside their forms so the preview follows every change at once."""

from __future__ import annotations

from typing import Any

import streamlit as st

from console.scoring import sport_name
from console.ui import client, load
from domain.errors import Invalid
from domain.match import formats

CUSTOM = "custom"
INHERIT = "inherit"


def _custom(key: str, base: dict[str, Any]) -> dict[str, Any]:
    """The fields of a custom format, starting from `base` (a preset's object)."""
    kind = st.radio("Kind", ["games", "sets"], horizontal=True, key=f"{key}_kind",
                    index=0 if base.get("kind") == "games" else 1,
                    format_func=lambda k: "Games of points (rally)" if k == "games" else "Sets of games (tennis)")
    left, middle, right = st.columns(3)
    if kind == "games":
        value: dict[str, Any] = {"kind": "games"}
        value["bestOf"] = left.selectbox("Best of (games)", [1, 3, 5, 7, 9], key=f"{key}_best_of",
                                         index=[1, 3, 5, 7, 9].index(base.get("bestOf", 3)) if base.get(
                                             "bestOf", 3) in (1, 3, 5, 7, 9) else 1)
        value["pointsToWin"] = middle.number_input("Points to win a game", 1, 99, int(base.get("pointsToWin", 21)),
                                                   key=f"{key}_points")
        value["winBy"] = right.selectbox("Win by", [2, 1], key=f"{key}_win_by",
                                         index=0 if base.get("winBy", 2) == 2 else 1)
        cap = left.number_input("Cap: this score wins (0 for none)", 0, 199, int(base.get("cap") or 0),
                                key=f"{key}_cap")
        value["cap"] = int(cap) or None
        if middle.checkbox("A deciding game of its own", value=bool(base.get("decidingGame")), key=f"{key}_deciding"):
            deciding = base.get("decidingGame") or {}
            value["decidingGame"] = {
                "pointsToWin": int(right.number_input("Deciding game to", 1, 99, int(deciding.get("pointsToWin", 15)),
                                                      key=f"{key}_deciding_points")),
                "winBy": 2, "cap": None}
        return value
    value = {"kind": "sets"}
    value["bestOf"] = left.selectbox("Best of (sets)", [1, 3, 5], key=f"{key}_sets_best_of",
                                     index=[1, 3, 5].index(base.get("bestOf", 3)) if base.get("bestOf", 3) in (
                                         1, 3, 5) else 1)
    value["gamesToWin"] = int(middle.number_input("Games to win a set", 4, 8, int(base.get("gamesToWin", 6)),
                                                  key=f"{key}_games"))
    tiebreak = right.checkbox("Tiebreak at all games level", value=base.get("tiebreakAt", 6) is not None,
                              key=f"{key}_tiebreak")
    value["tiebreakAt"] = value["gamesToWin"] if tiebreak else None
    value["tiebreakTo"] = left.selectbox("Tiebreak to", [7, 10], key=f"{key}_tiebreak_to",
                                         index=0 if base.get("tiebreakTo", 7) == 7 else 1)
    finals = [str(f) for f in formats.FinalSet]
    value["finalSet"] = middle.selectbox("Deciding set", finals, key=f"{key}_final",
                                         index=finals.index(base.get("finalSet", "tiebreak")),
                                         format_func=lambda f: {"tiebreak": "as the others",
                                                                "advantage": "played out, no tiebreak",
                                                                "match_tiebreak": "a match tiebreak to 10"}[f])
    value["noAd"] = right.checkbox("Golden point at deuce", value=bool(base.get("noAd")), key=f"{key}_no_ad")
    return value


def format_picker(key: str, *, inherit: str, current: Any = None) -> tuple[bool, Any]:
    """The sport picker: (whether the value is valid, the `scoring` value for the body: a preset key, a format
    object, or None for `inherit`, what the match takes without one, e.g. "The server's (Table tennis)")."""
    presets = {p["name"]: p for p in load(client().scoring_formats) or []}
    options = [INHERIT, *presets, CUSTOM]
    start = current if isinstance(current, str) and current in presets else CUSTOM if current else INHERIT
    def named(k: str) -> str:
        return inherit if k == INHERIT else "Custom…" if k == CUSTOM else sport_name(k)

    picked = st.selectbox("Sport (scoring)", options, index=options.index(start), key=f"{key}_sport", format_func=named)
    if picked == INHERIT:
        return True, None
    if picked != CUSTOM:
        st.caption(presets[picked]["description"])
        return True, picked
    base = current if isinstance(current, dict) else presets.get("badminton", {}).get("scoring", {})
    value = _custom(key, base)
    try:
        fmt, _ = formats.parse(value)
    except Invalid as exc:
        st.error(f"Not a format yet: {exc}")
        return False, value
    st.caption(formats.describe(fmt))
    return True, value
