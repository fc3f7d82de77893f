"""Newsletter double opt-in, with the e-mails read from a real SMTP sink."""
import re

from bookstore.models import NewsletterSubscriber


def _token(body: str) -> str:
    return re.search(r"/newsletter/confirm\?token=([\w-]+)", body).group(1)


def test_signup_mails_a_link_that_confirms_once(mail_app, smtp_sink):
    """A sign-up mails a confirmation link that confirms the address once."""
    client = mail_app.test_client()
    assert client.post("/api/newsletter", json={"email": "reader@example.in"}).status_code == 202
    assert len(smtp_sink.messages) == 1
    message = smtp_sink.messages[0]
    assert message["To"] == "reader@example.in"
    assert "https://books.example.in/newsletter/confirm?token=" in smtp_sink.body()
    token = _token(smtp_sink.body())

    confirmed = client.post("/api/newsletter/confirm", json={"token": token})
    assert confirmed.status_code == 200 and confirmed.get_json()["success"] is True
    assert NewsletterSubscriber.query.one().confirmed_at is not None

    reused = client.post("/api/newsletter/confirm", json={"token": token})
    assert reused.status_code == 404 and reused.get_json()["success"] is False


def test_unknown_or_missing_token_changes_nothing(mail_app):
    """An unknown token is 404 and a missing one 422, and the address stays unconfirmed."""
    client = mail_app.test_client()
    client.post("/api/newsletter", json={"email": "reader@example.in"})
    assert client.post("/api/newsletter/confirm", json={"token": "forged"}).status_code == 404
    assert client.post("/api/newsletter/confirm", json={}).status_code == 422
    assert NewsletterSubscriber.query.one().confirmed_at is None


def test_confirmed_address_is_not_mailed_again(mail_app, smtp_sink):
    """Signing up a confirmed address again answers the same and mails nothing."""
    client = mail_app.test_client()
    client.post("/api/newsletter", json={"email": "reader@example.in"})
    client.post("/api/newsletter/confirm", json={"token": _token(smtp_sink.body())})
    again = client.post("/api/newsletter", json={"email": "reader@example.in"})
    assert again.status_code == 202 and len(smtp_sink.messages) == 1


def test_signup_survives_a_dead_mail_server(make_app):
    """A failing SMTP server is logged; the sign-up is kept and the shopper can ask again."""
    from bookstore.extensions import db
    from tests.conftest import empty_database
    app = make_app(MAIL_SERVER="127.0.0.1", MAIL_PORT="1")
    with app.app_context():
        empty_database()
        response = app.test_client().post("/api/newsletter", json={"email": "reader@example.in"})
        assert response.status_code == 202
        assert NewsletterSubscriber.query.one().confirm_token
        db.session.remove()
