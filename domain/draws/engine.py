"""The draw engine (contract §13): builds a draw in one of five formats and moves it on as results come in.

Pure: no storage, no real matches. A caller (the draws service) creates a real match for every draw match that
becomes `ready` without one, and tells the engine when that match starts and how it ended. Everything random
comes from `random.Random(randomSeed)`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import rustworkx as rx

from domain.draws.model import (
    Draw,
    DrawFormat,
    DrawMatch,
    DrawMatchStatus,
    DrawPlayer,
    DrawStatus,
    Entry,
    Group,
    Link,
    Options,
    Outcome,
    Placing,
    ResultType,
    Round,
    Score,
    Slot,
    Source,
    Stage,
    Standing,
)
from domain.draws.placement import bracket_size, circle_rounds, deal_groups, place_bracket, seed_order
from domain.draws.standings import standings
from domain.errors import Conflict, Invalid
from domain.names import side_name

IdFactory = Callable[[str], str]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def group_name(index: int) -> str:
    """A, B, …, Z, then AA, AB, …"""
    return LETTERS[index] if index < 26 else LETTERS[index // 26 - 1] + LETTERS[index % 26]
OPEN = (DrawMatchStatus.WAITING, DrawMatchStatus.READY, DrawMatchStatus.ACTIVE)


@dataclass
class EntrySpec:
    players: list[DrawPlayer]
    seed: int | None = None
    club: str | None = None
    name: str | None = None


@dataclass
class DrawSpec:
    broadcast_id: str
    name: str
    format: DrawFormat
    entries: list[EntrySpec]
    group_count: int | None = None
    options: Options = field(default_factory=Options)


@dataclass
class Change:
    """One slot a correction would change."""

    draw_match_id: str
    slot: int
    old_entry_id: str | None
    new_entry_id: str | None


def round_name(matches_in_round: int) -> str:
    if matches_in_round == 1:
        return "Final"
    if matches_in_round == 2:
        return "Semifinal"
    if matches_in_round == 4:
        return "Quarterfinal"
    return f"Round of {matches_in_round * 2}"


# --------------------------------------------------------------------------------------------------- building


def make_draw(spec: DrawSpec, *, draw_id: str, created_on: str, new_id: IdFactory) -> Draw:
    """A new running draw; draw matches whose entries are known are `ready` (their real matches still to make)."""
    _validate(spec)
    rng = random.Random(spec.options.random_seed)
    entries = [
        Entry(id=new_id("ent"), name=e.name or side_name(p.name for p in e.players), players=e.players,
              club=e.club, seed=e.seed)
        for e in spec.entries
    ]
    options = spec.options
    draw = Draw(id=draw_id, broadcast_id=spec.broadcast_id, name=spec.name, format=spec.format,
                created_on=created_on, entries=entries, options=options)
    n = len(entries)
    if spec.format == DrawFormat.ROUND_ROBIN:
        _build_groups(draw, spec.group_count or 1, rng, new_id)
    elif spec.format == DrawFormat.GROUPS_KNOCKOUT:
        _build_groups(draw, spec.group_count or math.ceil(n / 4), rng, new_id)
        _build_group_knockout(draw, new_id)
    elif spec.format == DrawFormat.SINGLE_ELIMINATION:
        positions = place_bracket(entries, rng, separate_clubs=options.separate_clubs)
        _build_bracket(draw, [Slot(entry_id=e.id) if e else Slot(closed=True) for e in positions], new_id)
    elif spec.format == DrawFormat.DOUBLE_ELIMINATION:
        positions = place_bracket(entries, rng, separate_clubs=options.separate_clubs)
        _build_double(draw, [Slot(entry_id=e.id) if e else Slot(closed=True) for e in positions], new_id)
    else:
        if not options.rounds:
            options.rounds = max(1, math.ceil(math.log2(n)))
        _swiss_round(draw, new_id)
    for dm in draw.ordered_matches():
        _settle(draw, dm, new_id)
    _finish(draw)
    return draw


def _refused(field: str, message: str) -> Invalid:
    """A draw body's refusal naming its field (`details.json`), as every 400 of the API does."""
    return Invalid(message, details={"json": {field: [message]}})


