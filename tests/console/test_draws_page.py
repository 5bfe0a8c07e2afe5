"""The console's Draws page and the board's court pool (contract §13 "Views" and "court pool"), over a real server:
withdraw and delete each ask first; the board lists the pool, "waiting for a court", with estimated starts, and a free
court with an empty queue starts the next pool match; entries pasted one a line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from console.board import clock_time
from console.draws import (
    bracket_html,
    entry_names,
    finished,
    games_won,
    genders,
    list_entries,
    parse_entries,
    print_sheet,
    rating_seeds,
    still_in,
)
from tests.console.conftest import Operator, texts

Console = Callable[[str], AppTest]


def running_draw(operator_api: Operator, count: int = 4, courts: int = 2) -> tuple[dict[str, Any], dict[str, Any]]:
    broadcast = operator_api.data("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": f"Court {i + 1}"} for i in range(courts)]})
    draw = operator_api.data("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open", "format": "single_elimination", "randomSeed": 3,
        "entries": [{"players": [{"manualName": f"Player {i}"}], "seed": i} for i in range(1, count + 1)]})
    return broadcast, draw


def test_withdrawing_an_entry_asks_first_then_gives_the_opponent_a_walkover(console: Console,
                                                                              operator_api: Operator) -> None:
    _, draw = running_draw(operator_api)
    app = console("views/draws.py")
    leaving = next(e for e in draw["entries"] if e["name"] == "Player 4")
    app.selectbox(key="draws_withdraw_pick").set_value(leaving["id"]).run()
    assert not app.exception, app.exception
    assert any("cannot be undone" in w for w in texts(app, "warning"))
    assert operator_api.data("GET", f"/operator/draws/{draw['id']}")["entries"][3]["withdrawn"] is False
    app.button(key="draws_withdraw_go").click().run()
    assert not app.exception, app.exception
    after = operator_api.data("GET", f"/operator/draws/{draw['id']}")
    assert [e["withdrawn"] for e in after["entries"] if e["id"] == leaving["id"]] == [True]
    first = next(dm for dm in after["rounds"][0]["drawMatches"] if leaving["id"] in
                 [s["entryID"] for s in dm["slots"]])
    assert first["resultType"] == "walkover" and first["winnerEntryID"] != leaving["id"]
    names = entry_names(after)  # the walkover shows in the drawn bracket: winner marked w/o, the withdrawn struck
    drawn = bracket_html(after)
    winner = names[first["winnerEntryID"]]
    assert f"<div class='cs-slot win'><span>{winner}</span><span class='cs-tag'>w/o</span>" in drawn
    assert "<div class='cs-slot out'><span>(4) Player 4</span>" in drawn
    assert "Player 4 withdrew." in texts(app, "success")


def test_deleting_a_draw_needs_the_confirmation_ticked(console: Console, operator_api: Operator) -> None:
    broadcast, draw = running_draw(operator_api)
    app = console("views/draws.py")
    assert app.button(key="draws_delete_go").disabled
    app.checkbox(key="draws_delete_sure").check().run()
    app.button(key="draws_delete_go").click().run()
    assert not app.exception, app.exception
    assert operator_api.data("GET", f"/operator/draws?broadcastID={broadcast['id']}") == []
    assert "Open is deleted." in texts(app, "success")
    assert draw["id"]


def test_the_board_lists_the_pool_with_estimates_and_a_free_court_starts_from_it(
        console: Console, operator_api: Operator) -> None:
    broadcast, _ = running_draw(operator_api, count=8, courts=1)
    pool = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/pool")
    assert len(pool) == 4 and all(m["estimatedStartOn"] for m in pool)
    app = console("views/court_board.py")
    shown = "\n".join(texts(app, "markdown"))
    assert "**Waiting for a court (4)**" in shown
    assert "1 court · 0 matches in play · 4 waiting" in texts(app, "caption")  # the pool waits too (QA)
    again = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/pool")  # the minute may turn meanwhile
    assert any(f"1. Player 1 vs Player 8 · Quarterfinal · Open · about {clock_time(read[0]['estimatedStartOn'])}"
               in shown for read in (pool, again))
    app.button(key=f"start_pool_{broadcast['tables'][0]['id']}").click().run()
    assert not app.exception, app.exception
    active = operator_api.data("GET", "/operator/matches?status=active")
    assert [m["id"] for m in active] == [pool[0]["id"]]


def test_a_free_court_calls_the_pools_next_match_to_itself(console: Console, operator_api: Operator) -> None:
    """Issue 51.1: a draw's matches wait in the pool with no court, so the board's Call never offered them and
    their players were never called (nor mailed): a free court calls the pool's next match, queued there first."""
    broadcast, _ = running_draw(operator_api, count=8, courts=2)
    pool = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/pool")
    court = broadcast["tables"][1]
    app = console("views/court_board.py")
    call = app.button(key=f"call_pool_{court['id']}")
    assert call.label == f"Call {pool[0]['playerA']} vs {pool[0]['playerB']} · Quarterfinal · Open to Court 2"
    call.click().run()
    assert not app.exception, app.exception
    [queued] = operator_api.tables()["Court 2"]["queue"]
    assert queued["id"] == pool[0]["id"] and queued["calledOn"]
    assert f"Called {pool[0]['playerA']} vs {pool[0]['playerB']} · Quarterfinal · Open to Court 2." \
        in texts(app, "success")
    app.button(key=f"start_next_{court['id']}").click().run()  # Start next takes the called match
    assert [m["id"] for m in operator_api.data("GET", "/operator/matches?status=active")] == [pool[0]["id"]]


