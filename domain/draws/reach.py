"""Who can still play what in a draw (contract §20, §22), read from the draw's model: the entries that can still
reach a draw match, the entries still in play, and the matches whose round waits for the round before it.

Byes (a slot that can never be filled) are no matches. Pure: the plan (`domain.plan.draw_items`), start-next's pool
(`domain.draws.pool`) and a replacement's "no person twice" (`domain.draws.service`) share these rules.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.draws.model import Draw, DrawMatch, DrawMatchStatus

PLAYED = (DrawMatchStatus.COMPLETE, DrawMatchStatus.BYE)


def no_match(dm: DrawMatch) -> bool:
    """Will never be a real match: a bye, or a slot that can never be filled."""
    return dm.status == DrawMatchStatus.BYE or any(slot.closed for slot in dm.slots)


def to_play(dm: DrawMatch) -> bool:
    """A draw match still to be played: not complete, not a bye, not an empty place."""
    return dm.status not in PLAYED and not no_match(dm)


def reach(draw: Draw) -> Callable[[DrawMatch], frozenset[str]]:
    """The entries (not withdrawn) that can still play a draw match: those named in it, and for an open slot every
    entry that can reach the match feeding it (a winner's or loser's slot) or every entry of the group (a rank)."""
    withdrawn = {entry.id for entry in draw.entries if entry.withdrawn}
    known: dict[str, frozenset[str]] = {}

    def entries_of(dm: DrawMatch) -> frozenset[str]:
        if dm.id in known:
            return known[dm.id]
        known[dm.id] = frozenset()  # a cycle cannot come from a draw; never loop on one
        found: set[str] = set()
        for slot in dm.slots:
            if slot.entry_id is not None:
                found.add(slot.entry_id)
            elif slot.closed or slot.source is None:
                continue
            elif slot.source.draw_match_id is not None and slot.source.draw_match_id in draw.matches:
                found |= entries_of(draw.matches[slot.source.draw_match_id])
            elif slot.source.group is not None:
                group = next((g for g in draw.groups if g.name == slot.source.group), None)
                found |= set(group.entry_ids) if group is not None else set()
        known[dm.id] = frozenset(found - withdrawn)
        return known[dm.id]

    return entries_of


def entries_in_play(draw: Draw) -> frozenset[str]:
    """The entries still in play: those that can still reach a draw match to be played (an entry that lost its
    last match, or withdrew, is out: a lucky loser, contract §22)."""
    entries_of = reach(draw)
    return frozenset().union(*(entries_of(dm) for dm in draw.matches.values() if to_play(dm)))


def after_open_round(draw: Draw) -> frozenset[str]:
    """The draw matches that wait for their round r - 1 (contract §20): round r of a stage starts no earlier than
    every match of round r - 1 of that stage, live (start-next) as in the plan."""
    open_rounds = {(dm.stage, dm.round_number) for dm in draw.matches.values() if to_play(dm)}
    return frozenset(dm.id for dm in draw.matches.values() if (dm.stage, dm.round_number - 1) in open_rounds)
