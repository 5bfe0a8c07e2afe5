"""OAuth: the token endpoint, the consent page, and the operator routes for apps, connections and approval."""

from __future__ import annotations

from typing import Any

from flask import Response, g, redirect, render_template, request
from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate
from werkzeug.wrappers import Response as BaseResponse

from api.blueprint import Blueprint
from api.context import caller, now, services, unit_of_work
from api.idempotency import idempotent_hiding
from api.oauth_server import TokenRequest, TokenServer, token_body
from api.routes.connection import RevokedSchema
from api.schemas.common import PageQuery, Strict, Vocabulary, envelope, list_envelope, name_field, str_field
from api.security import requires
from domain import views
from domain.access import oauth
from domain.errors import DomainError, Invalid, NotFound, RateLimited
from domain.models import ConnectionKind
from domain.pagination import paginate

blp = Blueprint("oauth", __name__, description="OAuth 2.0 and partner apps", template_folder="../templates")

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}
CONSENT_HEADERS = NO_STORE | {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}
SCOPE_FIELD = {"description": "space-separated scopes"}


# ---------------------------------------------------------------- schemas
class TokenRequestSchema(Schema):
    """`POST /oauth/token` parameters (JSON or form). PKCE and grant rules are checked by api/oauth_server.py.

    Unrecognized parameters are ignored, as RFC 6749 §3.2 requires (contract §2): the grant type decides.
    """

    class Meta:
        unknown = EXCLUDE

    grant_type = str_field(100, metadata={"enum": ["authorization_code", "refresh_token"]})
    client_id = str_field()
    client_secret = str_field()
    code = str_field()
    # Bounds documented but checked by the service: a malformed verifier is `invalid_request` (RFC 7636).
    code_verifier = fields.String(metadata={
        "description": "PKCE verifier, 43 to 128 characters", "minLength": 43, "maxLength": 128,
        "pattern": "^[A-Za-z0-9._~-]+$",
    })
    redirect_uri = str_field(1000)
    refresh_token = str_field()
    scope = str_field(metadata=SCOPE_FIELD)


class TokenSchema(Strict):
    """RFC 6749 §5.1 token response (not wrapped in `data`)."""

    access_token = fields.String(required=True)
    token_type = fields.String(required=True)
    expires_in = fields.Integer(required=True)
    refresh_token = fields.String(required=True)
    scope = fields.String(required=True)
    connection_id = fields.String(required=True)


class AppCreateSchema(Strict):
    name = name_field(120, required=True)
    redirectURIs = fields.List(
        fields.String(validate=[validate.Length(min=1, max=1000), validate.Regexp(oauth.REDIRECT_URI_PATTERN)],
                      metadata={"description": "absolute http(s) URL without a fragment"}),
        required=True, validate=validate.Length(min=1, max=oauth.MAX_REDIRECT_URIS),
    )
    scope = str_field(metadata={  # unknown scopes: 400 invalid_scope from the service
        "pattern": oauth.SCOPE_PATTERN, "description": "space-separated scopes the app may ask for; all when absent"})
    legacy = fields.Boolean(truthy={True}, falsy={False},
                            metadata={"description": "a legacy app may authorize without PKCE"})

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> oauth.NewApp:
        return oauth.NewApp(name=data["name"], redirect_uris=data["redirectURIs"], scope=data.get("scope"),
                            legacy=data.get("legacy", False))


class AppCreatedSchema(Strict):
    appID = fields.String(required=True)
    clientID = fields.String(required=True)
    clientSecret = fields.String(required=True, allow_none=True, metadata={
        "description": "shown once: null in a replay of the create (`Idempotency-Key`), which keeps no secret"})
    name = fields.String(required=True)
    redirectURIs = fields.List(fields.String(), required=True)
    scopes = fields.List(fields.String(), required=True)


class AppSchema(Strict):
    appID = fields.String(required=True)
    clientID = fields.String(required=True)
    name = fields.String(required=True)
    redirectURIs = fields.List(fields.String(), required=True)
    scopes = fields.List(fields.String(), required=True)
    legacy = fields.Boolean(required=True)
    createdOn = fields.String(required=True)