def test_pasted_lines_give_entries_with_seeds_clubs_and_doubles() -> None:
    parsed = parse_entries("Ann Lee, 1, TTC Nord\nBo Kim\t2\n\nCy Day; TTC Süd\nDi Fox / Ed Gu, 3\n, 4\nFay, 1, 2")
    assert parsed.entries[:4] == [
        {"players": [{"manualName": "Ann Lee"}], "seed": 1, "club": "TTC Nord"},
        {"players": [{"manualName": "Bo Kim"}], "seed": 2},
        {"players": [{"manualName": "Cy Day"}], "club": "TTC Süd"},
        {"players": [{"manualName": "Di Fox"}, {"manualName": "Ed Gu"}], "seed": 3}]
    assert parsed.problems == ["Line 6: the name comes first.", "Line 7: two seeds (1 and 2)."]


def test_the_bracket_joins_each_match_to_the_next_and_the_print_sheet_has_no_controls(
        operator_api: Operator) -> None:
    _, draw = running_draw(operator_api, count=4)
    drawn = bracket_html(draw)
    assert drawn.count("class='cs-match ") == 3  # two semifinals, one final
    lines = {css: drawn.count(f"<span class='{css}'>") for css in ("cs-v-down", "cs-v-up", "cs-h-in", "cs-h-out")}
    assert lines == {"cs-v-down": 1, "cs-v-up": 1, "cs-h-in": 1, "cs-h-out": 2}
    assert "Winner SF 1" in drawn and "(1) Player 1" in drawn
    sheet = print_sheet(draw, "Club <day>")
    assert "@page{size:A4 portrait" in sheet and "Club &lt;day&gt;" in sheet
    assert "<button" not in sheet and "<input" not in sheet and "<script" not in sheet