def _validate(spec: DrawSpec) -> None:
    n = len(spec.entries)
    if not 2 <= n <= 256:
        raise _refused("entries", "A draw needs 2 to 256 entries.")
    sizes = {len(e.players) for e in spec.entries}
    if len(sizes) != 1 or sizes.pop() not in (1, 2):
        raise _refused("entries", "Every entry needs the same number of players: 1 (singles) or 2 (doubles).")
    seeds = [e.seed for e in spec.entries if e.seed is not None]
    if len(set(seeds)) != len(seeds) or any(not 1 <= s <= n for s in seeds):
        raise _refused("entries", "Seeds must be unique numbers from 1 to the number of entries.")
    opts = spec.options
    if spec.group_count is not None and spec.format not in (DrawFormat.ROUND_ROBIN, DrawFormat.GROUPS_KNOCKOUT):
        raise _refused("groupCount", "groupCount is for round_robin and groups_knockout.")
    if spec.format in (DrawFormat.ROUND_ROBIN, DrawFormat.GROUPS_KNOCKOUT):
        groups = spec.group_count or (1 if spec.format == DrawFormat.ROUND_ROBIN else math.ceil(n / 4))
        if not 1 <= groups <= n // 2:
            raise _refused("groupCount", "groupCount must leave at least 2 entries in every group.")
        if spec.format == DrawFormat.GROUPS_KNOCKOUT:
            if not 1 <= opts.advance_per_group <= 4:
                raise _refused("advancePerGroup", "advancePerGroup must be 1 to 4.")
            if opts.advance_per_group > n // groups:
                raise _refused("advancePerGroup", "advancePerGroup must not exceed the size of the smallest group.")
            if groups * opts.advance_per_group < 2:
                raise _refused("advancePerGroup", "A knockout stage needs at least 2 qualifiers.")
    if spec.format == DrawFormat.SWISS and opts.rounds and not 1 <= opts.rounds <= (n - 1 if n % 2 == 0 else n):
        raise _refused("rounds", "rounds must be at least 1 and leave a new opponent for everyone.")
    if opts.best_of is not None and (opts.best_of < 1 or opts.best_of % 2 == 0):
        raise _refused("bestOf", "bestOf must be an odd number.")


def _add_round(draw: Draw, stage: Stage, number: int, name: str) -> Round:
    rnd = Round(stage=stage, number=number, name=name, draw_match_ids=[])
    draw.rounds.append(rnd)
    return rnd


def _add_match(draw: Draw, rnd: Round, new_id: IdFactory, slots: list[Slot], group: str | None = None) -> DrawMatch:
    dm = DrawMatch(id=new_id("dm"), stage=rnd.stage, round_number=rnd.number, number=len(rnd.draw_match_ids) + 1,
                   group=group, slots=slots)
    rnd.draw_match_ids.append(dm.id)
    draw.matches[dm.id] = dm
    return dm


def _feed(draw: Draw, source: DrawMatch, outcome: Outcome, target: DrawMatch, slot: int) -> None:
    target.slots[slot].source = Source(draw_match_id=source.id, outcome=outcome)
    link = Link(draw_match_id=target.id, slot=slot)
    if outcome == Outcome.WINNER:
        source.next_winner = link
    else:
        source.next_loser = link


