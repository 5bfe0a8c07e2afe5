"""The draw engine (contract §13, §22): makes a draw in one of the registered formats (`domain.draws.formats`) and
moves it on as results come in.

Pure: no storage, no real matches. A caller (the draws service) creates a real match for every draw match that
becomes `ready` without one, and tells the engine when that match starts and how it ended. Everything random
comes from `random.Random(randomSeed)`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domain.draws.bracket import OPEN, IdFactory
from domain.draws.formats import FORMATS
from domain.draws.formats.base import DrawSpec, EntrySpec, refused
from domain.draws.model import (
    Draw,
    DrawMatch,
    DrawMatchStatus,
    DrawStatus,
    Entry,
    Group,
    Link,
    ResultType,
    Score,
    SeedBy,
    Stage,
)
from domain.draws.standings import standings
from domain.errors import Conflict
from domain.names import side_name


@dataclass
class Change:
    """One slot a correction would change."""

    draw_match_id: str
    slot: int
    old_entry_id: str | None
    new_entry_id: str | None


# --------------------------------------------------------------------------------------------------- building


def make_draw(spec: DrawSpec, *, draw_id: str, created_on: str, new_id: IdFactory) -> Draw:
    """A new running draw; draw matches whose entries are known are `ready` (their real matches still to make)."""
    fmt = FORMATS[spec.format]
    _validate(spec)
    rng = random.Random(spec.options.random_seed)
    entries = [_entry(e, new_id) for e in spec.entries]
    if spec.options.seed_by == SeedBy.RATING:
        _seed_by_rating(entries, spec.options.seed_count)
    draw = Draw(id=draw_id, broadcast_id=spec.broadcast_id, name=spec.name, format=spec.format,
                created_on=created_on, entries=entries, options=spec.options)
    fmt.build(draw, spec, rng, new_id)
    for dm in draw.ordered_matches():
        _settle(draw, dm, new_id)
    _finish(draw)
    return draw


def _entry(spec: EntrySpec, new_id: IdFactory) -> Entry:
    return Entry(id=new_id("ent"), name=spec.name or side_name(p.name for p in spec.players), players=spec.players,
                 club=spec.club, seed=spec.seed, rating=spec.rating)


def _seed_by_rating(entries: list[Entry], count: int | None) -> None:
    """Seeds 1… to the `count` (default a quarter of the entries) best rated entries, highest first (entry order
    among equal ratings); entries without a rating are not seeded."""
    rated = sorted((e for e in entries if e.rating is not None), key=lambda e: -(e.rating or 0.0))
    for seed, entry in enumerate(rated[: len(entries) // 4 if count is None else count], start=1):
        entry.seed = seed


def _validate(spec: DrawSpec) -> int | None:
    """The body's refusals common to every format, then the format's own; the number of groups it will have."""
    fmt = FORMATS[spec.format]
    n = len(spec.entries)
    if not 2 <= n <= 256:
        raise refused("entries", "A draw needs 2 to 256 entries.")
    sizes = {len(e.players) for e in spec.entries}
    if len(sizes) != 1 or sizes.pop() not in (1, 2):
        raise refused("entries", "Every entry needs the same number of players: 1 (singles) or 2 (doubles).")
    seeds = [e.seed for e in spec.entries if e.seed is not None]
    if len(set(seeds)) != len(seeds) or any(not 1 <= s <= n for s in seeds):
        raise refused("entries", "Seeds must be unique numbers from 1 to the number of entries.")
    opts = spec.options
    if opts.seed_by == SeedBy.RATING and seeds:
        raise refused("seedBy", "Give entries their seeds, or seedBy: rating, not both.")
    if opts.seed_count is not None and opts.seed_by is None:
        raise refused("seedCount", "seedCount is for seedBy: rating.")
    if opts.seed_count is not None and not 0 <= opts.seed_count <= n:
        raise refused("seedCount", "seedCount must be 0 to the number of entries.")
    default_groups = fmt.default_groups(n)
    if spec.group_count is not None and default_groups is None:
        names = ", ".join(str(f) for f, rules in FORMATS.items() if rules.default_groups(2) is not None)
        raise refused("groupCount", f"groupCount is for {names}.")
    groups = None if default_groups is None else spec.group_count or default_groups
    if groups is not None and not 1 <= groups <= n // 2:
        raise refused("groupCount", "groupCount must leave at least 2 entries in every group.")
    fmt.validate(spec, groups)
    if opts.best_of is not None and (opts.best_of < 1 or opts.best_of % 2 == 0):
        raise refused("bestOf", "bestOf must be an odd number.")
    return groups


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


def _loser_goes(link: Link, loser_slot: int) -> bool:
    """Whether the loser (who played in `loser_slot`) takes the loser link (see `Link.only_from`)."""
    return link.only_from is None or link.only_from == loser_slot


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
            if loser is None or not _loser_goes(dm.next_loser, 1 - winner_slot):
                _close(draw, dm.next_loser, new_id)
            else:
                _fill(draw, dm.next_loser, loser, new_id)
    _after(draw, dm, new_id)


def _reset_of(draw: Draw, dm: DrawMatch) -> DrawMatch | None:
    """The second final (`grandFinalReset`) a first final feeds, which its slot-0 winner makes unnecessary."""
    if dm.stage != Stage.FINAL or dm.round_number != 1 or dm.next_winner is None:
        return None
    return draw.matches[dm.next_winner.draw_match_id]


def _after(draw: Draw, dm: DrawMatch, new_id: IdFactory) -> None:
    """What a decided draw match changes beyond its links: group standings and the slots a finished group fills,
    then whatever its format does (the next Swiss round)."""
    if dm.group is not None:
        group = next(g for g in draw.groups if g.name == dm.group)
        group_matches = [m for m in draw.matches.values() if m.group == group.name]
        group.standings = standings([draw.entry(i) for i in group.entry_ids], group_matches, draw.options)
        if not group.finished and all(m.status not in OPEN for m in group_matches):
            group.finished = True
            _fill_from_group(draw, group, new_id)
    for made in FORMATS[draw.format].advance(draw, dm, new_id):
        _settle(draw, made, new_id)


def _fill_from_group(draw: Draw, group: Group, new_id: IdFactory) -> None:
    by_rank = {row.rank: row.entry_id for row in group.standings}
    for dm in draw.ordered_matches():
        for index, slot in enumerate(dm.slots):
            src = slot.source
            if src is not None and src.group == group.name and src.rank is not None:
                _fill(draw, Link(draw_match_id=dm.id, slot=index), by_rank[src.rank], new_id)


def _finish(draw: Draw) -> None:
    """Placings so far, and `complete` once no draw match is open (and no Swiss round is still to come)."""
    draw.placings = FORMATS[draw.format].placings(draw)
    if not any(m.status in OPEN for m in draw.matches.values()):
        draw.status = DrawStatus.COMPLETE
    else:
        draw.status = DrawStatus.RUNNING


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
    a retirement, as its real match), the rest as they become ready (Swiss leaves it out of later rounds). Returns
    the draw matches walked over that had a real match (the caller settles those)."""
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
    for made in FORMATS[draw.format].after_withdrawal(draw, new_id):
        _settle(draw, made, new_id)
    _finish(draw)
    return walked


