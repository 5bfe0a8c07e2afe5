"""Screenshots of the console's Phones page (a QR code per court) and of the printable sheet into docs/phone/.

    .venv/bin/python -m bench.screenshot_console_phones
"""

from __future__ import annotations

from bench.browser_support import console_page
from bench.outputs_support import running_server, seed_day
from console.phone import scorer_sheet
from tests.server_process import ROOT


def main() -> None:
    out = ROOT / "docs" / "phone"
    with running_server() as server:
        seed_day(server)
        with console_page(server) as console:
            console.open("/phones", ready="Scorer links", exact=True)
            console.shoot(out / "console-phones.png", settle_ms=2500)  # the QR images load
            tables = server.call("GET", "/operator/tables?limit=100")["data"]
            links = [server.call("GET", f"/operator/tables/{t['id']}/scorer")["data"] for t in tables]
            sheet = out / "scorer-sheet.html"
            sheet.write_text(scorer_sheet("Riverside Open 2026", links))
            try:
                console.page.goto(sheet.as_uri())
                console.shoot(out / "scorer-sheet.png", settle_ms=0)
            finally:
                sheet.unlink()


if __name__ == "__main__":
    main()
