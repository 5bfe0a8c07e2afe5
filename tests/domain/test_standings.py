"""Tie-break rules of contract §22 (`domain/draws/standings.py`): property tests over any group and any results,
then the worked examples of docs/draws.md, exactly."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.draws import standings as sd
from domain.draws.model import DrawMatch, DrawMatchStatus, DrawPlayer, Entry, Options, ResultType, Score, Slot, Stage
from domain.errors import Invalid

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
Result = tuple[int, int, int, int, int, int, str]  # a, b, games a, games b, points a, points b, result type


def entry(index: int, seed: int | None = None) -> Entry:
    return Entry(id=f"ent_{index}", name=f"E{index}", players=[DrawPlayer(name=f"E{index}")], seed=seed)


def match(number: int, a: str, b: str, games: tuple[int, int], points: tuple[int, int],
          result: ResultType = ResultType.PLAYED) -> DrawMatch:
    """A decided group match between a (slot 0) and b; the side with more games wins (a on equal games)."""
    a_won = games[0] >= games[1]
    return DrawMatch(id=f"dm_{number}", stage=Stage.GROUP, round_number=1, number=number, group="A",
                     slots=[Slot(entry_id=a), Slot(entry_id=b)], status=DrawMatchStatus.COMPLETE,
                     winner_entry_id=a if a_won else b, loser_entry_id=b if a_won else a, result_type=result,
                     score=Score(games_a=games[0], games_b=games[1], points_a=points[0], points_b=points[1]))


@st.composite
def groups(draw: st.DrawFn) -> tuple[list[Entry], list[DrawMatch]]:
    """2-8 entries, some seeded, and any results for any subset of the pairs (few distinct scores, so ties are
    common), some walkovers and retirements."""
    n = draw(st.integers(2, 8))
    seeds = draw(st.permutations(range(1, n + 1)))
    seeded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    entries = [entry(i, seeds[i] if seeded[i] else None) for i in range(n)]
    matches = []
    for number, (i, j) in enumerate(itertools.combinations(range(n), 2), start=1):
        if not draw(st.booleans()) and draw(st.booleans()):
            continue  # about a quarter of the pairs have not played yet
        winner_a = draw(st.booleans())
        loser_games = draw(st.integers(0, 1))
        points = (draw(st.sampled_from([11, 21])), draw(st.sampled_from([5, 11, 19])))
        result = draw(st.sampled_from([ResultType.PLAYED, ResultType.PLAYED, ResultType.WALKOVER,
                                       ResultType.RETIRED]))
        games = (2, loser_games) if winner_a else (loser_games, 2)
        matches.append(match(number, entries[i].id, entries[j].id, games,
                             points if winner_a else (points[1], points[0]), result))
    return entries, matches


SETTINGS = st.one_of(st.sampled_from(["bwf", "ittf", "default"]),
                     st.lists(st.sampled_from(list(sd.CUSTOM_STEPS)), min_size=1, max_size=8, unique=True))


# ------------------------------------------------------------------------------------ an independent count
def tally(matches: Sequence[DrawMatch], members: set[str] | None = None) -> dict[str, dict[str, int]]:
    """Wins, losses, walkovers lost, games and points of each entry, over the matches between `members` (None:
    every match), counted here without the module's code."""
    out: dict[str, dict[str, int]] = {}
    for m in matches:
        a, b = m.slots[0].entry_id or "", m.slots[1].entry_id or ""
        if members is not None and not (a in members and b in members):
            continue
        assert m.score is not None
        for me, games, points in ((a, (m.score.games_a, m.score.games_b), (m.score.points_a, m.score.points_b)),
                                  (b, (m.score.games_b, m.score.games_a), (m.score.points_b, m.score.points_a))):
            row = out.setdefault(me, dict.fromkeys(("w", "l", "wo", "gw", "gl", "pw", "pl"), 0))
            won = m.winner_entry_id == me
            row["w" if won else "l"] += 1
            row["wo"] += not won and m.result_type == ResultType.WALKOVER
            row["gw"] += games[0]
            row["gl"] += games[1]
            row["pw"] += points[0]
            row["pl"] += points[1]
    return out


