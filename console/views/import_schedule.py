"""Import schedule: read a CSV or Excel sheet (pandas; openpyxl for .xlsx), preview every row with its problem
next to it (the API's dry run), then queue them all with one click. All or nothing: a sheet with any bad row
queues nothing."""

from __future__ import annotations

from datetime import date
from typing import Any

import pandas as pd
import streamlit as st

from console.board import MAX_ROWS, clock_time, schedule_rows
from console.client import ConsoleError
from console.sheets import dry_run, read_sheet
from console.ui import FLASH, client, load, plain, show_flash, show_problem

PREVIEW = "_import_preview"  # {"key", "rows", "result"} of the sheet last checked
QUEUED = "_import_queued"  # the key of the sheet last queued, so the same upload is not queued twice

st.title("Import schedule")
show_flash()
st.caption("One row per match: **court** (a court label), **playerA**, **playerB**, and optionally playerA2, "
           "playerB2 (doubles), round, event, bestOf, scoring (a sport: badminton, squash, tennis, ...), time. "
           "A name of the court's player list (\"First "
           "Last\") is that player; any other name is typed in as written. A **time** (`14:00`) is on the day "
           "chosen below: that match is not started earlier. See docs/sample-schedule.csv.")
api = client()
broadcasts = load(api.broadcasts)
if broadcasts is not None and not broadcasts:
    st.info("No broadcast yet: create one with its courts on the Broadcasts page first.")
if broadcasts:
    by_id = {b["id"]: b for b in broadcasts}
    broadcast_id = st.selectbox("Broadcast", list(by_id), key="import_broadcast",
                                format_func=lambda i: plain(by_id[i]["name"]))
    upload = st.file_uploader("Schedule (CSV or Excel)", type=["csv", "xlsx"], key="import_file")


def check(broadcast_id: str, rows: list[dict[str, Any]], day: str | None) -> dict[str, Any]:
    """The API's dry run of the rows (`console.sheets.dry_run`) and each row's "not before" time."""
    checked = dry_run(lambda: api.import_schedule(broadcast_id, rows, dry_run=True, day=day), rows)
    checked["starts"] = [clock_time((r.get("data") or {}).get("notBefore")) for r in checked["results"]]
    return checked


if broadcasts and upload is not None:
    frame = read_sheet(upload)
    if frame is not None:
        rows, sheet_problems = schedule_rows(frame)
        for problem in sheet_problems:
            st.warning(problem, icon=":material/warning:")
        if len(rows) > MAX_ROWS:
            st.error(f"This sheet has {len(rows):,} rows; an import takes at most {MAX_ROWS:,}. Split it into "
                     "several files.", icon=":material/error:")
        elif not rows:
            st.warning("The sheet has no rows.", icon=":material/warning:")
        elif not sheet_problems or all(p.startswith("Column") for p in sheet_problems):
            day = None
            if any("time" in r for r in rows):
                day = st.date_input("Day of the event (the sheet's times are on this day)", value=date.today(),
                                    key="import_day", format="YYYY-MM-DD").isoformat()
            key = (broadcast_id, getattr(upload, "file_id", upload.name), len(rows), day)
            if st.session_state.get(QUEUED) == key:
                st.page_link("views/court_board.py", label="See them on the court board", icon=":material/grid_view:")
                st.stop()
            preview = st.session_state.get(PREVIEW)
            if not preview or preview["key"] != key:
                preview = {"key": key, "rows": rows, "result": check(broadcast_id, rows, day)}
                st.session_state[PREVIEW] = preview
            result = preview["result"]
            columns = ["court", "playerA", "playerB", "playerA2", "playerB2", "round", "event", "bestOf", "scoring",
                       "time", "scheduledOn"]
            table = pd.DataFrame(rows).reindex(columns=columns).astype(object).fillna("")
            table = table.loc[:, [c for c in table.columns if c in ("court", "playerA", "playerB")
                                  or (table[c] != "").any()]]
            table.insert(0, "Row", range(2, len(rows) + 2))  # as numbered in a spreadsheet, under its header
            if any(result["starts"]):
                table["Not before"] = result["starts"]
            duplicate = [code == "duplicate_match" for code in result["codes"]]
            bad = sum(1 for problem, dup in zip(result["problems"], duplicate, strict=True) if problem and not dup)
            if result.get("message"):
                st.error(result["message"], icon=":material/error:")
            again = False
            if bad or result.get("message"):
                st.error(f"{bad} of {len(rows)} rows have a problem: fix them in the sheet and upload it again. "
                         "Nothing is queued until every row is valid.", icon=":material/error:")
            elif any(duplicate):
                st.warning(f"{sum(duplicate)} of {len(rows)} matches are already queued on their court (the same "
                           "sides): they are left out.", icon=":material/content_copy:")
                again = st.checkbox("Queue them again anyway", key="import_again")
            else:
                st.success(f"{len(rows)} {'match' if len(rows) == 1 else 'matches'} ready to queue.",
                           icon=":material/check_circle:")
            table["Problem"] = [("Already queued: queued again" if again else "Already queued on this court (left "
                                 "out)") if dup else problem
                                for problem, dup in zip(result["problems"], duplicate, strict=True)]
            # every row in view up to 20 (35 px a row, plus the header); a longer sheet scrolls
            st.dataframe(table, hide_index=True, width="stretch", height=35 * (min(len(table), 20) + 1) + 3)
            to_queue = [row | {"allowDuplicate": True} if dup else row for row, dup in zip(rows, duplicate,
                                                                                           strict=True)
                        if again or not dup]
            ready = not bad and not result.get("message") and bool(to_queue)
            if st.button(f"Queue {len(to_queue)} {'match' if len(to_queue) == 1 else 'matches'}", key="import_queue",
                         type="primary", disabled=not ready):
                try:
                    done = api.import_schedule(broadcast_id, to_queue, dry_run=False, day=day)
                except ConsoleError as exc:
                    show_problem(exc)
                else:
                    st.session_state.pop(PREVIEW, None)
                    if done["queued"]:
                        st.session_state[QUEUED] = key
                        st.session_state[FLASH] = (f"Queued {done['queued']} matches on "
                                                   f"{plain(by_id[broadcast_id]['name'])}.")
                        st.rerun()
                    else:
                        st.error("Nothing was queued: something changed since the check (a court was renamed?); "
                                 "upload the sheet again.", icon=":material/error:")
