"""What stands in a draw match's slot before its entry is known, made from the draw's structure: "Winner of
R16-1", "Loser of QF-2", "1st of group A", "Bye". One rule for the order of play's grid, its print view and the
event page (contract §20: a slot whose players are not known yet names where they come from)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from domain.draws.model import Draw, DrawFormat, DrawMatch, Outcome, Slot, Stage

#: A short prefix for the rounds of a stage other than the main draw's knockout ("Cons R1-2").
STAGE_PREFIX = {Stage.CONSOLATION: "Cons ", Stage.LOSERS: "LB ", Stage.PLAYOFF: "PO "}


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def round_code(draw: Draw, dm: DrawMatch) -> str:
    """A round's short code: F, SF, QF, R16, R32 … in a main knockout (by how many matches the round has), GF for
    a grand final, 3rd for a third-place match, else R1, R2 … after the stage's prefix (Cons R1, LB R2, PO R1)."""
    if dm.stage == Stage.FINAL:
        return "GF"
    if dm.stage == Stage.THIRD_PLACE:
        return "3rd"
    if dm.stage == Stage.MAIN:
        size = len(draw.round_of(dm).draw_match_ids)
        return {1: "F", 2: "SF", 4: "QF"}.get(size, f"R{size * 2}")
    return f"{STAGE_PREFIX.get(dm.stage, '')}R{dm.round_number}"


def match_code(draw: Draw, dm: DrawMatch) -> str:
    """A draw match's short code: "QF-2", "F", "Cons R1-3", "A-4" (a group's fourth match)."""
    if dm.group is not None and dm.stage in (Stage.GROUP, Stage.SWISS):
        return f"{dm.group}-{dm.number}"
    code = round_code(draw, dm)
    return code if code in ("F", "GF", "3rd") and len(draw.round_of(dm).draw_match_ids) == 1 else f"{code}-{dm.number}"


def slot_label(draw: Draw, slot: Slot) -> str:
    """The slot's entry's name, else where it comes from ("Winner of R16-1", "1st of group A"), else "Bye" for a
    slot that can never be filled, else "To be decided"."""
    if slot.entry_id is not None:
        return draw.entry(slot.entry_id).name
    source = slot.source
    if slot.closed:
        return "Bye"
    if source is not None and source.draw_match_id is not None and source.draw_match_id in draw.matches:
        word = "Winner" if source.outcome == Outcome.WINNER else "Loser"
        return f"{word} of {match_code(draw, draw.matches[source.draw_match_id])}"
    if source is not None and source.group is not None and source.rank is not None:
        return f"{ordinal(source.rank)} of group {source.group}"
    return "To be decided"


# ------------------------------------------------------------------------------------------------ round names
#: A stage's title over its bracket on the public event page (the main draw's final joins the main draw).
PAGE_STAGE_TITLES = {Stage.MAIN: "Main draw", Stage.THIRD_PLACE: "Third place", Stage.LOSERS: "Losers bracket",
                     Stage.CONSOLATION: "Consolation", Stage.SWISS: "Swiss rounds"}
#: A stage's heading in the console's bracket view, by the stage's JSON value.
CONSOLE_STAGE_TITLES = {"group": "Groups", "main": "Main bracket", "losers": "Losers bracket", "final": "Final",
                        "third_place": "Third place", "swiss": "Swiss rounds", "consolation": "Consolation draw",
                        "playoff": "Play-offs for places"}

# The one place the words of a round's name live (issue 48 point 5): a round is stored as its structure (stage,
# number, matches, the best place a play-off round decides) and named here, at display, so that a later language
# step swaps these words and no stored draw changes. Nothing parses a name back.

class RoundShape(NamedTuple):
    """What a round's name is made from: its stage, its number in the stage, its matches and, in a play-off
    sub-bracket, the best place it decides."""

    stage: Stage
    number: int
    matches: int
    first_place: int | None = None


def _size_name(matches: int) -> str:
    """`Final`, `Semifinal`, `Quarterfinal`, `Round of 16`, … by the number of matches of the round."""
    return {1: "Final", 2: "Semifinal", 4: "Quarterfinal"}.get(matches, f"Round of {matches * 2}")


def _consolation_name(matches: int) -> str:
    """`Consolation final`, `Consolation semifinal`, … by the number of matches of the round."""
    names = {1: "Consolation final", 2: "Consolation semifinal", 4: "Consolation quarterfinal"}
    return names.get(matches, f"Consolation round of {matches * 2}")


def places_name(first: int, count: int, last: int | None = None) -> str:
    """A play-off round's name by the places its sub-bracket decides (`Places 5-8`), none beyond `last` (a bye's
    place is nobody's): `Place 5` when one is left."""
    first_, end = _places(first, count, last)
    return f"Places {first_}-{end}" if end > first_ else f"Place {first_}"


def _places(first: int, count: int, last: int | None) -> tuple[int, int]:
    end = first + count - 1 if last is None or last < first else min(first + count - 1, last)
    return first, end


