"""Operator commands."""
from werkzeug.security import check_password_hash

from bookstore.models import User


def test_create_admin_creates_an_administrator(runner):
    """create-admin creates a verified administrator with a lower-cased e-mail and the given names and password."""
    result = runner.invoke(args=["create-admin", "--email", "Owner@Shop.in", "--password", "long-enough",
                                 "--first-name", "Anil", "--last-name", "Rao"])
    assert result.exit_code == 0, result.output
    user = User.query.one()
    assert (user.email, user.role, user.first_name, user.email_verified) == ("owner@shop.in", "admin", "Anil", True)
    assert check_password_hash(user.password_hash, "long-enough")


def test_create_admin_promotes_an_existing_shopper(runner, factories):
    """create-admin with a shopper's address promotes that account instead of making another."""
    factories.user(email="shopper@shop.in")
    result = runner.invoke(args=["create-admin", "--email", "shopper@shop.in", "--password", "long-enough"])
    assert result.exit_code == 0 and "Promoted" in result.output
    assert User.query.one().role == "admin"


def test_create_admin_prompts_for_the_password(runner):
    """create-admin without --password asks for it twice."""
    result = runner.invoke(args=["create-admin", "--email", "owner@shop.in"], input="long-enough\nlong-enough\n")
    assert result.exit_code == 0, result.output
    assert check_password_hash(User.query.one().password_hash, "long-enough")


def test_create_admin_refuses_short_passwords_and_bad_emails(runner):
    """create-admin refuses passwords under 8 characters and invalid e-mails, creating nothing."""
    short = runner.invoke(args=["create-admin", "--email", "owner@shop.in", "--password", "short"])
    bad = runner.invoke(args=["create-admin", "--email", "not-an-email", "--password", "long-enough"])
    assert short.exit_code != 0 and "8 to 128" in short.output
    assert bad.exit_code != 0 and "valid e-mail" in bad.output
    assert User.query.count() == 0


def test_admin_can_sign_in_after_creation(runner, client):
    """An administrator made by create-admin can sign in and is an admin."""
    runner.invoke(args=["create-admin", "--email", "owner@shop.in", "--password", "long-enough"])
    response = client.post("/api/auth/login", json={"email": "owner@shop.in", "password": "long-enough"})
    assert response.status_code == 200 and response.get_json()["user"]["role"] == "admin"
