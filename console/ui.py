"""What every console page shares: the API client, guarded calls, flash messages and match labels.

Pages call the API only through `load` (reads) and `act` (writes), so an unreachable API, a route this server
does not offer yet, or a refused request always shows as one clear message and never as a traceback.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import streamlit as st

from console.client import ApiError, ConsoleClient, ConsoleError, NotAvailable
from domain.names import side_name as joined
from domain.settings import Settings

T = TypeVar("T")
FLASH = "_flash"
log = logging.getLogger("courtside.console")


def settings() -> Settings:
    """Console settings (COURTSIDE_API_URL, COURTSIDE_OPERATOR_KEY, COURTSIDE_DATA_DIR)."""
    return Settings.from_env()


def client() -> ConsoleClient:
    """One API client per browser session (keeps its HTTP connection).

    With sign-in on (a console reachable beyond this machine), the session has no key until its browser gives
    the operator key, checked against the API; until then only the sign-in form shows.
    """
    if "_client" not in st.session_state:
        config = settings()
        if config.console_sign_in:
            sign_in(config)
        st.session_state["_client"] = ConsoleClient.from_settings(config)
    found: ConsoleClient = st.session_state["_client"]
    return found


def sign_in(config: Settings) -> None:
    """Ask for the operator key; keep a client for this browser session once the API accepts it."""
    st.title("Courtside console")
    st.info("This console is reachable from the network: sign in with the operator key "
            "(the `operator.key` file of the server's data dir).", icon=":material/lock:")
    with st.form("sign_in"):
        key = st.text_input("Operator key", type="password", key="sign_in_key")
        if st.form_submit_button("Sign in"):
            candidate = ConsoleClient(config.api_url.rstrip("/"), key.strip() or None)
            try:
                candidate.check()
            except ConsoleError as exc:
                show_problem(exc)
            else:
                st.session_state["_client"] = candidate
                st.rerun()
    st.stop()


def show_problem(exc: ConsoleError) -> None:
    """The refusal in words; the API's code only in the log (a club reads the message, not `validation_failed`)."""
    if isinstance(exc, NotAvailable):
        st.warning(f"Not available: {exc}", icon=":material/construction:")
    else:
        if isinstance(exc, ApiError):
            log.info("API refusal shown: %s (%s)", exc, exc.technical)
        st.error(str(exc), icon=":material/error:")


@contextmanager
def no_traceback(what: str) -> Iterator[None]:
    """Show a bug (an answer the console did not expect) as one message, not a traceback; log the details.

    Streamlit's rerun and stop signals are BaseExceptions, so they pass through untouched.
    """
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - the last line of defence of a page
        log.exception("console failure while showing %s", what)
        st.error(f"The console could not show {what} ({type(exc).__name__}: {exc}). "
                 "This is a bug; the details are in the console's log.", icon=":material/bug_report:")


def load(fetch: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """Read from the API; on failure show why and return None."""
    try:
        return fetch(*args, **kwargs)
    except ConsoleError as exc:
        show_problem(exc)
        return None


def act(change: Callable[..., T], *args: Any, done: str, rerun: bool = True, **kwargs: Any) -> T | None:
    """Write through the API; on success remember `done` for the next run (and rerun), else show why."""
    try:
        result = change(*args, **kwargs)
    except ConsoleError as exc:
        show_problem(exc)
        return None
    st.session_state[FLASH] = done
    if rerun:
        st.rerun()
    return result


def field_reasons(details: Any) -> dict[str, list[str]]:
    """The API's per-field reasons (`details.json`, or `details` of a rule), flattened:
    `{"tables.3.label": ["Longer than ..."]}`."""
    found: dict[str, list[str]] = {}

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*path, str(key)))
        elif isinstance(node, list) and all(isinstance(item, str) for item in node):
            found.setdefault(".".join(path) or "_schema", []).extend(node)

    if isinstance(details, dict):  # body validation is under `json`; a rule's reasons (unknown_player) are not
        walk(details.get("json", details), ())
    return found


def submit(form: str, change: Callable[..., T], *args: Any, done: str) -> T | None:
    """Send a form; on a refusal keep its field reasons for `field_errors` (the typed values stay), on success
    flash `done`, clear the reasons and give the form fresh, empty inputs (`form_key`)."""
    try:
        result = change(*args)
    except ConsoleError as exc:  # shown by `form_problem` and `field_errors` in the next run, beside the fields
        st.session_state[f"_problem_{form}"] = str(exc)
        st.session_state[f"_reasons_{form}"] = field_reasons(exc.details) if isinstance(exc, ApiError) else {}
        st.rerun()
        return None
    st.session_state.pop(f"_problem_{form}", None)
    st.session_state.pop(f"_reasons_{form}", None)
    st.session_state[f"_nonce_{form}"] = st.session_state.get(f"_nonce_{form}", 0) + 1
    st.session_state[FLASH] = done
    st.rerun()
    return result


