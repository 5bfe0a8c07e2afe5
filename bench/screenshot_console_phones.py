"""Screenshots of the console's Phones page (a QR code per court) and of the QR sheet it prints (the API's print view,
contract §9a) into docs/phone/.

    .venv/bin/python -m bench.screenshot_console_phones
"""

from __future__ import annotations

from bench.browser_support import console_page
from bench.outputs_support import running_server, seed_day
from tests.server_process import ROOT


def main() -> None:
    out = ROOT / "docs" / "phone"
    with running_server() as server:
        seed_day(server)
        with console_page(server) as console:
            console.open("/phones", ready="Scorer links", exact=True)
            console.shoot(out / "console-phones.png", settle_ms=2500)  # the QR images load
            broadcast = server.call("GET", "/operator/broadcasts")["data"][0]
            sheet = out / "scorer-sheet.html"
            sheet.write_text(server.operator_call("GET", f"/operator/broadcasts/{broadcast['id']}/print/qr").text)
            try:
                console.page.goto(sheet.as_uri())
                console.shoot(out / "scorer-sheet.png", settle_ms=0)
            finally:
                sheet.unlink()


if __name__ == "__main__":
    main()