def _build_groups(draw: Draw, group_count: int, rng: random.Random, new_id: IdFactory) -> None:
    dealt = deal_groups(draw.entries, group_count, rng, separate_clubs=draw.options.separate_clubs)
    draw.groups = [Group(name=group_name(i), entry_ids=[e.id for e in members]) for i, members in enumerate(dealt)]
    schedules = [circle_rounds(len(members)) for members in dealt]
    for number in range(1, max(len(s) for s in schedules) + 1):
        rnd = _add_round(draw, Stage.GROUP, number, f"Round {number}")
        for group, members, schedule in zip(draw.groups, dealt, schedules, strict=True):
            if number <= len(schedule):
                for a, b in schedule[number - 1]:
                    _add_match(draw, rnd, new_id, [Slot(entry_id=members[a].id), Slot(entry_id=members[b].id)],
                               group=group.name)
    for group in draw.groups:
        group.standings = standings([draw.entry(i) for i in group.entry_ids], [], draw.options)


def _build_bracket(draw: Draw, first: list[Slot], new_id: IdFactory, stage: Stage = Stage.MAIN) -> list[Round]:
    """A single-elimination bracket over `first` (a power of two of slots); the third-place match if asked."""
    size = len(first)
    rounds: list[Round] = []
    previous: list[DrawMatch] = []
    count = size // 2
    number = 1
    while count >= 1:
        rnd = _add_round(draw, stage, number, round_name(count))
        current = []
        for i in range(count):
            if number == 1:
                dm = _add_match(draw, rnd, new_id, [first[2 * i], first[2 * i + 1]])
            else:
                dm = _add_match(draw, rnd, new_id, [Slot(), Slot()])
                _feed(draw, previous[2 * i], Outcome.WINNER, dm, 0)
                _feed(draw, previous[2 * i + 1], Outcome.WINNER, dm, 1)
            current.append(dm)
        rounds.append(rnd)
        previous = current
        count //= 2
        number += 1
    if draw.options.third_place and len(rounds) >= 2:
        semis = [draw.matches[i] for i in rounds[-2].draw_match_ids]
        rnd = _add_round(draw, Stage.THIRD_PLACE, 1, "Third place")
        dm = _add_match(draw, rnd, new_id, [Slot(), Slot()])
        _feed(draw, semis[0], Outcome.LOSER, dm, 0)
        _feed(draw, semis[1], Outcome.LOSER, dm, 1)
    return rounds


def _build_group_knockout(draw: Draw, new_id: IdFactory) -> None:
    """The knockout stage of groups_knockout: group winners seeded, entries of one group meeting late."""
    advance = draw.options.advance_per_group
    qualifiers = [(g.name, rank) for rank in range(1, advance + 1) for g in draw.groups]
    size = bracket_size(len(qualifiers))
    order = seed_order(size)
    position_of = {number: pos for pos, number in enumerate(order)}
    byes = size - len(qualifiers)
    slots: list[Slot | None] = [None] * size
    for s in range(1, byes + 1):
        slots[position_of[size + 1 - s]] = Slot(closed=True)
    placed: dict[str, list[int]] = {}
    for i, group in enumerate(draw.groups):
        pos = position_of[i + 1]
        slots[pos] = Slot(source=Source(group=group.name, rank=1))
        placed.setdefault(group.name, []).append(pos)
    for rank in range(2, advance + 1):
        for group in reversed(draw.groups):
            free = [p for p in range(size) if slots[p] is None]
            mine = placed.get(group.name, [])

            def lateness(p: int, mine: list[int] = mine) -> tuple[int, int]:
                meet = min(((p ^ q).bit_length() for q in mine), default=size)
                return (-meet, order[p])

            pos = min(free, key=lateness)
            slots[pos] = Slot(source=Source(group=group.name, rank=rank))
            placed.setdefault(group.name, []).append(pos)
    _build_bracket(draw, [s if s is not None else Slot(closed=True) for s in slots], new_id)


