"""Outputs: each court's scoreboard overlay and the venue display of a broadcast, ready for OBS or a screen.

Each output shows its design, the URL to paste into OBS as a browser source (copy button), a QR code for a phone
or tablet at the venue, a live preview of the page itself, and "new link" (the old URL stops working at once).
"""

from __future__ import annotations

import html
import io
from typing import Any

import segno
import streamlit as st

from console.ui import act, client, confirmed, load, plain, show_flash, warn_if_loopback
from domain.models import OutputKind

PREVIEW_WIDTH = 384  # px; the 1920x1080 page scaled down to a fifth


def qr_svg(url: str) -> str:
    """The URL as an SVG QR code (segno), dark on white so any phone camera reads it."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, dark="#111111", light="#ffffff")
    return out.getvalue().decode()


def preview(url: str) -> None:
    """The page itself, live, scaled to fit the column (on a dark background, as a stream would show it)."""
    scale = PREVIEW_WIDTH / 1920
    src = html.escape(url + "?bg=dark", quote=True)
    height = round(1080 * scale)
    st.iframe(
        f'<body style="margin:0"><div style="width:{PREVIEW_WIDTH}px;height:{height}px;overflow:hidden;'
        f'border-radius:6px"><iframe src="{src}" title="preview" style="width:1920px;height:1080px;border:0;'
        f'transform:scale({scale});transform-origin:0 0"></iframe></div></body>',
        width=PREVIEW_WIDTH, height=height + 4,
    )


def title(output: dict[str, Any]) -> str:
    if output["kind"] == OutputKind.VENUE:
        return "Venue display (every court: now playing, up next)"
    if output["scoreboardID"] == output["design"]:
        return f"{output['tableLabel']} · {output['design']}"
    return f"{output['tableLabel']} · {output['scoreboardID']} ({output['design']} design)"


st.title("Outputs")
show_flash()
api = client()
st.caption("Paste a URL into OBS as a browser source (1920 x 1080), or open it on a screen at the venue. "
           "The pages follow the score within a second and work without internet access.")

broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcasts yet: create one on the Broadcasts page, and its outputs appear here.")
elif broadcasts:
    by_id = {b["id"]: b for b in broadcasts}
    chosen = st.selectbox("Broadcast", list(by_id), key="out_pick", format_func=lambda i: by_id[i]["name"])
    outputs = load(api.outputs, chosen)
    warn_if_loopback([o["url"] for o in outputs or []])
    if outputs is not None and not outputs:
        st.info("This broadcast has no courts yet.")
    for output in outputs or []:
        with st.container(border=True):
            st.markdown(f"**{plain(title(output))}**")
            left, middle, right = st.columns([3, 1, 3])
            with left:
                st.code(output["url"], language=None, wrap_lines=True)
                st.caption("Copy with the button at the right of the URL. Add `?bg=transparent` for an overlay "
                           "over video, `?bg=light` for a bright screen.")
                if confirmed("New link", key=f"out_rotate_{output['id']}",
                             question=f"Give {plain(title(output))} a new link? Screens and streams showing the old "
                                      "one stop at once."):
                    act(api.rotate_output, output["id"], done=f"{plain(title(output))}: new link made.")
            with middle:
                st.image(qr_svg(output["url"]), caption="Scan to open", width=140)
            with right:
                preview(output["url"])