class OperatorConnectionSchema(Strict):
    connectionID = fields.String(required=True)
    appID = fields.String(required=True)
    appName = fields.String(allow_none=True)
    kind = Vocabulary(ConnectionKind, required=True, metadata={"description": "house: the account's own (contract §9)"})
    scopes = fields.List(fields.String(), required=True)
    approvedOn = fields.String(required=True)
    tokenExpiresOn = fields.String(required=True, allow_none=True)
    revokedOn = fields.String(required=True, allow_none=True)
    webhookURL = fields.String(required=True, allow_none=True, metadata={"description": "where its events go"})


class ApproveSchema(Strict):
    clientID = str_field(required=True)
    redirectURI = str_field(1000, required=True)
    codeChallenge = str_field(128, metadata={"description": "PKCE S256 challenge; optional only for legacy apps"})
    codeChallengeMethod = fields.String(validate=validate.OneOf(["S256"]),
                                        metadata={"description": "S256 (the default, the only method)"})
    scope = str_field(metadata={"description": "space-separated; all of the app's scopes when absent"})
    state = str_field()

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> oauth.Approval:
        return oauth.Approval(
            client_id=data["clientID"], redirect_uri=data["redirectURI"], scope=data.get("scope"),
            code_challenge=data.get("codeChallenge"),
            code_challenge_method=data.get("codeChallengeMethod", "S256" if "codeChallenge" in data else None),
            state=data.get("state"))


class ApprovedSchema(Strict):
    code = fields.String(required=True)
    redirectURL = fields.String(required=True)


# ---------------------------------------------------------------- token endpoint
def _limit_client_ip() -> None:
    """Rate-limit unauthenticated OAuth endpoints per client IP (against guessing)."""
    ctx = services()
    quota = ctx.limiter.hit(f"oauth-ip:{request.remote_addr}", ctx.settings.token_rate_limit)
    g.quota = quota
    if not quota.allowed:
        raise RateLimited("Too many token requests; retry after the window resets.", retry_after=quota.reset)


def _token_parameters() -> dict[str, Any]:
    """The token request's parameters from a form or JSON body, validated (strict, bounded strings)."""
    raw: Any
    if request.mimetype == "application/x-www-form-urlencoded":
        repeated = sorted(key for key, values in request.form.lists() if len(values) > 1)
        if repeated:
            raise Invalid(f"Parameters must not repeat: {', '.join(repeated)}.", code="invalid_request")
        location = "form"
        raw = request.form.to_dict()
    else:  # JSON, or no body at all
        location = "json"
        raw = request.get_json(silent=True) if request.get_data() else {}
        if raw is None:
            raise DomainError("The request body is not valid JSON.", code="bad_request")
    try:
        loaded: dict[str, Any] = TokenRequestSchema().load(raw)
    except ValidationError as exc:
        raise Invalid("The token request is not valid.", details={location: exc.messages}) from exc
    return loaded


TOKEN_BODY = {"content": {
    "application/x-www-form-urlencoded": {"schema": TokenRequestSchema},
    "application/json": {"schema": TokenRequestSchema},
}, "required": True}


@blp.route("/oauth/token", methods=["POST"])
@blp.doc(requestBody=TOKEN_BODY)
@blp.response(200, TokenSchema, headers={"Cache-Control": {"schema": {"type": "string"}}})
@blp.alt_response(400, response="DEFAULT_ERROR")
@blp.alt_response(401, response="DEFAULT_ERROR")
@blp.alt_response(429, response="DEFAULT_ERROR")
def token() -> tuple[dict[str, object], int, dict[str, str]]:
    """Exchange an authorization code (with PKCE) or a refresh token for tokens."""
    _limit_client_ip()
    token_request = TokenRequest(_token_parameters(), request.headers)
    with unit_of_work() as uow:  # a refusal after a replay still commits the revocation
        status, body = TokenServer(uow, now=now(), lifetimes=services().lifetimes).create_token_response(token_request)
    return token_body(status, body), 200, NO_STORE


@blp.after_request
def _no_store(response: Response) -> Response:
    """Token and consent answers (errors included) carry credentials or codes: never cache them."""
    if request.endpoint in ("oauth.token", "oauth.authorize", "oauth.decide"):
        for name, value in NO_STORE.items():
            response.headers[name] = value
    return response


