"""Players' mail is claimed before it is sent (contract §21): a message one process is sending is nobody else's
(two schedulers sharing PostgreSQL, two runs of the mail job), its claim ends with its attempt, and a claim whose
process is gone is made due again."""

from __future__ import annotations

from datetime import timedelta

from domain.models import MailStatus
from domain.public import mail
from tests.domain.world import World


def queued(world: World, count: int) -> list[str]:
    broadcast, _ = world.broadcast("Court 1")
    with world.uow() as uow:
        for number in range(count):
            mail._queue(uow, broadcast, to=f"p{number}@example.org", subject="Your match", body="Court 1, now",
                        now=world.now)
        return [m.id for m in uow.mail.find(broadcast_id=broadcast.id)]


def test_a_claimed_message_is_not_due_for_another_sender() -> None:
    world = World()
    made = queued(world, 3)
    with world.uow() as uow:
        first = mail.claim_due(uow, now=world.now, owner="process-a")
    with world.uow() as uow:
        second = mail.claim_due(uow, now=world.now, owner="process-b")
    assert [o.mail_id for o in first] == made and second == []


def test_a_recorded_attempt_ends_the_claim_and_a_failed_one_is_due_again_on_its_schedule() -> None:
    world = World()
    [sent, failed] = queued(world, 2)
    with world.uow() as uow:
        claimed = {o.mail_id: o for o in mail.claim_due(uow, now=world.now, owner="process-a")}
        mail.record_attempt(uow, claimed[sent], error=None, now=world.now)
        mail.record_attempt(uow, claimed[failed], error="refused", now=world.now)
    with world.uow() as uow:
        assert mail.claim_due(uow, now=world.now, owner="process-b") == []  # sent, and the other not due yet
        message = uow.mail.get(failed)
        assert message is not None and message.claimed_by is None and message.status == MailStatus.FAILING
        later = mail.claim_due(uow, now=world.now + timedelta(hours=1), owner="process-b")
    assert [o.mail_id for o in later] == [failed]


def test_claims_of_a_process_that_is_gone_are_due_again_and_a_live_ones_stay() -> None:
    world = World()
    made = queued(world, 2)
    with world.uow() as uow:
        [gone] = mail.claim_due(uow, now=world.now, owner="gone")[:1]
        message = uow.mail.get(made[1])
        assert message is not None
        message.claimed_by = "alive"
        uow.mail.put(message)
    with world.uow() as uow:
        assert mail.recover_interrupted(uow, live_owners={"alive"}) == 1
    with world.uow() as uow:
        assert [o.mail_id for o in mail.claim_due(uow, now=world.now, owner="next")] == [gone.mail_id]
