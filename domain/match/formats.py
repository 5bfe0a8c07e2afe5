"""Scoring formats of every racket sport (contract §18): one pure module knows a format.

A format is data: `GamesFormat` (point-a-rally games: badminton, table tennis, squash, volleyball) or `SetsFormat`
(sets of games: tennis, padel). This module is the only place that knows what a point does under a format (`play`),
how a point is taken back (`undo`), when a game, set or match is over, how a whole score is checked (`check`,
naming the item at fault) and how a score is written for people (`score_text`, `point_labels`).

A score is the match's `gameScores` items and, for sets, the points of the game in play (`Score.current`):
- games kind: each item is one game's points `{"a", "b"}`; the last one may be in progress;
- sets kind: each item is one set's games `{"a", "b"}`, with `"tiebreak": {"a", "b"}` points when a tiebreak
  decided it; a match tiebreak (a deciding set replaced by one tiebreak to 10) is the set `{"a": 1, "b": 0,
  "tiebreak": {"a": 10, "b": 8}}`. The last set may be in progress; `current` holds the game (or tiebreak) in play.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from domain.errors import Conflict, Invalid

Item = dict[str, Any]  # one game (games kind) or one set (sets kind), as `gameScores` holds it
Points = tuple[int, int]
SIDES = ("a", "b")


class FormatKind(StrEnum):
    """What a `gameScores` item counts: games of points, or sets of games."""

    GAMES = "games"
    SETS = "sets"


class FinalSet(StrEnum):
    """How the deciding set of a sets format is played."""

    TIEBREAK = "tiebreak"  # as every other set
    ADVANTAGE = "advantage"  # no tiebreak: played on until a side leads by 2 games
    MATCH_TIEBREAK = "match_tiebreak"  # replaced by one tiebreak to 10


MATCH_TIEBREAK_TO = 10
# The closed lists of a format object's fields (contract §18): what `parse` takes and the API document lists.
WIN_BY = (1, 2)
GAMES_BEST_OF = (1, 3, 5, 7, 9)
SETS_BEST_OF = (1, 3, 5)
TIEBREAK_TO = (7, 10)


@dataclass(frozen=True)
class GameRule:
    """One game of points: won by the first side to `points_to_win` with a lead of `win_by`, or to `cap`."""

    points_to_win: int
    win_by: int = 2
    cap: int | None = None

    def winner(self, a: int, b: int) -> str | None:
        """"a" or "b" once the game is won at a-b, else None (assumes a-b was reached)."""
        high, low = max(a, b), min(a, b)
        if high == low:
            return None
        won = (high >= self.points_to_win and high - low >= self.win_by) or (self.cap is not None and high >= self.cap)
        return ("a" if a > b else "b") if won else None

    def problem(self, a: int, b: int, *, finished: bool | None) -> str | None:
        """Why a-b is not a score of this game (None when it is one). `finished`: True must be won, False must be
        in progress, None either. Every unfinished score is reachable (the lead can stay below `win_by` all the
        way); a finished one is reachable when the point before it left the game open."""
        if a < 0 or b < 0:
            return "points cannot be negative."
        winner = self.winner(a, b)
        if winner is None:
            if not self.open(a, b):
                return self.ends_message()
            return "the game is not finished." if finished else None
        if finished is False:
            return "the game is already won."
        before = (a - 1, b) if winner == "a" else (a, b - 1)
        return None if self.open(*before) else self.ends_message()

    def open(self, a: int, b: int) -> bool:
        """Whether a-b is a reachable game still in play: no winner and below the cap; past `pointsToWin` only
        when a 2-point lead is needed (then the lead can stay below 2 all the way there; won by 1, a tie at or
        past `pointsToWin` cannot happen)."""
        high = max(a, b)
        return (min(a, b) >= 0 and self.winner(a, b) is None and (self.cap is None or high < self.cap)
                and (self.win_by > 1 or high < self.points_to_win))

    def ends_message(self) -> str:
        lead = f"a side leads by {self.win_by}" if self.win_by > 1 else "a side reaches it"
        text = f"a game to {self.points_to_win} ends as soon as {lead}"
        return text + (f" or reaches {self.cap}." if self.cap is not None else ".")

    def describe(self) -> str:
        text = f"to {self.points_to_win}"
        if self.win_by > 1:
            text += f", win by {self.win_by}"
        if self.cap is not None:
            text += f", {self.cap} wins"
        return text


@dataclass(frozen=True)
class GamesFormat:
    """Point-a-rally games: best of `best_of` games, each a `GameRule`; `deciding` replaces it in the last game."""

    best_of: int
    game: GameRule
    deciding: GameRule | None = None
    kind: FormatKind = FormatKind.GAMES

    def rule(self, index: int) -> GameRule:
        """The rule of the game at `index` (0-based)."""
        return self.deciding if self.deciding is not None and index == self.best_of - 1 else self.game


@dataclass(frozen=True)
class SetsFormat:
    """Sets of games (tennis, padel): best of `best_of` sets of `games_to_win` games (win by 2)."""

    best_of: int
    games_to_win: int = 6
    tiebreak_at: int | None = 6
    tiebreak_to: int = 7
    final_set: FinalSet = FinalSet.TIEBREAK
    no_ad: bool = False
    kind: FormatKind = FormatKind.SETS

    def is_match_tiebreak(self, index: int) -> bool:
        return self.final_set == FinalSet.MATCH_TIEBREAK and index == self.best_of - 1 and self.best_of > 1

    def has_tiebreak(self, index: int) -> bool:
        """Whether the set at `index` is decided by a tiebreak at `tiebreak_at` all."""
        last = index == self.best_of - 1
        return self.tiebreak_at is not None and not (last and self.final_set == FinalSet.ADVANTAGE)

    def point_rule(self, index: int, games: Points) -> GameRule:
        """The rule of the game in play in the set at `index` with `games` won so far."""
        if self.is_match_tiebreak(index):
            return GameRule(MATCH_TIEBREAK_TO, 2)
        if self.in_tiebreak(index, games):
            return GameRule(self.tiebreak_to, 2)
        return GameRule(4, 1 if self.no_ad else 2)

    def in_tiebreak(self, index: int, games: Points) -> bool:
        return self.is_match_tiebreak(index) or (
            self.has_tiebreak(index) and games[0] == games[1] == self.tiebreak_at)


Format = GamesFormat | SetsFormat


# ----------------------------------------------------------------------------------------------- presets
def _games(best_of: int, points: int, *, win_by: int = 2, cap: int | None = None,
           deciding: GameRule | None = None) -> GamesFormat:
    return GamesFormat(best_of=best_of, game=GameRule(points, win_by, cap), deciding=deciding)


TENNIS = SetsFormat(best_of=3)
PRESETS: dict[str, Format] = {
    "badminton": _games(3, 21, cap=30),
    "badminton_15": _games(3, 15, cap=21),
    "table_tennis": _games(5, 11),
    "table_tennis_7": _games(7, 11),
    "squash": _games(5, 11),
    "pickleball": _games(3, 11),
    "volleyball": _games(5, 25, deciding=GameRule(15, 2)),
    "beach_volleyball": _games(3, 21, deciding=GameRule(15, 2)),
    "tennis": TENNIS,
    "tennis_match_tiebreak": replace(TENNIS, final_set=FinalSet.MATCH_TIEBREAK),
    "padel": TENNIS,
    "padel_golden_point": replace(TENNIS, no_ad=True),
}
DEFAULT_NAME = "table_tennis"


def preset(name: str) -> Format:
    """The preset of that key (`400 validation_failed` for an unknown one)."""
    found = PRESETS.get(name)
    if found is None:
        raise Invalid(f"Unknown scoring format '{name}'.", details={"json": {"scoring": [
            f"Must be one of: {', '.join(PRESETS)}, or a format object."]}})
    return found


def with_best_of(fmt: Format, best_of: int | None) -> Format:
    """The format with another `bestOf` (a partner's match `bestOf` overrides its format's, contract §18)."""
    return fmt if best_of is None or best_of == fmt.best_of else replace(fmt, best_of=best_of)


def with_points(fmt: Format, points: int | None) -> Format:
    """A games format whose games go to `points` (the legacy `COURTSIDE_POINTS_PER_GAME`)."""
    if points is None or not isinstance(fmt, GamesFormat) or fmt.game.points_to_win == points:
        return fmt
    cap = fmt.game.cap if fmt.game.cap is None or fmt.game.cap > points else None
    return replace(fmt, game=GameRule(points, fmt.game.win_by, cap))


# ----------------------------------------------------------------------------------------------- as data
def to_json(fmt: Format) -> dict[str, Any]:
    """The format object of the API (contract §18)."""
    if isinstance(fmt, GamesFormat):
        out: dict[str, Any] = {"kind": str(fmt.kind), "bestOf": fmt.best_of, "pointsToWin": fmt.game.points_to_win,
                               "winBy": fmt.game.win_by, "cap": fmt.game.cap}
        if fmt.deciding is not None:
            out["decidingGame"] = {"pointsToWin": fmt.deciding.points_to_win, "winBy": fmt.deciding.win_by,
                                   "cap": fmt.deciding.cap}
        return out
    return {"kind": str(fmt.kind), "bestOf": fmt.best_of, "gamesToWin": fmt.games_to_win,
            "tiebreakAt": fmt.tiebreak_at, "tiebreakTo": fmt.tiebreak_to, "finalSet": str(fmt.final_set),
            "noAd": fmt.no_ad}


def name_of(fmt: Format, *, sport_of: str | None = None) -> str | None:
    """The preset key of a format equal to a preset (the first such key), else None. With `sport_of` (a preset key),
    only a preset of that sport counts (`table_tennis` and `table_tennis_7`; never `pickleball` for table tennis)."""
    return next((key for key, known in PRESETS.items()
                 if known == fmt and (sport_of is None or same_sport(key, sport_of))), None)


def same_sport(key: str, other: str) -> bool:
    """Whether two preset keys are variants of one sport: one is the other with a suffix (`badminton_15`,
    `tennis_match_tiebreak`, `padel_golden_point`)."""
    return key == other or key.startswith(other + "_") or other.startswith(key + "_")


class _Fields:
    """Reads a format object's fields, collecting every problem under its field name."""

    def __init__(self, data: Mapping[str, Any], allowed: Iterable[str], prefix: str = "") -> None:
        self.data, self.prefix = data, prefix
        self.problems: dict[str, list[str]] = {}
        for key in data:
            if key not in allowed:
                self.problems[prefix + str(key)] = ["Unknown field."]

    def integer(self, key: str, low: int, high: int, *, default: Any = ..., odd: bool = False,
                nullable: bool = False) -> Any:
        value = self.data.get(key, default)
        if value is ...:
            self.problems[self.prefix + key] = ["Missing data for required field."]
            return None
        if value is None and nullable:
            return None
        whole = isinstance(value, int) and not isinstance(value, bool)
        if not whole or not low <= value <= high or (odd and value % 2 == 0):
            self.problems[self.prefix + key] = [f"Must be {'an odd ' if odd else 'an '}integer from {low} to {high}"
                                                + (" or null." if nullable else ".")]
            return None
        return value

    def choice(self, key: str, options: Sequence[Any], default: Any) -> Any:
        value = self.data.get(key, default)
        if isinstance(value, bool) != isinstance(options[0], bool) or value not in options:
            self.problems[self.prefix + key] = [f"Must be one of: {', '.join(str(o) for o in options)}."]
            return None
        return value