# ---------------------------------------------------------------- consent page
class AuthorizeQuery(Schema):
    """The authorization request (documentation: the page checks it by hand so that it can answer in HTML)."""

    response_type = fields.String(required=True, metadata={"enum": ["code"]})
    client_id = fields.String(required=True)
    redirect_uri = fields.String(required=True, metadata={"format": "uri",
                                                          "description": "exactly one registered for the app"})
    scope = fields.String(metadata={"description": "space-separated; all of the app's scopes when absent"})
    state = fields.String()
    code_challenge = fields.String(metadata={"description": "PKCE S256 challenge; optional only for legacy apps"})
    code_challenge_method = fields.String(metadata={"enum": ["S256"]})


class AuthorizeForm(AuthorizeQuery):
    """The consent form: the authorization request, the operator key and the decision."""

    operator_key = fields.String(required=True, metadata={"description": "the operator key (`svc_op_...`)"})
    decision = fields.String(required=True, metadata={"enum": ["approve", "deny"]})


AUTHORIZE_PARAMS = tuple(AuthorizeQuery().fields)
PAGE_RESPONSES = {
    "302": {"description": "Back to the redirect URI: `code` and `state`, or `error` and `state`"},
    "400": {"description": "Error page (HTML): unregistered redirect URI or repeated parameter; never redirects"},
    "404": {"description": "Error page (HTML): unknown client_id; never redirects"},
}


def _page(template: str, status: int, **context: Any) -> Response:
    response = Response(render_template(template, **context), status=status, mimetype="text/html")
    response.headers.update(CONSENT_HEADERS)
    return response


def _go(location: str) -> BaseResponse:
    response = redirect(location, code=302)
    response.headers.update(NO_STORE)
    return response


def _authorization(source: Any) -> tuple[dict[str, str | None], oauth.AuthorizationCheck | None, BaseResponse | None]:
    """The request's parameters, checked; or the answer for a bad request (an error page, or a redirect)."""
    if any(len(source.getlist(name)) > 1 for name in AUTHORIZE_PARAMS):
        return {}, None, _page("oauth_error.html", 400, message="A parameter of the authorization request repeats.")
    params = {name: source.get(name) for name in AUTHORIZE_PARAMS}
    with unit_of_work() as uow:
        check = oauth.check_authorization(
            uow, client_id=params["client_id"], redirect_uri=params["redirect_uri"], scope=params["scope"],
            code_challenge=params["code_challenge"], code_challenge_method=params["code_challenge_method"],
            response_type=params["response_type"],
        )
    if check.problem is None:
        return params, check, None
    if not check.can_redirect:
        status = 404 if isinstance(check.problem, NotFound) else 400
        return params, check, _page("oauth_error.html", status, message=check.problem.message)
    location = oauth.error_redirect(check, code=check.problem.code, state=params["state"],
                                    description=check.problem.message)
    return params, check, _go(location)


@blp.route("/oauth/authorize", methods=["GET"])
@blp.doc(parameters=[{"in": "query", "schema": AuthorizeQuery}], responses={
    "200": {"description": "Consent page (HTML): app name and scopes; the operator signs in and decides"},
} | PAGE_RESPONSES)
def authorize() -> BaseResponse:
    """Consent page of the authorization code flow (no credential needed to see it)."""
    params, check, refused = _authorization(request.args)
    if refused is not None:
        return refused
    assert check is not None and check.app is not None
    return _page("consent.html", 200, app=check.app, scopes=check.scopes, params=params, error=None)


@blp.route("/oauth/authorize", methods=["POST"])
@blp.doc(requestBody={"content": {"application/x-www-form-urlencoded": {"schema": AuthorizeForm}}, "required": True},
         responses={
             "200": {"description": "Not returned: a decision redirects (302) or shows the page again (400, 401)"},
             "401": {"description": "Consent page again (HTML): the operator key was not accepted"},
         } | PAGE_RESPONSES)
