"""Screenshot of the console's Outputs page (URL, QR code and live preview of each output) into docs/.

    .venv/bin/python -m bench.screenshot_console_outputs
"""

from __future__ import annotations

from bench.browser_support import console_page
from bench.outputs_support import running_server, seed_day
from tests.server_process import ROOT


def main() -> None:
    with running_server() as server:
        seed_day(server)
        with console_page(server) as console:
            console.open("/outputs", ready="Scan to open")
            console.shoot(ROOT / "docs" / "console-outputs.png", settle_ms=2500)  # the previews load


if __name__ == "__main__":
    main()
