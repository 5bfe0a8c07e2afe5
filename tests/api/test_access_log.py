"""Contract §8a, the access log made cheap (issue 37, point 11): a request only queues its line; no log record is
made on the request path, and one thread writes the waiting lines as one record per batch, soon after."""

from __future__ import annotations

import logging
import re

from api.access_log import ACCESS
from tests.conftest import Api
from tests.eventually import eventually


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_requests_make_no_log_record_and_their_lines_are_written_in_one_batch(operator: Api) -> None:
    ACCESS.flush()
    logger = logging.getLogger("courtside.access")
    seen = Records()
    logger.addHandler(seen)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        with ACCESS._write_lock:  # the writer thread waits: what the requests themselves did is all there is
            ids = [operator.get("/operator/tables").headers["Service-Request-ID"] for _ in range(20)]
            assert seen.records == []  # no record, no format, no write per request
        ACCESS.flush()
        assert len(seen.records) == 1
        lines = seen.records[0].getMessage().splitlines()
        assert [line.split()[-1] for line in lines] == [f"request_id={rid}" for rid in ids]
        assert all(re.fullmatch(r"GET /api/v1/operator/tables 200 \d+\.\dms request_id=\S+", line) for line in lines)
        later = operator.get("/operator/tables").headers["Service-Request-ID"]
        eventually(lambda: any(later in r.getMessage() for r in seen.records) or None, timeout=5)  # no flush
    finally:
        logger.removeHandler(seen)
        logger.setLevel(level)
