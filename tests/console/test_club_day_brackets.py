"""The console draws a club day's extra brackets (contract §22, issue 38 point 4): the consolation under its own
heading, each play-off sub-bracket as a bracket under its places, every placing, and the A4 sheet shows the same."""

from __future__ import annotations

import random
import re
from typing import Any

from console.draws import bracket_html, print_sheet
from domain.draws.model import Draw, DrawFormat
from domain.draws.read import draw_from_json, draw_json, draw_read, playoff_brackets
from tests.domain.test_draw_engine import make, play_out


def read_of(draw: Draw) -> dict[str, Any]:
    """A draw's §13 read as the API serves it (no format of its own)."""
    return draw_json(draw_read(draw, scoring=None, scoring_name=None))

def played(fmt: DrawFormat, n: int) -> dict[str, Any]:
    """The draw read of a draw of this format played to the end with random winners."""
    draw = make(fmt, n, random_seed=3)
    play_out(draw, random.Random(3))
    return read_of(draw)


def test_playoff_all_draws_each_sub_bracket_under_its_places_in_order_of_places() -> None:
    read = played(DrawFormat.PLAYOFF_ALL, 16)
    shown = bracket_html(read)
    assert re.findall(r"<h4>([^<]+)</h4>", shown) == [
        "Places 3-4", "Places 5-8", "Places 7-8", "Places 9-16", "Places 11-12", "Places 13-16", "Places 15-16"]
    assert shown.index("<h3>Main bracket</h3>") < shown.index("<h3>Play-offs for places</h3>")
    groups = playoff_brackets(draw_from_json(read))
    assert [[len(r.draw_matches) for r in g] for g in groups] == [[1], [2, 1], [1], [4, 2, 1], [1], [2, 1], [1]]
    # every place, 1 to 16, with its entry's name
    items = re.findall(r"<li>(\d+)\. ([^<]+)</li>", shown)
    assert [int(place) for place, _ in items] == list(range(1, 17))
    assert {name for _, name in items} == {e["name"] for e in read["entries"]}
    # an empty slot of a play-off round says where its entry comes from
    fresh = bracket_html(read_of(make(DrawFormat.PLAYOFF_ALL, 16, random_seed=3)))
    assert "Loser P9-16 1" in fresh and "Winner P9-16 1" in fresh and "Loser R16 1" in fresh


def test_a_consolation_is_drawn_after_the_main_bracket_and_its_winner_marked_on_the_sheet_too() -> None:
    read = played(DrawFormat.CONSOLATION, 16)
    winner = next(p for p in read["placings"] if p.get("stage") == "consolation")
    name = next(e["name"] for e in read["entries"] if e["id"] == winner["entryID"])
    for shown in (bracket_html(read), print_sheet(read, "Club day")):
        assert shown.index("<h3>Main bracket</h3>") < shown.index("<h3>Consolation draw</h3>")
        assert f"<li>Consolation winner: {name}</li>" in shown
        assert "Consolation final" in shown and "<h4>" not in shown
    fresh = bracket_html(read_of(make(DrawFormat.CONSOLATION, 16, random_seed=3)))
    assert "Loser R16 1" in fresh and "Winner CQF 1" in fresh


def test_the_print_sheet_carries_every_play_off_bracket() -> None:
    sheet = print_sheet(played(DrawFormat.PLAYOFF_ALL, 16), "Club day")
    assert len(re.findall(r"<h4>Places", sheet)) == 7 and "size:A4 landscape" in sheet
    assert len(re.findall(r"<li>\d+\. ", sheet)) == 16


def test_play_off_places_nobody_takes_are_not_drawn() -> None:
    fresh = bracket_html(read_of(make(DrawFormat.PLAYOFF_ALL, 12, random_seed=3)))
    assert re.findall(r"<h4>([^<]+)</h4>", fresh) == [
        "Places 3-4", "Places 5-8", "Places 7-8", "Places 9-12", "Places 11-12"]
