"""The building blocks every format is made of (contract §13): rounds, draw matches and the links between them,
round robin groups, single-elimination brackets, and the placings a knockout decides."""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.draws.model import (
    Draw,
    DrawMatch,
    DrawMatchStatus,
    Group,
    Link,
    Outcome,
    Placing,
    Round,
    Slot,
    Source,
    Stage,
)
from domain.draws.placement import circle_rounds, deal_groups
from domain.draws.standings import standings

IdFactory = Callable[[str], str]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
OPEN = (DrawMatchStatus.WAITING, DrawMatchStatus.READY, DrawMatchStatus.ACTIVE)


def group_name(index: int) -> str:
    """A, B, …, Z, then AA, AB, …"""
    return LETTERS[index] if index < 26 else LETTERS[index // 26 - 1] + LETTERS[index % 26]


def add_round(draw: Draw, stage: Stage, number: int) -> Round:
    """A new round of the stage; its name is made at display from its structure (`labels.round_names`)."""
    rnd = Round(stage=stage, number=number, draw_match_ids=[])
    draw.rounds.append(rnd)
    return rnd


def add_match(draw: Draw, rnd: Round, new_id: IdFactory, slots: list[Slot], group: str | None = None) -> DrawMatch:
    dm = DrawMatch(id=new_id("dm"), stage=rnd.stage, round_number=rnd.number, number=len(rnd.draw_match_ids) + 1,
                   group=group, slots=slots)
    rnd.draw_match_ids.append(dm.id)
    draw.matches[dm.id] = dm
    return dm


def feed(source: DrawMatch, outcome: Outcome, target: DrawMatch, slot: int, *, only_from: int | None = None) -> None:
    """`source`'s winner (or loser) goes to `target`'s `slot`; with `only_from`, only a loser who played in that
    slot of `source` goes (any other closes the target slot: consolation's bye holders, contract §22)."""
    target.slots[slot].source = Source(draw_match_id=source.id, outcome=outcome)
    link = Link(draw_match_id=target.id, slot=slot, only_from=only_from)
    if outcome == Outcome.WINNER:
        source.next_winner = link
    else:
        source.next_loser = link


def build_groups(draw: Draw, group_count: int, rng: random.Random, new_id: IdFactory) -> None:
    """Round robin groups dealt by `placement.deal_groups`, their rounds by the circle method."""
    dealt = deal_groups(draw.entries, group_count, rng, separate_clubs=draw.options.separate_clubs)
    draw.groups = [Group(name=group_name(i), entry_ids=[e.id for e in members]) for i, members in enumerate(dealt)]
    schedules = [circle_rounds(len(members)) for members in dealt]
    for number in range(1, max(len(s) for s in schedules) + 1):
        rnd = add_round(draw, Stage.GROUP, number)
        for group, members, schedule in zip(draw.groups, dealt, schedules, strict=True):
            if number <= len(schedule):
                for a, b in schedule[number - 1]:
                    add_match(draw, rnd, new_id, [Slot(entry_id=members[a].id), Slot(entry_id=members[b].id)],
                              group=group.name)
    for group in draw.groups:
        group.standings = standings([draw.entry(i) for i in group.entry_ids], [], draw.options)


def build_bracket(draw: Draw, first: list[Slot], new_id: IdFactory, *, stage: Stage = Stage.MAIN,
                  third_place: bool = False, first_number: int = 1) -> list[Round]:
    """A single-elimination bracket over `first` (a power of two of slots), its rounds numbered from
    `first_number`; the third-place match if asked."""
    rounds: list[Round] = []
    previous: list[DrawMatch] = []
    count = len(first) // 2
    number = first_number
    while count >= 1:
        rnd = add_round(draw, stage, number)
        current = []
        for i in range(count):
            if number == first_number:
                dm = add_match(draw, rnd, new_id, [first[2 * i], first[2 * i + 1]])
            else:
                dm = add_match(draw, rnd, new_id, [Slot(), Slot()])
                feed(previous[2 * i], Outcome.WINNER, dm, 0)
                feed(previous[2 * i + 1], Outcome.WINNER, dm, 1)
            current.append(dm)
        rounds.append(rnd)
        previous = current
        count //= 2
        number += 1
    if third_place and len(rounds) >= 2:
        semis = [draw.matches[i] for i in rounds[-2].draw_match_ids]
        rnd = add_round(draw, Stage.THIRD_PLACE, 1)
        dm = add_match(draw, rnd, new_id, [Slot(), Slot()])
        feed(semis[0], Outcome.LOSER, dm, 0)
        feed(semis[1], Outcome.LOSER, dm, 1)
    return rounds


def matches_of(draw: Draw, rnd: Round) -> list[DrawMatch]:
    return [draw.matches[i] for i in rnd.draw_match_ids]


def final_of(draw: Draw, stage: Stage) -> DrawMatch | None:
    """The one match of the last round of a stage (its final), or None."""
    found = [r for r in draw.rounds if r.stage == stage]
    return draw.matches[found[-1].draw_match_ids[0]] if found else None


def decided(dm: DrawMatch | None, place: int, *, stage: Stage | None = None) -> list[Placing]:
    """The places a decided match gives: `place` to its winner, `place + 1` to its loser (when it had one)."""
    if dm is None or dm.winner_entry_id is None or dm.status in OPEN:
        return []
    found = [Placing(place=place, entry_id=dm.winner_entry_id, stage=stage)]
    if dm.loser_entry_id is not None and stage is None:
        found.append(Placing(place=place + 1, entry_id=dm.loser_entry_id))
    return found


def knockout_placings(draw: Draw) -> list[Placing]:
    """1 and 2 after the main final, 3 and 4 after the third-place match."""
    return decided(final_of(draw, Stage.MAIN), 1) + decided(final_of(draw, Stage.THIRD_PLACE), 3)


def order_placings(order: list[str]) -> list[Placing]:
    return [Placing(place=i, entry_id=e) for i, e in enumerate(order, start=1)]


def play_off(draw: Draw, first: list[Slot], new_id: IdFactory, *, first_place: int = 1, main: bool = True,
             first_number: int = 1) -> None:
    """A bracket in which every place is played off (contract §22): the winners of each round play on for the
    better half of their places, the losers for the worse half, down to one match per two places. With `main`,
    the winners' path is the `main` stage, every other round `playoff`; each round keeps
    the best place its sub-bracket decides (`Round.first_place`)."""
    size = len(first)
    if size < 2:
        return
    stage = Stage.MAIN if main else Stage.PLAYOFF
    rnd = add_round(draw, stage, first_number)
    rnd.first_place = first_place
    level = [(first_place, main, [add_match(draw, rnd, new_id, [first[2 * i], first[2 * i + 1]])
                                  for i in range(size // 2)])]
    number, size = first_number, size // 2
    while size >= 2:
        number += 1
        next_level: list[tuple[int, bool, list[DrawMatch]]] = []
        for place, on_main, matches in level:
            for outcome, best, winners_path in ((Outcome.WINNER, place, on_main),
                                                (Outcome.LOSER, place + size, False)):
                rnd = add_round(draw, Stage.MAIN if winners_path else Stage.PLAYOFF, number)
                rnd.first_place = best
                made = []
                for i in range(size // 2):
                    dm = add_match(draw, rnd, new_id, [Slot(), Slot()])
                    feed(matches[2 * i], outcome, dm, 0)
                    feed(matches[2 * i + 1], outcome, dm, 1)
                    made.append(dm)
                next_level.append((best, winners_path, made))
        level, size = next_level, size // 2


def places_placings(draw: Draw) -> list[Placing]:
    """The places of every play-off sub-bracket decided so far: its last match gives its two places."""
    found: list[Placing] = []
    for rnd in draw.rounds:
        if rnd.first_place is not None and len(rnd.draw_match_ids) == 1:
            found += decided(draw.matches[rnd.draw_match_ids[0]], rnd.first_place)
    return sorted(found, key=lambda p: p.place)