def test_the_print_sheet_of_a_round_robin_lists_each_groups_matches_with_their_results(
        operator_api: Operator) -> None:
    """A round robin's sheet has the fixtures as well as the standings (found by the console walk-through: the
    printed sheet had standings only), each result once decided."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {"name": "Club day",
                                                                   "tables": [{"label": "Court 1"}]})
    draw = operator_api.data("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Veterans", "format": "round_robin", "randomSeed": 3, "bestOf": 1,
        "entries": [{"players": [{"manualName": f"Player {i}"}]} for i in range(1, 4)]})
    court = broadcast["tables"][0]["id"]
    played = operator_api.data("POST", f"/operator/tables/{court}/start-next")
    operator_api.data("POST", f"/operator/matches/{played['id']}/complete", {"gameScores": [{"a": 11, "b": 4}]})
    draw = operator_api.data("GET", f"/operator/draws/{draw['id']}")
    sheet = print_sheet(draw, "Club day", {played["id"]: (1, 0)})
    assert "Group A: matches" in sheet
    fixtures = sheet[sheet.index("Group A: matches"):]
    assert fixtures.count("<tr><td>") == 3  # three entries: three matches
    assert f"<td><b>{played['playerA']}</b></td><td>{played['playerB']}</td><td>1–0</td>" in fixtures


def test_a_waiting_match_is_pinned_to_a_court_from_the_draws_page(console: Console, operator_api: Operator) -> None:
    broadcast, _ = running_draw(operator_api, count=4, courts=2)
    pool = operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/pool")
    court = broadcast["tables"][1]["id"]
    app = console("views/draws.py")
    assert app.button(key="draws_pin_go").disabled
    app.selectbox(key="draws_pin_match").set_value(pool[1]["id"])
    app.selectbox(key="draws_pin_court").set_value(court).run()
    app.button(key="draws_pin_go").click().run()
    assert not app.exception, app.exception
    queue = operator_api.tables()["Court 2"]["queue"]
    assert [m["id"] for m in queue] == [pool[1]["id"]]
    assert [m["id"] for m in operator_api.data("GET", f"/operator/broadcasts/{broadcast['id']}/pool")] == [
        pool[0]["id"]]
    assert f"{pool[1]['playerA']} v {pool[1]['playerB']} is queued on Court 2." in texts(app, "success")


def test_a_slot_nothing_can_fill_reads_bye_in_the_bracket(operator_api: Operator) -> None:
    _, draw = running_draw(operator_api, count=3)
    drawn = bracket_html(draw)
    assert "<div class='cs-slot tbd'><span>bye</span></div>" in drawn and "(1) Player 1" in drawn


def test_the_bracket_shows_games_won_next_to_each_name_of_a_played_match(operator_api: Operator) -> None:
    _, draw = running_draw(operator_api, count=4)
    semi = draw["rounds"][0]["drawMatches"][0]
    games = games_won([{"id": semi["matchID"], "score": {"a": 3, "b": 1}, "gameScores": [
        {"a": 11, "b": 5}, {"a": 9, "b": 11}, {"a": 11, "b": 8}, {"a": 11, "b": 2}]}])
    assert games == {semi["matchID"]: (3, 1)}
    semi |= {"status": "complete", "winnerEntryID": semi["slots"][0]["entryID"], "resultType": "played",
             "loserEntryID": semi["slots"][1]["entryID"]}
    drawn = bracket_html(draw, games=games)
    assert "<div class='cs-slot win'><span>(1) Player 1</span><span class='cs-games'>3</span>" in drawn
    assert "<div class='cs-slot out'><span>(4) Player 4</span><span class='cs-games'>1</span>" in drawn
    assert drawn.count("class='cs-games'") == 2  # the other semifinal is not played yet


def test_the_scoring_page_starts_the_pool_and_corrects_a_draw_winner_who_then_goes_on(
        console: Console, operator_api: Operator) -> None:
    """Found by the QA walk-through: a free court on the Scoring page said "No match waiting on this court" with its
    Start next off while the draw's matches waited in the pool, and a winner-changing correction of a draw's match
    ended in "confirm with confirmDrawChange (draw_change_required, HTTP 409)" after the operator had confirmed."""
    broadcast, draw = running_draw(operator_api, courts=1)
    court = operator_api.data("GET", "/operator/tables")[0]
    first = operator_api.data("POST", f"/operator/tables/{court['id']}/start-next")
    won = [{"a": 11, "b": 3}] * 3
    operator_api.data("POST", f"/operator/matches/{first['id']}/complete", {"gameScores": won})

    app = console("views/scoring.py")
    assert any("Up next from the court pool" in text for text in texts(app, "markdown"))
    assert not app.button(key="scoring_start_next").disabled
    app.button(key="scoring_start_next").click().run()
    assert not app.exception, app.exception
    second = operator_api.data("GET", "/operator/matches?status=active")
    assert [m["drawID"] for m in second] == [draw["id"]] and second[0]["id"] != first["id"]

    app.selectbox(key="correct_pick").select(first["id"]).run()
    app.text_input(key=f"correct_games_{first['id']}").input("3-11, 3-11, 3-11").run()
    app.text_input(key=f"correct_reason_{first['id']}").input("Sides swapped on the sheet").run()
    app.button(key="correct_save").click().run()
    assert any(f"The draw Open follows the new result ({first['playerB']} goes on in a knockout" in text
               for text in texts(app, "warning"))
    app.button(key="correct_confirm").click().run()
    assert not app.exception, app.exception
    assert texts(app, "error") == []
    after = operator_api.data("GET", f"/operator/draws/{draw['id']}")
    final = after["rounds"][-1]["drawMatches"][0]
    names = {e["id"]: e["name"] for e in after["entries"]}
    assert first["playerB"] in [names.get(slot["entryID"] or "") for slot in final["slots"]]
    assert broadcast["id"] == after["broadcastID"]


def test_a_free_courts_pool_button_says_when_no_waiting_match_may_start(console: Console,
                                                                         operator_api: Operator) -> None:
    """Found by the QA walk-through: with every pool match held back (players not checked in), each free court
    still offered "Start next from the pool", and a click did nothing a club could see."""
    broadcast, _ = running_draw(operator_api, count=4, courts=2)
    operator_api.data("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"eventDay": {"requireCheckIn": True}})
    app = console("views/court_board.py")
    for court in broadcast["tables"]:
        button = app.button(key=f"start_pool_{court['id']}")
        assert button.disabled and button.label == "Start next: no waiting match may start now"
    assert operator_api.data("GET", "/operator/matches?status=active") == []


def test_the_correction_picker_offers_the_match_finished_last_first(console: Console,
                                                                    operator_api: Operator) -> None:
    """Found by the QA walk-through: "Completed match (newest first)" put the draw's matches in the order the draw
    made them, so the match just finished was somewhere down the list."""
    broadcast, draw = running_draw(operator_api, count=4, courts=2)
    first, second = (dm["matchID"] for dm in draw["rounds"][0]["drawMatches"])
    for match_id in (second, first):  # the second made is played first
        operator_api.data("POST", f"/operator/matches/{match_id}/move", {"tableID": broadcast["tables"][0]["id"]})
        operator_api.data("POST", f"/operator/matches/{match_id}/start")
        operator_api.data("POST", f"/operator/matches/{match_id}/complete", {"gameScores": [{"a": 11, "b": 3}] * 3})
    app = console("views/scoring.py")
    assert app.selectbox(key="correct_pick").options[0].startswith("Player 1 vs Player 4")
    assert app.selectbox(key="correct_pick").value == first


def test_a_finished_draw_offers_no_start_withdraw_or_delete(console: Console, operator_api: Operator) -> None:
    """Found by the QA walk-through in a browser: a complete draw still offered "Start the free courts", "Withdraw
    an entry" and "Delete this draw"."""
    broadcast, draw = running_draw(operator_api, count=2, courts=1)
    assert not finished(draw)
    [final] = (dm["matchID"] for dm in draw["rounds"][0]["drawMatches"])
    operator_api.data("POST", f"/operator/matches/{final}/move", {"tableID": broadcast["tables"][0]["id"]})
    operator_api.data("POST", f"/operator/matches/{final}/start")
    operator_api.data("POST", f"/operator/matches/{final}/complete", {"gameScores": [{"a": 11, "b": 3}] * 3})
    assert finished(operator_api.data("GET", f"/operator/draws/{draw['id']}"))
    app = console("views/draws.py")
    assert not app.exception, app.exception
    keys = {widget.key for kind in ("button", "selectbox", "checkbox") for widget in getattr(app, kind)}
    assert not keys & {"draws_start_free", "draws_withdraw_pick", "draws_delete_sure", "draws_delete_go"}, keys
    assert "Every match of this draw is decided." in texts(app, "caption")
    assert [m.value for m in app.metric][-1] == "Complete"


