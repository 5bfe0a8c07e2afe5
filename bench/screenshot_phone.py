"""Screenshots of the phone pages at 360x740 into docs/phone/ (a real server, headless chromium).

    .venv/bin/python -m bench.screenshot_phone
"""

from __future__ import annotations

from playwright.sync_api import ViewportSize

from bench.browser_support import headless_browser
from bench.outputs_support import running_server, seed_day
from tests.server_process import ROOT, ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}


def scorer_urls(server: ServerProcess, broadcast_id: str) -> dict[str, str]:
    """Each court's scorer page, by label."""
    tables = server.call("GET", "/operator/tables?limit=100")["data"]
    return {t["label"]: server.call("GET", f"/operator/tables/{t['id']}/scorer")["data"]["url"]
            for t in tables if t.get("broadcastID", broadcast_id) == broadcast_id}


def sign_up_url(server: ServerProcess) -> str:
    key = server.call("POST", "/operator/keys", {"name": "club site"})["data"]["key"]
    roster = server.call("POST", "/rosters", {"name": "Riverside Open: Singles", "rosterType": "individual",
                                              "selfRegistrationEnabled": True}, key)["data"]
    return str(server.call("GET", f"/operator/rosters/{roster['id']}/registration")["data"]["url"])


def main() -> None:
    out = ROOT / "docs" / "phone"
    out.mkdir(parents=True, exist_ok=True)
    with running_server() as server, headless_browser() as browser:
        day = seed_day(server)
        decided = day.matches["s2"]["id"]
        server.call("POST", f"/operator/matches/{decided}/score",
                    {"gameScores": [{"a": 11, "b": 4}, {"a": 11, "b": 6}, {"a": 11, "b": 2}]})
        urls = scorer_urls(server, day.broadcast_id)
        page = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        for name, court in (("scorer-singles", "Court 2"), ("scorer-doubles", "Court 1"),
                            ("scorer-decided", "Court 3"), ("scorer-between-matches", "Court 4")):
            page.goto(urls[court])
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / f"{name}.png"))
            print(out / f"{name}.png")
        form = sign_up_url(server)
        page.goto(form)
        page.screenshot(path=str(out / "sign-up.png"))
        page.fill("input[name=firstName]", "Mima")
        page.fill("input[name=lastName]", "Ito")
        page.fill("input[name=clubName]", "TTC Riverside")
        page.click("button[type=submit]")
        page.screenshot(path=str(out / "sign-up-done.png"))
        page.fill("input[name=firstName]", "mima")
        page.fill("input[name=lastName]", "ITO")
        page.click("button[type=submit]")
        page.screenshot(path=str(out / "sign-up-duplicate.png"))
        print(out / "sign-up*.png")


if __name__ == "__main__":
    main()