def _started(dm: DrawMatch) -> bool:
    """Whether a draw match can no longer take another entry: in play, played, or walked over."""
    return dm.status in (DrawMatchStatus.ACTIVE, DrawMatchStatus.COMPLETE) or (
        dm.status == DrawMatchStatus.BYE and dm.result_type == ResultType.WALKOVER)


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
        if link is dm.next_loser and not _loser_goes(link, 1 - winner_slot):
            entry = None
        target = draw.matches[link.draw_match_id]
        old = target.slots[link.slot].entry_id
        if old == entry:
            continue
        if _started(target) or target.status == DrawMatchStatus.BYE or (
                entry is None and target.status != DrawMatchStatus.WAITING):
            started.append(target.id)  # a slot a correction would close must still be waiting
        changes.append(Change(draw_match_id=target.id, slot=link.slot, old_entry_id=old, new_entry_id=entry))
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
        slot = target.slots[change.slot]
        slot.entry_id = change.new_entry_id
        slot.closed = change.new_entry_id is None
        _settle(draw, target, new_id)
    _after(draw, dm, new_id)
    _finish(draw)
    return changes


# ------------------------------------------------------------------------------------------- late changes (§22)


@dataclass
class Replaced:
    """What `replace` did: the new entry, and the real matches of draw matches that went back to waiting (the
    caller cancels them; their draw matches get new ones once both entries are known again)."""

    entry: Entry
    reopened_match_ids: list[str]
    undone_match_ids: list[str]  # the real matches of the walkovers undone (they leave the results)


def _open(dm: DrawMatch) -> bool:
    """Whether a draw match may still change who plays in it (waiting, or ready with its real match pending)."""
    return dm.status in (DrawMatchStatus.WAITING, DrawMatchStatus.READY)