def _game_rule(fields: _Fields, *, points_key: str = "pointsToWin") -> GameRule | None:
    points = fields.integer(points_key, 1, 99)
    win_by = fields.choice("winBy", list(WIN_BY), 2)
    cap = fields.integer("cap", 2, 199, default=None, nullable=True)
    if points is not None and cap is not None and cap <= points:
        fields.problems[fields.prefix + "cap"] = [f"Must be null or more than pointsToWin ({points})."]
        return None
    if points is None or win_by is None:
        return None
    return GameRule(points, win_by, cap)


def parse(value: Any) -> tuple[Format, str | None]:
    """A format as the API takes it (a preset key, or a format object) with its preset key (or None).
    `400 validation_failed` names every field at fault."""
    if isinstance(value, str):
        return preset(value), value
    if not isinstance(value, Mapping):
        raise Invalid("scoring must be a preset key or a format object.", details={"json": {"scoring": [
            "Must be a preset key or an object."]}})
    kind = value.get("kind")
    fmt: Format | None = None
    if kind == FormatKind.GAMES:
        fields = _Fields(value, ("kind", "bestOf", "pointsToWin", "winBy", "cap", "decidingGame"))
        best_of = fields.integer("bestOf", 1, 9, odd=True)
        rule = _game_rule(fields)
        deciding: GameRule | None = None
        raw = value.get("decidingGame")
        if raw is not None:
            if isinstance(raw, Mapping):
                inner = _Fields(raw, ("pointsToWin", "winBy", "cap"), prefix="decidingGame.")
                deciding = _game_rule(inner)
                fields.problems.update(inner.problems)
            else:
                fields.problems["decidingGame"] = ["Must be an object or null."]
        if not fields.problems and best_of is not None and rule is not None:
            fmt = GamesFormat(best_of=best_of, game=rule, deciding=deciding)
    elif kind == FormatKind.SETS:
        fields = _Fields(value, ("kind", "bestOf", "gamesToWin", "tiebreakAt", "tiebreakTo", "finalSet", "noAd"))
        best_of = fields.choice("bestOf", list(SETS_BEST_OF), None)
        games = fields.integer("gamesToWin", 4, 8, default=6)
        tiebreak_at = fields.integer("tiebreakAt", 4, 8, default=games, nullable=True)
        if games is not None and tiebreak_at is not None and tiebreak_at != games:
            fields.problems["tiebreakAt"] = [f"Must be null or gamesToWin ({games})."]
        tiebreak_to = fields.choice("tiebreakTo", list(TIEBREAK_TO), 7)
        final = fields.choice("finalSet", [str(f) for f in FinalSet], str(FinalSet.TIEBREAK))
        no_ad = fields.choice("noAd", [False, True], False)
        if not fields.problems:
            fmt = SetsFormat(best_of=best_of, games_to_win=games, tiebreak_at=tiebreak_at, tiebreak_to=tiebreak_to,
                             final_set=FinalSet(final), no_ad=no_ad)
    else:
        fields = _Fields({}, ())
        fields.problems["kind"] = ["Must be one of: games, sets."]
    if fmt is None:
        raise Invalid("The scoring format is not valid.", details={"json": {"scoring": fields.problems}})
    return fmt, None


