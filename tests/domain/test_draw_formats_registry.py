"""The draw formats are registered in one table (issue 36): every `DrawFormat` has its module, and the audit log's
actions and target types are one vocabulary that every action the code writes belongs to."""

from __future__ import annotations

import re
from pathlib import Path

from domain.access.audit_records import AuditAction, TargetType
from domain.draws.formats import FORMATS
from domain.draws.formats.base import Format
from domain.draws.model import DrawFormat

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_draw_format_is_registered_with_its_own_rules() -> None:
    assert set(FORMATS) == set(DrawFormat)
    assert all(isinstance(rules, Format) for rules in FORMATS.values())
    assert len({type(rules) for rules in FORMATS.values()}) == len(FORMATS)


def test_every_audit_action_and_target_type_the_code_writes_is_in_the_vocabulary() -> None:
    written: set[str] = set()
    targets: set[str] = set()
    for package in ("domain", "api", "scheduler", "cli"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            written |= set(re.findall(r'action=\(?"([a-z_]+\.[a-z_]+)"', text))
            written |= set(re.findall(r'action=.*?\("([a-z_]+\.[a-z_]+)" if', text))
            targets |= set(re.findall(r'target=\("([a-z_]+)"', text))
    assert written, "the scan found no action: the pattern no longer matches the code"
    assert written <= {a.value for a in AuditAction}, written - {a.value for a in AuditAction}
    assert targets <= {t.value for t in TargetType}, targets - {t.value for t in TargetType}
    assert {f"match.{kind}" for kind in ("walkover", "retired")} <= {a.value for a in AuditAction}
