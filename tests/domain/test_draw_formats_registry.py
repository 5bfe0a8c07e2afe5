"""The draw formats are registered in one table (issue 36): every `DrawFormat` has its module. (That every audit
action the code writes is a member of the vocabulary: `test_vocabularies.py`.)"""

from __future__ import annotations

from domain.draws.formats import FORMATS
from domain.draws.formats.base import Format
from domain.draws.model import DrawFormat


def test_every_draw_format_is_registered_with_its_own_rules() -> None:
    assert set(FORMATS) == set(DrawFormat)
    assert all(isinstance(rules, Format) for rules in FORMATS.values())
    assert len({type(rules) for rules in FORMATS.values()}) == len(FORMATS)