def measure(step: sd.Step, entry_: Entry, row: dict[str, int] | None,
            lots: dict[str, int]) -> Fraction | float | int:
    r = row or dict.fromkeys(("w", "l", "wo", "gw", "gl", "pw", "pl"), 0)

    def ratio(won: int, lost: int) -> Fraction | float:
        return Fraction(won, lost) if lost else (float("inf") if won else Fraction(0))

    found: dict[sd.Measure, Callable[[], Fraction | float | int]] = {
        sd.Measure.WINS: lambda: r["w"], sd.Measure.MATCH_POINTS: lambda: 2 * r["w"] + r["l"] - r["wo"],
        sd.Measure.GAME_DIFFERENCE: lambda: r["gw"] - r["gl"], sd.Measure.POINT_DIFFERENCE: lambda: r["pw"] - r["pl"],
        sd.Measure.GAMES_WON: lambda: r["gw"], sd.Measure.POINTS_WON: lambda: r["pw"],
        sd.Measure.GAME_RATIO: lambda: ratio(r["gw"], r["gl"]), sd.Measure.POINT_RATIO: lambda: ratio(r["pw"], r["pl"]),
        sd.Measure.SEED: lambda: float("-inf") if entry_.seed is None else -entry_.seed,
        sd.Measure.LOT: lambda: lots[entry_.id],
    }
    return found[step.measure]()


def ranked(entries: list[Entry], matches: list[DrawMatch], setting: sd.Setting,
           seed: int | None = 5) -> list[tuple[str, int, str | None]]:
    rows = sd.standings(entries, matches, Options(tiebreak=setting, random_seed=seed))
    return [(r.entry_id, r.rank, r.decided_by) for r in rows]


# ------------------------------------------------------------------------------------------ properties
@PROPERTY
@given(groups(), SETTINGS)
def test_standings_are_a_total_order_and_the_same_whatever_the_order_of_the_matches(
        group: tuple[list[Entry], list[DrawMatch]], setting: sd.Setting) -> None:
    entries, matches = group
    rows = ranked(entries, matches, setting)
    assert [rank for _, rank, _ in rows] == list(range(1, len(entries) + 1))
    assert sorted(e for e, _, _ in rows) == sorted(e.id for e in entries)
    assert rows[-1][2] is None  # the last row has nobody below it
    assert all(d is None or d in sd.DECIDED_BY for _, _, d in rows)
    assert ranked(entries, list(reversed(matches)), setting) == rows
    assert ranked(entries, matches, setting) == rows


@PROPERTY
@given(groups(), SETTINGS)
def test_the_first_step_ranks_and_decided_by_is_null_exactly_where_it_separated_two_rows(
        group: tuple[list[Entry], list[DrawMatch]], setting: sd.Setting) -> None:
    entries, matches = group
    rule = sd.rule_of(setting)
    rows = ranked(entries, matches, setting)
    by_id = {e.id: e for e in entries}
    overall = tally(matches)
    lots = {e.id: sd._lot(5, e, i) for i, e in enumerate(entries)}
    first = [measure(rule.steps[0], by_id[e], overall.get(e), lots) for e, _, _ in rows]
    assert first == sorted(first, reverse=True)
    for i in range(len(rows) - 1):
        assert (rows[i][2] is None) == (first[i] != first[i + 1])


@PROPERTY
@given(groups(), st.lists(st.sampled_from(list(sd.CUSTOM_STEPS)), min_size=1, max_size=8, unique=True))
def test_custom_steps_apply_in_order_and_decided_by_names_the_first_that_separated_two_rows(
        group: tuple[list[Entry], list[DrawMatch]], setting: sd.Setting) -> None:
    """From the table alone: for each pair of neighbours whose boundary names step k, they are level on every step
    before k and the upper one is ahead on step k, each step counted over the run of rows still level at it
    (among the tied: the matches between those rows only); a tie no step breaks is level on every step."""
    entries, matches = group
    rule = sd.rule_of(setting)
    names = [s.name for s in rule.steps]
    rows = ranked(entries, matches, setting)
    by_id = {e.id: e for e in entries}
    lots = {e.id: sd._lot(5, e, i) for i, e in enumerate(entries)}
    level = [0 if d is None else len(names) if d == sd.UNBROKEN else names.index(d) for _, _, d in rows[:-1]]
    for i, k in enumerate(level):
        for j in range(min(k, len(names) - 1) + 1):
            lo, hi = i, i + 1
            while lo > 0 and level[lo - 1] >= j:
                lo -= 1
            while hi < len(rows) - 1 and level[hi] >= j:
                hi += 1
            block = {rows[x][0] for x in range(lo, hi + 1)}
            counts = tally(matches, block if rule.steps[j].among_tied else None)
            upper, lower = (measure(rule.steps[j], by_id[rows[x][0]], counts.get(rows[x][0]), lots) for x in (i, i + 1))
            if j < k:
                assert upper == lower, (i, j, k)
            else:
                assert upper > lower, (i, j, k)
    if "lot" in names:
        assert sd.UNBROKEN not in [d for _, _, d in rows]