def _build_double(draw: Draw, first: list[Slot], new_id: IdFactory) -> None:
    """Main bracket, losers bracket (losers drop in, out after a second loss), final, optional reset."""
    saved_third = draw.options.third_place
    draw.options.third_place = False
    main = _build_bracket(draw, first, new_id)
    draw.options.third_place = saved_third
    main_matches = [[draw.matches[i] for i in rnd.draw_match_ids] for rnd in main]
    k = len(main)
    for rnd in main[:-1]:
        rnd.name = f"Winners {rnd.name.lower()}" if rnd.name.startswith("Round") else rnd.name
    main[-1].name = "Winners final"
    champion_of_losers: tuple[DrawMatch, Outcome]
    if k == 1:
        champion_of_losers = (main_matches[0][0], Outcome.LOSER)
    else:
        number = 1
        # L1: losers of W1 in pairs.
        rnd = _add_round(draw, Stage.LOSERS, number, f"Losers round {number}")
        current: list[DrawMatch] = []
        for i in range(len(main_matches[0]) // 2):
            dm = _add_match(draw, rnd, new_id, [Slot(), Slot()])
            _feed(draw, main_matches[0][2 * i], Outcome.LOSER, dm, 0)
            _feed(draw, main_matches[0][2 * i + 1], Outcome.LOSER, dm, 1)
            current.append(dm)
        for j in range(1, k):
            # Drop-in round: survivors against losers of main round j+1 (order reversed every other time).
            number += 1
            rnd = _add_round(draw, Stage.LOSERS, number, f"Losers round {number}")
            dropping = main_matches[j] if j % 2 == 0 else list(reversed(main_matches[j]))
            nxt = []
            for survivor, dropper in zip(current, dropping, strict=True):
                dm = _add_match(draw, rnd, new_id, [Slot(), Slot()])
                _feed(draw, survivor, Outcome.WINNER, dm, 0)
                _feed(draw, dropper, Outcome.LOSER, dm, 1)
                nxt.append(dm)
            current = nxt
            if len(current) > 1:
                number += 1
                rnd = _add_round(draw, Stage.LOSERS, number, f"Losers round {number}")
                halved = []
                for i in range(len(current) // 2):
                    dm = _add_match(draw, rnd, new_id, [Slot(), Slot()])
                    _feed(draw, current[2 * i], Outcome.WINNER, dm, 0)
                    _feed(draw, current[2 * i + 1], Outcome.WINNER, dm, 1)
                    halved.append(dm)
                current = halved
        draw.rounds[-1].name = "Losers final"
        champion_of_losers = (current[0], Outcome.WINNER)
    rnd = _add_round(draw, Stage.FINAL, 1, "Final")
    final = _add_match(draw, rnd, new_id, [Slot(), Slot()])
    _feed(draw, main_matches[-1][0], Outcome.WINNER, final, 0)
    _feed(draw, champion_of_losers[0], champion_of_losers[1], final, 1)
    if draw.options.grand_final_reset:
        rnd = _add_round(draw, Stage.FINAL, 2, "Final (reset)")
        reset = _add_match(draw, rnd, new_id, [Slot(), Slot()])
        _feed(draw, final, Outcome.WINNER, reset, 0)
        _feed(draw, final, Outcome.LOSER, reset, 1)


# ------------------------------------------------------------------------------------------------------ swiss


def _swiss_matches(draw: Draw) -> list[DrawMatch]:
    return [m for m in draw.matches.values() if m.stage == Stage.SWISS]


def swiss_standings(draw: Draw) -> list[Entry]:
    rows = standings(draw.entries, _swiss_matches(draw), draw.options)
    return [draw.entry(r.entry_id) for r in rows]


def _swiss_round(draw: Draw, new_id: IdFactory) -> bool:
    """Makes the next Swiss round; False when no round without a rematch exists (the draw then ends)."""
    number = sum(1 for r in draw.rounds if r.stage == Stage.SWISS) + 1
    previous = _swiss_matches(draw)
    played = {frozenset(m.entry_ids()) for m in previous if len(m.entry_ids()) == 2}
    had_bye = {m.winner_entry_id for m in previous if m.result_type == ResultType.BYE}
    ranked = [e for e in swiss_standings(draw) if not e.withdrawn] if previous else _round_one_order(draw)
    rows = {r.entry_id: r for r in standings(draw.entries, previous, draw.options)}
    candidates: list[Entry | None] = [None]
    if len(ranked) % 2:
        lowest_first = list(reversed(ranked))
        candidates = [*(e for e in lowest_first if e.id not in had_bye), *(e for e in lowest_first if e.id in had_bye)]
    for bye in candidates:
        rest = [e for e in ranked if bye is None or e.id != bye.id]
        pairs = _pairs(rest, rows, played, first_round=not previous)
        if pairs is None:
            continue
        rnd = _add_round(draw, Stage.SWISS, number, f"Round {number}")
        for a, b in pairs:
            _add_match(draw, rnd, new_id, [Slot(entry_id=a.id), Slot(entry_id=b.id)])
        if bye is not None:
            _add_match(draw, rnd, new_id, [Slot(entry_id=bye.id), Slot(closed=True)])
        return True
    return False


def _round_one_order(draw: Draw) -> list[Entry]:
    seeded = sorted((e for e in draw.entries if e.seed is not None), key=lambda e: e.seed or 0)
    rest = [e for e in draw.entries if e.seed is None]
    random.Random(draw.options.random_seed).shuffle(rest)
    return seeded + rest


def _pairs(
    ranked: list[Entry], rows: dict[str, Standing], played: set[frozenset[str]], *, first_round: bool
) -> list[tuple[Entry, Entry]] | None:
    """Equal or nearest wins, never a rematch: a minimum-weight perfect matching (round one: top half against
    bottom half)."""
    if not ranked:
        return []
    half = len(ranked) // 2
    if first_round:
        return [(ranked[i], ranked[i + half]) for i in range(half)]
    wins = {e.id: rows[e.id].won if e.id in rows else 0 for e in ranked}
    costs: list[tuple[int, int, int]] = []
    for i, a in enumerate(ranked):
        for j in range(i + 1, len(ranked)):
            b = ranked[j]
            if frozenset((a.id, b.id)) in played:
                continue
            costs.append((i, j, (wins[a.id] - wins[b.id]) ** 2 * 10_000 + abs(j - i - half)))
    if not costs:
        return None
    # The least total cost among the largest matchings: the heaviest of the largest matchings once every cost is
    # turned into `1 + highest - cost` (as networkx's min_weight_matching does; rustworkx runs the same blossom
    # algorithm in Rust, 40 times faster: 128 entries were paired in 1-5 s, in the request that closed a round).
    highest = max(cost for _, _, cost in costs)
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * len(ranked))
    graph.add_edges_from([(i, j, 1 + highest - cost) for i, j, cost in costs])
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(matching) * 2 != len(ranked):
        return None
    return sorted(((ranked[min(i, j)], ranked[max(i, j)]) for i, j in matching), key=lambda p: ranked.index(p[0]))


# ------------------------------------------------------------------------------------------------ progressing


def _settle(draw: Draw, dm: DrawMatch, new_id: IdFactory) -> None:
    """Moves a waiting draw match on once its slots are known: ready, a walkover, a bye, or dead."""
    if dm.status != DrawMatchStatus.WAITING:
        return
    a, b = dm.slots
    if a.entry_id is not None and b.entry_id is not None:
        out = [draw.entry(s.entry_id).withdrawn for s in (a, b) if s.entry_id is not None]
        if any(out):
            winner = 1 if out[0] and not out[1] else 0
            _resolve(draw, dm, winner, ResultType.WALKOVER, None, new_id)
            return
        dm.status = DrawMatchStatus.READY
        draw.ready_counter += 1
        dm.ready_seq = draw.ready_counter
        return
    if (a.closed or a.entry_id is not None) and (b.closed or b.entry_id is not None):
        if a.closed and b.closed:
            dm.status = DrawMatchStatus.BYE
            dm.result_type = ResultType.BYE
            for link in (dm.next_winner, dm.next_loser):
                if link is not None:
                    _close(draw, link, new_id)
            _after(draw, dm, new_id)
            return
        _resolve(draw, dm, 0 if a.entry_id is not None else 1, ResultType.BYE, None, new_id)


def _close(draw: Draw, link: Link, new_id: IdFactory) -> None:
    target = draw.matches[link.draw_match_id]
    target.slots[link.slot].closed = True
    _settle(draw, target, new_id)


def _fill(draw: Draw, link: Link, entry_id: str, new_id: IdFactory) -> None:
    target = draw.matches[link.draw_match_id]
    target.slots[link.slot].entry_id = entry_id
    _settle(draw, target, new_id)


def _resolve(
    draw: Draw, dm: DrawMatch, winner_slot: int, result_type: ResultType, score: Score | None, new_id: IdFactory
) -> None:
    winner = dm.slots[winner_slot].entry_id
    loser = dm.slots[1 - winner_slot].entry_id
    dm.winner_entry_id = winner
    dm.loser_entry_id = loser
    dm.result_type = result_type
    dm.score = score
    dm.status = DrawMatchStatus.BYE if result_type == ResultType.BYE else DrawMatchStatus.COMPLETE
    reset = _reset_of(draw, dm)
    if reset is not None and winner_slot == 0:
        for slot in reset.slots:
            slot.closed = True
        _settle(draw, reset, new_id)
    else:
        if dm.next_winner is not None and winner is not None:
            _fill(draw, dm.next_winner, winner, new_id)
        if dm.next_loser is not None:
            if loser is None:
                _close(draw, dm.next_loser, new_id)
            else:
                _fill(draw, dm.next_loser, loser, new_id)
    _after(draw, dm, new_id)


def _reset_of(draw: Draw, dm: DrawMatch) -> DrawMatch | None:
    if dm.stage != Stage.FINAL or dm.round_number != 1 or dm.next_winner is None:
        return None
    return draw.matches[dm.next_winner.draw_match_id]


def _after(draw: Draw, dm: DrawMatch, new_id: IdFactory) -> None:
    """What a decided draw match changes beyond its links: group standings and knockout slots, the next Swiss
    round."""
    if dm.group is not None:
        group = next(g for g in draw.groups if g.name == dm.group)
        group_matches = [m for m in draw.matches.values() if m.group == group.name]
        group.standings = standings([draw.entry(i) for i in group.entry_ids], group_matches, draw.options)
        if not group.finished and all(m.status not in OPEN for m in group_matches):
            group.finished = True
            _fill_from_group(draw, group, new_id)
    if dm.stage == Stage.SWISS:
        rnd = draw.round_of(dm)
        swiss_rounds = [r for r in draw.rounds if r.stage == Stage.SWISS]
        done = all(draw.matches[i].status not in OPEN for i in rnd.draw_match_ids)
        if done and rnd is swiss_rounds[-1] and len(swiss_rounds) < draw.options.rounds:
            if _swiss_round(draw, new_id):
                for i in draw.rounds[-1].draw_match_ids:
                    _settle(draw, draw.matches[i], new_id)


def _fill_from_group(draw: Draw, group: Group, new_id: IdFactory) -> None:
    by_rank = {row.rank: row.entry_id for row in group.standings}
    for dm in draw.ordered_matches():
        for index, slot in enumerate(dm.slots):
            src = slot.source
            if src is not None and src.group == group.name and src.rank is not None:
                _fill(draw, Link(draw_match_id=dm.id, slot=index), by_rank[src.rank], new_id)


def _finish(draw: Draw) -> None:
    """Placings so far, and `complete` once no draw match is open (and no Swiss round is still to come)."""
    placings: list[Placing] = []
    if draw.format in (DrawFormat.ROUND_ROBIN, DrawFormat.SWISS):
        open_left = any(m.status in OPEN for m in draw.matches.values())
        if not open_left:
            if draw.format == DrawFormat.SWISS:
                order = [e.id for e in swiss_standings(draw)]
            elif len(draw.groups) == 1:
                order = [r.entry_id for r in draw.groups[0].standings]
            else:
                rows = [(r, g) for g in draw.groups for r in g.standings]
                rows.sort(key=lambda rg: (rg[0].rank, -rg[0].won, -(rg[0].games_won - rg[0].games_lost),
                                          -(rg[0].points_won - rg[0].points_lost)))
                order = [r.entry_id for r, _ in rows]
            placings = [Placing(place=i, entry_id=e) for i, e in enumerate(order, start=1)]
    else:
        final = _deciding_final(draw)
        if final is not None and final.winner_entry_id is not None:
            placings.append(Placing(place=1, entry_id=final.winner_entry_id))
            if final.loser_entry_id is not None:
                placings.append(Placing(place=2, entry_id=final.loser_entry_id))
        third = next((m for m in draw.matches.values() if m.stage == Stage.THIRD_PLACE), None)
        if third is not None and third.winner_entry_id is not None:
            placings.append(Placing(place=3, entry_id=third.winner_entry_id))
            if third.loser_entry_id is not None:
                placings.append(Placing(place=4, entry_id=third.loser_entry_id))
        losers = [r for r in draw.rounds if r.stage == Stage.LOSERS]
        if losers:
            last = draw.matches[losers[-1].draw_match_ids[0]]
            if last.loser_entry_id is not None:
                placings.append(Placing(place=3, entry_id=last.loser_entry_id))
    draw.placings = placings
    if not any(m.status in OPEN for m in draw.matches.values()):
        draw.status = DrawStatus.COMPLETE
    else:
        draw.status = DrawStatus.RUNNING


def _deciding_final(draw: Draw) -> DrawMatch | None:
    if draw.format == DrawFormat.DOUBLE_ELIMINATION:
        finals = [draw.matches[r.draw_match_ids[0]] for r in draw.rounds if r.stage == Stage.FINAL]
        if len(finals) == 2 and finals[1].winner_entry_id is not None:
            return finals[1]
        if finals[0].status in OPEN:
            return None
        if len(finals) == 2 and finals[1].status in OPEN:
            return None
        return finals[0]
    mains = [r for r in draw.rounds if r.stage == Stage.MAIN]
    return draw.matches[mains[-1].draw_match_ids[0]] if mains else None


# ------------------------------------------------------------------------------------------- the service's API


def ready_without_match(draw: Draw) -> list[DrawMatch]:
    """Draw matches that are ready and still need their real match, in pool order."""
    found = [m for m in draw.matches.values() if m.status == DrawMatchStatus.READY and m.match_id is None]
    return sorted(found, key=lambda m: (m.round_number, m.ready_seq or 0, m.number))


def mark_active(draw: Draw, draw_match_id: str) -> None:
    dm = draw.matches[draw_match_id]
    if dm.status == DrawMatchStatus.READY:
        dm.status = DrawMatchStatus.ACTIVE


def mark_ready(draw: Draw, draw_match_id: str) -> None:
    """A draw match whose real match was stopped (back to pending, contract §19) waits again."""
    dm = draw.matches[draw_match_id]
    if dm.status == DrawMatchStatus.ACTIVE:
        dm.status = DrawMatchStatus.READY


def record_result(
    draw: Draw, draw_match_id: str, *, winner_slot: int, result_type: ResultType, score: Score | None,
    new_id: IdFactory,
) -> None:
    """A ready or active draw match is decided: winner and loser move on, standings, rounds and placings follow."""
    dm = draw.matches[draw_match_id]
    if dm.status not in (DrawMatchStatus.READY, DrawMatchStatus.ACTIVE):
        raise Conflict("This draw match is not in play.", code="draw_match_not_open")
    _resolve(draw, dm, winner_slot, result_type, score, new_id)
    _finish(draw)


def withdraw(draw: Draw, entry_id: str, *, new_id: IdFactory) -> list[DrawMatch]:
    """The entry withdraws: each of its ready draw matches becomes a walkover for the opponent now (an active one
    a retirement, as its real match), the
    rest as they become ready (Swiss leaves it out of later rounds). Returns the draw matches walked over that had
    a real match (the caller settles those)."""
    entry = draw.entry(entry_id)
    if entry.withdrawn:
        return []
    entry.withdrawn = True
    walked: list[DrawMatch] = []
    for dm in draw.ordered_matches():
        if dm.status in (DrawMatchStatus.READY, DrawMatchStatus.ACTIVE) and entry_id in dm.entry_ids():
            mine = 0 if dm.slots[0].entry_id == entry_id else 1
            # a match in play ends as a retirement, as its real match does (§14); one not started, a walkover
            kind = ResultType.RETIRED if dm.status == DrawMatchStatus.ACTIVE else ResultType.WALKOVER
            _resolve(draw, dm, 1 - mine, kind, None, new_id)
            if dm.match_id is not None:
                walked.append(dm)
    if draw.format == DrawFormat.SWISS:
        rnd = [r for r in draw.rounds if r.stage == Stage.SWISS][-1]
        if all(draw.matches[i].status not in OPEN for i in rnd.draw_match_ids):
            _after(draw, draw.matches[rnd.draw_match_ids[0]], new_id)
    _finish(draw)
    return walked


def correction_changes(draw: Draw, draw_match_id: str, *, winner_slot: int) -> list[Change]:
    """The slots a winner-changing correction would rewrite; `409 downstream_started` when a match it feeds has
    started (or, for group and Swiss results, when what the standings decided has moved on)."""
    dm = draw.matches[draw_match_id]
    new_winner = dm.slots[winner_slot].entry_id
    new_loser = dm.slots[1 - winner_slot].entry_id
    if new_winner == dm.winner_entry_id:
        return []
    started: list[str] = []
    changes: list[Change] = []
    for link, entry in ((dm.next_winner, new_winner), (dm.next_loser, new_loser)):
        if link is None:
            continue
        target = draw.matches[link.draw_match_id]
        if target.status in (DrawMatchStatus.ACTIVE, DrawMatchStatus.COMPLETE) or (
            target.status == DrawMatchStatus.BYE and target.result_type == ResultType.WALKOVER
        ):
            started.append(target.id)
        changes.append(Change(draw_match_id=target.id, slot=link.slot,
                              old_entry_id=target.slots[link.slot].entry_id, new_entry_id=entry))
    if dm.group is not None:
        group = next(g for g in draw.groups if g.name == dm.group)
        if group.finished:
            fed = [m for m in draw.matches.values() for s in m.slots if s.source and s.source.group == group.name]
            started += [m.id for m in fed if m.status != DrawMatchStatus.READY and m.status != DrawMatchStatus.WAITING]
            if not started:
                started += [m.id for m in fed]  # standings-fed slots are not rewritten: refuse rather than guess
    if dm.stage == Stage.SWISS:
        later = [r for r in draw.rounds if r.stage == Stage.SWISS and r.number > dm.round_number]
        started += [i for r in later for i in r.draw_match_ids]
    if started:
        raise Conflict("A match this result feeds has already started.", code="downstream_started",
                       details={"drawMatchIDs": sorted(set(started))})
    return changes


def apply_correction(
    draw: Draw, draw_match_id: str, *, winner_slot: int, score: Score | None, new_id: IdFactory
) -> list[Change]:
    """Applies a correction (after `correction_changes` allowed it): the new winner (and loser) replace the old
    ones in the matches they feed; those matches keep their state (ready ones get their real match updated by the
    caller)."""
    changes = correction_changes(draw, draw_match_id, winner_slot=winner_slot)
    dm = draw.matches[draw_match_id]
    dm.score = score
    dm.winner_entry_id = dm.slots[winner_slot].entry_id
    dm.loser_entry_id = dm.slots[1 - winner_slot].entry_id
    for change in changes:
        target = draw.matches[change.draw_match_id]
        target.slots[change.slot].entry_id = change.new_entry_id
        _settle(draw, target, new_id)
    _after(draw, dm, new_id)
    _finish(draw)
    return changes
