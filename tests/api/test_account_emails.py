"""E-mail verification, resending it, profile e-mail changes and guest orders (issue 6), mails from a real SMTP sink."""
from datetime import timedelta

import pytest

from bookstore.extensions import db
from bookstore.models import AccountToken, Order
from tests.factories import ADDRESS, count, placed
from tests.helpers import age_links, bearer, link_token, order_row, register, unused_links, user_row


def test_registration_mails_a_link_that_verifies_once(mail_app, smtp_sink):
    """The verification link arrives by e-mail, verifies the address once, and the profile shows it."""
    client = mail_app.test_client()
    answer = register(client)
    assert answer["user"]["isVerified"] is False
    assert len(smtp_sink.messages) == 1 and smtp_sink.messages[0]["To"] == "asha@example.in"
    token = link_token(smtp_sink.body(), "/verify-email")
    # Only the hash is stored: a database leak reveals no live link.
    assert db.session.scalar(db.select(AccountToken.token_hash)) != token

    verified = client.post("/api/auth/verify-email", json={"token": token})
    assert verified.status_code == 200
    assert verified.get_json()["success"] is True and verified.get_json()["user"]["isVerified"] is True
    assert user_row().email_verified is True
    profile = client.get("/api/auth/profile", headers=bearer(answer["token"]))
    assert profile.get_json()["user"]["isVerified"] is True

    reused = client.post("/api/auth/verify-email", json={"token": token})
    assert reused.status_code == 422
    body = reused.get_json()
    assert body["success"] is False and body["reason"] == "used"
    assert body["errors"]["token"] == ["This link has been used already."]


def test_an_expired_link_verifies_nothing(mail_app, smtp_sink):
    """Verification links last 24 hours."""
    client = mail_app.test_client()
    register(client)
    token = link_token(smtp_sink.body(), "/verify-email")
    age_links("verify-email", timedelta(hours=24, seconds=1))
    response = client.post("/api/auth/verify-email", json={"token": token})
    assert response.status_code == 422 and response.get_json()["reason"] == "expired"
    assert response.get_json()["message"] == "This link has expired. Please ask for a new one."
    assert user_row().email_verified is False and unused_links("verify-email") == 1


def test_a_link_just_inside_24_hours_still_works(mail_app, smtp_sink):
    """A verification link mailed 23 h 59 min ago still verifies the address."""
    client = mail_app.test_client()
    register(client)
    token = link_token(smtp_sink.body(), "/verify-email")
    age_links("verify-email", timedelta(hours=23, minutes=59))
    assert client.post("/api/auth/verify-email", json={"token": token}).status_code == 200


@pytest.mark.parametrize("body, status, reason", [
    ({"token": "forged-token-that-was-never-sent"}, 422, "invalid"),
    ({"token": "x" * 200}, 422, "invalid"),
    ({"token": "x" * 201}, 422, None),
    ({"token": ""}, 422, None),
    ({"token": None}, 422, None),
    ({"token": 12345}, 422, None),
    ({"token": ["a"]}, 422, None),
    ({}, 422, None),
    ([], 400, None),
    ("token", 400, None),
])
def test_bad_verification_tokens_change_nothing(mail_app, smtp_sink, body, status, reason):
    """Forged, malformed or missing tokens get a clear refusal and leave the account unverified."""
    client = mail_app.test_client()
    register(client)
    response = client.post("/api/auth/verify-email", json=body)
    assert response.status_code == status
    payload = response.get_json()
    assert payload["success"] is False and payload["message"]
    if reason:
        assert payload["reason"] == reason and "token" in payload["errors"]
    assert user_row().email_verified is False and unused_links("verify-email") == 1


def test_a_reset_link_does_not_verify_and_a_verify_link_does_not_reset(mail_app, smtp_sink):
    """Each link is good for its own purpose only."""
    client = mail_app.test_client()
    register(client)
    verify_token = link_token(smtp_sink.body(0), "/verify-email")
    client.post("/api/auth/forgot-password", json={"email": "asha@example.in"}, buffered=True)
    reset_token = link_token(smtp_sink.body(1), "/reset-password")
    assert client.post("/api/auth/verify-email", json={"token": reset_token}).get_json()["reason"] == "invalid"
    wrong = client.post("/api/auth/reset-password", json={"token": verify_token, "password": "new-secret"})
    assert wrong.status_code == 422 and wrong.get_json()["reason"] == "invalid"
    assert user_row().email_verified is False
    login = client.post("/api/auth/login", json={"email": "asha@example.in", "password": "asha-reads-7"})
    assert login.status_code == 200


