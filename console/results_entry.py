"""The Results entry page's rules (contract §19), apart from Streamlit: which matches get a row (every active or
waiting match of a broadcast: its courts' matches in play and queues, then the court pool), the filters, and the
body a typed line becomes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from console.scoring import format_of, match_state, parse_games, score_line
from console.ui import side_name
from domain.match import formats

Json = dict[str, Any]
POOL = "Court pool"


@dataclass(frozen=True)
class Row:
    """One match a result can be typed in for."""

    match: Json
    court: str
    playing: bool

    @property
    def id(self) -> str:
        return str(self.match["id"])

    @property
    def draw(self) -> str:
        return str(self.match.get("eventName") or "")

    @property
    def round(self) -> str:
        return str(self.match.get("matchRound") or "")

    @property
    def sides(self) -> str:
        return f"{side_name(self.match, 'a')} vs {side_name(self.match, 'b')}"

    @property
    def where(self) -> str:
        """`Court 2 · Men's singles · Quarterfinal · playing`: where the row's match is, in words."""
        parts = [self.court, self.draw, self.round] + (["playing"] if self.playing else [])
        return " · ".join(part for part in parts if part)


def entry_rows(tables: list[Json], pool: list[Json], broadcast_id: str) -> list[Row]:
    """The broadcast's matches in play and waiting: each court's match in play, then its queue, court by court;
    then the court pool in start-next's order."""
    rows: list[Row] = []
    for table in tables:
        if table.get("broadcastID") != broadcast_id:
            continue
        if table.get("activeMatch"):
            rows.append(Row(table["activeMatch"], str(table["label"]), True))
        rows += [Row(match, str(table["label"]), False) for match in table.get("queue") or []]
    rows += [Row(match, POOL, False) for match in pool]
    return rows


def choices(rows: list[Row], attribute: str) -> list[str]:
    """The distinct values of `court`, `draw` or `round` among the rows, in their order ("" left out)."""
    seen: dict[str, None] = {}
    for row in rows:
        value = getattr(row, attribute)
        if value:
            seen[value] = None
    return list(seen)


def filtered(rows: list[Row], *, court: str | None, draw: str | None, round_name: str | None) -> list[Row]:
    """The rows of one court, draw and round (None: any)."""
    return [row for row in rows if (court is None or row.court == court) and (draw is None or row.draw == draw)
            and (round_name is None or row.round == round_name)]


def played_body(text: str, match: Json | None = None) -> Json:
    """`{"gameScores": [...]}` of a typed line, read under the match's format ("6-4 3-6 10-8" in a match tiebreak
    format: the last is the tiebreak); `ResultTextError` says in words what could not be read."""
    return {"gameScores": parse_games(text, match)}


def decided_body(kind: str, winner_side: str, text: str, match: Json | None = None) -> Json:
    """A walkover (no games) or a retirement (the games typed so far, if any) for `winner_side`."""
    games = parse_games(text, match) if kind == "retired" and text.strip() else []
    return {"gameScores": games, "resultType": kind, "winnerSide": winner_side}


def result_words(match: Json) -> str:
    """A completed match's result as a picker shows it: `11-7, 9-11, 11-5`, `w/o · Bo Chen wins`,
    `11-4, 2-6 ret. · Cy Diaz wins` (a walkover is no 0-0 result, issue 35)."""
    kind = match.get("resultType")
    games = score_line(match.get("gameScores") or [], match) if match.get("gameScores") else ""
    if kind not in ("walkover", "retired") or not match.get("winnerSide"):
        return games
    winner = side_name(match, str(match["winnerSide"]))
    return f"w/o · {winner} wins" if kind == "walkover" else f"{games} ret. · {winner} wins"


def from_side(games: list[Json], side: str) -> list[Json]:
    """The games as `side` would call them (its points first): a result is said from the winner's side, "Tom Harris
    beat Pierre Dubois 6-4 7-6(3)", never "4-6 6-7(3)" (issue 51)."""
    if side == "a":
        return games
    return [{**game, "a": game["b"], "b": game["a"]}
            | ({"tiebreak": {"a": game["tiebreak"]["b"], "b": game["tiebreak"]["a"]}} if game.get("tiebreak") else {})
            for game in games]


def saved_words(match: Json) -> str:
    """`Saved: Ann Lee beat Bo Chen 11-7 11-9` (`… w/o`, `… ret.`) for the flash after a save, the games as the
    winner calls them."""
    winner = match.get("winnerSide") or ("a" if match["score"]["a"] > match["score"]["b"] else "b")
    loser = "b" if winner == "a" else "a"
    games = score_line(from_side(match["gameScores"], winner), match).replace(", ", " ") \
        if match.get("gameScores") else ""
    mark = {"walkover": "w/o", "retired": "ret."}.get(str(match.get("resultType")), "")
    return f"Saved: {side_name(match, winner)} beat {side_name(match, loser)} {' '.join(p for p in (games, mark) if p)}"


def unfinished(games: list[Json], match: Json | None) -> bool:
    """Whether a typed line leaves the match undecided (a retirement's games): Enter does not save it as a result
    (issue 51: "Ret." after typing the games first saved them as a full result, which was refused)."""
    return match_state((match or {}) | {"gameScores": games}).winner is None


def placeholder(match: Json | None) -> str:
    """An example line in the match's own sport ("6-4 3-6 6-3" on a tennis day, not "21-15 18-21 21-9")."""
    fmt = format_of(match or {})
    if isinstance(fmt, formats.SetsFormat):
        return "6-4 3-6 6-3" if fmt.best_of > 1 else "6-4"
    top = fmt.game.points_to_win
    games = [(top, max(0, top - 6)), (max(0, top - 3), top), (top, max(0, top - 9))][:min(fmt.best_of, 3)]
    return " ".join(f"{a}-{b}" for a, b in games)