@PROPERTY
@given(groups())
def test_bwf_two_level_entries_are_decided_by_their_match_and_no_tie_is_left_unbroken(
        group: tuple[list[Entry], list[DrawMatch]]) -> None:
    entries, matches = group
    rows = ranked(entries, matches, "bwf")
    for (upper, _, decided), (lower, _, _) in itertools.pairwise(rows):
        assert decided != sd.UNBROKEN
        if decided == "head_to_head":
            assert any(m.winner_entry_id == upper and m.loser_entry_id == lower for m in matches)
    # two entries level on wins are always decided by their match when they played one
    for (upper, _, _), (lower, _, _) in itertools.pairwise(rows):
        wins = tally(matches)
        level = [e for e, _, _ in rows if wins.get(e, {}).get("w", 0) == wins.get(upper, {}).get("w", 0)]
        played = [m for m in matches if {m.winner_entry_id, m.loser_entry_id} == {upper, lower}]
        if level == [upper, lower] and played:
            assert played[0].winner_entry_id == upper


@PROPERTY
@given(groups())
def test_ittf_ranks_by_match_points_and_no_tie_is_left_unbroken(group: tuple[list[Entry], list[DrawMatch]]) -> None:
    entries, matches = group
    rows = ranked(entries, matches, "ittf")
    counts = tally(matches)
    points = [2 * counts.get(e, {}).get("w", 0) + counts.get(e, {}).get("l", 0) - counts.get(e, {}).get("wo", 0)
              for e, _, _ in rows]
    assert points == sorted(points, reverse=True)
    assert all(d in (None, "match_points", "game_ratio", "point_ratio", "lot") for _, _, d in rows)


# -------------------------------------------------------------------------------- worked examples (docs)
def bwf_example() -> tuple[list[Entry], list[DrawMatch]]:
    """docs/draws.md, BWF: Ann, Bea and Cat each win two (a circle: Ann beat Bea, Bea beat Cat, Cat beat Ann),
    Dot wins none. Games: Ann 5:3 (+2), Bea 4:3 and Cat 5:4 (+1 each); points: Bea 122:100 (+22), Cat 168:140
    (+28)."""
    ann, bea, cat, dot = (Entry(id=f"ent_{n}", name=n, players=[DrawPlayer(name=n)]) for n in
                          ("ann", "bea", "cat", "dot"))
    matches = [
        match(1, ann.id, bea.id, (2, 0), (42, 30)),
        match(2, bea.id, cat.id, (2, 1), (50, 48)),
        match(3, cat.id, ann.id, (2, 1), (60, 40)),
        match(4, ann.id, dot.id, (2, 0), (42, 10)),
        match(5, bea.id, dot.id, (2, 0), (42, 10)),
        match(6, cat.id, dot.id, (2, 1), (60, 50)),
    ]
    return [ann, bea, cat, dot], matches


def test_bwf_worked_example_three_level_on_wins_game_difference_then_head_to_head() -> None:
    entries, matches = bwf_example()
    assert ranked(entries, matches, "bwf") == [
        ("ent_ann", 1, "game_difference"), ("ent_bea", 2, "head_to_head"), ("ent_cat", 3, None), ("ent_dot", 4, None)]
    # default: the three are level among themselves too (one win each), Ann ahead on game difference, then the
    # steps start again among the two still level: Bea beat Cat (issue 51: they were separated "on seed")
    assert ranked(entries, matches, "default") == [
        ("ent_ann", 1, "game_difference"), ("ent_bea", 2, "head_to_head"), ("ent_cat", 3, None),
        ("ent_dot", 4, None)]
    # a custom list goes on with its next step, as written: Cat ahead of Bea on point difference
    assert ranked(entries, matches, ["wins", "head_to_head", "game_difference", "point_difference", "seed"]) == [
        ("ent_ann", 1, "game_difference"), ("ent_cat", 2, "point_difference"), ("ent_bea", 3, None),
        ("ent_dot", 4, None)]


