"""Storage keeps a vocabulary (a StrEnum of `domain.models`) as its plain string in the document and gives the
member back: a record read back is typed as the record that was stored (issue 24, item 2). Both backends."""

from __future__ import annotations

from domain.clock import FixedClock, iso
from domain.models import (
    Credential,
    CredentialKind,
    Delivery,
    DeliveryStatus,
    DrawRecord,
    DrawStatus,
    EventType,
    Link,
    LinkKind,
    MailMessage,
    MailStatus,
    Output,
    OutputKind,
    PlayerReport,
    ReportStatus,
    Roster,
    RosterType,
    WebhookConfig,
)
from storage.backend import AnyStore
from storage.repository import unit_of_work

BOTH_BACKENDS = True


def test_a_record_read_back_holds_the_vocabularys_members(store: AnyStore, clock: FixedClock) -> None:
    now = iso(clock.now())
    with unit_of_work(store) as uow:
        uow.rosters.put(Roster(id="ros_1", account_id="acc", name="Club", roster_type=RosterType.TEAM,
                               player_list_id="pl_1", created_on=now, updated_on=now))
        uow.outputs.put(Output(id="outp_1", account_id="acc", broadcast_id="brd", kind=OutputKind.VENUE,
                               table_id=None, scoreboard_id=None, key="k", key_hash="h", created_on=now))
        uow.webhook_configs.put(WebhookConfig(id="conn_1", account_id="acc", created_on=now, updated_on=now,
                                              events=[EventType.MATCH_COMPLETED]))
        uow.deliveries.put(Delivery(id="e" * 40, account_id="acc", connection_id="conn_1",
                                    event_type=EventType.INTEGRATION_TEST, body="{}",
                                    status=DeliveryStatus.PENDING, created_on=now))
    with unit_of_work(store) as uow:
        roster, output = uow.rosters.get("ros_1"), uow.outputs.get("outp_1")
        config, delivery = uow.webhook_configs.get("conn_1"), uow.deliveries.get("e" * 40)
        assert roster is not None and output is not None and config is not None and delivery is not None
        assert type(roster.roster_type) is RosterType and roster.roster_type is RosterType.TEAM
        assert output.kind is OutputKind.VENUE
        assert config.events == [EventType.MATCH_COMPLETED] and type(config.events[0]) is EventType
        assert (delivery.event_type, delivery.status) == (EventType.INTEGRATION_TEST, DeliveryStatus.PENDING)
        assert type(delivery.status) is DeliveryStatus
        assert [d.id for d in uow.deliveries.find(status=DeliveryStatus.PENDING)] == ["e" * 40]


def test_an_unset_optional_vocabulary_stays_none(store: AnyStore, clock: FixedClock) -> None:
    now = iso(clock.now())
    with unit_of_work(store) as uow:
        uow.webhook_configs.put(WebhookConfig(id="conn_1", account_id="acc", created_on=now, updated_on=now))
    with unit_of_work(store) as uow:
        config = uow.webhook_configs.get("conn_1")
        assert config is not None and config.events is None


def test_statuses_stored_as_plain_strings_read_back_as_the_vocabularys_members(store: AnyStore,
                                                                                clock: FixedClock) -> None:
    """Mail, draw and report statuses and credential kinds (issue 48.3): rows written before they were StrEnums
    hold the same strings, and read back as the members."""
    now = iso(clock.now())
    with unit_of_work(store) as uow:  # as the code wrote them before: plain strings
        uow.mail.put(MailMessage(id="mail_1", account_id="acc", broadcast_id="brd", to="a@example.org", subject="s",
                                 body="b", status="failing", created_on=now))  # type: ignore[arg-type]
        uow.draws.put(DrawRecord(id="drw_1", account_id="acc", broadcast_id="brd", name="Open", created_on=now,
                                 updated_on=now, status="complete"))  # type: ignore[arg-type]
        uow.player_reports.put(PlayerReport(id="rpt_1", account_id="acc", broadcast_id="brd", match_id="mat_1",
                                            games=[], reported_by="psn_1", status="disputed",  # type: ignore[arg-type]
                                            reported_on=now))
        uow.credentials.put(Credential(id="h" * 64, kind="refresh", account_id="acc",  # type: ignore[arg-type]
                                       connection_id="conn_1", scopes=[], created_on=now))
    with unit_of_work(store) as uow:
        message, draw, report = uow.mail.get("mail_1"), uow.draws.get("drw_1"), uow.player_reports.get("rpt_1")
        assert message is not None and draw is not None and report is not None
        assert type(message.status) is MailStatus
        assert message.status is MailStatus.FAILING and message.status.value == "failing"
        assert type(draw.status) is DrawStatus
        assert draw.status is DrawStatus.COMPLETE and draw.status.value == "complete"
        assert type(report.status) is ReportStatus
        assert report.status is ReportStatus.DISPUTED and report.status.value == "disputed"
        assert [m.id for m in uow.mail.find(status=MailStatus.FAILING)] == ["mail_1"]
        assert [r.id for r in uow.player_reports.find(status=ReportStatus.DISPUTED)] == ["rpt_1"]
        assert uow.mail.find(status=MailStatus.PENDING) == []
        credential = uow.credentials.get("h" * 64)
        assert credential is not None and credential.kind is CredentialKind.REFRESH
        assert [c.id for c in uow.credentials.find(kind=CredentialKind.REFRESH)] == ["h" * 64]


def test_a_link_keeps_its_kind_in_its_id_and_reads_it_back_as_the_member(store: AnyStore, clock: FixedClock) -> None:
    """`Link.kind` (issue 48.3): the ID `{kind}:{target}` and the stored kind are the strings they were."""
    now = iso(clock.now())
    with unit_of_work(store) as uow:
        uow.links.put(Link(id=f"{LinkKind.SCORER}:tbl_1", account_id="acc", kind="scorer",  # type: ignore[arg-type]
                           target_id="tbl_1", key=None, key_hash=None, created_on=now))
    with unit_of_work(store) as uow:
        link = uow.links.get("scorer:tbl_1")
        assert link is not None and link.kind is LinkKind.SCORER and link.id == "scorer:tbl_1"