def from_json(data: Mapping[str, Any]) -> Format:
    """A stored format object back (stored objects were checked by `parse` when they were written); each distinct
    object is parsed once (every read of a match asks for its format)."""
    return _parsed(_frozen(data))


def _frozen(data: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((key, _frozen(value) if isinstance(value, Mapping) else value) for key, value in data.items()))


@functools.lru_cache(maxsize=256)
def _parsed(frozen: tuple[tuple[str, Any], ...]) -> Format:
    return parse({key: dict(value) if isinstance(value, tuple) else value for key, value in frozen})[0]


def describe(fmt: Format) -> str:
    """The format in plain words: "Best of 3 games to 21, win by 2, 30 wins"."""
    if isinstance(fmt, GamesFormat):
        count = "1 game" if fmt.best_of == 1 else f"{fmt.best_of} games"
        text = f"Best of {count} {fmt.game.describe()}"
        if fmt.deciding is not None:
            text += f"; deciding game {fmt.deciding.describe()}"
        return text
    count = "1 set" if fmt.best_of == 1 else f"{fmt.best_of} sets"
    text = f"Best of {count} of {fmt.games_to_win} games"
    if fmt.tiebreak_at is not None:
        text += f", tiebreak to {fmt.tiebreak_to} at {fmt.tiebreak_at}-{fmt.tiebreak_at}"
    if fmt.best_of > 1:
        text += {FinalSet.TIEBREAK: "", FinalSet.ADVANTAGE: ", final set played out (no tiebreak)",
                 FinalSet.MATCH_TIEBREAK: f", deciding set a match tiebreak to {MATCH_TIEBREAK_TO}"}[fmt.final_set]
    if fmt.no_ad:
        text += ", golden point at deuce"
    return text


