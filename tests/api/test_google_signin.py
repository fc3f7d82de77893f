"""Google sign-in through a local fake OpenID provider (issue 6, product §8.6): every way in and every refusal."""
import json
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from bookstore.extensions import db
from bookstore.models import User
from bookstore.schemas.user import UserSchema
from tests.conftest import GOOGLE_KEYS
from tests.factories import count, placed
from tests.helpers import bearer, user_row

CALLBACK = "https://books.example.in/api/auth/google/callback"


def _start(client) -> str:
    """GET /api/auth/google; returns the provider URL it redirects to."""
    response = client.get("/api/auth/google")
    assert response.status_code == 302
    return response.headers["Location"]


def _provider(url: str) -> str:
    """The browser at the provider: it signs the user in and redirects back; returns that callback URL."""
    response = requests.get(url, allow_redirects=False, timeout=5)
    assert response.status_code == 302, response.text
    return response.headers["Location"]


def _back(client, callback_url: str):
    """The browser arriving at the shop's callback."""
    parts = urlsplit(callback_url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CALLBACK
    return client.get(f"{parts.path}?{parts.query}")


def _landing(response) -> dict:
    """Where the callback sends the browser: /auth/callback with everything in the fragment."""
    assert response.status_code == 302
    location = response.headers["Location"]
    path, _, fragment = location.partition("#")
    assert path == "/auth/callback" and "?" not in path
    assert response.headers["Cache-Control"] == "no-store"
    return {name: values[0] for name, values in parse_qs(fragment).items()}


def _sign_in(client) -> dict:
    return _landing(_back(client, _provider(_start(client))))


def _signed_in(client) -> tuple[str, dict]:
    landing = _sign_in(client)
    assert set(landing) == {"token", "user"}, landing
    return landing["token"], json.loads(landing["user"])


def _refused(landing: dict, code: str) -> None:
    assert landing == {"error": code}


def test_the_redirect_to_the_provider_carries_state_and_nonce(google_app, oidc_provider):
    """Starting Google sign-in redirects to the provider's authorize URL with the client id, the callback, the openid
    email profile scopes and a long state and nonce, and no secret."""
    url = _start(google_app.test_client())
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == oidc_provider.issuer + "/authorize"
    assert query["client_id"] == GOOGLE_KEYS["GOOGLE_CLIENT_ID"] and query["response_type"] == "code"
    assert query["redirect_uri"] == CALLBACK and set(query["scope"].split()) == {"openid", "email", "profile"}
    assert len(query["state"]) >= 20 and len(query["nonce"]) >= 20
    assert "secret" not in url


def test_a_new_google_user_gets_a_verified_account_without_a_password(google_app, oidc_provider):
    """The callback lands on /auth/callback#token=...&user=... with the user shaped like the login answer."""
    client = google_app.test_client()
    token, user = _signed_in(client)
    stored = user_row()
    assert stored.google_subject == "google-sub-1" and stored.email_verified is True
    assert stored.password_hash is None and stored.role == "customer"
    assert (stored.first_name, stored.last_name) == ("Asha", "Verma")
    assert user == json.loads(json.dumps(UserSchema().dump(stored)))
    assert user["isVerified"] is True and user["hasPassword"] is False
    profile = client.get("/api/auth/profile", headers=bearer(token))
    assert profile.status_code == 200 and profile.get_json()["user"]["isVerified"] is True
    # The same Google account signs in to the same shop account next time.
    _signed_in(client)
    assert count(User) == 1


def test_names_fall_back_to_the_full_name_then_the_address(google_app, oidc_provider):
    """Without given and family names, a new Google account takes the full name as its first name."""
    oidc_provider.user = {"sub": "g-2", "email": "kiran@example.in", "email_verified": True, "name": "Kiran"}
    _signed_in(google_app.test_client())
    stored = user_row("kiran@example.in")
    assert (stored.first_name, stored.last_name) == ("Kiran", "")


def test_an_existing_verified_account_is_linked_by_email(google_app, oidc_provider, factories, auth):
    """Same address, already proven: the account is linked and keeps its password and sessions."""
    factories.user(email="asha@example.in", password="secret-pass", email_verified=True, first_name="Asha R")
    session = auth.login("asha@example.in", "secret-pass")
    client = google_app.test_client()
    _, user = _signed_in(client)
    assert user["firstName"] == "Asha R" and count(User) == 1
    assert user_row().google_subject == "google-sub-1"
    assert client.get("/api/auth/profile", headers=session).status_code == 200
    assert client.post("/api/auth/login", json={"email": "asha@example.in", "password": "secret-pass"}).status_code == 200


def test_linking_an_unverified_account_drops_the_squatters_password(google_app, oidc_provider, factories, auth):
    """Whoever registered the address without proving it loses that password and its sessions."""
    factories.user(email="asha@example.in", password="squatter-pass")
    squatter = auth.login("asha@example.in", "squatter-pass")
    client = google_app.test_client()
    token, user = _signed_in(client)
    stored = user_row()
    assert stored.password_hash is None and stored.email_verified is True and user["isVerified"] is True
    assert client.get("/api/auth/profile", headers=squatter).status_code == 401
    assert client.get("/api/auth/profile", headers=bearer(token)).status_code == 200
    assert client.post("/api/auth/login", json={"email": "asha@example.in", "password": "squatter-pass"}).status_code == 401


def test_an_account_is_found_by_subject_after_the_google_address_changes(google_app, oidc_provider):
    """A returning Google user is found by subject: a changed Google address signs in the same account, not a new
    one."""
    client = google_app.test_client()
    _signed_in(client)
    oidc_provider.user = {**oidc_provider.user, "email": "asha.new@example.in"}
    _, user = _signed_in(client)
    assert user["email"] == "asha@example.in" and count(User) == 1


def test_an_address_linked_to_another_google_account_is_refused(google_app, oidc_provider, factories):
    """An address whose account is linked to another Google subject is refused as account_conflict and the link is
    kept."""
    user = factories.user(email="asha@example.in", email_verified=True)
    user.google_subject = "someone-else"
    db.session.commit()
    _refused(_sign_in(google_app.test_client()), "account_conflict")
    assert user_row().google_subject == "someone-else"


def test_administrators_cannot_sign_in_with_google(google_app, oidc_provider, factories):
    """The admin area opens with the admin's password only."""
    factories.user(email="asha@example.in", role="admin", email_verified=True)
    _refused(_sign_in(google_app.test_client()), "account_conflict")
    assert user_row().google_subject is None


@pytest.mark.parametrize("verified", [False, "false", None, "yes"])
def test_an_unverified_google_email_is_refused(google_app, oidc_provider, verified):
    """A Google address that is not verified (false or missing) is refused as email_not_verified and no account is
    made."""
    oidc_provider.user = {**oidc_provider.user, "email_verified": verified}
    if verified is None:
        del oidc_provider.user["email_verified"]
    _refused(_sign_in(google_app.test_client()), "email_not_verified")
    assert count(User) == 0


def test_an_unverified_google_email_does_not_link_an_existing_account(google_app, oidc_provider, factories):
    """An unverified Google address does not link itself to an existing account with that address."""
    factories.user(email="asha@example.in", password="secret-pass")
    oidc_provider.user = {**oidc_provider.user, "email_verified": False}
    _refused(_sign_in(google_app.test_client()), "email_not_verified")
    stored = user_row()
    assert stored.google_subject is None and stored.password_hash is not None


@pytest.mark.parametrize("fault", ["forged", "wrong_nonce", "wrong_audience", "wrong_audience_our_azp", "wrong_issuer",
                                   "expired", "unsigned"])
def test_a_bad_id_token_signs_nobody_in(google_app, oidc_provider, factories, fault):
    """Signature (JWKS), nonce, audience, issuer and expiry are all checked; no token, no account, no link."""
    factories.user(email="asha@example.in", password="secret-pass", email_verified=True)
    oidc_provider.id_token_fault = fault
    _refused(_sign_in(google_app.test_client()), "invalid_token")
    assert count(User) == 1 and user_row().google_subject is None


@pytest.mark.parametrize("claims", [
    {"email": None}, {"email": ""}, {"email": "x" * 250 + "@example.in"}, {"email": 42}, {"sub": ""}, {"sub": 7},
])
def test_id_tokens_missing_what_the_shop_needs_are_refused(google_app, oidc_provider, claims):
    """An ID token lacking a claim the shop needs is refused as invalid_token and no account is made."""
    oidc_provider.user = {**oidc_provider.user, **claims}
    _refused(_sign_in(google_app.test_client()), "invalid_token")
    assert count(User) == 0


def test_a_replayed_state_is_refused(google_app, oidc_provider):
    """The callback URL replayed with the session cookie from before it was used gets nothing."""
    client = google_app.test_client()
    callback_url = _provider(_start(client))
    cookie_before = client.get_cookie("session").value
    assert set(_landing(_back(client, callback_url))) == {"token", "user"}
    client.set_cookie("session", cookie_before)
    _refused(_landing(_back(client, callback_url)), "invalid_state")
    assert count(User) == 1


def test_a_state_the_browser_was_not_given_is_refused(google_app, oidc_provider):
    """Login CSRF: a callback started in another browser does not sign this one in."""
    attacker, victim = google_app.test_client(), google_app.test_client()
    callback_url = _provider(_start(attacker))
    _start(victim)
    _refused(_landing(_back(victim, callback_url)), "invalid_state")
    assert count(User) == 0


@pytest.mark.parametrize("query, code", [
    ("", "invalid_state"),
    ("code=abc", "invalid_state"),
    ("code=abc&state=made-up", "invalid_state"),
    ("code=abc&state=" + "s" * 300, "invalid_state"),
    ("error=access_denied&state=x", "access_denied"),
])
def test_malformed_callbacks_are_refused(google_app, oidc_provider, query, code):
    """Malformed callbacks (provider errors, wrong or missing state) are refused with their reason code and make no
    account."""
    client = google_app.test_client()
    _start(client)
    _refused(_landing(client.get("/api/auth/google/callback?" + query)), code)
    assert count(User) == 0


def test_a_callback_without_a_code_is_refused(google_app, oidc_provider):
    """A callback with the right state but no code is refused as invalid_request."""
    client = google_app.test_client()
    state = parse_qs(urlsplit(_start(client)).query)["state"][0]
    _refused(_landing(client.get(f"/api/auth/google/callback?state={state}")), "invalid_request")


def test_cancelling_at_the_provider(google_app, oidc_provider):
    """Cancelling at the provider lands back as access_denied with no account made."""
    oidc_provider.deny = True
    _refused(_sign_in(google_app.test_client()), "access_denied")
    assert count(User) == 0


def test_provider_down_before_the_start(google_app, oidc_provider):
    """A provider that is down when sign-in starts gives provider_unavailable; once it is back, sign-in works."""
    oidc_provider.stop()
    client = google_app.test_client()
    _refused(_landing(client.get("/api/auth/google")), "provider_unavailable")
    oidc_provider.start()
    assert set(_sign_in(client)) == {"token", "user"}


def test_provider_down_during_the_exchange(google_app, oidc_provider):
    """A provider that goes down before the code exchange gives provider_unavailable and no account."""
    client = google_app.test_client()
    callback_url = _provider(_start(client))
    oidc_provider.stop()
    _refused(_landing(_back(client, callback_url)), "provider_unavailable")
    assert count(User) == 0


@pytest.mark.parametrize("status, code", [(500, "provider_unavailable"), (503, "provider_unavailable"),
                                          (400, "invalid_token")])
def test_token_endpoint_errors(google_app, oidc_provider, status, code):
    """Errors of the token endpoint are refused with the matching reason code and make no account."""
    oidc_provider.token_status = status
    _refused(_sign_in(google_app.test_client()), code)
    assert count(User) == 0


def test_without_settings_google_is_not_offered(client):
    """Buttons appear only when configured: the providers call says so and the start route refuses."""
    assert client.get("/api/auth/providers").get_json() == {"success": True, "google": False}
    _refused(_landing(client.get("/api/auth/google")), "not_configured")
    _refused(_landing(client.get("/api/auth/google/callback?code=a&state=b")), "not_configured")


def test_providers_says_google_when_configured(google_app):
    """/api/auth/providers says google is offered when its client id and secret are set."""
    assert google_app.test_client().get("/api/auth/providers").get_json() == {"success": True, "google": True}


def test_guest_orders_join_a_new_google_account(google_app, oidc_provider, factories):
    """Guest orders placed with an address join the account Google sign-in makes for that address."""
    client = google_app.test_client()
    book = factories.book(stock=3)
    order = placed(client, [(book, 1)])
    token, _ = _signed_in(client)
    mine = client.get("/api/orders/mine", headers=bearer(token)).get_json()
    assert [o["_id"] for o in mine["orders"]] == [order["_id"]]


def test_logout_ends_a_google_session(google_app, oidc_provider):
    """Logging out ends a session made by Google sign-in: its token is refused afterwards."""
    client = google_app.test_client()
    token, _ = _signed_in(client)
    assert client.post("/api/auth/logout", headers=bearer(token)).status_code == 200
    assert client.get("/api/auth/profile", headers=bearer(token)).status_code == 401