def test_a_finished_draw_still_starts_the_free_courts_while_another_draw_waits(console: Console,
                                                                               operator_api: Operator) -> None:
    """The court pool is the broadcast's: with the shown draw complete and another draw's matches waiting, "Start
    the free courts" stays (CI's draws walk-through: the round robin ended first and the knockout was stuck)."""
    broadcast, draw = running_draw(operator_api, count=2, courts=1)
    [final] = (dm["matchID"] for dm in draw["rounds"][0]["drawMatches"])
    operator_api.data("POST", f"/operator/matches/{final}/move", {"tableID": broadcast["tables"][0]["id"]})
    operator_api.data("POST", f"/operator/matches/{final}/start")
    operator_api.data("POST", f"/operator/matches/{final}/complete", {"gameScores": [{"a": 11, "b": 3}] * 3})
    later = operator_api.data("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Plate", "format": "single_elimination", "randomSeed": 3,
        "entries": [{"players": [{"manualName": f"Plate {i}"}]} for i in range(1, 3)]})
    app = console("views/draws.py")
    app.selectbox(key="draws_pick").set_value(draw["id"]).run()
    assert not app.exception, app.exception
    assert later["id"] != draw["id"] and [m.value for m in app.metric][-1] == "Complete"
    [start] = [b for b in app.button if b.key == "draws_start_free"]
    assert not start.disabled
    assert not {w.key for w in app.selectbox} & {"draws_withdraw_pick"}  # nothing to withdraw from a complete draw