def test_bwf_two_level_on_wins_are_decided_by_their_match_before_any_difference() -> None:
    """a and b win one each (a beat b; b has the better game difference); c wins three; a v d not played yet."""
    a, b, c, d = (entry(i) for i in range(4))
    matches = [match(1, a.id, b.id, (2, 1), (50, 49)), match(2, b.id, d.id, (2, 0), (42, 0)),
               match(3, c.id, a.id, (2, 0), (42, 0)), match(4, c.id, b.id, (2, 1), (50, 40)),
               match(5, c.id, d.id, (2, 0), (42, 0))]
    assert ranked([a, b, c, d], matches, "bwf") == [
        ("ent_2", 1, None), ("ent_0", 2, "head_to_head"), ("ent_1", 3, None), ("ent_3", 4, None)]
    assert ranked([a, b, c, d], matches, ["wins", "game_difference", "head_to_head"]) == [
        ("ent_2", 1, None), ("ent_1", 2, "game_difference"), ("ent_0", 3, None), ("ent_3", 4, None)]


def ittf_example() -> tuple[list[Entry], list[DrawMatch]]:
    """docs/draws.md, ITTF: best of five; Ann beat Bea 3-1, Bea beat Cat 3-2, Cat beat Ann 3-0, and all three beat
    Dot; Dot gave Eve a walkover, Eve lost to the other three."""
    ann, bea, cat, dot, eve = (Entry(id=f"ent_{n}", name=n, players=[DrawPlayer(name=n)]) for n in
                               ("ann", "bea", "cat", "dot", "eve"))
    matches = [
        match(1, ann.id, bea.id, (3, 1), (44, 30)), match(2, bea.id, cat.id, (3, 2), (55, 50)),
        match(3, cat.id, ann.id, (3, 0), (33, 20)),
        *(match(4 + i, x.id, dot.id, (3, 0), (33, 10)) for i, x in enumerate((ann, bea, cat))),
        *(match(7 + i, x.id, eve.id, (3, 0), (33, 10)) for i, x in enumerate((ann, bea, cat))),
        match(10, eve.id, dot.id, (3, 0), (0, 0), ResultType.WALKOVER),
    ]
    return [ann, bea, cat, dot, eve], matches


def test_ittf_worked_example_game_ratio_among_the_three_and_a_walkover_scores_no_match_point() -> None:
    entries, matches = ittf_example()
    # Ann, Bea, Cat: 3 wins 1 loss, 7 match points each; among them games Ann 3:4, Bea 4:5, Cat 5:3
    # Eve: 1 win (the walkover) 3 losses, 5 points; Dot: 0 wins, 3 losses played and 1 walkover lost, 3 points
    assert ranked(entries, matches, "ittf") == [
        ("ent_cat", 1, "game_ratio"), ("ent_bea", 2, "game_ratio"), ("ent_ann", 3, None), ("ent_eve", 4, None),
        ("ent_dot", 5, None)]


def test_ittf_starts_again_among_the_two_a_step_left_level() -> None:
    """Four level on match points; among them A wins all three, B, C, D one each: A is placed, and B, C, D start
    again with only the matches between them (each one win: level), then game ratio among the three."""
    a, b, c, d = (entry(i) for i in range(4))
    matches = [match(1, a.id, b.id, (3, 0), (33, 0)), match(2, a.id, c.id, (3, 0), (33, 0)),
               match(3, a.id, d.id, (3, 0), (33, 0)), match(4, b.id, c.id, (3, 0), (33, 0)),
               match(5, c.id, d.id, (3, 1), (40, 30)), match(6, d.id, b.id, (3, 2), (50, 40))]
    rows = ranked([a, b, c, d], matches, "ittf")
    assert rows[0] == ("ent_0", 1, None)  # 6 match points, the others 4 each
    # among b, c, d: b 3:3 games, c 3:4, d 4:5 -> b 1.0, d 0.8, c 0.75
    assert rows[1:] == [("ent_1", 2, "game_ratio"), ("ent_3", 3, "game_ratio"), ("ent_2", 4, None)]


