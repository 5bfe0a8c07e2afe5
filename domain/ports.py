"""What services need from storage: typed repositories in one unit of work (one atomic transaction)."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from domain import models

M = TypeVar("M")


class Repo(Protocol[M]):
    def get(self, key: str) -> M | None: ...

    def put(self, item: M) -> M: ...

    def delete(self, key: str) -> None: ...

    def find(self, **equals: Any) -> list[M]: ...


class UnitOfWork(Protocol):
    """Everything one service call reads and writes; committed whole or not at all."""

    accounts: Repo[models.Account]
    apps: Repo[models.App]
    connections: Repo[models.Connection]
    credentials: Repo[models.Credential]
    codes: Repo[models.AuthorizationCode]
    broadcasts: Repo[models.Broadcast]
    tables: Repo[models.Table]
    rosters: Repo[models.Roster]
    player_lists: Repo[models.PlayerList]
    teams: Repo[models.Team]
    matches: Repo[models.Match]
    webhook_configs: Repo[models.WebhookConfig]
    deliveries: Repo[models.Delivery]
    new_event_ids: list[str]
