"""The console's Draws page and the tie-break rules of contract §22, over a real server: the New draw form sends the
rule picked (or custom steps in the order picked), and under a group's standings the places a tie-break step decided
are said in words ("Bea 2nd on head-to-head") with the rule, on the page and on the print sheet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from console.draws import print_sheet, standing_units, standings_html
from tests.api.test_draw_tiebreaks import BWF_RESULTS, NAMES
from tests.console.conftest import Operator

Console = Callable[[str], AppTest]


def bwf_group(operator_api: Operator, *, played: bool = True) -> dict[str, Any]:
    """docs/draws.md's BWF example as a round robin, its results typed in (§19's result) when `played`."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {"name": "Club day",
                                                                   "tables": [{"label": "Court 1"}]})
    draw = operator_api.data("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Group A", "format": "round_robin", "scoring": "badminton",
        "tiebreak": "bwf", "randomSeed": 3, "entries": [{"players": [{"manualName": n}]} for n in NAMES]})
    names = {e["id"]: e["name"] for e in draw["entries"]}
    for dm in (dm for rnd in draw["rounds"] for dm in rnd["drawMatches"]) if played else ():
        a, b = (names[s["entryID"]] for s in dm["slots"])
        games = BWF_RESULTS.get((a, b)) or [(y, x) for x, y in BWF_RESULTS[(b, a)]]
        operator_api.data("POST", f"/operator/matches/{dm['matchID']}/result",
                          {"gameScores": [{"a": x, "b": y} for x, y in games]})
    return dict(operator_api.data("GET", f"/operator/draws/{draw['id']}"))


def shown_html(app: AppTest) -> str:
    """Every `st.html` body of the page, joined."""
    return "".join(str(element.proto.body) for element in app.get("html"))


def test_under_the_standings_each_place_a_step_decided_is_said_in_words_with_the_rule(
        console: Console, operator_api: Operator) -> None:
    draw = bwf_group(operator_api)
    drawn = standings_html(draw)
    assert ("<div class='cs-ties'><div class='cs-ties-rule'>Tie-breaks: BWF</div><ul>"
            "<li>Ann 1st on game difference</li><li>Bea 2nd on head-to-head</li></ul></div>") in drawn
    assert "Bea 2nd on head-to-head" in print_sheet(draw, "Club day")
    unplayed = draw | {"groups": [g | {"standings": [s | {"played": 0} for s in g["standings"]]}
                                  for g in draw["groups"]]}
    assert "cs-ties" not in standings_html(unplayed)
    app = console("views/draws.py")
    assert "<li>Bea 2nd on head-to-head</li>" in shown_html(app)


def test_a_draw_before_any_result_says_nothing_under_its_standings(operator_api: Operator) -> None:
    draw = bwf_group(operator_api, played=False)
    assert [s["decidedBy"] for s in draw["groups"][0]["standings"]] == ["lot", "lot", "lot", None]
    assert "cs-ties" not in standings_html(draw)


def test_the_new_draw_form_sends_the_rule_picked_and_custom_steps_in_the_order_picked(
        console: Console, operator_api: Operator) -> None:
    operator_api.data("POST", "/operator/broadcasts", {"name": "Club day", "tables": [{"label": "Court 1"}]})
    app = console("views/draws.py")
    app.selectbox(key="draws_format_0").set_value("round_robin").run()
    app.text_area(key="draws_text_0").set_value("Ann\nBea\nCat\nDot").run()
    app.selectbox(key="draws_tiebreak_0").set_value("ittf").run()
    app.button(key="draws_preview").click().run()
    assert not app.exception, app.exception
    body, preview = app.session_state["draws_previewed"]
    assert body["tiebreak"] == "ittf" and preview["tiebreak"] == "ittf"
    app.selectbox(key="draws_tiebreak_0").set_value("custom").run()
    app.multiselect(key="draws_steps_0").set_value(["points_won", "wins", "lot"]).run()
    app.button(key="draws_preview").click().run()
    assert not app.exception, app.exception
    body, preview = app.session_state["draws_previewed"]
    assert body["tiebreak"] == preview["tiebreak"] == ["points_won", "wins", "lot"]
    app.button(key="draws_save").click().run()
    assert not app.exception, app.exception
    made = operator_api.data("GET", "/operator/draws?broadcastID=" + body["broadcastID"])
    assert [d["tiebreak"] for d in made] == [["points_won", "wins", "lot"]]
    app.toggle(key="draws_new").set_value(True).run()
    app.selectbox(key="draws_format_1").set_value("swiss").run()
    assert [s.key for s in app.selectbox if s.key == "draws_tiebreak_1"] == ["draws_tiebreak_1"]
    app.selectbox(key="draws_format_1").set_value("single_elimination").run()
    assert not [s for s in app.selectbox if s.key == "draws_tiebreak_1"]  # a knockout has no standings


def test_a_sets_formats_standings_say_sets_and_games() -> None:
    """Issue 51: tennis standings labelled sets as "Games" and games as "Points"."""
    tennis = {"entries": [], "groups": [{"name": "A", "standings": []}], "scoring": {"kind": "sets", "bestOf": 3}}
    assert standing_units(tennis) == ("Sets", "Games")
    assert "<th>W</th><th>L</th><th>Sets</th><th>Games</th>" in standings_html(tennis)
    badminton = tennis | {"scoring": {"kind": "games", "bestOf": 3}}
    assert "<th>W</th><th>L</th><th>Games</th><th>Points</th>" in standings_html(badminton)