def test_a_custom_list_without_lot_reports_a_tie_no_step_breaks_as_unbroken_in_entry_order() -> None:
    a, b, c = entry(1), entry(2), entry(3)
    matches = [match(1, a.id, b.id, (2, 0), (42, 20)), match(2, c.id, b.id, (2, 0), (42, 20))]
    assert ranked([a, b, c], matches, ["wins", "points_won"]) == [
        ("ent_1", 1, sd.UNBROKEN), ("ent_3", 2, None), ("ent_2", 3, None)]
    assert ranked([c, b, a], matches, ["wins", "points_won"])[:2] == [("ent_3", 1, sd.UNBROKEN), ("ent_1", 2, None)]
    with_lot = ranked([a, b, c], matches, ["wins", "points_won", "lot"])
    assert with_lot[0][2] == "lot" and {with_lot[0][0], with_lot[1][0]} == {"ent_1", "ent_3"}


def test_lots_follow_random_seed_the_same_seed_the_same_lots() -> None:
    players = [entry(i) for i in range(6)]
    firsts = set()
    for seed in range(12):
        once = ranked(players, [], "bwf", seed=seed)
        assert once == ranked(players, [], "bwf", seed=seed)
        assert [d for _, _, d in once[:-1]] == ["lot"] * 5
        firsts.add(once[0][0])
    assert len(firsts) > 1  # the seed, not the entry order, decides


def test_default_is_section_13s_order_seed_then_entry_order() -> None:
    a, b, c = entry(1), entry(2, seed=1), entry(3)
    assert ranked([a, b, c], [], "default") == [("ent_2", 1, "seed"), ("ent_1", 2, sd.UNBROKEN), ("ent_3", 3, None)]
    assert sd.standings([a, b, c], []) == sd.standings([a, b, c], [], Options(tiebreak="default"))


def test_a_bye_is_a_win_not_a_match_played() -> None:
    a, b = entry(1), entry(2)
    bye = DrawMatch(id="dm_1", stage=Stage.SWISS, round_number=1, number=1, group=None,
                    slots=[Slot(entry_id=a.id), Slot(closed=True)], status=DrawMatchStatus.BYE,
                    winner_entry_id=a.id, result_type=ResultType.BYE)
    rows = sd.standings([a, b], [bye], Options(tiebreak="ittf"))
    assert [(r.entry_id, r.played, r.won, r.decided_by) for r in rows] == [("ent_1", 0, 1, None), ("ent_2", 0, 0, None)]


@pytest.mark.parametrize(("value", "message"), [
    ("fivb", "Unknown tie-break rule 'fivb': give bwf, ittf, default or a list of steps."),
    (["wins", "sets_won"], "Unknown tie-break step 'sets_won': steps are wins, head_to_head, game_difference, "
                           "point_difference, games_won, points_won, seed, lot."),
    (["wins", "wins"], "A tie-break step is named twice."),
    ([], "Give a rule (bwf, ittf, default) or a non-empty list of steps."),
    (["match_points"], "Unknown tie-break step 'match_points': steps are wins, head_to_head, game_difference, "
                       "point_difference, games_won, points_won, seed, lot."),
    (3, "Give a rule (bwf, ittf, default) or a non-empty list of steps."),
])
def test_a_setting_that_is_no_rule_is_refused_naming_tiebreak(value: object, message: str) -> None:
    with pytest.raises(Invalid) as refused:
        sd.checked_setting(value)
    assert refused.value.details == {"json": {"tiebreak": [message]}}


def test_words_say_the_place_and_the_step() -> None:
    assert sd.decided_words(2, "head_to_head") == "2nd on head-to-head"
    assert sd.decided_words(1, "lot") == "1st by lot"
    assert sd.decided_words(3, "game_ratio") == "3rd on game ratio between them"
    assert sd.decided_words(4, None) is None
    assert [sd.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    assert set(sd.WORDS) == set(sd.DECIDED_BY)
