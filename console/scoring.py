"""The match's scoring format as the console shows it (contract §18): games won, the game in play, the winner.

The rule itself is `domain.match.formats` (the server checks and plays every point by it); this module only folds a
match read (its `scoring`, `gameScores` and a live sets match's `currentGame`) into what the buttons and the
board show. Points are always scored by the server (`/point`), never computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from domain.match import formats, result_text

Side = Literal["a", "b"]
Game = dict[str, Any]


def format_of(match: dict[str, Any]) -> formats.Format:
    """The match's format, from its read (`scoring`, resolved by the server)."""
    scoring = match.get("scoring")
    return formats.from_json(scoring) if scoring else formats.PRESETS[formats.DEFAULT_NAME]


@dataclass(frozen=True)
class MatchState:
    """What the scoring page and the board show: items won, the game in play, and whether the match is decided."""

    games: dict[str, int]  # games won (a games format) or sets won (a sets format)
    current: dict[str, str]  # the points of the game in play as called ("11", "40", "AD")
    game_number: int  # the game (games format) or set (sets format) in play
    winner: Side | None
    unit: str  # "games" or "sets"
    set_games: dict[str, int] | None  # a sets format: games won in the set in play

    @property
    def decided(self) -> bool:
        return self.winner is not None


def match_state(match: dict[str, Any]) -> MatchState:
    """Fold a match read into items won, the game in play and the winner (if any), under its format."""
    fmt = format_of(match)
    items = [formats.copy_item(g) for g in match.get("gameScores") or []]
    won = formats.won(fmt, items)
    side = formats.winner(fmt, items)
    winner: Side | None = "a" if side == "a" else "b" if side == "b" else None
    open_item = bool(items) and formats.item_winner(fmt, len(items) - 1, items[-1]) is None
    number = len(items) if open_item else len(items) + 1
    if isinstance(fmt, formats.GamesFormat):
        current = {k: str(items[-1][k]) for k in "ab"} if open_item else {"a": "0", "b": "0"}
        return MatchState(won, current, number, winner, "games", None)
    called = match.get("currentGame") or {"a": "0", "b": "0"}
    set_games = {k: int(items[-1][k]) for k in "ab"} if open_item else {"a": 0, "b": 0}
    return MatchState(won, {k: str(called[k]) for k in "ab"}, number, winner, "sets", set_games)


def describe(match: dict[str, Any]) -> str:
    """The match's format in plain words ("Best of 3 games to 21, win by 2, 30 wins")."""
    return formats.describe(format_of(match))


def finished_games(game_scores: list[Game]) -> list[Game]:
    """The scores to complete a match with: every game except an unstarted 0-0 at the end."""
    scores = [dict(game) for game in game_scores]
    while scores and scores[-1]["a"] == 0 and scores[-1]["b"] == 0:
        scores.pop()
    return scores


def score_line(game_scores: list[Game], match: dict[str, Any] | None = None) -> str:
    """`11-7, 9-11, 3-2` or `6-4, 7-6(4)`: every game (set) as a club writes it, in the match's format."""
    fmt = format_of(match or {})
    return ", ".join(formats.item_text(fmt, index, game) for index, game in enumerate(game_scores)) or "no points yet"


def parse_games(text: str, match: dict[str, Any] | None = None) -> list[Game]:
    """A typed score read under the match's format, the one reading of every page (`result_text.read_score`):
    `11-7, 9-11` → `[{"a": 11, "b": 7}, {"a": 9, "b": 11}]`, "6-4, 3-6, [10-7]" as the display rule writes it, or a
    match tiebreak as "10-7"; `ResultTextError` (a ValueError) says in words what could not be read."""
    return result_text.read_score(text, format_of(match or {}))


def court_states(tables: list[dict[str, Any]]) -> str:
    """`In play: Court 1, Court 3 · free: Court 2`: which courts have a match in play right now."""
    playing = [str(t["label"]) for t in tables if t.get("activeMatch")]
    free = [str(t["label"]) for t in tables if not t.get("activeMatch")]
    parts = ([f"In play: {', '.join(playing)}"] if playing else []) + ([f"free: {', '.join(free)}"] if free else [])
    text = " · ".join(parts)
    return text[:1].upper() + text[1:]


SPORT_NAMES = {
    "badminton": "Badminton", "badminton_15": "Badminton to 15", "table_tennis": "Table tennis",
    "table_tennis_7": "Table tennis, best of 7", "squash": "Squash", "pickleball": "Pickleball",
    "volleyball": "Volleyball", "beach_volleyball": "Beach volleyball", "tennis": "Tennis",
    "tennis_match_tiebreak": "Tennis, match tiebreak", "padel": "Padel", "padel_golden_point": "Padel, golden point",
}


def sport_name(key: str) -> str:
    """A preset's name as a club says it ("Badminton", "Tennis, match tiebreak")."""
    return SPORT_NAMES.get(key, key.replace("_", " ").capitalize())
