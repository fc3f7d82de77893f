"""A local fake OpenID Connect provider (Google's part of the code flow), for tests and development.

A real HTTP server on 127.0.0.1, so the shop's Authlib client runs unchanged against it:

    with FakeOidcProvider(client_id="shop", client_secret="s3cret") as idp:
        app = create_app({"GOOGLE_DISCOVERY_URL": idp.discovery_url, ...})
        idp.user = {"sub": "g-1", "email": "asha@example.in", "email_verified": True}

Endpoints:
    GET  /.well-known/openid-configuration   discovery document
    GET  /jwks                               public keys (an RSA key made at start)
    GET  /authorize                          signs `user` in at once: redirects to redirect_uri with code and state
    POST /token                              exchanges a code (client_secret_basic or _post) for a signed ID token

Test controls (attributes): `user` (claims of the person signing in), `deny` (the person cancels:
error=access_denied), `id_token_fault` (None, "forged" signed by another key with the same kid,
"wrong_nonce", "wrong_audience", "wrong_audience_our_azp" (issued to another client, naming the
shop as authorized party), "wrong_issuer", "expired", "unsigned"), `token_status` (an HTTP
error status for the token endpoint), stop() / start() (unreachable and back), `requests` (what it
received), reset().

Development: `python -m tests.fakes.oidc_provider --port 9020` prints the settings that point the
shop at it; /authorize then signs in the user given by --email.
"""
import argparse
import base64
import json
import secrets
import signal
import sys
import threading
import time
from typing import NamedTuple
from urllib.parse import parse_qs, unquote_plus, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey

from tests.fakes.http_fake import HttpFake

KEY_ID = "fake-oidc-key-1"
FAULTS = (None, "forged", "wrong_nonce", "wrong_audience", "wrong_audience_our_azp", "wrong_issuer", "expired",
          "unsigned")
_KEYS: list = []  # RSA keys are made once per process: generating them costs a tenth of a second each


class Recorded(NamedTuple):
    method: str
    path: str
    params: dict


def _json(status: int, data: dict):
    return status, {"Content-Type": "application/json", "Cache-Control": "no-store"}, json.dumps(data)


def _error(status: int, error: str, description: str):
    return _json(status, {"error": error, "error_description": description})