def test_resend_mails_a_fresh_link(mail_app, smtp_sink):
    """Resending mails a second, working verification link; once the address is verified, the older link counts as
    used."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    response = client.post("/api/auth/resend-verification", headers=headers)
    assert response.status_code == 202 and response.get_json()["success"] is True
    assert len(smtp_sink.messages) == 2
    fresh = link_token(smtp_sink.body(), "/verify-email")
    assert client.post("/api/auth/verify-email", json={"token": fresh}).status_code == 200
    # Once verified, the older link of the same address is spent as well.
    older = link_token(smtp_sink.body(0), "/verify-email")
    assert client.post("/api/auth/verify-email", json={"token": older}).get_json()["reason"] == "used"


def test_resend_needs_a_session_and_an_unverified_address(mail_app, smtp_sink):
    """Resending a verification link needs a signed-in account (401) whose address is not yet verified (409), and
    mails nothing otherwise."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    assert client.post("/api/auth/resend-verification").status_code == 401
    client.post("/api/auth/verify-email", json={"token": link_token(smtp_sink.body(), "/verify-email")})
    again = client.post("/api/auth/resend-verification", headers=headers)
    assert again.status_code == 409
    assert again.get_json()["message"] == "Your e-mail address is already verified."
    assert len(smtp_sink.messages) == 1


def test_resend_flooding_is_limited_per_account(mail_app, smtp_sink):
    """Past ACCOUNT_MAIL_LIMIT one account gets 429 with Retry-After, from any address; no more mail goes out."""
    mail_app.config["ACCOUNT_MAIL_LIMIT"] = "2 per hour"
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    for n in range(2):
        ok = client.post("/api/auth/resend-verification", headers=headers, environ_base={"REMOTE_ADDR": f"10.1.0.{n}"})
        assert ok.status_code == 202
    flooded = client.post("/api/auth/resend-verification", headers=headers, environ_base={"REMOTE_ADDR": "10.1.0.9"})
    assert flooded.status_code == 429 and int(flooded.headers["Retry-After"]) > 0
    assert flooded.get_json()["success"] is False
    assert len(smtp_sink.messages) == 3 and count(AccountToken) == 3


def test_resend_flooding_is_limited_per_ip(mail_app, smtp_sink):
    """Many accounts from one address share FORM_LIMIT_PER_IP."""
    mail_app.config["FORM_LIMIT_PER_IP"] = "3 per minute"
    client = mail_app.test_client()
    tokens = [register(client, email=f"reader{n}@example.in")["token"] for n in range(2)]
    ip = {"REMOTE_ADDR": "10.2.0.1"}
    assert client.post("/api/auth/resend-verification", headers=bearer(tokens[0]), environ_base=ip).status_code == 202
    assert client.post("/api/auth/resend-verification", headers=bearer(tokens[1]), environ_base=ip).status_code == 202
    assert client.post("/api/auth/resend-verification", headers=bearer(tokens[0]), environ_base=ip).status_code == 202
    blocked = client.post("/api/auth/resend-verification", headers=bearer(tokens[1]), environ_base=ip)
    assert blocked.status_code == 429 and "Retry-After" in blocked.headers


def test_profile_edit_of_names_and_phone(mail_app, smtp_sink):
    """A profile edit trims names and normalises the phone to 10 digits, stores them and mails nothing."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    response = client.put("/api/auth/profile", headers=headers,
                          json={"firstName": " Asha Rani ", "lastName": "Iyer", "phone": "+91 91234-56789"})
    assert response.status_code == 200
    user = response.get_json()["user"]
    assert (user["firstName"], user["lastName"], user["phone"]) == ("Asha Rani", "Iyer", "9123456789")
    stored = user_row()
    assert (stored.first_name, stored.last_name, stored.phone) == ("Asha Rani", "Iyer", "9123456789")
    assert len(smtp_sink.messages) == 1  # no e-mail for a name change


def test_changing_the_email_asks_to_verify_the_new_one(mail_app, smtp_sink):
    """A new address is pending until its own link is opened, then it is the account's, verified; the old
    address is told; the old address's links stop working once the new one is in."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    first_link = link_token(smtp_sink.body(), "/verify-email")
    response = client.put("/api/auth/profile", headers=headers, json={"email": "Asha.New@Example.in"})
    assert response.status_code == 200
    assert response.get_json()["user"]["email"] == "asha@example.in"
    assert response.get_json()["user"]["pendingEmail"] == "asha.new@example.in"
    assert response.get_json()["user"]["isVerified"] is False
    by_address = {message["To"]: message for message in smtp_sink.messages[1:]}
    assert set(by_address) == {"asha.new@example.in", "asha@example.in"}
    assert "being changed" in by_address["asha@example.in"]["Subject"]
    new_link = link_token(by_address["asha.new@example.in"].get_body(("plain",)).get_content(), "/verify-email")

    assert client.post("/api/auth/verify-email", json={"token": new_link}).status_code == 200
    assert user_row("asha.new@example.in").email_verified is True
    stale = client.post("/api/auth/verify-email", json={"token": first_link})
    assert stale.status_code == 422 and stale.get_json()["reason"] in ("invalid", "used")


def test_changing_a_verified_email_keeps_it_until_the_new_one_is_verified(mail_app, smtp_sink, factories, auth):
    """Changing a verified e-mail address keeps it verified and in use, and mails a link to the new address."""
    factories.user(email="ravi@example.in", password="secret-pass", email_verified=True)
    headers = auth.login("ravi@example.in", "secret-pass")
    client = mail_app.test_client()
    assert client.put("/api/auth/profile", headers=headers, json={"email": "ravi2@example.in"}).status_code == 200
    stored = user_row("ravi@example.in")
    assert stored.email_verified is True and stored.pending_email == "ravi2@example.in"
    assert len(smtp_sink.messages) == 2