def decide() -> BaseResponse:
    """The operator's decision: approve redirects with a code and state, deny with error=access_denied."""
    _limit_client_ip()
    params, check, refused = _authorization(request.form)
    if refused is not None:
        return refused
    assert check is not None and check.app is not None
    context = {"app": check.app, "scopes": check.scopes, "params": params, "error": None}
    decision = request.form.get("decision")
    with unit_of_work() as uow:
        principal = oauth.operator_for(uow, operator_key=request.form.get("operator_key"), now=now())
        if principal is None or principal.account_id != check.app.account_id:
            return _page("consent.html", 401, **context | {"error": "The operator key was not accepted."})
        if decision == "deny":
            return _go(oauth.error_redirect(check, code="access_denied", state=params["state"]))
        if decision != "approve":
            return _page("consent.html", 400, **context | {"error": "Choose Approve or Deny."})
        approval = oauth.Approval(
            client_id=check.app.client_id, redirect_uri=check.redirect_uri, scope=params["scope"],
            code_challenge=params["code_challenge"], code_challenge_method=params["code_challenge_method"],
            state=params["state"])
        _, location = oauth.approve(uow, account_id=principal.account_id, approval=approval, now=now(),
                                    approved_by=principal.key_id or "operator", code_ttl=services().settings.code_ttl)
    return _go(location)


# ---------------------------------------------------------------- operator routes
@blp.route("/operator/apps", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(AppSchema))
def list_apps(query: dict[str, Any]) -> dict[str, object]:
    """The account's registered partner apps, oldest first (no secrets)."""
    with unit_of_work() as uow:
        apps = oauth.list_apps(uow, account_id=caller().account_id)
    page, cursor = paginate(apps, seq=lambda app: app.seq, limit=query.get("limit"), cursor=query.get("cursor"))
    return {"data": [views.app_view(app) for app in page], "nextCursor": cursor}


@blp.route("/operator/apps", methods=["POST"])
@requires(operator=True)
@idempotent_hiding("clientSecret")
@blp.arguments(AppCreateSchema)
@blp.response(201, envelope(AppCreatedSchema))
def create_app(new: oauth.NewApp) -> dict[str, object]:
    """Register a partner app; its client secret is shown only in this response."""
    with unit_of_work() as uow:
        app, secret = oauth.register_app(uow, account_id=caller().account_id, new=new, now=now())
    return {"data": views.app_view(app) | {"clientSecret": secret}}


@blp.route("/operator/connections", methods=["GET"])
@requires(operator=True)
@blp.arguments(PageQuery, location="query")
@blp.response(200, list_envelope(OperatorConnectionSchema))
def list_connections(query: dict[str, Any]) -> dict[str, object]:
    """Every connection of the account (app installations and developer keys), oldest first."""
    with unit_of_work() as uow:
        connections = oauth.list_connections(uow, account_id=caller().account_id)
        page, cursor = paginate(connections, seq=lambda c: c.seq, limit=query.get("limit"),
                                cursor=query.get("cursor"))
        urls = {c.id: (config.url if (config := uow.webhook_configs.get(c.id)) else None) for c in page}
    return {"data": [views.connection_view(connection, urls[connection.id]) for connection in page],
            "nextCursor": cursor}


@blp.route("/operator/connections/<connection_id>", methods=["DELETE"])
@requires(operator=True)
@blp.response(200, envelope(RevokedSchema))
@blp.alt_response(404, response="DEFAULT_ERROR")
@blp.alt_response(409, response="DEFAULT_ERROR", description="`house_connection`: the house connection stays.")
def revoke_connection(connection_id: str) -> dict[str, object]:
    """Revoke a connection and all of its tokens; the records it created stay with the account."""
    with unit_of_work() as uow:
        connection = oauth.disconnect(uow, account_id=caller().account_id, connection_id=connection_id, now=now())
    return {"data": {"id": connection.id, "deleted": True}}


@blp.route("/operator/oauth/approve", methods=["POST"])
@requires(operator=True)
@blp.arguments(ApproveSchema)
@blp.response(200, envelope(ApprovedSchema))
@blp.alt_response(400, response="DEFAULT_ERROR")
@blp.alt_response(404, response="DEFAULT_ERROR")
def approve(approval: oauth.Approval) -> dict[str, object]:
    """The consent step as an API call: a single-use code for the app and its exact redirect URI."""
    with unit_of_work() as uow:
        code, location = oauth.approve(uow, account_id=caller().account_id, approval=approval, now=now(),
                                       approved_by=caller().key_id or "operator",
                                       code_ttl=services().settings.code_ttl)
    return {"data": {"code": code, "redirectURL": location}}
