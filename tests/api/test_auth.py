"""Registration, login and profile (product §8.1-§8.3)."""
import pytest

from bookstore.models import User
from tests.factories import count

VALID = {"firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "password": "asha-reads-7",
         "phone": "9876543210"}


def test_register_signs_the_shopper_in(client):
    """Registration answers 201 with a token and the user; the account is a customer."""
    response = client.post("/api/auth/register", json=VALID)
    assert response.status_code == 201
    body = response.get_json()
    assert body["success"] is True and body["token"]
    assert body["user"]["email"] == "asha@example.in"
    assert body["user"]["role"] == "customer" and body["user"]["isVerified"] is False
    assert "password" not in body["user"] and "passwordHash" not in body["user"]
    profile = client.get("/api/auth/profile", headers={"Authorization": f"Bearer {body['token']}"})
    assert profile.status_code == 200 and profile.get_json()["user"]["firstName"] == "Asha"


def test_register_ignores_role_in_the_body(client):
    """A role or isAdmin sent by the client never makes an administrator."""
    response = client.post("/api/auth/register", json={**VALID, "role": "admin", "isAdmin": True})
    assert response.status_code == 201
    assert response.get_json()["user"]["role"] == "customer"
    assert User.query.one().role == "customer"


def test_register_stores_email_lower_cased_and_password_hashed(client):
    """Registration stores the e-mail trimmed and lower-cased and only a hash of the password."""
    client.post("/api/auth/register", json={**VALID, "email": "  Asha@Example.IN "})
    user = User.query.one()
    assert user.email == "asha@example.in"
    assert user.password_hash and "asha-reads-7" not in user.password_hash


def test_register_duplicate_email_is_409_case_insensitively(client):
    """E-mails are unique whatever their case."""
    assert client.post("/api/auth/register", json=VALID).status_code == 201
    response = client.post("/api/auth/register", json={**VALID, "email": "ASHA@example.in"})
    assert response.status_code == 409
    assert response.get_json()["message"] == "An account with this e-mail already exists."
    assert count(User) == 1


@pytest.mark.parametrize("changes, field, message", [
    ({"firstName": ""}, "firstName", "First name is required."),
    ({"firstName": "   "}, "firstName", "First name is required."),
    ({"firstName": None}, "firstName", "First name is required."),
    ({"lastName": ""}, "lastName", "Last name is required."),
    ({"email": ""}, "email", "E-mail is required."),
    ({"email": "not-an-email"}, "email", "Enter a valid e-mail address."),
    ({"email": "a@b"}, "email", "Enter a valid e-mail address."),
    ({"password": "12345"}, "password", "Password must be 6 to 128 characters long."),
    ({"password": "x" * 129}, "password", "Password must be 6 to 128 characters long."),
    ({"password": None}, "password", "Password is required."),
    ({"phone": "12345"}, "phone", "Enter a 10-digit Indian mobile number."),
    ({"phone": "5876543210"}, "phone", "Enter a 10-digit Indian mobile number."),
    ({"firstName": "x" * 101}, "firstName", None),
    ({"email": 42}, "email", None),
    ({"password": 123456}, "password", None),
])
def test_register_rejects_bad_input_and_changes_nothing(client, changes, field, message):
    """Each bad field gets 422 with its message, and no account is made."""
    response = client.post("/api/auth/register", json={**VALID, **changes})
    assert response.status_code == 422
    body = response.get_json()
    assert body["success"] is False and field in body["errors"]
    if message:
        assert body["errors"][field] == [message]
        assert body["message"] == message
    assert count(User) == 0


@pytest.mark.parametrize("missing", ["firstName", "lastName", "email", "password"])
def test_register_requires_each_field(client, missing):
    """Registration without any one required field is 422 on that field and creates no account."""
    body = {k: v for k, v in VALID.items() if k != missing}
    response = client.post("/api/auth/register", json=body)
    assert response.status_code == 422 and missing in response.get_json()["errors"]
    assert count(User) == 0


@pytest.mark.parametrize("raw, status", [
    ("{not json", 400), ("[1, 2]", 400), ('"text"', 400), ("null", 400),
])
def test_register_malformed_body_is_400(client, raw, status):
    """A registration body that is not a JSON object is refused in the envelope and creates no account."""
    response = client.post("/api/auth/register", data=raw, content_type="application/json")
    assert response.status_code == status
    assert response.get_json()["success"] is False
    assert count(User) == 0


def test_passwords_keep_every_character(client):
    """A long password is not cut: a prefix of it does not sign in."""
    password = "p" * 100 + "-end"
    client.post("/api/auth/register", json={**VALID, "password": password})
    assert client.post("/api/auth/login", json={"email": VALID["email"], "password": password}).status_code == 200
    assert client.post("/api/auth/login", json={"email": VALID["email"], "password": "p" * 100}).status_code == 401


def test_names_are_stored_as_given_including_markup(client):
    """Any text is allowed and stored as written; the client shows it as text."""
    client.post("/api/auth/register", json={**VALID, "firstName": "<script>alert(1)</script>"})
    assert User.query.one().first_name == "<script>alert(1)</script>"


