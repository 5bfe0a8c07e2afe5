"""The scoring rule as the console applies it point by point (contract §6).

Games go to `points` (11), win by 2; a match is won by the first side with more than half of `best_of` games.
The rule itself is `domain.scoring` (pure functions the server validates with); this module only applies it
point by point to drive the buttons and show the state.
Pure functions over `gameScores` lists (`[{"a": 11, "b": 7}, ...]`, the last one possibly in progress).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from domain.scoring import game_winner, games_needed, score

Side = Literal["a", "b"]
Game = dict[str, int]


@dataclass(frozen=True)
class MatchState:
    """What the scoring page shows: games won, the game in play, and whether the match is decided."""

    games: dict[str, int]
    current: Game
    game_number: int
    winner: Side | None
    needed: int

    @property
    def decided(self) -> bool:
        return self.winner is not None


def match_state(game_scores: list[Game], *, best_of: int, points: int = 11) -> MatchState:
    """Fold the game scores into games won, the current game and the winner (if any)."""
    needed = games_needed(best_of)
    games = score(game_scores, points=points)
    winner: Side | None = "a" if games["a"] >= needed else "b" if games["b"] >= needed else None
    last = game_scores[-1] if game_scores else None
    if last is not None and game_winner(last, points=points) is None:
        current, number = dict(last), len(game_scores)
    else:
        current, number = {"a": 0, "b": 0}, len(game_scores) + 1
    return MatchState(games=games, current=current, game_number=number, winner=winner, needed=needed)


def add_point(game_scores: list[Game], side: Side, *, best_of: int, points: int = 11) -> list[Game]:
    """The scores after one point for `side`; a finished game opens the next one. No change once decided."""
    if match_state(game_scores, best_of=best_of, points=points).decided:
        return [dict(game) for game in game_scores]
    scores = [dict(game) for game in game_scores]
    if not scores or game_winner(scores[-1], points=points) is not None:
        scores.append({"a": 0, "b": 0})
    scores[-1][side] += 1
    return scores


def finished_games(game_scores: list[Game]) -> list[Game]:
    """The scores to complete a match with: every game except an unstarted 0-0 at the end."""
    scores = [dict(game) for game in game_scores]
    while scores and scores[-1]["a"] == 0 and scores[-1]["b"] == 0:
        scores.pop()
    return scores


def score_line(game_scores: list[Game]) -> str:
    """`11-7, 9-11, 3-2`: a compact display of every game."""
    return ", ".join(f"{game['a']}-{game['b']}" for game in game_scores) or "no points yet"


def parse_games(text: str) -> list[Game]:
    """`11-7, 9-11` → `[{"a": 11, "b": 7}, {"a": 9, "b": 11}]`; ValueError on anything else."""
    games = []
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        a, sep, b = part.strip().partition("-")
        if not sep or not a.strip().isdigit() or not b.strip().isdigit():
            raise ValueError(f"'{part.strip()}' is not a game score like 11-7")
        games.append({"a": int(a), "b": int(b)})
    if not games:
        raise ValueError("enter at least one game, like 11-7, 9-11, 11-5")
    return games


def court_states(tables: list[dict[str, Any]]) -> str:
    """`In play: Court 1, Court 3 · free: Court 2`: which courts have a match in play right now."""
    playing = [str(t["label"]) for t in tables if t.get("activeMatch")]
    free = [str(t["label"]) for t in tables if not t.get("activeMatch")]
    parts = ([f"In play: {', '.join(playing)}"] if playing else []) + ([f"free: {', '.join(free)}"] if free else [])
    text = " · ".join(parts)
    return text[:1].upper() + text[1:]
