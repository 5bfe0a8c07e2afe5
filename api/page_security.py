"""Browser headers of every response (contract §8a): `nosniff` everywhere; on HTML pages a Content-Security-Policy
whose `script-src` never allows inline script by itself (each page's inline script carries this response's nonce)
and `Referrer-Policy: no-referrer` (a page's URL holds its key: it must not leak to another site).

A page declares its policy with the placeholder `{nonce}`; templates write `nonce="{{ csp_nonce() }}"` on their
script tag; `secure` puts the same fresh nonce in both. An HTML page that declares no policy (the docs UI rendered
by flask-smorest) gets `DEFAULT_POLICY`, and its inline script tags get the nonce.
"""

from __future__ import annotations

import re
import secrets

from flask import Flask, Response, g

from domain.names import SIDE_JOIN, side_name

NONCE = "{nonce}"
DEFAULT_POLICY = ("default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; "
                  "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)(?![^>]*\bnonce=)")


def csp_nonce() -> str:
    """This response's script nonce (made on first use)."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(18)
    return str(g.csp_nonce)


def secure(response: Response) -> Response:
    """Add the browser headers of §8a to a response."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    if response.status_code == 304:  # no body, and saying so keeps the connection open for the next poll (§8a)
        response.headers["Content-Length"] = "0"
    if response.mimetype != "text/html":
        return response
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    policy = response.headers.get("Content-Security-Policy")
    if policy is None:
        policy = DEFAULT_POLICY
        if not response.direct_passthrough and not response.is_streamed:
            body = response.get_data()
            if INLINE_SCRIPT.search(body):
                response.set_data(INLINE_SCRIPT.sub(f'<script nonce="{csp_nonce()}"'.encode(), body))
    response.headers["Content-Security-Policy"] = policy.replace(NONCE, csp_nonce())
    return response


def install(app: Flask) -> None:
    """The pages' shared template helpers and policy: the nonce, and the one person rule's join of a side
    (`{{ side.names | side }}`, and `side_join` for a page's script), so no template writes the join itself."""
    app.jinja_env.globals["csp_nonce"] = csp_nonce
    app.jinja_env.globals["side_join"] = SIDE_JOIN
    app.jinja_env.filters["side"] = side_name
    app.after_request(secure)