def test_changing_to_a_taken_email_is_409_and_changes_nothing(mail_app, smtp_sink, factories):
    """Changing to an address another account has (in any case) is 409 and changes nothing, names included."""
    client = mail_app.test_client()
    factories.user(email="ravi@example.in")
    headers = bearer(register(client)["token"])
    response = client.put("/api/auth/profile", headers=headers, json={"email": "RAVI@example.in", "firstName": "X"})
    assert response.status_code == 409
    assert response.get_json()["message"] == "An account with this e-mail already exists."
    stored = user_row()
    assert stored.first_name == "Asha" and stored.email_verified is False
    assert len(smtp_sink.messages) == 1


@pytest.mark.parametrize("changes, field", [
    ({"firstName": ""}, "firstName"),
    ({"firstName": "   "}, "firstName"),
    ({"lastName": None}, "lastName"),
    ({"firstName": "x" * 101}, "firstName"),
    ({"email": "not-an-email"}, "email"),
    ({"email": ""}, "email"),
    ({"email": 42}, "email"),
    ({"phone": "12345"}, "phone"),
    ({"phone": "9876543210\x00"}, "phone"),
])
def test_bad_profile_edits_change_nothing(mail_app, smtp_sink, changes, field):
    """An invalid profile edit is 422 on the bad field and changes none of the fields sent with it."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    response = client.put("/api/auth/profile", headers=headers, json={"lastName": "Iyer", **changes})
    assert response.status_code == 422 and field in response.get_json()["errors"]
    stored = user_row()
    assert (stored.first_name, stored.last_name, stored.phone) == ("Asha", "Verma", "9876543210")
    assert len(smtp_sink.messages) == 1


def test_role_and_verified_flag_cannot_be_set_through_the_profile(mail_app, smtp_sink):
    """The profile ignores role and verified flags: a shopper cannot make themself admin or verified (a body of
    nothing else has nothing to change: 422)."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    response = client.put("/api/auth/profile", headers=headers,
                          json={"role": "admin", "isVerified": True, "emailVerified": True})
    assert response.status_code == 422 and response.get_json()["message"] == "Send at least one field to change."
    response = client.put("/api/auth/profile", headers=headers,
                          json={"lastName": "Iyer", "role": "admin", "isVerified": True, "emailVerified": True})
    assert response.status_code == 200
    stored = user_row()
    assert stored.role == "customer" and stored.email_verified is False


def test_guest_orders_join_my_orders_once_the_email_is_verified(mail_app, smtp_sink, factories):
    """Orders placed as a guest with the address appear in My Orders after verification, not before."""
    client = mail_app.test_client()
    book = factories.book(stock=5)
    guest_order = placed(client, [(book, 1)])
    other_address = placed(client, [(book, 1)], shippingAddress={**ADDRESS, "email": "ravi@example.in"})
    smtp_sink.messages.clear()
    headers = bearer(register(client)["token"])
    mine = client.get("/api/orders/mine", headers=headers).get_json()
    assert mine["orders"] == [] and mine["totalOrders"] == 0

    client.post("/api/auth/verify-email", json={"token": link_token(smtp_sink.body(), "/verify-email")})
    mine = client.get("/api/orders/mine", headers=headers).get_json()
    assert [order["_id"] for order in mine["orders"]] == [guest_order["_id"]]
    assert order_row(other_address["_id"]).user_id is None
    # The shopper may now open it like any of their orders.
    assert client.get(f"/api/orders/{guest_order['_id']}", headers=headers).status_code == 200


def test_a_later_guest_order_with_a_verified_address_is_in_my_orders(mail_app, smtp_sink, factories, auth):
    """A guest order placed with a verified account's address is listed in that account's orders."""
    factories.user(email="asha@example.in", password="secret-pass", email_verified=True)
    headers = auth.login("asha@example.in", "secret-pass")
    client = mail_app.test_client()
    book = factories.book(stock=5)
    order = placed(client, [(book, 1)])  # no token: a guest checkout
    mine = client.get("/api/orders/mine", headers=headers).get_json()
    assert [o["_id"] for o in mine["orders"]] == [order["_id"]]


def test_a_guest_order_with_an_unverified_address_stays_a_guest_order(mail_app, smtp_sink, factories):
    """A guest order with the address of an unverified account stays a guest order, not in that account's orders."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    book = factories.book(stock=5)
    order = placed(client, [(book, 1)])
    assert order_row(order["_id"]).user_id is None
    assert client.get("/api/orders/mine", headers=headers).get_json()["orders"] == []
    assert count(Order) == 1


def test_a_new_link_sweeps_the_accounts_expired_ones(mail_app, smtp_sink):
    """Mailing a new link deletes the account's expired links, leaving only the new one."""
    client = mail_app.test_client()
    headers = bearer(register(client)["token"])
    age_links("verify-email", timedelta(hours=25))
    assert client.post("/api/auth/resend-verification", headers=headers).status_code == 202
    assert count(AccountToken) == 1 and unused_links("verify-email") == 1
