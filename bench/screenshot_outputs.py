"""Screenshots of every output design at 1920x1080 into docs/outputs/ (a real server, headless chromium).

    .venv/bin/python -m bench.screenshot_outputs
"""

from __future__ import annotations

from bench.browser_support import headless_browser
from bench.outputs_support import running_server, seed_day
from tests.server_process import ROOT

SHOTS = [  # file name, design, court, background
    ("classic-dark", "classic", "Court 1", "dark"),
    ("classic-transparent", "classic", "Court 2", "transparent"),
    ("lowerthird-transparent", "lowerthird", "Court 1", "transparent"),
    ("lowerthird-dark", "lowerthird", "Court 2", "dark"),
    ("court-dark", "court", "Court 2", "dark"),
    ("court-light", "court", "Court 1", "light"),
    ("court-upnext", "court", "Court 4", "dark"),
    ("venue-dark", "venue", "", "dark"),
    ("venue-light", "venue", "", "light"),
]


def main() -> None:
    out = ROOT / "docs" / "outputs"
    out.mkdir(parents=True, exist_ok=True)
    with running_server() as server, headless_browser() as browser:
        day = seed_day(server)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        for name, design, court, bg in SHOTS:
            page.goto(day.url(design, court) + f"?bg={bg}")
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / f"{name}.png"), omit_background=bg == "transparent")
            print(out / f"{name}.png")


if __name__ == "__main__":
    main()