def _last_place(draw_format: str, rounds: Sequence[RoundShape], index: int, entries: int,
                group_sizes: Sequence[int]) -> int | None:
    """The worst place a play-off round's sub-bracket can name: the entries' count (`playoff_all`), or the last
    place of the group rank whose bracket the round is in (`round_robin_playoff`: the winners play for 1…k, the
    runners-up for k+1…2k, …; each rank's bracket follows the one before in the draw's rounds and starts with the
    stage's first round number, at the rank's best place)."""
    if draw_format != DrawFormat.ROUND_ROBIN_PLAYOFF:
        return entries
    lasts: dict[int, int] = {}
    place = 1
    for rank in range(1, max(group_sizes, default=0) + 1):
        groups = sum(1 for size in group_sizes if size >= rank)
        lasts[place] = place + groups - 1
        place += groups
    first_number = min(r.number for r in rounds if r.stage == Stage.PLAYOFF)
    start = next(r.first_place for r in reversed(rounds[:index + 1])
                 if r.stage == Stage.PLAYOFF and r.number == first_number)
    return None if start is None else lasts.get(start)


def _is_last_of_stage(rounds: Sequence[RoundShape], index: int) -> bool:
    stage = rounds[index].stage
    return all(r.stage != stage for r in rounds[index + 1:])


def round_names(draw_format: str, rounds: Sequence[RoundShape], *, entries: int,
                group_sizes: Sequence[int] = ()) -> list[str]:
    """Each round's name, in the draw's order: `Round 2` (groups, Swiss), `Quarterfinal`, `Round of 16` (a
    knockout, by its matches), `Third place`, `Winners semifinal`… `Losers round 3`, `Losers final`, `Final`,
    `Final (reset)` (double elimination), `Consolation semifinal` (consolation), `Consolation round 2` and
    `Consolation final` (feed-in), `Places 5-8` (play-off sub-brackets, contract §22)."""
    return [_round_name(draw_format, rounds, i, entries, group_sizes) for i in range(len(rounds))]


def _round_name(draw_format: str, rounds: Sequence[RoundShape], index: int, entries: int,
                group_sizes: Sequence[int]) -> str:
    rnd = rounds[index]
    last = _is_last_of_stage(rounds, index)
    if rnd.stage in (Stage.GROUP, Stage.SWISS):
        return f"Round {rnd.number}"
    if rnd.stage == Stage.THIRD_PLACE:
        return "Third place"
    if rnd.stage == Stage.FINAL:
        return "Final" if rnd.number == 1 else "Final (reset)"
    if rnd.stage == Stage.LOSERS:
        return "Losers final" if last else f"Losers round {rnd.number}"
    if rnd.stage == Stage.CONSOLATION:
        if draw_format == DrawFormat.FEED_IN:
            return "Consolation final" if last else f"Consolation round {rnd.number}"
        return _consolation_name(rnd.matches)
    if rnd.stage == Stage.PLAYOFF:
        first = rnd.first_place or 1
        return places_name(first, rnd.matches * 2, _last_place(draw_format, rounds, index, entries, group_sizes))
    name = _size_name(rnd.matches)
    if draw_format == DrawFormat.DOUBLE_ELIMINATION:
        if last:
            return "Winners final"
        return f"Winners {name.lower()}" if rnd.matches > 4 else name
    return name


def round_short_names(draw_format: str, rounds: Sequence[RoundShape], *, entries: int,
                      group_sizes: Sequence[int] = ()) -> list[str]:
    """Each round's short form, in the draw's order, for 'Winner QF 2' in a slot not known yet: `F`, `SF`, `QF`,
    `R16` (a knockout), `3rd`, `CF`, `CSF`, `CQF` (a consolation's last rounds), `P5-8` (a play-off
    sub-bracket), else `R` and the round's number (`R2`: groups, Swiss, losers, feed-in)."""
    return [_round_short(draw_format, rounds, i, entries, group_sizes) for i in range(len(rounds))]


def _round_short(draw_format: str, rounds: Sequence[RoundShape], index: int, entries: int,
                 group_sizes: Sequence[int]) -> str:
    rnd = rounds[index]
    last = _is_last_of_stage(rounds, index)
    if rnd.stage == Stage.THIRD_PLACE:
        return "3rd"
    if rnd.stage == Stage.FINAL and rnd.number == 1:
        return "F"
    if rnd.stage == Stage.CONSOLATION:
        if draw_format == DrawFormat.FEED_IN:
            return "CF" if last else f"R{rnd.number}"
        return {1: "CF", 2: "CSF", 4: "CQF"}.get(rnd.matches, f"R{rnd.number}")
    if rnd.stage == Stage.PLAYOFF:
        first = rnd.first_place or 1
        first, end = _places(first, rnd.matches * 2, _last_place(draw_format, rounds, index, entries, group_sizes))
        return f"P{first}-{end}" if end > first else f"P{first}"
    if rnd.stage == Stage.MAIN:
        if draw_format == DrawFormat.DOUBLE_ELIMINATION and (last or rnd.matches > 4):
            return f"R{rnd.number}"
        return {1: "F", 2: "SF", 4: "QF"}.get(rnd.matches, f"R{rnd.matches * 2}")
    return f"R{rnd.number}"


def draw_round_shapes(draw: Draw) -> list[RoundShape]:
    return [RoundShape(r.stage, r.number, len(r.draw_match_ids), r.first_place) for r in draw.rounds]


def draw_round_names(draw: Draw) -> list[str]:
    """The names of a draw's rounds, in its order."""
    return round_names(draw.format, draw_round_shapes(draw), entries=len(draw.entries),
                       group_sizes=[len(g.entry_ids) for g in draw.groups])


def round_names_by_match(draw: Draw) -> dict[str, str]:
    """Draw match ID → its round's name (the plan's labels, a real match's round)."""
    return {i: name for rnd, name in zip(draw.rounds, draw_round_names(draw), strict=True)
            for i in rnd.draw_match_ids}