# ----------------------------------------------------------------------------------------------- the score
@dataclass(frozen=True)
class Score:
    """A match's score under its format: the `gameScores` items and (sets kind) the points of the game in play."""

    items: tuple[Item, ...] = ()
    current: Points = (0, 0)

    @classmethod
    def of(cls, items: Sequence[Mapping[str, Any]], current: Mapping[str, int] | None = None) -> Score:
        return cls(tuple(copy_item(item) for item in items), (current["a"], current["b"]) if current else (0, 0))

    def game_scores(self) -> list[Item]:
        return [copy_item(item) for item in self.items]

    def current_json(self) -> dict[str, int]:
        return {"a": self.current[0], "b": self.current[1]}


def copy_item(item: Mapping[str, Any]) -> Item:
    """An item as a match keeps it: `a`, `b` and a set's `tiebreak`, nothing else."""
    out: Item = {"a": item["a"], "b": item["b"]}
    if item.get("tiebreak") is not None:
        out["tiebreak"] = {"a": item["tiebreak"]["a"], "b": item["tiebreak"]["b"]}
    return out


def needed(fmt: Format) -> int:
    """Items (games or sets) a side must win to take the match: more than half of `bestOf`."""
    return fmt.best_of // 2 + 1


def _set_winner(fmt: SetsFormat, index: int, a: int, b: int, tiebreak: Mapping[str, int] | None) -> str | None:
    """The winner of a set whose games stand at a-b (a won tiebreak counted in), else None."""
    high, low = max(a, b), min(a, b)
    if high == low:
        return None
    side = "a" if a > b else "b"
    if fmt.is_match_tiebreak(index):
        return side if tiebreak is not None else None
    if tiebreak is not None:
        return side
    g = fmt.games_to_win
    return side if high >= g and high - low >= 2 else None


