"""Who can still play what in a draw (contract §20, §22), read from the draw's model: the entries that can still
reach a draw match, the entries still in play, and the matches whose round waits for the round before it.

Byes (a slot that can never be filled) are no matches. Pure: the plan (`domain.plan.draw_items`), start-next's pool
(`domain.draws.pool`) and a replacement's "no person twice" (`domain.draws.service`) share these rules.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.draws.model import Draw, DrawMatch, DrawMatchStatus, Outcome
from domain.draws.model import Slot as DrawSlot

PLAYED = (DrawMatchStatus.COMPLETE, DrawMatchStatus.BYE)


class Dead:
    """Which slots can certainly never be filled (contract §20: a match that cannot be played is not planned): a
    closed slot; the loser of a match that is certainly a bye (it has no loser: "Place 3" fed by the loser of a
    bye); the winner of a match both of whose slots are certainly empty."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw
        self.kept: dict[str, bool] = {}
        self.empty: dict[str, list[bool]] = {}  # draw match -> which of its slots are certainly empty

    def slot(self, slot: DrawSlot) -> bool:
        if slot.closed:
            return True
        source = slot.source
        if slot.entry_id is not None or source is None or source.draw_match_id is None:
            return False
        before = self.draw.matches.get(source.draw_match_id)
        if before is None or before.status in (DrawMatchStatus.COMPLETE, DrawMatchStatus.ACTIVE):
            return False
        empty = self.empty.get(before.id)
        if empty is None:
            empty = self.empty[before.id] = [self.slot(s) for s in before.slots]
        if source.outcome == Outcome.LOSER:
            return any(empty) or before.status == DrawMatchStatus.BYE
        return all(empty)

    def no_match(self, dm: DrawMatch) -> bool:
        """Will never be a real match: a bye, or a slot that can certainly never be filled."""
        if dm.id not in self.kept:
            self.kept[dm.id] = dm.status == DrawMatchStatus.BYE or any(self.slot(s) for s in dm.slots)
        return self.kept[dm.id]

    def to_play(self, dm: DrawMatch) -> bool:
        """A draw match still to be played: not complete, not a bye, not an empty place."""
        return dm.status not in PLAYED and not self.no_match(dm)


def reach(draw: Draw, dead: Dead | None = None) -> Callable[[DrawMatch], frozenset[str]]:
    """The entries (not withdrawn) that can still play a draw match: those named in it, and for an open slot that
    can still be filled every entry that can reach the match feeding it (a winner's or loser's slot) or every entry
    of the group (a rank)."""
    dead = dead or Dead(draw)
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
            elif slot.source is None or dead.slot(slot):
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
    dead = Dead(draw)
    entries_of = reach(draw, dead)
    return frozenset().union(*(entries_of(dm) for dm in draw.matches.values() if dead.to_play(dm)))


def after_open_round(draw: Draw) -> frozenset[str]:
    """The draw matches that wait for their round r - 1 (contract §20): round r of a stage starts no earlier than
    every match of round r - 1 of that stage, live (start-next) as in the plan."""
    dead = Dead(draw)
    open_rounds = {(dm.stage, dm.round_number) for dm in draw.matches.values() if dead.to_play(dm)}
    return frozenset(dm.id for dm in draw.matches.values() if (dm.stage, dm.round_number - 1) in open_rounds)