def test_entries_from_a_player_list_take_seeds_and_partners_picked_there() -> None:
    """Issue 35 point 7: a list's players make singles or doubles entries, seeded, without typing a name."""
    club = {"id": "pl_1", "externalID": "club", "players": [
        {"externalID": f"p{i}", "firstName": first, "lastName": "Lee", "clubName": club}
        for i, (first, club) in enumerate((("Ann", "TTC"), ("Bo", "TTC"), ("Cy", "BC"), ("Di", None)), start=1)]}
    picked = ["p1", "p2", "p3", "p4"]
    singles = list_entries(club, picked, seeds={"p3": 1})
    assert singles.problems == [] and [e.get("seed") for e in singles.entries] == [None, None, 1, None]
    doubles = list_entries(club, picked, seeds={"p1": 2}, partners={"p1": "p2", "p3": "p4"}, doubles=True)
    assert doubles.problems == []
    assert doubles.entries == [
        {"players": [{"playerListExternalID": "club", "externalID": "p1"},
                     {"playerListExternalID": "club", "externalID": "p2"}], "club": "TTC", "seed": 2},
        {"players": [{"playerListExternalID": "club", "externalID": "p3"},
                     {"playerListExternalID": "club", "externalID": "p4"}], "club": "BC"}]
    missing = list_entries(club, picked, partners={"p1": "p2"}, doubles=True)
    assert missing.problems == ["Pick a partner for Cy Lee.", "Pick a partner for Di Lee."]
    twice = list_entries(club, picked, seeds={"p1": 1, "p3": 1}, partners={"p1": "p2", "p3": "p2"}, doubles=True)
    assert twice.problems == ["Bo Lee is already in a pair; pick another partner for Cy Lee.",
                              "Pick a partner for Di Lee."]


def test_only_entries_still_in_the_draw_may_withdraw(operator_api: Operator) -> None:
    """Issue 35 point 9: the withdraw list offered entries already knocked out."""
    _, draw = running_draw(operator_api)
    first = draw["rounds"][0]["drawMatches"][0]
    operator_api.data("POST", f"/operator/matches/{first['matchID']}/result", {"gameScores": [{"a": 11, "b": 3}] * 3})
    after = operator_api.data("GET", f"/operator/draws/{draw['id']}")
    loser = first["slots"][1]["entryID"]
    assert still_in(after) == [e["id"] for e in after["entries"] if e["id"] != loser]
    groups = operator_api.data("POST", "/operator/draws", {
        "broadcastID": draw["broadcastID"], "name": "Groups", "format": "round_robin", "bestOf": 1,
        "entries": [{"players": [{"manualName": f"Member {i}"}]} for i in range(3)]})
    for dm in groups["rounds"][0]["drawMatches"]:
        if dm["matchID"]:
            operator_api.data("POST", f"/operator/matches/{dm['matchID']}/result", {"gameScores": [{"a": 11, "b": 3}]})
    played = operator_api.data("GET", f"/operator/draws/{groups['id']}")
    assert len(still_in(played)) == 3  # the group still plays: everyone of it is in, also one resting this round


