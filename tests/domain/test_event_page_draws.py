"""The event page's draws (contract §15): a §13 draw read becomes names, scores and links between matches by
position, with no ID of any kind."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from domain.draws.model import Draw, DrawFormat
from domain.draws.read import draw_from_json, draw_json, draw_read
from domain.public.event_page import public_draw
from domain.public.feeds import DrawShown
from tests.domain.test_draw_engine import make, play_out


def read_of(draw: Draw) -> dict[str, Any]:
    """A draw's §13 read as the API serves it (no format of its own)."""
    return draw_json(draw_read(draw, scoring=None, scoring_name=None))


def on_page(read: dict[str, Any], games: dict[str, tuple[int, int]]) -> DrawShown:
    """The event page's draw, from a read as JSON parsed back into the typed read (`draw_from_json`)."""
    return public_draw(draw_from_json(read), games)


def slot(entry: str | None) -> dict[str, Any]:
    return {"entryID": entry, "from": None}


def draw_match(dm_id: str, number: int, entries: tuple[str | None, str | None], status: str, *,
               winner: str | None = None, match_id: str | None = None, to: str | None = None) -> dict[str, Any]:
    return {"id": dm_id, "number": number, "group": None, "slots": [slot(entries[0]), slot(entries[1])],
            "status": status, "matchID": match_id, "winnerEntryID": winner, "loserEntryID": None,
            "resultType": "played" if winner else None,
            "next": {"winner": {"drawMatchID": to, "slot": 0} if to else None, "loser": None}}


KNOCKOUT: dict[str, Any] = {
    "id": "drw_1", "broadcastID": "brd_1", "name": "Open singles", "format": "single_elimination",
    "status": "running", "createdOn": "2026-11-25T09:00:00Z",
    "entries": [{"id": f"ent_{n}", "name": name, "club": None, "seed": n, "players": [], "withdrawn": False}
                for n, name in enumerate(["Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"], start=1)],
    "groups": [],
    "rounds": [
        {"stage": "main", "number": 1, "name": "Semifinal", "drawMatches": [
            draw_match("dm_1", 1, ("ent_1", "ent_4"), "complete", winner="ent_1", match_id="mat_1", to="dm_3"),
            draw_match("dm_2", 2, ("ent_3", "ent_2"), "active", match_id="mat_2", to="dm_3")]},
        {"stage": "final", "number": 2, "name": "Final", "drawMatches": [
            draw_match("dm_3", 1, ("ent_1", None), "waiting")]},
    ],
    "placings": [],
}


def test_a_knockout_is_one_bracket_of_rounds_with_names_scores_and_the_next_match_by_position() -> None:
    public = on_page(KNOCKOUT, {"mat_1": (3, 1), "mat_2": (1, 2)})
    assert public["name"] == "Open singles" and public["groups"] == [] and public["placings"] == []
    [bracket] = public["brackets"]
    assert [r["name"] for r in bracket["rounds"]] == ["Semifinal", "Final"]
    first, second = bracket["rounds"][0]["matches"]
    assert first["sides"] == [{"name": "Ann Lee", "winner": True, "games": 3},
                              {"name": "Di Evans", "winner": False, "games": 1}]
    assert first["next"] == [1, 0] and second["next"] == [1, 0]
    assert second["sides"][1] == {"name": "Bo Chen", "winner": False, "games": 2}
    final = bracket["rounds"][1]["matches"][0]
    assert final["sides"] == [{"name": "Ann Lee", "winner": False, "games": None},
                              {"name": None, "winner": False, "games": None}]
    assert final["next"] is None


