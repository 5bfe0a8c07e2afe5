"""Print views (contract §9a): the club's paper, one A4 HTML page per kind, operator key only.

`GET /operator/broadcasts/{broadcastID}/print/{kind}`, kind `schedules` (one page per court), `results`,
`sign-in` (§14's desk sheet) and `qr` (every scorer link, the sign-up and event-page links: secrets by design,
which is why every print view is an operator route). Each answer is a self-contained `text/html` page (no script,
no link out, no control) whose `@page` rule is A4 portrait, black on white: the console fetches it with the operator
key and hands it to the browser to print. Times are wall-clock times at `utcOffset` minutes east of UTC (the
console sends its own), else the server's local time.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import segno
from flask import Response, render_template
from marshmallow import fields, validate

from api.blueprint import Blueprint
from api.context import caller, now, public_root, services, unit_of_work
from api.schemas.common import Strict
from api.security import requires
from domain import paper
from domain.clock import parse_iso
from domain.ports import UnitOfWork

blp = Blueprint("operator_print", __name__, description="Operator: print views (A4 pages to print)",
                template_folder="../templates")

Json = dict[str, Any]
PRINT = "/operator/broadcasts/<string:broadcast_id>/print"
HEADERS = {
    "Cache-Control": "no-store",  # the QR sheet holds scorer links; no sheet is worth keeping in a cache
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


class PrintQuery(Strict):
    utcOffset = fields.Integer(validate=validate.Range(min=-840, max=840), metadata={
        "description": "minutes east of UTC for the times printed (the console's own); default: the server's"})


def qr_svg(url: str) -> str:
    """A QR code of the URL as inline SVG: sharp at any print size."""
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True))


def _zone(offset: int | None) -> timezone | None:
    return None if offset is None else timezone(timedelta(minutes=offset))


def _clock(offset: int | None) -> Callable[[str | None], str]:
    """`14:05`: an API timestamp as a wall-clock time at the offset ("" for none)."""
    zone = _zone(offset)

    def clock(moment: str | None) -> str:
        if not moment:
            return ""
        at = parse_iso(moment)
        return (at.astimezone(zone) if zone else at.astimezone()).strftime("%H:%M")

    return clock


def _day(moment: datetime, offset: int | None) -> str:
    """`Saturday 14 March 2026`: the printing day at the offset."""
    zone = _zone(offset)
    local = moment.astimezone(zone) if zone else moment.astimezone()
    return f"{local:%A} {local.day} {local:%B %Y}"


def _page(template: str, sheet: Json, query: Json) -> Response:
    offset = query.get("utcOffset")
    at = now().astimezone(UTC)
    body = render_template(f"print/{template}", sheet=sheet, clock=_clock(offset), day=_day(at, offset),
                           printed=_clock(offset)(sheet["printedOn"]), qr=qr_svg)
    response = Response(body, status=200, mimetype="text/html")
    response.headers.update(HEADERS)
    return response


def _route(kind: str, summary: str) -> Callable[[Callable[[UnitOfWork, str], Json]], Callable[..., Response]]:
    """Declare the print view of one kind: the operator key, `utcOffset`, 200 `text/html`, 404."""

    def declare(gather: Callable[[UnitOfWork, str], Json]) -> Callable[..., Response]:
        def view(query: Json, broadcast_id: str) -> Response:
            with unit_of_work() as uow:
                sheet = gather(uow, broadcast_id)
            return _page(f"{kind}.html", sheet, query)

        view.__name__ = f"print_{kind.replace('-', '_')}"
        view.__doc__ = summary
        documented = blp.doc(responses={"200": {"description": "The A4 page (HTML) to print."}})(view)
        documented = blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")(documented)
        documented = blp.arguments(PrintQuery, location="query")(documented)
        return blp.route(f"{PRINT}/{kind}", methods=["GET"])(requires(operator=True)(documented))

    return declare


def _account() -> str:
    return caller().account_id


@_route("schedules", "Court schedules to print: one A4 page per court, its match in play and its queue with "
                     "not-before times, estimated starts and players (contract §9a).")
def _schedules(uow: UnitOfWork, broadcast_id: str) -> Json:
    settings = services().settings
    return paper.court_schedules(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(),
                                 default_minutes=settings.default_match_minutes, points=settings.points_per_game)


@_route("results", "Results to print: every completed match of the broadcast, oldest first (contract §9a).")
def _results(uow: UnitOfWork, broadcast_id: str) -> Json:
    return paper.results_sheet(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(),
                               points=services().settings.points_per_game)


@_route("sign-in", "The desk's sign-in sheet to print: every player of the broadcast sorted by surname with a box "
                   "to tick, ticked for those already checked in, and the counts (contract §14).")
def _sign_in(uow: UnitOfWork, broadcast_id: str) -> Json:
    return paper.sign_in_sheet(uow, account_id=_account(), broadcast_id=broadcast_id, now=now())


@_route("qr", "The QR sheet to print: every court's scorer link, the sign-up links and the event page, each as a "
              "QR code with its URL (contract §9a). Scorer links are secrets: hand each to its umpire.")
def _qr(uow: UnitOfWork, broadcast_id: str) -> Json:
    return paper.link_sheet(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(), root=public_root())
