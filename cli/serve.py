"""`courtside serve`: the one process that owns the data dir (or joins PostgreSQL), with its logs written off the
request path and public link keys redacted from them; phone links on the address phones reach."""

from __future__ import annotations

import gc
import logging
import logging.handlers
import queue
import signal
import socket
from typing import Any

from api.access_log import ACCESS
from cli.address import forget_address, local_url, record_address
from cli.data_dir import init_data_dir
from cli.errors import CliError
from domain.public import links
from domain.settings import Settings


def lan_address() -> str:
    """This machine's address on the local network (the interface of its default route; no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the route
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def phone_settings(settings: Settings, port: int) -> Settings:
    """Bound to every interface (`--host 0.0.0.0`) without `COURTSIDE_PUBLIC_URL`: phone links use this machine's
    network address, which phones on the venue's Wi-Fi can reach."""
    if settings.public_url or settings.host not in ("0.0.0.0", "::", ""):
        return settings
    return settings.with_(public_url=f"http://{lan_address()}:{port}")


def serve(settings: Settings) -> None:
    """Run the API and the webhook dispatcher in this one process until SIGTERM or SIGINT.

    The data dir is locked first, so a second `serve` fails at once; on a signal the server stops taking
    connections, lets requests under way finish, stops the dispatcher and closes (compacts) the store.
    """
    from storage.backend import describe, open_store
    from storage.engine import StorageError

    log = logging.getLogger("courtside")
    log.setLevel(settings.log_level)
    listener = _log_off_the_request_path()
    try:
        store = open_store(settings)
    except StorageError as exc:
        raise CliError(str(exc)) from exc
    try:
        init_data_dir(settings, store)
        from api.app import create_app
        from api.bootstrap import bootstrap
        from cli.serving import venue_server

        settings = phone_settings(settings, settings.port)
        services = bootstrap(settings, store)
        dispatcher = services.dispatcher
        app = create_app(services)
        try:
            server = venue_server(app, settings)
        except OSError as exc:
            raise CliError(f"Cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}") from exc
    except BaseException:
        store.close()
        raise
    gc.collect()
    gc.freeze()  # the loaded documents and the app live as long as the process: keep full GC passes off them

    def stop(signum: int, frame: Any) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)  # a second signal must not interrupt the clean stop
        log.info("%s received, stopping", signal.Signals(signum).name)
        raise KeyboardInterrupt

    base = f"http://{settings.host}:{server.effective_port}/api/v1"
    data_dir = settings.data_dir.resolve()
    try:
        record_address(data_dir, local_url(settings.host, server.effective_port))  # for the CLI (§8a)
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        dispatcher.start()
        log.info("Courtside API on %s (docs %s/docs, health %s/health, %s)", base, base, base, describe(settings))
        if settings.public_url:
            log.info("Scorer and sign-up links use %s (phones on this network)", settings.public_url)
        server.run()  # returns when a signal raised KeyboardInterrupt (waitress stops its threads then)
    except KeyboardInterrupt:
        pass
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        forget_address(data_dir)
        server.close()
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        dispatcher.shutdown()
        store.close()
        log.info("stopped cleanly")
        ACCESS.flush()  # the access log's last batch, before the log thread stops
        listener.stop()


def _redact_keys(record: logging.LogRecord) -> bool:
    """No public link key in any log line (contract §8a): access lines, errors and tracebacks alike. Runs in the
    log thread, on the record as the queue handler prepared it (message and traceback already text)."""
    record.msg = links.redact(record.getMessage())
    record.args = None
    if record.exc_text:
        record.exc_text = links.redact(record.exc_text)
    return True


def _log_off_the_request_path() -> logging.handlers.QueueListener:
    """Request threads only queue their log records (the access log's line per request); one thread formats and
    writes them, so requests never wait on the stream's lock or its write."""
    root = logging.getLogger()
    records: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    for handler in root.handlers:
        handler.addFilter(_redact_keys)
    listener = logging.handlers.QueueListener(records, *root.handlers, respect_handler_level=True)
    root.handlers = [logging.handlers.QueueHandler(records)]
    listener.start()
    # waitress warns "Task queue depth is N" for every request that waits for a free thread: under load that is
    # a log line per request, saying only that the server is busy.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return listener
