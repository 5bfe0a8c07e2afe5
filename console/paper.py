"""The club's paper from the console (contract §9a print views): one button per sheet. The API makes the A4 page
(`GET /operator/broadcasts/{id}/print/{kind}`, operator key); the button fetches it when clicked and hands it to the
browser as an HTML file, which opens as the page to print (Ctrl+P). No sheet is made in the console."""

from __future__ import annotations

import html
import re
from typing import Any

import streamlit as st

from console.client import ConsoleClient, ConsoleError

SHEETS = {"schedules": "court schedules", "results": "results", "sign-in": "sign-in sheet", "qr": "QR codes",
          "order-of-play": "order of play",
          "player-cards": "player cards"}


def file_name(kind: str, event: str) -> str:
    """`court-schedules-club-open-2026.html`: what the sheet is and of which event, safe as a file name."""
    slug = re.sub(r"[^a-z0-9]+", "-", event.casefold()).strip("-")[:60] or "event"
    return f"{SHEETS[kind].casefold().replace(' ', '-')}-{slug}.html"


def fetch_sheet(api: ConsoleClient, broadcast_id: str, kind: str) -> bytes:
    """The sheet's page; a refusal (broadcast deleted, server down) becomes a page saying so instead."""
    try:
        return api.print_sheet(broadcast_id, kind)
    except ConsoleError as exc:
        message = html.escape(str(exc))
        return (f"<!doctype html><meta charset='utf-8'><title>No sheet</title>"
                f"<p>Could not make the {SHEETS[kind]}: {message}</p>").encode()


def print_button(api: ConsoleClient, broadcast: dict[str, Any], kind: str, *, named: bool = False) -> None:
    """A button that downloads the broadcast's A4 sheet of one kind (fetched on click, not on every rerun); `named`
    puts the broadcast's name in the label (a page with a button per broadcast)."""
    of = f" of {broadcast['name']}" if named else ""
    st.download_button(
        f"Print {SHEETS[kind]}{of} (A4)", data=lambda: fetch_sheet(api, broadcast["id"], kind),
        file_name=file_name(kind, str(broadcast["name"])), mime="text/html", icon=":material/print:",
        on_click="ignore", key=f"print_{kind}_{broadcast['id']}",
        help="An A4 page, black on white: open the file and print it (Ctrl+P).")