def form_key(form: str, field: str) -> str:
    """The widget key of a form field; a new one after each successful submit, so the inputs start empty."""
    return f"{form}_{field}_{st.session_state.get(f'_nonce_{form}', 0)}"


def form_problem(form: str) -> None:
    """The API's refusal of the form's last submit, at the top of the form."""
    problem = st.session_state.get(f"_problem_{form}")
    if problem:
        st.error(problem, icon=":material/error:")


def field_errors(form: str, field: str, describe: Callable[[str], str] = lambda path: "") -> None:
    """Show, right under a field, the reasons the API gave for it (and for anything inside it)."""
    for path, reasons in (st.session_state.get(f"_reasons_{form}") or {}).items():
        if path == field or path.startswith(field + "."):
            st.error(f"{describe(path)}{' '.join(reasons)}", icon=":material/error:")


def show_flash() -> None:
    """Show (once) the message the last successful action left."""
    message = st.session_state.pop(FLASH, None)
    if message:
        st.success(message, icon=":material/check_circle:")


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def plain(text: object) -> str:
    """Text from partners (names, labels, event names) for a Markdown element: every Markdown character escaped,
    so `**x**`, links and remote images (tracking pixels) show as the characters they are."""
    return _MARKDOWN.sub(r"\\\1", str(text))


def side_name(match: dict[str, Any], side: str) -> str:
    """Display name of a side (`a` or `b`), doubles partners included."""
    first = match.get(f"player{side.upper()}")
    partner = match.get(f"player{side.upper()}2")
    return joined((first, partner)) or f"Side {side.upper()}"


def match_label(match: dict[str, Any]) -> str:
    """`Ann Lee vs Bo Kim · R1 · ext-1`: how a match is named in lists and pickers (a partner's externalID
    included, a minted `op_...` one not)."""
    parts = [f"{side_name(match, 'a')} vs {side_name(match, 'b')}"]
    parts += [str(match[key]) for key in ("matchRound", "eventName") if match.get(key)]
    reference = str(match.get("externalID", match.get("id", "")))
    if not reference.startswith("op_"):  # an ID minted for a match made in the console means nothing to people
        parts.append(reference)
    return " · ".join(parts)


def best_of(match: dict[str, Any], *, default: int) -> int:
    """The match's best-of (it may be sent as a number or a string), else the server's `default`."""
    try:
        value = int(float(match.get("bestOf") or 0))
    except (TypeError, ValueError):
        value = 0
    return value if value > 0 else default


def one_time_secret(key: str, title: str) -> None:
    """Show a secret kept in the session until the operator confirms they copied it; then it is gone."""
    secret = st.session_state.get(key)
    if not secret:
        return
    with st.container(border=True):
        st.warning(f"{title}: copy it now, it will not be shown again.", icon=":material/key:")
        st.json(secret)
        if st.button("I have copied it", key=f"{key}_dismiss"):
            del st.session_state[key]
            st.rerun()


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def loopback_only(url: str) -> bool:
    """Whether a public link names this machine only (phones and screens elsewhere cannot open it)."""
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    return host in LOOPBACK_HOSTS or host.startswith("127.")


LOOPBACK_WARNING = ("These links name this computer only (127.0.0.1): phones and screens on the venue network "
                    "cannot open them. Run `courtside up --host 0.0.0.0`, or set `COURTSIDE_PUBLIC_URL` to the "
                    "address people use.")


def warn_if_loopback(urls: list[str]) -> None:
    """The console's one warning for links that only this machine can open (contract §8a)."""
    if any(loopback_only(url) for url in urls if url):
        st.warning(LOOPBACK_WARNING, icon=":material/wifi_off:")


def confirmed(label: str, *, key: str, question: str, **button: Any) -> bool:
    """A destructive action in two steps (contract §9a): the button only asks `question`; "Yes, ..." then acts
    (True once, on that run) and "No, keep it" steps back. Keys: `key`, `key`_yes and `key`_no."""
    asking = f"_confirm_{key}"
    if not st.session_state.get(asking):
        if st.button(label, key=key, **button):
            st.session_state[asking] = True
            st.rerun()
        return False
    st.warning(question, icon=":material/warning:")
    if st.button(f"Yes, {label[:1].lower()}{label[1:]}", key=f"{key}_yes", type="primary"):
        st.session_state[asking] = False
        return True
    if st.button("No, keep it", key=f"{key}_no"):
        st.session_state[asking] = False
        st.rerun()
    return False
