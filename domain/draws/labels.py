"""What stands in a draw match's slot before its entry is known, made from the draw's structure: "Winner of
R16-1", "Loser of QF-2", "1st of group A", "Bye". One rule for the order of play's grid, its print view and the
event page (contract §20: a slot whose players are not known yet names where they come from)."""

from __future__ import annotations

from domain.draws.model import Draw, DrawMatch, Outcome, Slot, Stage

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
