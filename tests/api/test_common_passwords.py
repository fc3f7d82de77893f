"""Commonly used passwords are refused on registration, reset and change (issue 12); 6 to 128 still holds."""
import pytest
from werkzeug.security import check_password_hash

from bookstore.models import User
from bookstore.services import passwords
from tests.factories import count
from tests.helpers import REGISTRATION, link_token, unused_links, user_row

COMMON = ["123456", "password", "qwerty123", "aaaaaa", "Password1", "iloveyou", "abcdef", "1qaz2wsx"]
TOO_COMMON = "This password is too common and easy to guess. Please choose a less predictable one."


@pytest.mark.parametrize("password", COMMON)
def test_registration_refuses_a_common_password(client, password):
    """422 on `password` with a clear message; no account is made."""
    response = client.post("/api/auth/register", json={**REGISTRATION, "password": password})
    assert response.status_code == 422
    assert response.get_json() == {"success": False, "message": TOO_COMMON, "errors": {"password": [TOO_COMMON]}}
    assert count(User) == 0


@pytest.mark.parametrize("password", COMMON[:4])
def test_a_reset_refuses_a_common_password_and_keeps_the_link(mail_app, smtp_sink, factories, password):
    """A password reset to a commonly used password is 422, keeps the old password and leaves the link usable."""
    factories.user(email="asha@example.in", password="old-secret")
    client = mail_app.test_client()
    client.post("/api/auth/forgot-password", json={"email": "asha@example.in"}, buffered=True)
    token = link_token(smtp_sink.body(), "/reset-password")
    response = client.post("/api/auth/reset-password", json={"token": token, "password": password})
    assert response.status_code == 422
    assert response.get_json()["errors"] == {"password": [TOO_COMMON]}
    assert check_password_hash(user_row().password_hash, "old-secret")
    assert unused_links("reset-password") == 1


@pytest.mark.parametrize("password", COMMON[:4])
def test_a_change_refuses_a_common_password(client, auth, password):
    """A password change to a commonly used password is 422 on newPassword, and the old password and session stay
    valid."""
    headers = auth.customer()
    response = client.put("/api/auth/password", headers=headers,
                          json={"currentPassword": "secret-pass", "newPassword": password})
    assert response.status_code == 422
    assert response.get_json() == {"success": False, "message": TOO_COMMON, "errors": {"newPassword": [TOO_COMMON]}}
    assert check_password_hash(user_row("shopper@example.in").password_hash, "secret-pass")
    assert client.get("/api/auth/profile", headers=headers).status_code == 200


def test_changing_to_the_same_password_is_refused(client, auth):
    """The same password again is no change: 422 on newPassword, and the session is not ended."""
    headers = auth.customer()
    response = client.put("/api/auth/password", headers=headers,
                          json={"currentPassword": "secret-pass", "newPassword": "secret-pass"})
    assert response.status_code == 422
    assert response.get_json() == {
        "success": False, "message": "The new password must be different from your current one.",
        "errors": {"newPassword": ["The new password must be different from your current one."]}}
    user = user_row("shopper@example.in")
    assert user.tokens_valid_after is None
    assert client.get("/api/auth/profile", headers=headers).status_code == 200


def test_a_wrong_current_password_is_still_reported_first(client, auth):
    """A wrong current password is reported alone, before any judgement of the new one."""
    headers = auth.customer()
    response = client.put("/api/auth/password", headers=headers,
                          json={"currentPassword": "not-mine-at-all", "newPassword": "not-mine-at-all"})
    assert response.status_code == 422 and response.get_json()["errors"] == {
        "currentPassword": ["Current password is incorrect."]}


@pytest.mark.parametrize("password", ["asha-reads-7", "better-pass", "kdhs82", "p" * 60 + "-end"])
def test_uncommon_passwords_of_6_to_128_characters_are_accepted(client, password):
    """Uncommon passwords of 6 to 128 characters are accepted at registration."""
    response = client.post("/api/auth/register", json={**REGISTRATION, "password": password})
    assert response.status_code == 201, response.get_json()


def test_a_short_password_gets_only_the_length_message(client):
    """A password shorter than 6 characters gets the length message only, not the common-password one."""
    response = client.post("/api/auth/register", json={**REGISTRATION, "password": "12345"})
    assert response.get_json()["errors"] == {"password": ["Password must be 6 to 128 characters long."]}


def test_create_admin_refuses_a_common_password(runner):
    """create-admin refuses a commonly used password and creates no account."""
    result = runner.invoke(args=["create-admin", "--email", "owner@shop.in", "--password", "password123"])
    assert result.exit_code != 0 and "too common" in result.output
    assert count(User) == 0


def test_the_list_is_zxcvbns_and_ignores_letter_case():
    """Common passwords come from zxcvbn's list whatever their letter case; the shop's own test passwords are not on
    it."""
    assert passwords.too_common("PASSWORD") and passwords.too_common("QwErTy123")
    assert not passwords.too_common("admin-pass-1")