def test_group_tables_and_placings_carry_names_and_no_id_appears_anywhere() -> None:
    read = KNOCKOUT | {"format": "round_robin", "status": "complete", "rounds": [], "groups": [
        {"name": "A", "entryIDs": ["ent_1", "ent_2"], "standings": [
            {"entryID": "ent_2", "rank": 1, "played": 1, "won": 1, "lost": 0, "gamesWon": 3, "gamesLost": 0,
             "pointsWon": 33, "pointsLost": 12},
            {"entryID": "ent_1", "rank": 2, "played": 1, "won": 0, "lost": 1, "gamesWon": 0, "gamesLost": 3,
             "pointsWon": 12, "pointsLost": 33}]}],
        "placings": [{"place": 1, "entryID": "ent_2"}, {"place": 2, "entryID": "ent_1"}]}
    public = on_page(read, {})
    assert public["groups"] == [{"name": "A", "standings": [
        {"rank": 1, "played": 1, "won": 1, "lost": 0, "gamesWon": 3, "gamesLost": 0, "name": "Bo Chen"},
        {"rank": 2, "played": 1, "won": 0, "lost": 1, "gamesWon": 0, "gamesLost": 3, "name": "Ann Lee"}],
        "tiebreaks": []}]
    assert public["placings"] == [{"place": 1, "name": "Bo Chen"}, {"place": 2, "name": "Ann Lee"}]
    assert public["brackets"] == []
    for shown in (public, on_page(KNOCKOUT, {"mat_1": (3, 1)})):
        assert not re.search(r"(drw|ent|dm|mat|brd)_", json.dumps(shown))


def test_a_place_a_tie_break_step_decided_is_said_in_words_under_the_group_once_a_match_is_played() -> None:
    """§22 on the event page: "Bo Chen 2nd on head-to-head"; nothing while nobody has played (every row is level
    then, only lots or seeds separate them)."""
    def row(entry: str, rank: int, played: int, decided: str | None) -> dict[str, Any]:
        return {"entryID": entry, "rank": rank, "played": played, "won": 1, "lost": 1, "gamesWon": 2,
                "gamesLost": 2, "pointsWon": 40, "pointsLost": 40, "decidedBy": decided}

    table = [row("ent_1", 1, 2, "game_difference"), row("ent_2", 2, 2, "head_to_head"), row("ent_3", 3, 2, None)]
    read = KNOCKOUT | {"format": "round_robin", "tiebreak": "bwf", "rounds": [], "groups": [
        {"name": "A", "entryIDs": ["ent_1", "ent_2", "ent_3"], "standings": table}]}
    public = on_page(read, {})
    assert public["tiebreak"] == "BWF"
    assert public["groups"][0]["tiebreaks"] == ["Ann Lee 1st on game difference", "Bo Chen 2nd on head-to-head"]
    unplayed = [row(f"ent_{n}", n, 0, "lot") for n in (1, 2)] + [row("ent_3", 3, 0, None)]
    assert on_page(read | {"groups": [{"name": "A", "entryIDs": [], "standings": unplayed}]},
                       {})["groups"][0]["tiebreaks"] == []
    unbroken = [row("ent_1", 1, 1, "unbroken"), row("ent_2", 2, 1, None)]
    custom = on_page(read | {"tiebreak": ["wins", "points_won"],
                                 "groups": [{"name": "A", "entryIDs": [], "standings": unbroken}]}, {})
    assert custom["tiebreak"] == "wins, points won"
    assert custom["groups"][0]["tiebreaks"] == [
        "Ann Lee 1st, level with the next on every step (listed in draw order)"]
    assert on_page(KNOCKOUT, {})["tiebreak"] is None


def club_day_read(fmt: DrawFormat, n: int) -> dict[str, Any]:
    """The §13 draw read of a club-day draw (contract §22) played to the end with random winners."""
    draw = make(fmt, n, random_seed=7)
    play_out(draw, random.Random(7))
    return read_of(draw)