def test_the_new_draw_form_offers_the_club_formats_by_name_and_previews_their_extra_brackets(
    console: Console, operator_api: Operator,
) -> None:
    """Contract §22: each new format is in the picker under its label, with its own options, and the preview shows
    the consolation or play-off bracket beside the main one before anything is saved."""
    operator_api.data("POST", "/operator/broadcasts", {"name": "Club day", "tables": [{"label": "Court 1"}]})
    app = console("views/draws.py")
    picker = app.selectbox(key="draws_format_0")
    assert picker.options[-4:] == [
        "Knockout with a consolation draw", "Knockout with a feed-in consolation",
        "Knockout, every place played off", "Groups, then places played off"]
    app.text_area(key="draws_text_0").set_value("\n".join(f"Player {i}, {i}" for i in range(1, 9))).run()
    for fmt, heading in (("consolation", "Consolation draw"), ("playoff_all", "Play-offs for places"),
                         ("feed_in", "Consolation draw"), ("round_robin_playoff", "Play-offs for places")):
        app.selectbox(key="draws_format_0").set_value(fmt).run()
        assert not app.exception, app.exception
        app.button(key="draws_preview").click().run()
        assert not app.exception, app.exception
        shown = " ".join(str(getattr(h, "value", "")) for h in app.get("html"))
        assert f"<h3>{heading}</h3>" in shown, fmt
    placed = bracket_html({"entries": [{"id": "e1", "name": "Ann Lee", "seed": None, "withdrawn": False},
                                       {"id": "e2", "name": "Bo Kim", "seed": None, "withdrawn": False}],
                           "groups": [], "rounds": [], "placings": [
                               {"place": 1, "entryID": "e1"}, {"place": 1, "entryID": "e2", "stage": "consolation"}]})
    assert "<li>1. Ann Lee</li><li>Consolation winner: Bo Kim</li>" in placed
    assert any(n.label == "Main rounds whose losers feed the consolation" for n in app.number_input) is False
    app.selectbox(key="draws_format_0").set_value("feed_in").run()
    assert any(n.label == "Main rounds whose losers feed the consolation" for n in app.number_input)
    broadcast_id = str(app.selectbox(key="draws_broadcast").value)
    assert operator_api.data("GET", f"/operator/draws?broadcastID={broadcast_id}") == []


def test_a_withdrawn_entry_is_replaced_by_a_lucky_loser_from_the_draws_page(console: Console,
                                                                           operator_api: Operator) -> None:
    """Issue 51: the console offers Replace for a withdrawn entry, with the draw's first-round losers to pick."""
    broadcast, draw = running_draw(operator_api, count=8, courts=1)
    court = broadcast["tables"][0]["id"]
    first, second = draw["rounds"][0]["drawMatches"][:2]
    started = operator_api.data("POST", f"/operator/tables/{court}/start-next")
    assert started["id"] == first["matchID"]
    operator_api.data("POST", f"/operator/matches/{first['matchID']}/complete", {"gameScores": [{"a": 11, "b": 4}] * 3})
    loser, leaving = first["slots"][1]["entryID"], second["slots"][1]["entryID"]
    operator_api.data("POST", f"/operator/draws/{draw['id']}/entries/{leaving}/withdraw")
    app = console("views/draws.py")
    assert not app.exception, app.exception
    assert app.selectbox(key="draws_replace_lucky").options == [entry_names(draw)[loser]]
    app.selectbox(key="draws_replace_pick").set_value(leaving).run()
    app.selectbox(key="draws_replace_lucky").set_value(loser).run()
    app.button(key="draws_replace_go").click().run()
    assert not app.exception, app.exception
    after = operator_api.data("GET", f"/operator/draws/{draw['id']}")
    newcomer = after["entries"][-1]
    lost = next(e for e in draw["entries"] if e["id"] == loser)
    assert newcomer["name"] == lost["name"] and not newcomer["withdrawn"]
    assert after["rounds"][0]["drawMatches"][1]["slots"][1]["entryID"] == newcomer["id"]
    assert any("takes the place of" in s for s in texts(app, "success")), texts(app, "error")