def item_winner(fmt: Format, index: int, item: Mapping[str, Any]) -> str | None:
    """"a" or "b" for a finished item (game or set), None while it is in progress. Assumes the item is valid."""
    if isinstance(fmt, GamesFormat):
        return fmt.rule(index).winner(item["a"], item["b"])
    return _set_winner(fmt, index, item["a"], item["b"], item.get("tiebreak"))


def won(fmt: Format, items: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Items won by each side (the `score` of the match read: games, or sets)."""
    count = {"a": 0, "b": 0}
    for index, item in enumerate(items):
        side = item_winner(fmt, index, item)
        if side:
            count[side] += 1
    return count


def closed_games(fmt: Format, items: Sequence[Mapping[str, Any]]) -> int:
    """How many games of the match are finished: the games won (`games` kind), or every game of every set
    (`sets` kind, a set's tiebreak being its last game). An undo that lowers it reopened a game or a set."""
    if isinstance(fmt, GamesFormat):
        return sum(won(fmt, items).values())
    return sum(item["a"] + item["b"] for item in items)


def winner(fmt: Format, items: Sequence[Mapping[str, Any]]) -> str | None:
    """The side that has won more than half of the match's items, or None."""
    count = won(fmt, items)
    return next((side for side in SIDES if count[side] >= needed(fmt)), None)


def _set_problem(fmt: SetsFormat, index: int, item: Mapping[str, Any]) -> str | None:
    """Why a set item cannot be (None when it can); finished or in progress."""
    a, b, tiebreak = item["a"], item["b"], item.get("tiebreak")
    if a < 0 or b < 0:
        return "games cannot be negative."
    high, low = max(a, b), min(a, b)
    if fmt.is_match_tiebreak(index):
        if tiebreak is None:
            return None if a == b == 0 else (
                f"a match tiebreak is written as 1-0 with its points, e.g. [{MATCH_TIEBREAK_TO}-8].")
        if high != 1 or low != 0:
            return "a match tiebreak counts as one game: 1-0 with its points."
        rule = GameRule(MATCH_TIEBREAK_TO, 2)
        problem = rule.problem(tiebreak["a"], tiebreak["b"], finished=True)
        return None if problem is None and rule.winner(tiebreak["a"], tiebreak["b"]) == ("a" if a > b else "b") else (
            problem or "the tiebreak's winner must win the set.")
    g, at = fmt.games_to_win, fmt.tiebreak_at if fmt.has_tiebreak(index) else None
    if tiebreak is not None:
        if at is None:
            return "this set has no tiebreak."
        if (high, low) != (at + 1, at):
            return f"a tiebreak is played at {at}-{at} and the set ends {at + 1}-{at}."
        rule = GameRule(fmt.tiebreak_to, 2)
        problem = rule.problem(tiebreak["a"], tiebreak["b"], finished=True)
        if problem is not None:
            return "tiebreak: " + problem
        if rule.winner(tiebreak["a"], tiebreak["b"]) != ("a" if a > b else "b"):
            return "the tiebreak's winner must win the set."
        return None
    if at is not None:
        if high <= at or (high == at + 1 and low == at - 1):
            return None
        if high == at + 1 and low == at:
            return f"a set at {at}-{at} is decided by a tiebreak (write its points, e.g. {at + 1}-{at}(4))."
        return f"a set ends as soon as a side has {g} games with a lead of 2, or wins the tiebreak at {at}-{at}."
    if high > g and high - low > 2:
        return f"a set ends as soon as a side has {g} games with a lead of 2."
    return None


def item_problem(fmt: Format, index: int, item: Any) -> str | None:
    """Why a `gameScores` item cannot be under the format (None when it can), finished or in progress."""
    if not isinstance(item, Mapping) or not all(
            isinstance(item.get(side), int) and not isinstance(item.get(side), bool) for side in SIDES):
        return "a and b must be integers."
    tiebreak = item.get("tiebreak")
    if tiebreak is not None:
        if isinstance(fmt, GamesFormat):
            return "a game has no tiebreak (tiebreaks are for sets)."
        if not isinstance(tiebreak, Mapping) or not all(
                isinstance(tiebreak.get(s), int) and not isinstance(tiebreak.get(s), bool) for s in SIDES):
            return "tiebreak points a and b must be integers."
        if min(tiebreak["a"], tiebreak["b"]) < 0:
            return "tiebreak points cannot be negative."
    if isinstance(fmt, GamesFormat):
        return fmt.rule(index).problem(item["a"], item["b"], finished=None)
    return _set_problem(fmt, index, item)


def _invalid(fmt: Format, index: int, message: str) -> Invalid:
    """`400 validation_failed` naming the item: "Game 2: ..." (a games format) or "Set 2: ..." (sets)."""
    item = "Game" if isinstance(fmt, GamesFormat) else "Set"
    return Invalid(f"{item} {index + 1}: {message}", details={"json": {"gameScores": {str(index): [message]}}})


def check(fmt: Format, items: Sequence[Any], *, final: bool) -> dict[str, int]:
    """Check a whole score (`gameScores`) against the format and return the items won by each side.

    `400 validation_failed` names the first item at fault (`details.json.gameScores.<index>`): an item no play can
    reach, an unfinished item before the last, or an item after the match was decided. `final` (completing or
    correcting): the match must be decided, else `409 match_undecided`."""
    count = {"a": 0, "b": 0}
    unit = "games" if isinstance(fmt, GamesFormat) else "sets"
    for index, item in enumerate(items):
        problem = item_problem(fmt, index, item)
        if problem is not None:
            raise _invalid(fmt, index, problem)
        if max(count.values()) >= needed(fmt):
            raise _invalid(fmt, index, f"the match was already decided (best of {fmt.best_of} {unit}).")
        side = item_winner(fmt, index, item)
        if side is None:
            if index != len(items) - 1:
                raise _invalid(fmt, index, f"only the last of the {unit} can be unfinished.")
            continue
        count[side] += 1
    if final and max(count.values()) < needed(fmt):
        raise Conflict(f"No side has won {needed(fmt)} of {fmt.best_of} {unit} yet; the match cannot be completed.",
                       code="match_undecided")
    return count


# ----------------------------------------------------------------------------------------------- point by point
def play(fmt: Format, score: Score, side: str) -> Score:
    """The score after one point for `side`: a point that wins a game closes it (and a set, in sets), and the
    next point opens the next one. `409 match_decided` once a side has won the match."""
    if winner(fmt, score.items) is not None:
        raise Conflict("The match is decided; complete it.", code="match_decided")
    items = [copy_item(item) for item in score.items]
    if isinstance(fmt, GamesFormat):
        if not items or item_winner(fmt, len(items) - 1, items[-1]) is not None:
            items.append({"a": 0, "b": 0})
        items[-1][side] += 1
        return Score(tuple(items))
    if not items or item_winner(fmt, len(items) - 1, items[-1]) is not None:
        items.append({"a": 0, "b": 0})
    index, current = len(items) - 1, items[-1]
    games = (current["a"], current["b"])
    rule = fmt.point_rule(index, games)
    points = (score.current[0] + (side == "a"), score.current[1] + (side == "b"))
    game_won = rule.winner(*points)
    if game_won is None:
        return Score(tuple(items), points)
    if fmt.in_tiebreak(index, games):
        current["tiebreak"] = {"a": points[0], "b": points[1]}
    current[game_won] += 1
    return Score(tuple(items), (0, 0))


def replay(fmt: Format, base: Score, sides: Iterable[str]) -> Score:
    """The score after `sides` are played one by one from `base`."""
    score = base
    for side in sides:
        score = play(fmt, score, side)
    return score


def undo(fmt: Format, score: Score, log: Sequence[str], base: Score | None) -> Score:
    """The score with the last of the points `log` took back: played again from `base` (the score before the
    first of them), across game and set boundaries. A games score without a base is walked back directly (each
    point is the last game's)."""
    if base is not None:
        return replay(fmt, base, log[:-1])
    items = [copy_item(item) for item in score.items]
    items[-1][log[-1]] -= 1
    if items[-1]["a"] == items[-1]["b"] == 0:
        items.pop()
    return Score(tuple(items), score.current)


# ----------------------------------------------------------------------------------------------- shown
TENNIS_POINTS = ("0", "15", "30", "40")


def in_tiebreak(fmt: Format, score: Score) -> bool:
    """Whether the game in play is a tiebreak (sets kind; the points then read as digits)."""
    if isinstance(fmt, GamesFormat) or not score.items:
        return False
    index, last = len(score.items) - 1, score.items[-1]
    if item_winner(fmt, index, last) is not None:
        return False
    return fmt.in_tiebreak(index, (last["a"], last["b"]))


def point_labels(fmt: Format, score: Score) -> dict[str, str]:
    """The points of the game in play as shown: digits in games and tiebreaks, 0/15/30/40/AD in a tennis game."""
    a, b = score.current
    if isinstance(fmt, GamesFormat):
        last = score.items[-1] if score.items else None
        if last is None or item_winner(fmt, len(score.items) - 1, last) is not None:
            return {"a": "0", "b": "0"}
        return {"a": str(last["a"]), "b": str(last["b"])}
    if in_tiebreak(fmt, score):
        return {"a": str(a), "b": str(b)}
    if a >= 3 and b >= 3:
        if a == b or fmt.no_ad:
            return {"a": "40", "b": "40"}
        return {"a": "AD", "b": "40"} if a > b else {"a": "40", "b": "AD"}
    return {"a": TENNIS_POINTS[min(a, 3)], "b": TENNIS_POINTS[min(b, 3)]}


def item_text(fmt: Format, index: int, item: Mapping[str, Any], *, first: str = "a") -> str:
    """One item as written: "21-15", "6-4", "7-6(4)" (the loser's tiebreak points) or "[10-8]"."""
    second = "b" if first == "a" else "a"
    tiebreak = item.get("tiebreak")
    if tiebreak is not None:
        if isinstance(fmt, SetsFormat) and fmt.is_match_tiebreak(index):
            return f"[{tiebreak[first]}-{tiebreak[second]}]"
        return f"{item[first]}-{item[second]}({min(tiebreak['a'], tiebreak['b'])})"
    return f"{item[first]}-{item[second]}"


def score_text(fmt: Format, items: Sequence[Mapping[str, Any]], *, first: str = "a") -> str:
    """The whole score as a club writes it: "21-15 18-21 21-9", "6-4 7-6(4)"; `first` the side written first."""
    return " ".join(item_text(fmt, index, item, first=first) for index, item in enumerate(items))


def as_written(fmt: Format, items: Sequence[Mapping[str, Any]]) -> list[Item]:
    """Items as a desk writes them, read under the format: in a match tiebreak's place a plain score ("10-8", not
    the 1-0 a match tiebreak counts as a set) is the tiebreak's points."""
    out = [copy_item(item) for item in items]
    if isinstance(fmt, SetsFormat) and len(out) == fmt.best_of and fmt.is_match_tiebreak(fmt.best_of - 1):
        last = out[-1]
        if last.get("tiebreak") is None and max(last["a"], last["b"]) > 1:
            out[-1] = {"a": int(last["a"] > last["b"]), "b": int(last["b"] > last["a"]),
                       "tiebreak": {"a": last["a"], "b": last["b"]}}
    return out


def unit(fmt: Format) -> str:
    """What `score` counts under the format, in words: "games" or "sets"."""
    return "games" if isinstance(fmt, GamesFormat) else "sets"