def test_playoff_all_shows_the_main_draw_then_one_bracket_per_sub_bracket_titled_by_its_places() -> None:
    read = club_day_read(DrawFormat.PLAYOFF_ALL, 16)
    public = on_page(read, {})
    assert [b["name"] for b in public["brackets"]] == [
        "Main draw", "Places 3-4", "Places 5-8", "Places 7-8", "Places 9-16", "Places 11-12", "Places 13-16",
        "Places 15-16"]
    by_name = {b["name"]: b for b in public["brackets"]}
    assert [r["name"] for r in by_name["Main draw"]["rounds"]] == ["Round of 16", "Quarterfinal", "Semifinal", "Final"]
    assert [r["name"] for r in by_name["Places 9-16"]["rounds"]] == ["Places 9-16", "Places 9-12", "Places 9-10"]
    assert [len(r["matches"]) for r in by_name["Places 9-16"]["rounds"]] == [4, 2, 1]
    # within a sub-bracket each match points at the match its winner plays next, by position
    assert [m["next"] for m in by_name["Places 9-16"]["rounds"][0]["matches"]] == [[1, 0], [1, 0], [1, 1], [1, 1]]
    assert by_name["Places 9-16"]["rounds"][2]["matches"][0]["next"] is None
    # every entry plays 4 matches: the 8 brackets hold 16 * 4 / 2 = 32 matches, each drawn once
    assert sum(len(r["matches"]) for b in public["brackets"] for r in b["rounds"]) == 32
    assert [p["place"] for p in public["placings"]] == list(range(1, 17))
    assert all("stage" not in p and p["name"] for p in public["placings"])
    # the read carries each play-off round's best place (contract §22), and the main rounds' 1
    assert {r["firstPlace"] for r in read["rounds"] if r["name"].startswith("Places 9")} == {9}
    assert {r["firstPlace"] for r in read["rounds"] if r["stage"] == "main"} == {1}


def test_a_consolation_is_its_own_bracket_and_its_winner_is_marked_not_a_second_first_place() -> None:
    read = club_day_read(DrawFormat.CONSOLATION, 16)
    public = on_page(read, {})
    assert [b["name"] for b in public["brackets"]] == ["Main draw", "Consolation"]
    consolation = public["brackets"][1]
    assert [len(r["matches"]) for r in consolation["rounds"]] == [4, 2, 1]
    assert [r["name"] for r in consolation["rounds"]] == [
        "Consolation quarterfinal", "Consolation semifinal", "Consolation final"]
    assert [(p["place"], p.get("stage")) for p in public["placings"]] == [(1, None), (2, None), (1, "consolation")]
    final = consolation["rounds"][2]["matches"][0]
    winner = next(s["name"] for s in final["sides"] if s["winner"])
    assert public["placings"][2] == {"place": 1, "name": winner, "stage": "consolation"}
    assert "firstPlace" not in json.dumps(read)


def test_round_robin_playoff_draws_each_rank_as_a_bracket_of_its_places() -> None:
    read = club_day_read(DrawFormat.ROUND_ROBIN_PLAYOFF, 16)
    public = on_page(read, {})
    names = [b["name"] for b in public["brackets"]]
    assert names == ["Places 1-4", "Places 3-4", "Places 5-8", "Places 7-8", "Places 9-12", "Places 11-12",
                     "Places 13-16", "Places 15-16"]
    assert len(public["groups"]) == 4 and [p["place"] for p in public["placings"]] == list(range(1, 17))
    assert not re.search(r"\b(ent|drw|dm|mat)_", json.dumps(public))


def test_play_off_places_nobody_takes_are_not_drawn_before_or_after_play() -> None:
    """12 entries in a bracket of 16: `Places 13-16` and `Places 15-16` are nobody's (their matches end as byes)."""
    fresh = make(DrawFormat.PLAYOFF_ALL, 12, random_seed=1)
    expected = ["Main draw", "Places 3-4", "Places 5-8", "Places 7-8", "Places 9-12", "Places 11-12"]
    assert [b["name"] for b in on_page(read_of(fresh), {})["brackets"]] == expected
    play_out(fresh, random.Random(1))
    done = on_page(read_of(fresh), {})
    assert [b["name"] for b in done["brackets"]] == expected
    assert [p["place"] for p in done["placings"]] == list(range(1, 13))
