"""The order of play (contract §20, operator key only): plan a broadcast, read its grid, move a match by hand."""

from __future__ import annotations

from functools import partial
from typing import Any

from api.blueprint import Blueprint
from api.context import caller, now, public_root, services, unit_of_work
from api.routes.matches import rules
from api.schemas.common import envelope
from api.schemas.plan import MoveBody, MoveResult, PlanBody, PlanGrid, PlanResult
from api.security import requires
from domain.plan import service as plan
from domain.plan.settings import Move, Planning
from domain.ports import UnitOfWork
from domain.public import mail

blp = Blueprint("operator_plan", __name__, description="Operator: the order of play")

Json = dict[str, Any]


def _where() -> Json:
    return {"account_id": caller().account_id, "now": now(), "server": rules().scoring,
            "zone": services().settings.zone()}


def _teller() -> plan.TellMoved | None:
    """Players' mail on a published time moved (contract §21), when SMTP is set up."""
    settings = services().settings
    if not (settings.smtp_url and settings.mail_from):
        return None
    return partial(mail.queue_time_moved, setup=mail.MailSetup(root=public_root()), zone=settings.zone())


@blp.route("/operator/broadcasts/<string:broadcast_id>/plan", methods=["POST"])
@requires(operator=True)
@blp.arguments(PlanBody)
@blp.response(200, envelope(PlanResult))
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed: no plan settings with a day.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")
def plan_broadcast(body: Planning, broadcast_id: str) -> Json:
    """Place every match still to play (waiting draw matches included) on a court and time under every rule of
    the order of play; called and started matches stay, matches placed by hand stay unless `keepPlaced` is false."""
    return {"data": plan_broadcast_apart(broadcast_id=broadcast_id, body=body, where=_where())}


def plan_broadcast_apart(*, broadcast_id: str, body: Planning, where: Json) -> Any:
    """Read, compute outside the store's lock, then write (issue 47.5: a long planning held every other caller
    for its whole length on TinyDB). The write reads again: if the problem changed meanwhile (a score, a move), the
    plan is made again under the lock from what is stored now, so a plan never rests on stale data."""
    def read(uow: UnitOfWork) -> plan.PlanWork:
        return plan.read_plan_work(uow, broadcast_id=broadcast_id, keep_placed=body.keep_placed, **where)

    with unit_of_work() as uow:
        first = read(uow)
    computed = plan.compute_plan(first)
    with unit_of_work() as uow:
        work = read(uow)
        if work.problem != first.problem:
            computed = plan.compute_plan(work)
        return plan.write_plan(uow, work, computed, dry_run=body.dry_run, now=where["now"], tell=_teller())


@blp.route("/operator/broadcasts/<string:broadcast_id>/plan", methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(PlanGrid))
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")
def plan_grid(broadcast_id: str) -> Json:
    """The order of play as a grid (per day, per court, slots in time order) and every conflict of it."""
    with unit_of_work() as uow:
        return {"data": plan.plan_grid(uow, broadcast_id=broadcast_id, **_where())}


def _moved(body: Move, *, match_id: str | None = None, draw_match_id: str | None = None) -> Json:
    with unit_of_work() as uow:
        return {"data": plan.move(uow, match_id=match_id, draw_match_id=draw_match_id, table_id=body.table_id,
                                  planned_on=body.planned_on, tell=_teller(), **_where())}


@blp.route("/operator/matches/<string:match_id>/plan", methods=["POST"])
@requires(operator=True)
@blp.arguments(MoveBody)
@blp.response(200, envelope(MoveResult))
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed: not a court of its broadcast.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown match.")
@blp.alt_response(409, response="DEFAULT_ERROR", description="match_not_pending: called, started or complete.")
def move_match(body: Move, match_id: str) -> Json:
    """Plan one match by hand at a court and time: never refused for a conflict, the plan's conflicts told."""
    return _moved(body, match_id=match_id)


@blp.route("/operator/draw-matches/<string:draw_match_id>/plan", methods=["POST"])
@requires(operator=True)
@blp.arguments(MoveBody)
@blp.response(200, envelope(MoveResult))
@blp.alt_response(400, response="DEFAULT_ERROR", description="validation_failed: not a court of its broadcast.")
@blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown draw match.")
@blp.alt_response(409, response="DEFAULT_ERROR", description="draw_match_not_open: complete or a bye.")
def move_draw_match(body: Move, draw_match_id: str) -> Json:
    """Plan one draw match (its players may still be unknown) by hand at a court and time, as for a match."""
    return _moved(body, draw_match_id=draw_match_id)
