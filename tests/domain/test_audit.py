"""The audit log's pure rules (contract §16): canonical JSON and the hash, what an entry keeps of a change (only
what changed, secrets as "…"), and walking a chain (changed, removed and reordered entries found)."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.errors import Invalid
from domain.models import Link, LinkKind, Match, MatchStatus

ACTOR = audit.Actor(audit.ActorKind.OPERATOR, "opk_0123456789abcdef", "req-1")


def chain(count: int) -> list[audit.AuditEntry]:
    entries: list[audit.AuditEntry] = []
    for n in range(count):
        entries.append(audit.build_entry(entries[-1] if entries else None, account_id="acc", actor=ACTOR,
                                         action=AuditAction.MATCH_SCORED, target=(TargetType.MATCH, "mat_1"),
                                         before={"n": n},
                                         after={"n": n + 1, "name": "Zoë Ü"}, reason=None,
                                         at=f"2026-11-25T10:00:0{n}.000Z"))
    return entries


def test_the_hash_is_sha256_of_the_canonical_json_without_hash_as_the_standard_library_writes_it() -> None:
    first, second = chain(2)
    assert first.seq == 1 and first.prev_hash == "0" * 64
    assert second.seq == 2 and second.prev_hash == first.hash
    for entry in (first, second):
        body = {key: value for key, value in entry.view().items() if key != "hash"}
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        assert audit.canonical(body) == text
        assert entry.hash == hashlib.sha256(text).hexdigest()


def test_an_intact_chain_walks_to_its_count() -> None:
    assert audit.walk("acc", iter(chain(5))) == audit.Verdict("acc", 5, None)
    assert audit.walk("acc", iter([])).intact


@pytest.mark.parametrize(("tamper", "first_bad"), [
    (lambda e: e[:2] + [dataclasses.replace(e[2], after={"n": 99})] + e[3:], 3),  # changed
    (lambda e: e[:1] + [dataclasses.replace(e[1], reason="later")] + e[2:], 2),  # a reason added later
    (lambda e: e[:3] + e[4:], 4),  # removed
    (lambda e: [e[0], e[2], e[1], *e[3:]], 2),  # reordered
    (lambda e: e[1:], 1),  # the first removed
])
def test_a_changed_removed_or_reordered_entry_is_the_first_bad_seq(tamper, first_bad) -> None:  # type: ignore[no-untyped-def]
    verdict = audit.walk("acc", iter(tamper(chain(5))))
    assert verdict.first_bad == first_bad and not verdict.intact


def match(**changes: object) -> Match:
    base = Match(id="mat_1", scheduled_match_id="sm_1", account_id="acc", connection_id="conn_1", external_id="m1",
                 table_id="tbl_1", player_list_external_id="pl", status=MatchStatus.ACTIVE, queue_order=1,
                 scheduled_on="t0", created_on="t0", updated_on="t0", game_scores=[{"a": 3, "b": 1}])
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_an_entry_keeps_only_what_changed_in_the_apis_names() -> None:
    before, after = audit.kept(match(), match(game_scores=[{"a": 4, "b": 1}], updated_on="t1"))
    assert before == {"id": "mat_1", "gameScores": [{"a": 3, "b": 1}]}
    assert after == {"id": "mat_1", "gameScores": [{"a": 4, "b": 1}]}
    moved_before, moved_after = audit.kept(match(), match(table_id="tbl_2"))
    assert (moved_before["tableID"], moved_after["tableID"]) == ("tbl_1", "tbl_2")
    created_before, created = audit.kept(None, match())
    assert created_before is None and created["status"] == "active" and "startedOn" not in created
    assert "seq" not in created and "updatedOn" not in created


def test_secrets_are_written_as_an_ellipsis_even_where_they_changed() -> None:
    link = Link(id="scorer:tbl_1", account_id="acc", kind=LinkKind.SCORER, target_id="tbl_1", key="scr_secret",
                key_hash="abc", created_on="t0")
    before, after = audit.kept(link, dataclasses.replace(link, key="scr_other", key_hash="def", created_on="t1"))
    assert before["key"] == after["key"] == "…" and before["keyHash"] == after["keyHash"] == "…"
    assert "scr_" not in json.dumps([before, after])
    revoked_before, revoked = audit.kept(link, dataclasses.replace(link, key=None, key_hash=None))
    assert revoked_before["key"] == "…" and revoked["key"] is None
    nested = audit.redact({"config": {"secret": "whsec_x", "url": "https://x"}, "list": [{"clientSecret": "s"}]})
    assert nested == {"config": {"secret": "…", "url": "https://x"}, "list": [{"clientSecret": "…"}]}


def test_a_reason_is_trimmed_blank_is_none_and_500_characters_at_most() -> None:
    assert audit.check_reason("  sides swapped ") == "sides swapped"
    assert audit.check_reason("   ") is None and audit.check_reason(None) is None
    assert audit.check_reason("x" * 500) == "x" * 500
    with pytest.raises(Invalid):
        audit.check_reason("x" * 501)