def replace(draw: Draw, entry_id: str, spec: EntrySpec, *, new_id: IdFactory) -> Replaced:
    """A withdrawn entry's place is taken by a new entry (contract §22): it takes the withdrawn entry's slots still
    to be played and its group, and the walkovers given for the withdrawn entry are undone (back to ready with the
    new entry) while what they fed has not started; otherwise `409 downstream_started`, nothing changed. In a Swiss
    draw only the walkovers of the last round made are undone (earlier rounds stand, as played results do)."""
    old = draw.entry(entry_id)
    if not old.withdrawn:
        raise Conflict("Only a withdrawn entry can be replaced.", code="entry_not_withdrawn")
    if len(spec.players) != len(draw.entries[0].players):
        raise refused("players", "The new entry needs as many players as every entry of this draw.")
    walkovers = [m for m in draw.ordered_matches()
                 if m.result_type == ResultType.WALKOVER and m.loser_entry_id == entry_id]
    if any(r.stage == Stage.SWISS for r in draw.rounds):
        last = [r for r in draw.rounds if r.stage == Stage.SWISS][-1]
        walkovers = [m for m in walkovers if m.id in last.draw_match_ids]
    undone = {m.id for m in walkovers}
    has_place = (any(dm.status == DrawMatchStatus.WAITING and entry_id in dm.entry_ids()
                     for dm in draw.matches.values())
                 or any(entry_id in g.entry_ids for g in draw.groups)
                 or any(r.stage == Stage.SWISS for r in draw.rounds))
    if not walkovers and not has_place:  # its place was in a match that started (it retired): nothing to take over
        ended = [m.id for m in draw.ordered_matches() if m.loser_entry_id == entry_id
                 and m.result_type != ResultType.WALKOVER]
        raise Conflict("The withdrawn entry's place is in a match that has already started; nobody can take it.",
                       code="downstream_started", details={"drawMatchIDs": ended[-1:]})
    started: list[str] = []
    reopen: list[DrawMatch] = []
    unfilled: list[tuple[DrawMatch, int]] = []
    unfinished: list[Group] = []
    for dm in walkovers:
        for link in (dm.next_winner, dm.next_loser):
            if link is None:
                continue
            target = draw.matches[link.draw_match_id]
            if target.id in undone:
                unfilled.append((target, link.slot))
            elif _open(target):
                unfilled.append((target, link.slot))
                reopen.append(target)
            else:
                started.append(target.id)
        group = next((g for g in draw.groups if g.name == dm.group), None)
        if group is not None and group.finished and group not in unfinished:
            unfinished.append(group)
            for fed in draw.ordered_matches():
                for index, slot in enumerate(fed.slots):
                    if slot.source is not None and slot.source.group == group.name:
                        if _open(fed):
                            unfilled.append((fed, index))
                            reopen.append(fed)
                        else:
                            started.append(fed.id)
    if started:
        raise Conflict("A match this change would alter has already started.", code="downstream_started",
                       details={"drawMatchIDs": sorted(set(started))})
    for group in unfinished:
        group.finished = False
    new = _entry(spec, new_id)
    new.seed = old.seed
    draw.entries.append(new)
    for group in draw.groups:
        group.entry_ids = [new.id if e == entry_id else e for e in group.entry_ids]
    reopened: list[str] = []
    undone_matches = [dm.match_id for dm in walkovers if dm.match_id is not None]
    for target in reopen:
        if target.status == DrawMatchStatus.READY and target.match_id is not None:
            reopened.append(target.match_id)
        target.match_id = None
        target.status = DrawMatchStatus.WAITING
        target.ready_seq = None
    for target, index in unfilled:
        target.slots[index].entry_id = None
        target.slots[index].closed = False
    for dm in walkovers:
        dm.status = DrawMatchStatus.WAITING
        dm.winner_entry_id = dm.loser_entry_id = None
        dm.result_type = None
        dm.score = None
        dm.match_id = None  # a real match walked over stays as it ended; a new one is made
    for dm in draw.matches.values():
        if dm.status == DrawMatchStatus.WAITING:
            for slot in dm.slots:
                if slot.entry_id == entry_id:
                    slot.entry_id = new.id
    for dm in draw.ordered_matches():
        _settle(draw, dm, new_id)
    for group in draw.groups:
        group_matches = [m for m in draw.matches.values() if m.group == group.name]
        group.standings = standings([draw.entry(i) for i in group.entry_ids], group_matches, draw.options)
        if not group.finished and all(m.status not in OPEN for m in group_matches):
            group.finished = True
            _fill_from_group(draw, group, new_id)
    _finish(draw)
    return Replaced(entry=new, reopened_match_ids=reopened, undone_match_ids=undone_matches)
