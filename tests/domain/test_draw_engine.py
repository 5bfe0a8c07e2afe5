"""The draw engine (contract §13) under any entry count and any results: property tests, then exact placement."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter

import networkx as nx
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.draws import codec, engine
from domain.draws.bracket import IdFactory
from domain.draws.formats.base import DrawSpec, EntrySpec
from domain.draws.formats.swiss import pairs_of
from domain.draws.labels import draw_round_names
from domain.draws.model import (
    Draw,
    DrawFormat,
    DrawMatch,
    DrawMatchStatus,
    DrawPlayer,
    DrawStatus,
    Entry,
    Options,
    ResultType,
    Score,
    Slot,
    Stage,
    Standing,
)
from domain.draws.placement import circle_rounds, seed_order
from domain.errors import Conflict, Invalid

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


_COUNTER = itertools.count(1)


def ids() -> IdFactory:
    """Unique IDs across every factory of the run (as real IDs are)."""
    return lambda prefix: f"{prefix}_{next(_COUNTER)}"


def make(fmt: DrawFormat, n: int, *, seeds: int = 0, clubs: list[str | None] | None = None, doubles: bool = False,
         group_count: int | None = None, **options: object) -> Draw:
    entries = [
        EntrySpec(players=[DrawPlayer(name=f"P{i}")] + ([DrawPlayer(name=f"Q{i}")] if doubles else []),
                  seed=i + 1 if i < seeds else None, club=clubs[i] if clubs else None)
        for i in range(n)
    ]
    spec = DrawSpec(broadcast_id="brd_1", name="D", format=fmt, entries=entries, group_count=group_count,
                    options=Options(**options))  # type: ignore[arg-type]
    return engine.make_draw(spec, draw_id="drw_1", created_on="2026-01-01T00:00:00Z", new_id=ids())


def play_out(draw: Draw, rng: random.Random, new_id: IdFactory | None = None) -> list[tuple[str, str, str]]:
    """Plays every ready match with a random winner until nothing is ready; returns (round key, winner, loser)."""
    new_id = new_id or ids()
    played: list[tuple[str, str, str]] = []
    for _ in range(100_000):
        ready = engine.ready_without_match(draw)
        if not ready:
            break
        dm = ready[0]
        dm.match_id = f"mat_{dm.id}"
        if rng.random() < 0.5:
            engine.mark_active(draw, dm.id)
        winner = rng.randrange(2)
        games = (3, rng.randrange(3))
        score = Score(games_a=games[winner == 1], games_b=games[winner == 0], points_a=rng.randrange(60),
                      points_b=rng.randrange(60))
        engine.record_result(draw, dm.id, winner_slot=winner, result_type=ResultType.PLAYED, score=score,
                             new_id=new_id)
        played.append((f"{dm.stage}:{dm.round_number}", dm.winner_entry_id or "", dm.loser_entry_id or ""))
    return played


def assert_nobody_twice_in_a_round(draw: Draw) -> None:
    for rnd in draw.rounds:
        seen = Counter(e for i in rnd.draw_match_ids for e in draw.matches[i].entry_ids())
        assert max(seen.values(), default=1) == 1, (rnd.stage, rnd.number)


counts = st.integers(min_value=2, max_value=128)


@PROPERTY
@given(n=counts, seeds=st.integers(0, 16), third=st.booleans(), seed=st.integers(0, 2**32))
def test_single_elimination_has_one_winner_after_n_minus_1_matches(n: int, seeds: int, third: bool, seed: int) -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, n, seeds=min(seeds, n), third_place=third, random_seed=seed)
    played = play_out(draw, random.Random(seed))
    main = [p for p in played if p[0].startswith("main")]
    assert len(main) == n - 1
    losses = Counter(loser for _, _, loser in main)
    assert all(count == 1 for count in losses.values())
    assert len(losses) == n - 1
    assert draw.status == DrawStatus.COMPLETE
    assert [p.place for p in draw.placings][:2] == [1, 2]
    champion = draw.placings[0].entry_id
    assert champion not in losses
    if third and n >= 3:
        assert {p.place for p in draw.placings} >= {1, 2, 3}
    assert_nobody_twice_in_a_round(draw)


@PROPERTY
@given(n=counts, reset=st.booleans(), seed=st.integers(0, 2**32))
def test_double_elimination_puts_everyone_but_one_out_after_exactly_two_losses(n: int, reset: bool, seed: int) -> None:
    draw = make(DrawFormat.DOUBLE_ELIMINATION, n, grand_final_reset=reset, random_seed=seed)
    played = play_out(draw, random.Random(seed))
    losses = Counter(loser for _, _, loser in played)
    assert draw.status == DrawStatus.COMPLETE
    champion = draw.placings[0].entry_id
    runner_up = draw.placings[1].entry_id
    assert losses[champion] <= 1
    for entry in draw.entries:
        if entry.id == champion:
            continue
        if not reset and entry.id == runner_up and losses[entry.id] == 1:
            continue  # without a reset the main bracket's winner is out after losing the one final
        assert losses[entry.id] == 2, entry.name
    assert_nobody_twice_in_a_round(draw)


@PROPERTY
@given(n=counts, groups=st.integers(1, 16), seed=st.integers(0, 2**32))
def test_round_robin_plays_every_pair_of_a_group_exactly_once(n: int, groups: int, seed: int) -> None:
    groups = max(1, min(groups, n // 2))
    if n // groups > 16:
        groups = math.ceil(n / 16)  # groups of up to 16 keep the run short; the pairing rule does not depend on size
    draw = make(DrawFormat.ROUND_ROBIN, n, group_count=groups, random_seed=seed)
    sizes = [len(g.entry_ids) for g in draw.groups]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == n
    played = play_out(draw, random.Random(seed))
    pairs = Counter(frozenset((w, lo)) for _, w, lo in played)
    assert all(c == 1 for c in pairs.values())
    for group in draw.groups:
        members = group.entry_ids
        for entry in members:
            assert sum(1 for _, w, lo in played if entry in (w, lo)) == len(members) - 1
        assert [r.rank for r in group.standings] == list(range(1, len(members) + 1))
    assert draw.status == DrawStatus.COMPLETE and len(draw.placings) == n
    assert_nobody_twice_in_a_round(draw)


@PROPERTY
@given(n=counts, seed=st.integers(0, 2**32))
def test_swiss_never_pairs_a_rematch_and_everyone_plays_every_round(n: int, seed: int) -> None:
    draw = make(DrawFormat.SWISS, n, random_seed=seed)
    played = play_out(draw, random.Random(seed))
    rounds = max(1, math.ceil(math.log2(n)))
    assert len([r for r in draw.rounds if r.stage == Stage.SWISS]) == rounds
    pairs = Counter(frozenset((w, lo)) for _, w, lo in played)
    assert all(c == 1 for c in pairs.values())
    byes = Counter(m.winner_entry_id for m in draw.matches.values() if m.result_type == ResultType.BYE)
    for entry in draw.entries:
        assert sum(1 for _, w, lo in played if entry.id in (w, lo)) + byes[entry.id] == rounds
    assert all(c == 1 for c in byes.values())
    assert draw.status == DrawStatus.COMPLETE and len(draw.placings) == n
    assert_nobody_twice_in_a_round(draw)


@PROPERTY
@given(n=st.integers(1, 12).map(lambda half: half * 2), wins=st.lists(st.integers(0, 4), min_size=24, max_size=24),
       seed=st.integers(0, 2**32), played_share=st.sampled_from([0.0, 0.2, 0.5, 0.8]))
def test_swiss_pairs_are_a_minimum_weight_perfect_matching(n: int, wins: list[int], seed: int,
                                                           played_share: float) -> None:
    """The engine's pairing (rustworkx) costs what networkx's minimum-weight matching costs, and finds no pairing
    exactly when there is no perfect matching without a rematch."""
    rng = random.Random(seed)
    ranked = [Entry(id=f"ent_{i}", name=f"P{i}", players=[DrawPlayer(name=f"P{i}")]) for i in range(n)]
    won = sorted(wins[:n], reverse=True)
    rows = {e.id: Standing(entry_id=e.id, rank=i + 1, won=won[i]) for i, e in enumerate(ranked)}
    played = {frozenset((a.id, b.id)) for a, b in itertools.combinations(ranked, 2) if rng.random() < played_share}
    half = n // 2

    def cost(i: int, j: int) -> int:
        return (won[i] - won[j]) ** 2 * 10_000 + abs(j - i - half)

    reference = nx.Graph()
    reference.add_weighted_edges_from((i, j, cost(i, j)) for i, j in itertools.combinations(range(n), 2)
                                      if frozenset((ranked[i].id, ranked[j].id)) not in played)
    best = nx.min_weight_matching(reference)
    pairs = pairs_of(ranked, rows, played, first_round=False)
    if len(best) * 2 != n:
        assert pairs is None
        return
    assert pairs is not None and len(pairs) == half
    index = {e.id: i for i, e in enumerate(ranked)}
    chosen = [(index[a.id], index[b.id]) for a, b in pairs]
    assert sorted(i for pair in chosen for i in pair) == list(range(n))
    assert not any(frozenset((a.id, b.id)) in played for a, b in pairs)
    assert all(i < j for i, j in chosen) and chosen == sorted(chosen)
    assert sum(cost(i, j) for i, j in chosen) == sum(cost(min(i, j), max(i, j)) for i, j in best)


@PROPERTY
@given(n=st.integers(4, 128), advance=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_groups_to_knockout_plays_groups_then_one_knockout(n: int, advance: int, seed: int) -> None:
    groups = math.ceil(n / 4)
    advance = min(advance, n // groups)
    if groups * advance < 2:
        return
    draw = make(DrawFormat.GROUPS_KNOCKOUT, n, advance_per_group=advance, random_seed=seed)
    played = play_out(draw, random.Random(seed))
    knockout = [p for p in played if p[0].startswith("main")]
    assert len(knockout) == groups * advance - 1
    assert draw.status == DrawStatus.COMPLETE and draw.placings[0].place == 1
    assert_nobody_twice_in_a_round(draw)


def test_doubles_entries_are_named_after_both_players() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 4, doubles=True)
    assert draw.entries[0].name == "P0 / Q0"


def test_seed_positions_of_sixteen_are_the_standard_ones() -> None:
    assert seed_order(16) == [1, 16, 8, 9, 5, 12, 4, 13, 3, 14, 6, 11, 7, 10, 2, 15]


def test_sixteen_seeded_entries_meet_in_the_standard_first_round() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 16, seeds=16)
    seed_of = {e.id: e.seed for e in draw.entries}
    first = draw.rounds[0]
    pairs = [tuple(seed_of[s.entry_id or ""] for s in draw.matches[i].slots) for i in first.draw_match_ids]
    assert pairs == [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]
    assert draw_round_names(draw) == ["Round of 16", "Quarterfinal", "Semifinal", "Final"]


def test_byes_go_to_the_highest_seeds() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 13, seeds=4)
    seed_of = {e.id: e.seed for e in draw.entries}
    byes = [draw.matches[i] for i in draw.rounds[0].draw_match_ids if draw.matches[i].status == DrawMatchStatus.BYE]
    assert sorted(seed_of[m.winner_entry_id or ""] or 99 for m in byes) == [1, 2, 3]
    assert all(m.result_type == ResultType.BYE for m in byes)


def test_same_random_seed_gives_the_same_draw_and_another_seed_another() -> None:
    def layout(seed: int) -> list[list[str | None]]:
        draw = make(DrawFormat.SINGLE_ELIMINATION, 32, seeds=4, random_seed=seed)
        names = {e.id: e.name for e in draw.entries}
        return [[names.get(s.entry_id or "") for s in m.slots] for m in draw.ordered_matches()]

    assert layout(7) == layout(7)
    assert layout(7) != layout(8)


def test_clubs_are_separated_in_the_first_round_when_possible() -> None:
    for seed in range(20):
        clubs: list[str | None] = [*["North"] * 8, *["South"] * 8]
        draw = make(DrawFormat.SINGLE_ELIMINATION, 16, clubs=clubs, random_seed=seed)
        club = {e.id: e.club for e in draw.entries}
        for i in draw.rounds[0].draw_match_ids:
            a, b = (club[s.entry_id or ""] for s in draw.matches[i].slots)
            assert a != b


def test_two_groups_to_knockout_cross_winners_and_runners_up() -> None:
    draw = make(DrawFormat.GROUPS_KNOCKOUT, 8, group_count=2)
    semis = [draw.matches[i] for r in draw.rounds if r.stage == Stage.MAIN and r.number == 1 for i in r.draw_match_ids]
    sources = [tuple((s.source.group, s.source.rank) for s in m.slots if s.source) for m in semis]
    assert sources == [(("A", 1), ("B", 2)), (("B", 1), ("A", 2))]


def test_circle_method_rests_one_entry_per_round_when_odd() -> None:
    rounds = circle_rounds(5)
    assert len(rounds) == 5
    assert all(len(r) == 2 for r in rounds)
    assert len({frozenset(p) for r in rounds for p in r}) == 10


def test_standings_rank_by_wins_then_head_to_head() -> None:
    draw = make(DrawFormat.ROUND_ROBIN, 3, seeds=3)
    by_seed = {e.seed: e.id for e in draw.entries}
    new_id = ids()
    for dm in list(engine.ready_without_match(draw)):
        seeds = [next(e.seed or 0 for e in draw.entries if e.id == s.entry_id) for s in dm.slots]  # all seeded
        # 3 beats 1, 1 beats 2, 2 beats 3: all on one win; head-to-head ties too; game difference decides.
        wins = {frozenset((3, 1)): 3, frozenset((1, 2)): 1, frozenset((2, 3)): 2}[frozenset(seeds)]
        winner = seeds.index(wins)
        big = wins == 3
        score = Score(games_a=3, games_b=0 if big else 2) if winner == 0 else Score(games_a=0 if big else 2, games_b=3)
        engine.record_result(draw, dm.id, winner_slot=winner, result_type=ResultType.PLAYED, score=score, new_id=new_id)
    ranked = [r.entry_id for r in draw.groups[0].standings]
    assert ranked[0] == by_seed[3]
    assert draw.placings[0].entry_id == by_seed[3]


def test_withdrawal_walks_over_every_open_match_of_the_entry() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 4, seeds=4)
    top = next(e.id for e in draw.entries if e.seed == 1)
    engine.withdraw(draw, top, new_id=ids())
    first = draw.matches[draw.rounds[0].draw_match_ids[0]]
    assert first.result_type == ResultType.WALKOVER and first.loser_entry_id == top


def test_correction_is_refused_once_the_next_match_started() -> None:
    draw = make(DrawFormat.SINGLE_ELIMINATION, 4, seeds=4)
    new_id = ids()
    a, b = (draw.matches[i] for i in draw.rounds[0].draw_match_ids)
    engine.record_result(draw, a.id, winner_slot=0, result_type=ResultType.PLAYED, score=None, new_id=new_id)
    changes = engine.correction_changes(draw, a.id, winner_slot=1)
    assert [(c.slot, c.old_entry_id, c.new_entry_id) for c in changes] == [
        (0, a.slots[0].entry_id, a.slots[1].entry_id)]
    engine.record_result(draw, b.id, winner_slot=0, result_type=ResultType.PLAYED, score=None, new_id=new_id)
    final = draw.matches[draw.rounds[1].draw_match_ids[0]]
    engine.mark_active(draw, final.id)
    with pytest.raises(Conflict) as caught:
        engine.correction_changes(draw, a.id, winner_slot=1)
    assert caught.value.code == "downstream_started"
    assert caught.value.details == {"drawMatchIDs": [final.id]}


@pytest.mark.parametrize(("fmt", "n", "extra"), [
    (DrawFormat.SINGLE_ELIMINATION, 1, {}),
    (DrawFormat.ROUND_ROBIN, 6, {"group_count": 4}),
])
def test_impossible_bodies_are_invalid(fmt: DrawFormat, n: int, extra: dict[str, int]) -> None:
    with pytest.raises(Invalid):
        make(fmt, n, **extra)  # type: ignore[arg-type]


@PROPERTY
@given(fmt=st.sampled_from(list(DrawFormat)), n=st.integers(2, 40), steps=st.integers(0, 60), doubles=st.booleans(),
       seed=st.integers(0, 2**32))
def test_the_stored_state_is_asdict_without_its_defaults_and_reads_back_as_the_same_draw(
        fmt: DrawFormat, n: int, steps: int, doubles: bool, seed: int) -> None:
    """codec.to_state is written out by hand for speed and leaves out None values and False `closed`/`withdrawn`
    flags: it must read back as the same draw at any point of any format (groups, standings, links, scores,
    placings, withdrawals, court lists), and hold every other value `dataclasses.asdict` gives. Stored in parts,
    a change writes every part it changed (found by marks) and the parts read back as the draw."""
    draw = make(fmt, n, seeds=min(4, n), clubs=[["A", "B", None][i % 3] for i in range(n)], doubles=doubles,
                random_seed=seed, table_ids=["tbl_1", "tbl_2"] if seed % 2 else None, best_of=3,
                separate_clubs=seed % 5 != 0)
    rng, new_id = random.Random(seed), ids()
    parts, marks = codec.to_parts(draw), codec.marks_of(draw)

    def only_changed_parts_are_written() -> None:
        """What a save writes (`changed_parts` against the marks of the parts as stored) is every part that
        differs from the stored one, and the stored parts with it read back as the draw."""
        nonlocal parts, marks
        changed, marks = codec.changed_parts(draw, marks)
        now = codec.to_parts(draw)
        assert {key for key, part in now.items() if parts.get(key) != part} <= set(changed)
        assert {key: changed.get(key, parts.get(key)) for key in now} == now
        parts = now
        assert codec.from_parts(orjson.loads(orjson.dumps(parts))) == draw

    if seed % 3 == 0:
        engine.withdraw(draw, draw.entries[-1].id, new_id=new_id)
        only_changed_parts_are_written()
    for _ in range(steps):
        ready = engine.ready_without_match(draw)
        if not ready:
            break
        dm = ready[0]
        dm.match_id = f"mat_{dm.id}"
        only_changed_parts_are_written()
        engine.mark_active(draw, dm.id)
        only_changed_parts_are_written()
        engine.record_result(draw, dm.id, winner_slot=rng.randrange(2), result_type=ResultType.PLAYED,
                             score=Score(games_a=2, games_b=1, points_a=30, points_b=25), new_id=new_id)
        only_changed_parts_are_written()
    state = codec.to_state(draw)

    def without_defaults(node: object) -> object:
        if isinstance(node, dict):
            return {k: without_defaults(v) for k, v in node.items()
                    if v is not None and not (v is False and k in ("closed", "withdrawn"))}
        return [without_defaults(v) for v in node] if isinstance(node, list) else node

    assert state == without_defaults(dataclasses.asdict(draw))
    assert codec.from_state(state) == draw
    assert codec.from_state(orjson.loads(orjson.dumps(state))) == draw  # as storage gives it back


def test_a_stored_parts_mark_changes_with_every_field_it_stores() -> None:
    """A save writes the draw matches and entries whose marks changed: a field left out of a mark would be a change
    never stored. Every field of a draw match, its slots and the entries moves its mark."""
    draw = make(DrawFormat.SINGLE_ELIMINATION, 4)
    other: dict[str, object] = {"slots": [Slot(entry_id="ent_other"), Slot()], "players": [DrawPlayer(name="Other")]}
    for field in dataclasses.fields(DrawMatch):
        dm = dataclasses.replace(draw.ordered_matches()[0])
        before = codec.match_mark(dm)
        setattr(dm, field.name, other.get(field.name, object()))
        assert codec.match_mark(dm) != before, field.name
    for field in dataclasses.fields(Slot):
        dm = draw.ordered_matches()[0]
        dm = dataclasses.replace(dm, slots=[dataclasses.replace(s) for s in dm.slots])
        before = codec.match_mark(dm)
        setattr(dm.slots[1], field.name, object())
        assert codec.match_mark(dm) != before, field.name
    for field in dataclasses.fields(Entry):
        entries = [dataclasses.replace(e) for e in draw.entries]
        before = codec.entries_mark(entries)
        setattr(entries[2], field.name, other.get(field.name, object()))
        assert codec.entries_mark(entries) != before, field.name
