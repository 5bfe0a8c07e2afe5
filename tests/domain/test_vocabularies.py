"""Vocabularies are enums where they are stored or compared (issue 48.3): the audit log's actions and target types
are passed as members of `AuditAction` and `TargetType` (the sources are parsed with `ast`: no call writes an
action or a target type as a string literal), every action has words in the console, and the statuses kept as
StrEnums store and read back the same strings as before."""

from __future__ import annotations

import ast
from enum import StrEnum
from pathlib import Path

import pytest

from domain.access.audit_records import ActorKind, AuditAction, TargetType

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("domain", "api", "scheduler", "cli")
AUDIT_CALLS = {"record", "record_created", "build_entry"}  # `domain.access.audit`'s writers


def _name(func: ast.expr) -> str:
    """`audit.record` for `audit.record(...)`, `_finish` for `_finish(...)`."""
    if isinstance(func, ast.Attribute):
        return f"{_name(func.value)}.{func.attr}" if isinstance(func.value, ast.Name | ast.Attribute) else func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _literal(node: ast.AST) -> bool:
    """A string written in the source: a constant or an f-string."""
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _audit_call(call: ast.Call, module: str) -> bool:
    name = _name(call.func)
    return (name.startswith("audit.") and name.split(".")[-1] in AUDIT_CALLS) or (
        module == "domain.access.audit" and name in AUDIT_CALLS)


def _vocabulary_word(node: ast.AST) -> bool:
    """`"match.started"`: a string literal shaped like an audit action (`noun.verb`), or an f-string with a dot."""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.Constant) and "." in str(part.value) for part in node.values)
    text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
    return text.count(".") == 1 and text.replace(".", "").replace("_", "").isalpha()


def literal_vocabulary(source: str, module: str = "") -> list[str]:
    """Where a call writes an audit action or target type as a string literal: `audit.record` and its kin with a
    literal anywhere in `action=` or as the type of `target=(type, id)` / `target_type=`, and any other call (a
    helper passing the action on) with a `noun.verb` literal in its `action=`. Each found as `line: text`."""
    found = []
    for call in ast.walk(ast.parse(source)):
        if not isinstance(call, ast.Call):
            continue
        audit_call = _audit_call(call, module)
        for keyword in call.keywords:
            inner = list(ast.walk(keyword.value))
            if keyword.arg == "action" and any(_literal(n) if audit_call else _vocabulary_word(n) for n in inner):
                found.append(f"{call.lineno}: action={ast.unparse(keyword.value)}")
            elif keyword.arg == "target" and any(isinstance(n, ast.Tuple) and n.elts and _literal(n.elts[0])
                                                 for n in inner):
                found.append(f"{call.lineno}: target={ast.unparse(keyword.value)}")
            elif keyword.arg == "target_type" and audit_call and any(_literal(n) for n in inner):
                found.append(f"{call.lineno}: target_type={ast.unparse(keyword.value)}")
    return found


def _sources() -> dict[str, str]:
    return {".".join(path.relative_to(ROOT).with_suffix("").parts): path.read_text(encoding="utf-8")
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def test_the_scan_sees_literal_actions_and_target_types_in_every_form() -> None:
    source = '''
audit.record(uow, account_id=a, action="match.started", target=("match", m.id), now=now)
audit.record(uow, account_id=a, action=AuditAction.LINK_ENABLED if on else "link.disabled",
             target=(TargetType.LINK, l.id), now=now)
audit.record_created(uow, account_id=a, action=AuditAction.MATCH_CREATED, target_type="match", created=[], now=now)
_finish(uow, match, action=f"match.{match.result_type}")
_audit_plan(uow, b, before, action=AuditAction.MATCH_PLANNED, target=(TargetType.MATCH, r) if r else ("draw_match", k))
parser.add_argument("--redirect-uri", action="append")
audit.record(uow, account_id=a, action=AuditAction.MATCH_CALLED, target=(TargetType.MATCH, m.id), now=now)
'''
    assert [line.split(":")[0] for line in literal_vocabulary(source)] == ["2", "2", "3", "5", "6", "7"]


def test_no_audit_action_or_target_type_is_written_as_a_string_literal() -> None:
    sources = _sources()
    calls = sum(1 for module, source in sources.items() for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Call) and _audit_call(node, module))
    assert calls >= 50, f"the scan found {calls} audit calls: it no longer sees how the code writes them"
    found = {module: hits for module, source in sources.items() if (hits := literal_vocabulary(source, module))}
    assert not found, f"pass AuditAction / TargetType members, not strings: {found}"


def _console_words(table: str) -> dict[str, str]:
    """A words table of `console/history.py` (read with `ast`: the console module imports streamlit)."""
    tree = ast.parse((ROOT / "console" / "history.py").read_text(encoding="utf-8"))
    words = next(ast.literal_eval(node.value) for node in tree.body
                 if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == table for t in node.targets))
    assert isinstance(words, dict) and all(isinstance(text, str) and text for text in words.values())
    return words


@pytest.mark.parametrize(("table", "vocabulary"), [("ACTIONS", AuditAction), ("RECORDS", TargetType),
                                                   ("ACTORS", ActorKind)])
def test_every_audit_action_target_type_and_actor_kind_has_words_in_the_console(
        table: str, vocabulary: type[StrEnum]) -> None:
    missing = {member.value for member in vocabulary} - set(_console_words(table))
    assert not missing, f"console/history.py's {table} has no words for {sorted(missing)}"


def test_the_vocabularies_keep_the_strings_stored_before_them() -> None:
    """StrEnum members are their stored strings: entries written before the enums read back as the same values,
    and the members serialise to those strings."""
    for member in (*AuditAction, *TargetType):
        assert member == member.value and str(member) == member.value and f"{member}" == member.value
    stored = {"match.walkover": AuditAction.MATCH_WALKOVER, "match.retired": AuditAction.MATCH_RETIRED,
              "link.disabled": AuditAction.LINK_DISABLED, "person.checked_out": AuditAction.PERSON_CHECKED_OUT,
              "draw_match": TargetType.DRAW_MATCH}
    assert all(text == member for text, member in stored.items())
