"""Retried writes change nothing (contract §17 `opID`, §23 `Idempotency-Key`), through
`domain.match.operations` and `domain.partner.idempotency` on the in-memory unit of work: the first answer is
remembered in the change's own unit of work for 24 hours, per scope, and a failed change remembers nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from domain.errors import Conflict, Invalid
from domain.match import operations
from domain.partner import idempotency
from tests.domain.world import World


@pytest.fixture
def world() -> World:
    return World()


def run_once(world: World, scope: str, op_id: str | None, counter: list[int],
             current: Any = None) -> dict[str, Any]:
    def act() -> dict[str, Any]:
        counter.append(1)
        return {"run": len(counter)}

    with world.uow() as uow:
        return operations.once(uow, account_id=world.account_id, scope=scope, op_id=op_id, now=world.now, act=act,
                               current=current)


def test_an_op_id_is_one_to_64_url_safe_characters() -> None:
    assert operations.check_op_id(None) is None
    assert operations.check_op_id("tap-1_A") == "tap-1_A"
    for bad in ("", "a" * 65, "has space", "slash/", 42):
        with pytest.raises(Invalid) as refused:
            operations.check_op_id(bad)
        assert refused.value.details == {"json": {"opID": ["1-64 URL-safe characters."]}}


def test_a_retried_op_id_answers_the_first_answer_and_runs_once(world: World) -> None:
    runs: list[int] = []
    assert run_once(world, "mat_1", "op-1", runs) == {"run": 1}
    assert run_once(world, "mat_1", "op-1", runs) == {"run": 1}
    assert len(runs) == 1


def test_without_an_op_id_every_call_runs(world: World) -> None:
    runs: list[int] = []
    run_once(world, "mat_1", None, runs)
    run_once(world, "mat_1", None, runs)
    assert len(runs) == 2


def test_one_op_id_on_two_scopes_runs_on_each(world: World) -> None:
    runs: list[int] = []
    assert run_once(world, "mat_1", "op-1", runs) == {"run": 1}
    assert run_once(world, "mat_2", "op-1", runs) == {"run": 2}


def test_an_answer_is_forgotten_after_24_hours(world: World) -> None:
    runs: list[int] = []
    run_once(world, "mat_1", "op-1", runs)
    world.clock.advance(timedelta(hours=24).total_seconds())
    assert run_once(world, "mat_1", "op-1", runs) == {"run": 2}


def test_a_failed_change_remembers_no_answer(world: World) -> None:
    def fail() -> dict[str, Any]:
        raise Conflict("refused", code="nope")

    with pytest.raises(Conflict), world.uow() as uow:
        operations.once(uow, account_id=world.account_id, scope="mat_1", op_id="op-1", now=world.now, act=fail)
    runs: list[int] = []
    assert run_once(world, "mat_1", "op-1", runs) == {"run": 1}


def test_another_accounts_answer_is_not_recalled(world: World) -> None:
    runs: list[int] = []
    run_once(world, "mat_1", "op-1", runs)
    with world.uow() as uow:
        assert operations.recall(uow, account_id="acc_other", scope="mat_1", op_id="op-1", now=world.now) is None


def test_an_op_id_a_scorer_link_applied_answers_the_current_state_on_the_operator_route(world: World) -> None:
    with world.uow() as uow:
        answer = operations.once_on_court(uow, account_id=world.account_id, table_id="tbl_1", match_id="mat_1",
                                          op_id="tap-1", now=world.now, act=lambda: ({"from": "link"}, "mat_1"),
                                          current=lambda: {"state": "now"})
    assert answer == {"from": "link"}
    runs: list[int] = []
    assert run_once(world, "mat_1", "tap-1", runs, current=lambda: {"state": "now"}) == {"state": "now"}
    assert runs == []


def test_a_retry_on_the_link_answers_its_first_answer(world: World) -> None:
    acts: list[int] = []

    def act() -> tuple[dict[str, Any], str]:
        acts.append(1)
        return {"tap": len(acts)}, "mat_1"

    for _ in range(2):
        with world.uow() as uow:
            answer = operations.once_on_court(uow, account_id=world.account_id, table_id="tbl_1", match_id="mat_1",
                                              op_id="tap-1", now=world.now, act=act, current=lambda: {})
        assert answer == {"tap": 1}


def test_an_op_id_the_operator_applied_is_not_applied_again_by_the_link(world: World) -> None:
    run_once(world, "mat_1", "tap-1", [])
    with world.uow() as uow:
        answer = operations.once_on_court(uow, account_id=world.account_id, table_id="tbl_1", match_id="mat_1",
                                          op_id="tap-1", now=world.now, act=lambda: ({"acted": True}, "mat_1"),
                                          current=lambda: {"state": "as it is"})
    assert answer == {"state": "as it is"}


def test_expired_answers_are_deleted_and_counted(world: World) -> None:
    run_once(world, "mat_1", "op-1", [])
    world.clock.advance(3600)
    run_once(world, "mat_1", "op-2", [])
    world.clock.advance(23 * 3600)
    with world.uow() as uow:
        assert operations.forget_expired(uow, now=world.now) == 1
    with world.uow() as uow:
        assert [op.op_id for op in uow.operations.find()] == ["op-2"]


def test_an_idempotency_key_is_8_to_200_characters() -> None:
    assert idempotency.check_key("k" * 8) == "k" * 8
    for bad in ("k" * 7, "k" * 201):
        with pytest.raises(Invalid) as refused:
            idempotency.check_key(bad)
        assert refused.value.code == "invalid_idempotency_key"


def test_a_remembered_create_answers_its_status_and_exact_body(world: World) -> None:
    with world.uow() as uow:
        idempotency.remember(uow, account_id=world.account_id, scope="conn_1 POST /rosters", key="create-0001",
                             fingerprint="f1", answer=idempotency.Answer(201, '{"data": 1}'), now=world.now)
    with world.uow() as uow:
        found = idempotency.remembered(uow, account_id=world.account_id, scope="conn_1 POST /rosters",
                                       key="create-0001", fingerprint="f1", now=world.now)
    assert found == idempotency.Answer(status=201, body='{"data": 1}')


def test_the_same_key_with_another_body_is_reused(world: World) -> None:
    with world.uow() as uow:
        idempotency.remember(uow, account_id=world.account_id, scope="s", key="create-0001", fingerprint="f1",
                             answer=idempotency.Answer(201, "{}"), now=world.now)
    with pytest.raises(Conflict) as refused, world.uow() as uow:
        idempotency.remembered(uow, account_id=world.account_id, scope="s", key="create-0001", fingerprint="f2",
                               now=world.now)
    assert refused.value.code == "idempotency_key_reused"


def test_a_key_is_kept_per_scope_and_for_24_hours(world: World) -> None:
    with world.uow() as uow:
        idempotency.remember(uow, account_id=world.account_id, scope="s", key="create-0001", fingerprint="f1",
                             answer=idempotency.Answer(201, "{}"), now=world.now)
    with world.uow() as uow:
        assert idempotency.remembered(uow, account_id=world.account_id, scope="other", key="create-0001",
                                      fingerprint="f1", now=world.now) is None
    world.clock.advance(24 * 3600)
    with world.uow() as uow:
        assert idempotency.remembered(uow, account_id=world.account_id, scope="s", key="create-0001",
                                      fingerprint="f1", now=world.now) is None