def test_a_correction_blocked_by_a_match_already_played_offers_no_stop(console: Console,
                                                                       operator_api: Operator) -> None:
    """Issue 51, point 4: with a later consolation match already played, the page still offered Stop for the started
    final; after Stop the correction was refused again, and a real match was pulled off court for nothing."""
    broadcast = operator_api.data("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    court = broadcast["tables"][0]["id"]
    draw = operator_api.data("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open", "format": "consolation", "randomSeed": 3,
        "entries": [{"players": [{"manualName": f"Player {i}"}], "seed": i} for i in range(1, 5)]})
    won = [{"a": 11, "b": 3}] * 3

    def play(match_id: str, *, finish: bool = True) -> None:
        operator_api.data("POST", f"/operator/matches/{match_id}/move", {"tableID": court})
        operator_api.data("POST", f"/operator/matches/{match_id}/start", {"force": True})
        if finish:
            operator_api.data("POST", f"/operator/matches/{match_id}/complete", {"gameScores": won})

    firsts = [dm["matchID"] for dm in draw["rounds"][0]["drawMatches"]]
    for match_id in firsts:
        play(match_id)
    after = operator_api.data("GET", f"/operator/draws/{draw['id']}")
    final = [dm for r in after["rounds"] if r["stage"] == "main" for dm in r["drawMatches"]][-1]
    consolation = next(dm for r in after["rounds"] if r["stage"] == "consolation" for dm in r["drawMatches"])
    play(consolation["matchID"])
    play(final["matchID"], finish=False)

    app = console("views/scoring.py")
    app.selectbox(key="correct_pick").select(firsts[0]).run()
    app.text_input(key=f"correct_games_{firsts[0]}").input("3-11, 3-11, 3-11").run()
    app.button(key="correct_save").click().run()
    assert not app.exception, app.exception
    errors = texts(app, "error")
    assert any("Stopping it would not help" in e for e in errors), errors
    assert any("has already been played" in e for e in errors), errors
    assert not [b for b in app.button if b.label.startswith("Stop ")]
    assert [m["id"] for m in operator_api.data("GET", "/operator/matches?status=active")] == [final["matchID"]]


def test_seeds_by_rating_go_to_the_best_rated_picked_players_in_order() -> None:
    """Issue 51.8: "no seeding by rating"; unrated players are never seeded, ties go in name order."""
    club = {"id": "pl_1", "players": [
        {"externalID": "p1", "firstName": "Ann", "lastName": "Lee", "rating": 1500, "gender": "F"},
        {"externalID": "p2", "firstName": "Bo", "lastName": "Kim", "rating": 1900, "gender": "M"},
        {"externalID": "p3", "firstName": "Cy", "lastName": "Day", "gender": "M"},
        {"externalID": "p4", "firstName": "Al", "lastName": "Ray", "rating": 1500.0, "gender": "M"}]}
    assert rating_seeds(club, ["p1", "p2", "p3", "p4"], 3) == {"p2": 1, "p4": 2, "p1": 3}
    assert rating_seeds(club, ["p1", "p3", "p4"], 5) == {"p4": 1, "p1": 2}
    assert rating_seeds(club, ["p1", "p2"], 0) == {}
    assert genders(club) == ["F", "M"]


def test_a_mens_draw_from_a_mixed_list_is_picked_by_gender_and_seeded_by_rating(
    console: Console, operator_api: Operator,
) -> None:
    """Issue 51.8: taking the women out of a men's draw made from a club list took a click per player, and seeds
    were typed by hand: one gender pick, one number, then the draw is saved with those entries and seeds."""
    broadcast = operator_api.data("POST", "/operator/broadcasts",
                                  {"name": "Club day", "tables": [{"label": "Court 1"}]})
    listed = operator_api.data("POST", "/operator/player-lists", {"name": "Members"})
    people = [("Ann", "F", 1700), ("Bo", "M", 1500), ("Cy", "M", 1900), ("Di", "F", 2000), ("Ed", "M", None),
              ("Fu", "M", 1600)]
    for first, gender, rating in people:
        operator_api.data("POST", f"/operator/player-lists/{listed['id']}/players",
                          {"firstName": first, "lastName": "Lee", "gender": gender}
                          | ({"rating": rating} if rating else {}))
    app = console("views/draws.py")
    app.radio(key="draws_source_0").set_value("From a player list").run()
    assert not app.exception, app.exception
    app.selectbox(key=f"draws_gender_{listed['id']}_0").set_value("M").run()
    players = next(m for m in app.multiselect if m.label == "Players")
    assert [players.format_func(v) for v in players.value] == ["Bo Lee", "Cy Lee", "Ed Lee", "Fu Lee"]
    app.number_input(key=f"draws_rated_{listed['id']}_0").set_value(2).run()
    assert not app.exception, app.exception
    assert "4 entries" in " ".join(c.value for c in app.caption)
    app.button(key="draws_preview").click().run()
    app.button(key="draws_save").click().run()
    assert not app.exception, app.exception
    [draw] = operator_api.data("GET", f"/operator/draws?broadcastID={broadcast['id']}")
    seeded = {e["name"]: e.get("seed") for e in draw["entries"]}
    assert seeded == {"Bo Lee": None, "Cy Lee": 1, "Ed Lee": None, "Fu Lee": 2}
