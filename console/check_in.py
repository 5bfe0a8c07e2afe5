"""The check-in desk's pure helpers (contract §14): counts, the search labels and the printable sign-in sheet."""

from __future__ import annotations

import html
from typing import Any

STATUS_WORDS = {"playing": "playing", "called": "called to court", "resting": "resting", "absent": "not here yet",
                "free": "here"}


def counts(people: list[dict[str, Any]]) -> tuple[int, int]:
    """(present, expected): how many of the broadcast's people have checked in, of all of them."""
    return sum(1 for p in people if p["checkedIn"]), len(people)


def label(person: dict[str, Any]) -> str:
    """What the search list shows for a person: name, and club when there is one."""
    return f"{person['name']} · {person['club']}" if person.get("club") else str(person["name"])


def sign_in_sheet(event: str, people: list[dict[str, Any]]) -> str:
    """The sign-in sheet to print for the desk: A4 portrait, black on white, every person with a box to tick."""
    rows = "".join(
        f"<tr><td class='box'>{'&#10003;' if p['checkedIn'] else ''}</td><td>{html.escape(str(p['name']))}</td>"
        f"<td>{html.escape(str(p.get('club') or ''))}</td><td class='sign'></td></tr>" for p in people)
    title = html.escape(f"Sign-in sheet: {event}")
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
@page {{ size: A4 portrait; margin: 14mm; }}
html, body {{ background: #fff; color: #000; }}
body {{ font-family: system-ui, "DejaVu Sans", sans-serif; margin: 0; font-size: 11pt; }}
h1 {{ font-size: 18pt; margin: 0 0 5mm; }}
table {{ width: 100%; border-collapse: collapse; }}
th, td {{ border: 1px solid #000; padding: 2.2mm 2mm; text-align: left; overflow-wrap: anywhere; }}
th {{ font-size: 10pt; }}
td.box {{ width: 8mm; text-align: center; }}
td.sign {{ width: 45mm; }}
tr {{ break-inside: avoid; }}
</style></head><body><h1>{title}</h1>
<table><thead><tr><th>&#10003;</th><th>Name</th><th>Club</th><th>Signature</th></tr></thead>
<tbody>{rows}</tbody></table></body></html>"""