def test_login_returns_token_and_user(client, factories):
    """Logging in with the right password (e-mail in any case) answers a token, a message and the user."""
    factories.user(email="ravi@example.in", password="secret-pass", first_name="Ravi")
    response = client.post("/api/auth/login", json={"email": "Ravi@Example.in", "password": "secret-pass"})
    assert response.status_code == 200
    body = response.get_json()
    assert body["success"] is True and body["token"] and body["message"]
    assert body["user"]["firstName"] == "Ravi"


def test_login_failures_share_one_message(client, factories):
    """Unknown e-mail and wrong password are indistinguishable."""
    factories.user(email="ravi@example.in", password="secret-pass")
    wrong_password = client.post("/api/auth/login", json={"email": "ravi@example.in", "password": "nope-nope"})
    unknown = client.post("/api/auth/login", json={"email": "nobody@example.in", "password": "nope-nope"})
    assert wrong_password.status_code == unknown.status_code == 401
    assert wrong_password.get_json() == unknown.get_json() == {"success": False,
                                                                "message": "Invalid email or password."}


@pytest.mark.parametrize("body, field", [
    ({"password": "x"}, "email"), ({"email": "a@example.in"}, "password"),
    ({"email": "a@example.in", "password": ""}, "password"), ({"email": "bad", "password": "x"}, "email"),
])
def test_login_validation(client, body, field):
    """A login without a valid e-mail or password is 422 on that field."""
    response = client.post("/api/auth/login", json=body)
    assert response.status_code == 422 and field in response.get_json()["errors"]


def test_profile_requires_a_token(client):
    """The profile without a token is 401 with the message "Please sign in to continue." in the envelope."""
    response = client.get("/api/auth/profile")
    assert response.status_code == 401
    assert response.get_json() == {"success": False, "message": "Please sign in to continue."}


@pytest.mark.parametrize("header", [
    "Bearer not-a-token",
    "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIiwicm9sZSI6ImFkbWluIn0.",  # alg: none
    "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLWZvcmdlZA",  # forged signature
    "Token abc",
    "Bearer",
])
def test_bad_tokens_are_401_in_the_envelope(client, header):
    """Forged, malformed and unsigned tokens are 401 in the shop's envelope, never 422."""
    response = client.get("/api/auth/profile", headers={"Authorization": header})
    assert response.status_code == 401
    body = response.get_json()
    assert body["success"] is False and body["message"]


def test_token_of_a_deleted_user_is_401(client, auth, app):
    """A token of an account that has been deleted is refused with 401."""
    headers = auth.customer()
    from bookstore.extensions import db
    db.session.delete(User.query.one())
    db.session.commit()
    assert client.get("/api/auth/profile", headers=headers).status_code == 401


def test_update_profile_changes_names_and_phone(client, auth):
    """A profile update trims names, normalises the phone and ignores a role sent with them."""
    headers = auth.customer()
    response = client.put("/api/auth/profile", headers=headers,
                          json={"firstName": " Meera ", "phone": "+91 98765 43210", "role": "admin"})
    assert response.status_code == 200
    user = response.get_json()["user"]
    assert user["firstName"] == "Meera" and user["phone"] == "9876543210" and user["role"] == "customer"
    assert User.query.one().first_name == "Meera"


def test_update_profile_new_email_must_be_verified_again(client, auth, factories):
    """A new e-mail address is stored lower-cased as pending; the account keeps its verified address meanwhile."""
    headers = auth.customer()
    user = User.query.one()
    user.email_verified = True
    from bookstore.extensions import db
    db.session.commit()
    response = client.put("/api/auth/profile", headers=headers, json={"email": "New@Example.in"})
    assert response.status_code == 200
    assert response.get_json()["user"]["email"] == "shopper@example.in"
    assert response.get_json()["user"]["pendingEmail"] == "new@example.in"
    assert response.get_json()["user"]["isVerified"] is True


def test_update_profile_rejects_taken_email_and_blank_names(client, auth, factories):
    """A taken e-mail is 409 and a blank first name 422 "First name is required."; the stored name is unchanged."""
    factories.user(email="taken@example.in")
    headers = auth.customer()
    assert client.put("/api/auth/profile", headers=headers, json={"email": "TAKEN@example.in"}).status_code == 409
    response = client.put("/api/auth/profile", headers=headers, json={"firstName": "  "})
    assert response.status_code == 422 and response.get_json()["errors"] == {"firstName": ["First name is required."]}
    assert User.query.filter_by(email="shopper@example.in").one().first_name == "Asha"


def test_admin_tokens_are_shorter_lived(client, auth, app):
    """Administrator tokens expire after 8 hours, shoppers' after 7 days."""
    import jwt as pyjwt
    admin_token = auth.admin()["Authorization"].split()[1]
    shopper_token = auth.customer()["Authorization"].split()[1]
    admin = pyjwt.decode(admin_token, options={"verify_signature": False})
    shopper = pyjwt.decode(shopper_token, options={"verify_signature": False})
    assert admin["exp"] - admin["iat"] == 8 * 3600
    assert shopper["exp"] - shopper["iat"] == 7 * 24 * 3600
