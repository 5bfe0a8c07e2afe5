"""Screenshots of the console's Phones page (a QR code per court) and of the printable sheet into docs/phone/.

    .venv/bin/python -m bench.screenshot_console_phones
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import requests
from playwright.sync_api import sync_playwright

from bench.outputs_support import CHROMIUM, CHROMIUM_ARGS, ROOT, free_port, running_server, seed_day
from console.phone import scorer_sheet


def main() -> None:
    with running_server() as server:
        seed_day(server)
        port = free_port()
        console = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "console", "--api-url", server.root, "--port", str(port)],
            cwd=ROOT, env=dict(os.environ) | {"COURTSIDE_DATA_DIR": str(server.data_dir)},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    if requests.get(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).ok:
                        break
                except requests.RequestException:
                    time.sleep(0.3)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                page = browser.new_page(viewport={"width": 1440, "height": 1000})
                page.goto(f"http://127.0.0.1:{port}/phones")
                page.get_by_text("Scorer links", exact=True).first.wait_for(timeout=60_000)
                page.wait_for_timeout(2500)  # the QR images load
                path = ROOT / "docs" / "phone" / "console-phones.png"
                page.screenshot(path=str(path))
                print(path)
                tables = server.call("GET", "/operator/tables?limit=100")["data"]
                links = [server.call("GET", f"/operator/tables/{t['id']}/scorer")["data"] for t in tables]
                sheet = ROOT / "docs" / "phone" / "scorer-sheet.html"
                sheet.write_text(scorer_sheet("Riverside Open 2026", links))
                page.goto(sheet.as_uri())
                page.screenshot(path=str(ROOT / "docs" / "phone" / "scorer-sheet.png"))
                sheet.unlink()
                browser.close()
        finally:
            console.send_signal(signal.SIGTERM)
            console.wait(timeout=30)


if __name__ == "__main__":
    main()