class FakeOidcProvider(HttpFake):
    """Discovery, JWKS, authorize and token endpoints of an OpenID provider, plus knobs for every fault."""

    name = "fake-oidc"

    def __init__(self, client_id="fake-client-id", client_secret="fake-client-secret", host="127.0.0.1", port=0,
                 verbose=False):
        super().__init__(host, port, verbose)
        self.client_id = client_id
        self.client_secret = client_secret
        self._lock = threading.Lock()
        if not _KEYS:
            # The second has the same key id, another key: what a forger who copied the header signs with.
            _KEYS.extend(RSAKey.generate_key(2048, parameters={"kid": KEY_ID, "use": "sig", "alg": "RS256"},
                                             private=True) for _ in range(2))
        self.key, self.other_key = _KEYS
        self.reset()

    # --- lifecycle ---------------------------------------------------------------------------

    @property
    def issuer(self) -> str:
        return f"http://{self.host}:{self._port}"

    @property
    def discovery_url(self) -> str:
        return self.issuer + "/.well-known/openid-configuration"

    def reset(self):
        """Default user, no faults, no codes, nothing recorded."""
        with self._lock:
            self.user = {"sub": "google-sub-1", "email": "asha@example.in", "email_verified": True,
                         "given_name": "Asha", "family_name": "Verma", "name": "Asha Verma"}
            self.deny = False
            self.id_token_fault = None
            self.token_status = None
            self.codes: dict[str, dict] = {}
            self.requests: list[Recorded] = []

    # --- the provider ------------------------------------------------------------------------

    def respond(self, method, target, raw, headers):
        return self._answer(method, target, raw.decode(), headers)

    def _answer(self, method, raw_path, raw_body, headers):
        url = urlsplit(raw_path)
        params = {k: v[-1] for k, v in parse_qs(url.query if method == "GET" else raw_body).items()}
        with self._lock:
            self.requests.append(Recorded(method, url.path, params))
        routes = {
            ("GET", "/.well-known/openid-configuration"): self._discovery,
            ("GET", "/jwks"): self._jwks,
            ("GET", "/authorize"): self._authorize,
            ("POST", "/token"): self._token,
        }
        handler = routes.get((method, url.path))
        if handler is None:
            return _error(404, "not_found", "No such endpoint.")
        return handler(params, headers)

    def _discovery(self, _params, _headers):
        return _json(200, {
            "issuer": self.issuer,
            "authorization_endpoint": self.issuer + "/authorize",
            "token_endpoint": self.issuer + "/token",
            "jwks_uri": self.issuer + "/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "claims_supported": ["sub", "email", "email_verified", "given_name", "family_name", "name"],
        })

    def _jwks(self, _params, _headers):
        return _json(200, KeySet([self.key]).as_dict(private=False))

    def _authorize(self, params, _headers):
        redirect_uri = params.get("redirect_uri", "")
        if params.get("client_id") != self.client_id or not redirect_uri:
            return _error(400, "invalid_request", "Unknown client or missing redirect_uri.")
        if params.get("response_type") != "code" or "openid" not in params.get("scope", "").split():
            return _error(400, "invalid_request", "Only the openid code flow is supported.")
        back = {"state": params.get("state", "")}
        if self.deny:
            back["error"] = "access_denied"
        else:
            code = secrets.token_urlsafe(24)
            with self._lock:
                self.codes[code] = {"redirect_uri": redirect_uri, "nonce": params.get("nonce"),
                                    "user": dict(self.user)}
            back["code"] = code
        separator = "&" if "?" in redirect_uri else "?"
        return 302, {"Location": redirect_uri + separator + urlencode(back)}, ""

    def _client_authenticated(self, params, headers) -> bool:
        basic = headers.get("Authorization", "")
        if basic.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            except ValueError:
                return False
            return unquote_plus(client_id) == self.client_id and unquote_plus(secret) == self.client_secret
        return params.get("client_id") == self.client_id and params.get("client_secret") == self.client_secret

    def _token(self, params, headers):
        if self.token_status:
            return _error(self.token_status, "server_error", "The fake was told to fail.")
        if not self._client_authenticated(params, headers):
            return _error(401, "invalid_client", "Client authentication failed.")
        if params.get("grant_type") != "authorization_code":
            return _error(400, "unsupported_grant_type", "Only authorization_code.")
        with self._lock:
            grant = self.codes.pop(params.get("code", ""), None)  # codes are single use
        if grant is None or grant["redirect_uri"] != params.get("redirect_uri"):
            return _error(400, "invalid_grant", "Unknown, used or mismatched code.")
        return _json(200, {"access_token": secrets.token_urlsafe(24), "token_type": "Bearer", "expires_in": 3600,
                           "scope": "openid email profile", "id_token": self.id_token(grant["user"], grant["nonce"])})

    def id_token(self, user: dict, nonce: str | None) -> str:
        """A signed ID token for `user`, spoiled as `id_token_fault` says."""
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": self.client_id, "iat": now, "exp": now + 3600, **user}
        if nonce is not None:
            claims["nonce"] = nonce
        fault = self.id_token_fault
        key = self.key
        if fault == "forged":
            key = self.other_key
        elif fault == "wrong_nonce":
            claims["nonce"] = "not-the-nonce-the-shop-sent"
        elif fault == "wrong_audience":
            claims["aud"] = "someone-elses-client"
        elif fault == "wrong_audience_our_azp":
            claims["aud"], claims["azp"] = "someone-elses-client", self.client_id
        elif fault == "wrong_issuer":
            claims["iss"] = "https://evil.example"
        elif fault == "expired":
            claims["iat"], claims["exp"] = now - 7200, now - 3600
        if fault == "unsigned":
            header = base64.urlsafe_b64encode(json.dumps({"alg": "none", "kid": KEY_ID}).encode()).rstrip(b"=")
            body = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=")
            return (header + b"." + body + b".").decode()
        return jwt.encode({"alg": "RS256", "kid": KEY_ID}, claims, key)


def main(argv=None):
    """Serve the fake for local development and print the settings for the shop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=9020)
    parser.add_argument("--email", default="asha@example.in")
    parser.add_argument("--client-id", default="fake-client-id")
    parser.add_argument("--client-secret", default="fake-client-secret")
    args = parser.parse_args(argv)
    fake = FakeOidcProvider(client_id=args.client_id, client_secret=args.client_secret, port=args.port, verbose=True)
    fake.user = {**fake.user, "email": args.email, "sub": "dev-" + args.email}
    fake.start()
    print(f"GOOGLE_CLIENT_ID={fake.client_id} GOOGLE_CLIENT_SECRET={fake.client_secret} "
          f"GOOGLE_DISCOVERY_URL={fake.discovery_url}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    fake.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
