"""Reading an uploaded sheet (CSV or Excel, through pandas and openpyxl) and showing an import's dry run row by
row: what the schedule import and the player import share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from console.client import ApiError, ConsoleError
from console.ui import field_reasons, plain


def read_sheet(upload: Any) -> pd.DataFrame | None:
    """The uploaded sheet as text cells, or None with the reason shown."""
    try:
        if upload.name.lower().endswith(".xlsx"):
            return pd.read_excel(upload, dtype=str, engine="openpyxl")
        return pd.read_csv(upload, dtype=str, keep_default_na=False, skipinitialspace=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is the operator's to fix, shown as one line
        st.error(f"Cannot read {plain(upload.name)}: {plain(exc)}", icon=":material/error:")
        return None


def row_problems(rows: list[dict[str, Any]], exc: ConsoleError) -> list[str]:
    """A refused import (400: a row's shape) as one problem per row; the API names each row by its index."""
    problems = [""] * len(rows)
    reasons = field_reasons(exc.details) if isinstance(exc, ApiError) else {}
    for path, messages in reasons.items():
        parts = path.split(".")
        if len(parts) >= 3 and parts[0] == "rows" and parts[1].isdigit() and int(parts[1]) < len(rows):
            problems[int(parts[1])] += f"{parts[2]}: {' '.join(messages)} "
    return [problem.strip() for problem in problems]


def dry_run(check: Callable[[], dict[str, Any]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """An import's dry run as `{"problems": [per row], "codes": [per row], "results": [per row], "ok": bool,
    "message"?}`: a row's error message (and field reasons), "" for a good row."""
    try:
        result = check()
    except ConsoleError as exc:
        problems = row_problems(rows, exc)
        return {"problems": problems, "codes": [""] * len(rows), "results": [{} for _ in rows], "ok": False,
                "message": str(exc) if not any(problems) else "Some rows are not valid: see Problem."}
    problems = [r["error"]["message"] + "".join(f" {k}: {' '.join(v)}" for k, v in
                                               (r["error"].get("details") or {}).items() if isinstance(v, list))
                if "error" in r else "" for r in result["results"]]
    codes = [r["error"].get("code", "") if "error" in r else "" for r in result["results"]]
    return {"problems": problems, "codes": codes, "results": result["results"], "ok": result["failed"] == 0}
