"""QR codes for the phone pages (contract §11), the event page's A4 poster (§15), and a roster's sign-ups. The
sheet of every court's scorer link is the API's QR print view (`console/paper.py`)."""

from __future__ import annotations

import html
import io
from typing import Any

import pandas as pd
import segno
import streamlit as st

from console.ui import LOOPBACK_WARNING, load, loopback_only, plain
from domain.models import PlayerSource


def qr_png(url: str, *, scale: int = 6) -> bytes:
    """A QR code of the URL as PNG (for the console)."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="png", scale=scale, border=2)
    return buffer.getvalue()


def qr_svg(url: str) -> str:
    """A QR code of the URL as inline SVG (for the poster: sharp at any size)."""
    return str(segno.make(url, error="m").svg_inline(scale=5, border=2, omitsize=True))


def event_poster(event: str, url: str) -> str:
    """The event page's A4 poster: the event's name, a large QR code and the URL, black on white, no controls."""
    name, link = html.escape(event), html.escape(url)
    # the console's warning on the paper itself: a poster of a link no phone can open must not be put up unnoticed
    warning = (f'<p class="warn">Do not put this up: {html.escape(LOOPBACK_WARNING.replace("`", ""))} Then print '
               "again.</p>" if loopback_only(url) else "")
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{name}: event page</title>
<style>
@page {{ size: A4 portrait; margin: 18mm; }}
html, body {{ background: #fff; color: #000; }}
body {{ font-family: system-ui, "DejaVu Sans", sans-serif; margin: 0; text-align: center; }}
h1 {{ font-size: 34pt; margin: 10mm 0 4mm; overflow-wrap: anywhere; }}
p.lead {{ font-size: 20pt; margin: 0 0 10mm; }}
svg {{ width: 120mm; height: 120mm; }}
ul {{ list-style: none; padding: 0; font-size: 16pt; margin: 8mm 0; line-height: 1.5; }}
code {{ display: block; font-size: 11pt; word-break: break-all; margin-top: 6mm; }}
.warn {{ border: 1mm solid #000; padding: 3mm 4mm; font-size: 13pt; font-weight: 700; text-align: left; }}
</style></head><body>{warning}<h1>{name}</h1><p class="lead">Scan for your next match, court and results</p>
{qr_svg(url)}<ul><li>Now: every court</li><li>My matches: find your name once</li><li>Draws and results</li></ul>
<code>{link}</code></body></html>"""


def show_sign_ups(api: Any, roster: dict[str, Any], player_list: dict[str, Any] | None) -> None:
    """A roster open to self-registration: its sign-up QR code to print for the desk, and who signed up."""
    signed = [p for p in (player_list or {}).get("players", []) if p.get("source") == PlayerSource.SELF]
    with st.expander(f"Sign-ups: {plain(roster['name'])} ({len(signed)})", expanded=True):
        link = load(api.registration_link, roster["id"])
        left, right = st.columns([1, 3])
        if link and link.get("url"):
            left.image(qr_png(link["url"]), width=170, caption="Scan to sign up")
            right.code(link["url"], language=None)
        if signed:  # in the desk's words, an empty cell for what the player left out (not "None")
            columns = {"firstName": "First name", "lastName": "Last name", "clubName": "Club", "country": "Country",
                       "gender": "Gender"}
            right.dataframe(pd.DataFrame([{label: p.get(field) or "" for field, label in columns.items()}
                                          for p in signed]), hide_index=True, width="stretch")
        else:
            right.caption("Nobody has signed up yet.")
