"""A draw's matches still to play, as items to plan (contract §20), read from the draw's public model.

Every draw match that is not complete and will be a real match becomes an item, waiting ones included: a slot
still open counts every entry that can still fill it (a match's winner or loser slot: every entry that can reach
that match; a group's rank: every entry of the group). Byes (a slot that can certainly never be filled,
`domain.draws.reach.Dead`) are no matches: what they feed waits on what fed them. A person is keyed by the person
rule's name key (`domain.names`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain.draws.model import Draw, DrawMatch, DrawMatchStatus
from domain.draws.reach import PLAYED, Dead, reach
from domain.names import name_key
from domain.plan.model import Item


@dataclass(frozen=True)
class DrawItems:
    items: list[Item]
    names: dict[str, str]  # person key -> a name to show


def draw_items(draw: Draw, *, minutes: int, order: int = 0, courts: tuple[str, ...] | None = None,
               label: Callable[[Draw, DrawMatch], str] | None = None) -> DrawItems:
    """Items for every draw match of the draw still to be played (see the module's docstring)."""
    withdrawn = {entry.id for entry in draw.entries if entry.withdrawn}
    dead = Dead(draw)
    entries_of = reach(draw, dead)

    group_matches: dict[str, list[DrawMatch]] = {}
    for dm in draw.matches.values():
        if dm.group is not None:
            group_matches.setdefault(dm.group, []).append(dm)

    def feeders_of(dm: DrawMatch) -> set[str]:
        """The matches whose results fill the draw match's open slots (the one feeder rule of contract §20: the
        planner orders by it, the checker tells `before_feeder` by it): a slot from a match's winner or loser is
        fed by that match (through byes, by what fed them); a slot from a group's rank by every match of the group
        still to play, so no knockout or play-off match starts before its groups end."""
        fed: set[str] = set()
        for slot in dm.slots:
            source = slot.source
            if slot.entry_id is not None or source is None:
                continue
            if source.draw_match_id is None:
                if source.group is not None:
                    fed |= {g.id for g in group_matches.get(source.group, []) if g.status not in PLAYED}
                continue
            before = draw.matches.get(source.draw_match_id)
            if before is None or before.status == DrawMatchStatus.COMPLETE:
                continue
            fed |= feeders_of(before) if dead.no_match(before) else {before.id}
        return fed

    names: dict[str, str] = {}
    of_entry: dict[str, frozenset[str]] = {}  # entry -> its players' person keys, made once

    def persons(entry_ids: frozenset[str]) -> frozenset[str]:
        for entry_id in entry_ids - of_entry.keys():
            keys = set()
            for player in draw.entry(entry_id).players:
                key = name_key(player.name)
                names.setdefault(key, player.name)
                keys.add(key)
            of_entry[entry_id] = frozenset(keys)
        return frozenset().union(*(of_entry[e] for e in entry_ids))

    doubles = bool(draw.entries) and len(draw.entries[0].players) > 1
    items = []
    for index, dm in enumerate(draw.ordered_matches()):
        if dm.status in PLAYED or dead.no_match(dm):
            continue
        known = frozenset(dm.entry_ids())
        if known & withdrawn:  # a walkover as soon as it is ready: nothing to play
            continue
        items.append(Item(
            key=dm.id, minutes=minutes, persons=persons(entries_of(dm)), known=persons(known), doubles=doubles,
            courts=courts, feeders=tuple(sorted(feeders_of(dm))), stage=f"{draw.id}/{dm.stage}",
            round=dm.round_number, order=order + index, label=label(draw, dm) if label else dm.id, draw=draw.id))
    return DrawItems(items=items, names=names)
