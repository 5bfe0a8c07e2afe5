"""Print views (contract §9a): the club's paper, one A4 HTML page per kind, operator key only.

`GET /operator/broadcasts/{broadcastID}/print/{kind}`, kind `schedules` (one page per court), `results`,
`sign-in` (§14's desk sheet), `order-of-play` (§20) and `qr` (every scorer link, the sign-up and event-page
links: secrets by design, which is why every print view is an operator route). Each answer is a self-contained
`text/html` page (no script, no link out, no control) whose `@page` rule is A4 portrait, black on white: the
console fetches it with the operator key and hands it to the browser to print. Times are wall-clock times in the
event's time zone (`COURTSIDE_TIME_ZONE`, else the server's), the zone a schedule's times are read in.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, tzinfo
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Response, render_template

from api.blueprint import Blueprint
from api.context import caller, now, public_root, services, unit_of_work
from api.routes.matches import rules
from api.security import requires
from domain.clock import parse_iso
from domain.partner.broadcasts import get_broadcast
from domain.plan import paper as plan_paper
from domain.plan.settings import event_day
from domain.ports import UnitOfWork
from domain.public import paper, personal
from domain.settings import is_loopback

blp = Blueprint("operator_print", __name__, description="Operator: print views (A4 pages to print)",
                template_folder="../templates")

Json = dict[str, Any]
PRINT = "/operator/broadcasts/<string:broadcast_id>/print"
HEADERS = {
    "Cache-Control": "no-store",  # the QR sheet holds scorer links; no sheet is worth keeping in a cache
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
}


def qr_svg(url: str) -> str:
    """A QR code of the URL as inline SVG: sharp at any print size."""
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True))


def _clock(zone: tzinfo) -> Callable[[str | None], str]:
    """`14:05`: an API timestamp as a wall-clock time of the event ("" for none)."""

    def clock(moment: str | None) -> str:
        return parse_iso(moment).astimezone(zone).strftime("%H:%M") if moment else ""

    return clock


def _page(template: str, sheet: Json, day: date) -> Response:
    zone = services().settings.zone()
    links_host = urlsplit(public_root()).hostname or ""
    body = render_template(f"print/{template}", sheet=sheet, clock=_clock(zone), printed=_clock(zone)(
        sheet["printedOn"]), day=f"{day:%A} {day.day} {day:%B %Y}", qr=qr_svg,
        loopback_links=links_host if is_loopback(links_host) else None)
    response = Response(body, status=200, mimetype="text/html")
    response.headers.update(HEADERS)
    return response


def _route(kind: str, summary: str) -> Callable[[Callable[[UnitOfWork, str], Json]], Callable[..., Response]]:
    """Declare the print view of one kind: the operator key, 200 `text/html`, 404."""

    def declare(gather: Callable[[UnitOfWork, str], Json]) -> Callable[..., Response]:
        def view(broadcast_id: str) -> Response:
            with unit_of_work() as uow:
                sheet = gather(uow, broadcast_id)
                broadcast = get_broadcast(uow, account_id=_account(), broadcast_id=broadcast_id)
            today = now().astimezone(services().settings.zone()).date()
            return _page(f"{kind}.html", sheet, event_day(broadcast, today))

        view.__name__ = f"print_{kind.replace('-', '_')}"
        view.__doc__ = summary
        documented = blp.doc(responses={"200": {"description": "The A4 page (HTML) to print."}})(view)
        documented = blp.alt_response(404, response="DEFAULT_ERROR", description="Unknown broadcast.")(documented)
        return blp.route(f"{PRINT}/{kind}", methods=["GET"])(requires(operator=True)(documented))

    return declare


def _account() -> str:
    return caller().account_id


@_route("schedules", "Court schedules to print: one A4 page per court, its match in play and its queue with "
                     "not-before times, estimated starts and players (contract §9a).")
def _schedules(uow: UnitOfWork, broadcast_id: str) -> Json:
    return paper.court_schedules(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(),
                                 default_minutes=services().settings.default_match_minutes)


@_route("results", "Results to print: every completed match of the broadcast, oldest first (contract §9a).")
def _results(uow: UnitOfWork, broadcast_id: str) -> Json:
    return paper.results_sheet(uow, account_id=_account(), broadcast_id=broadcast_id, now=now())


@_route("sign-in", "The desk's sign-in sheet to print: every player of the broadcast sorted by surname with a box "
                   "to tick, ticked for those already checked in, the counts (contract §14), and each player's own "
                   "link as a small QR code (§21).")
def _sign_in(uow: UnitOfWork, broadcast_id: str) -> Json:
    return personal.sign_in_sheet(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(),
                                  root=public_root())


@_route("qr", "The QR sheet to print: every court's scorer link, the sign-up links and the event page, each as a "
              "QR code with its URL (contract §9a). Scorer links are secrets: hand each to its umpire.")
def _qr(uow: UnitOfWork, broadcast_id: str) -> Json:
    return paper.link_sheet(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(), root=public_root())


@_route("player-cards", "Player cards to print: one card per person of the broadcast with their name, club and own "
                        "link as a QR code and short URL (contract §21). Each link is personal: hand it to its player.")
def _player_cards(uow: UnitOfWork, broadcast_id: str) -> Json:
    return personal.player_cards(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(), root=public_root())


@_route("order-of-play", "The order of play to print: A4, one page per day, courts as columns and planned times as "
                         "rows (contract §20).")
def _order_of_play(uow: UnitOfWork, broadcast_id: str) -> Json:
    return plan_paper.order_sheet(uow, account_id=_account(), broadcast_id=broadcast_id, now=now(),
                                  server=rules().scoring, zone=services().settings.zone())
