"""A result as a desk types it from a paper sheet (contract §19): "21-15 18-21 21-9", "21:15, 18:21, 21:9",
"6-4 7-6(4)", "6-4 3-6 [10-8]".

Pure text to game scores, no rules of any format: whether the games can end that way is the server's one score
check (§18). A game is two numbers joined by "-", ":" or an en dash; games are apart by spaces, commas,
semicolons or slashes. A set decided by a tiebreak carries the loser's tiebreak points in brackets ("7-6(4)",
as tennis writes it): the winner's are then max(7, loser + 2), a tiebreak to 7 won by 2. A match tiebreak is
written in square brackets ("[10-8]"), the set 1-0 with those points.

`read_score` is the one reading of a typed score under a match's format, wherever a score is typed (results
entry, a correction, the desk's games for a report): what the display rule (`formats.score_text`, the console's
`score_line`) writes reads back as the same games, and a match tiebreak may also be typed as plain points ("10-7",
"[7-10]").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from domain.match import formats

Game = dict[str, Any]

_GAME = re.compile(r"(\d{1,3})\s*[-:\u2013]\s*(\d{1,3})(?:\s*\(\s*(\d{1,3})\s*\))?")
_MATCH_TIEBREAK = re.compile(r"\[\s*(\d{1,3})\s*[-:\u2013]\s*(\d{1,3})\s*\]")
_APART = re.compile(r"[\s,;/]*")
EXAMPLE = "21-15 18-21 21-9"


class ResultTextError(ValueError):
    """The text is not a list of games; `message` says what, in words a desk understands."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def tiebreak_of(a: int, b: int, loser_points: int) -> dict[str, int]:
    """The tiebreak points of a set `a`-`b` whose loser took `loser_points` ("7-6(4)": 7-4)."""
    winner_points = max(7, loser_points + 2)
    return {"a": winner_points, "b": loser_points} if a > b else {"a": loser_points, "b": winner_points}


def parse_games(text: str) -> list[Game]:
    """The games (or sets) of `text` in order, each `{"a", "b"}` (and `"tiebreak"` when bracketed); raises
    `ResultTextError` naming the first thing it could not read."""
    games: list[Game] = []
    at = _APART.match(text).end()  # type: ignore[union-attr]  # matches the empty string at least
    if at == len(text):
        raise ResultTextError(f"Type the games, e.g. {EXAMPLE}.")
    while at < len(text):
        deciding = _MATCH_TIEBREAK.match(text, at)
        if deciding is not None:  # "[10-8]": a match tiebreak, which counts as a set won 1-0 (§18)
            x, y = int(deciding.group(1)), int(deciding.group(2))
            games.append({"a": int(x > y), "b": int(y > x), "tiebreak": {"a": x, "b": y}})
            at = _APART.match(text, deciding.end()).end()  # type: ignore[union-attr]
            continue
        found = _GAME.match(text, at)
        if found is None:
            where = f"after game {len(games)}" if games else "at the start"
            bad = text[at:].split()[0] if text[at:].split() else text[at:]
            raise ResultTextError(f"Could not read '{bad}' {where}: type each game as 21-15 or 21:15.")
        a, b = int(found.group(1)), int(found.group(2))
        game: Game = {"a": a, "b": b}
        if found.group(3) is not None:
            if a == b:
                raise ResultTextError(f"Game {len(games) + 1}: {a}-{b} has no winner, so no tiebreak loser "
                                      f"to bracket.")
            game["tiebreak"] = tiebreak_of(a, b, int(found.group(3)))
        games.append(game)
        at = found.end()
        gap = _APART.match(text, at)
        assert gap is not None
        if gap.end() == at and at < len(text):
            raise ResultTextError(f"Game {len(games)} runs into what follows: put a space between games.")
        at = gap.end()
    return games


def format_games(games: Sequence[Game]) -> str:
    """The games as a desk writes them ("21-15 18-21 7-6(4)"): `parse_games` reads it back as the same games."""
    parts = []
    for game in games:
        text = f"{game['a']}-{game['b']}"
        tiebreak = game.get("tiebreak")
        if tiebreak and game["a"] + game["b"] == 1:  # a match tiebreak
            text = f"[{tiebreak['a']}-{tiebreak['b']}]"
        elif tiebreak:
            text += f"({min(tiebreak['a'], tiebreak['b'])})"
        parts.append(text)
    return " ".join(parts)


def read_score(text: str, fmt: formats.Format) -> list[Game]:
    """The games of `text` read under the match's format (issue 51): a set's bracketed tiebreak is won by the first
    to the format's `tiebreakTo` (win by 2), and a plain score in a match tiebreak's place ("10-7") is the
    tiebreak's points (the set 1-0). Raises `ResultTextError` as `parse_games` does."""
    games = parse_games(text)
    if isinstance(fmt, formats.SetsFormat):
        for index, game in enumerate(games):
            tiebreak = game.get("tiebreak")
            if tiebreak is not None and not fmt.is_match_tiebreak(index) and game["a"] != game["b"]:
                loser = min(tiebreak["a"], tiebreak["b"])
                winner = max(fmt.tiebreak_to, loser + 2)
                game["tiebreak"] = {"a": winner, "b": loser} if game["a"] > game["b"] else {"a": loser, "b": winner}
    return formats.as_written(fmt, games)
