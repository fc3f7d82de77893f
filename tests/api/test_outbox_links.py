"""Alert, newsletter and e-mail change links are made when the mail is sent (issue 25, 16): the outbox keeps a
placeholder (body and unsubscribe URL), the mail as sent carries a token that works, and nothing in the outbox
opens the link. Mails read from a real SMTP sink."""
import re
from urllib.parse import urlsplit

import pytest

from bookstore.extensions import db
from bookstore.models import BookAlert, NewsletterSubscriber, OutboxMail, User, utcnow
from bookstore.services import newsletter
from tests.factories import Factories
from tests.helpers import bearer

TOKEN = re.compile(r"token=([^\s<>\"]+)")


@pytest.fixture
def client(mail_app):
    return mail_app.test_client()


@pytest.fixture
def factories(mail_app):
    return Factories()


def _outbox_texts() -> list[str]:
    db.session.expire_all()
    return [f"{row.body}\n{row.unsubscribe_url or ''}" for row in db.session.scalars(
        db.select(OutboxMail).order_by(OutboxMail.id))]


def assert_no_live_token(sent_token: str) -> None:
    """Every token in the outbox is a placeholder, and the token of the mail as sent is in no row."""
    texts = _outbox_texts()
    assert texts
    for text in texts:
        assert sent_token not in text, text
        for token in TOKEN.findall(text):
            assert token.startswith("{{link:"), text


def sent_link(smtp_sink, path: str, to: str | None = None) -> str:
    """The token of the last mail (to `to`) as sent whose link opens `path`."""
    for message in reversed(smtp_sink.messages):
        if to is None or message["To"] == to:
            found = re.search(rf"https://books\.example\.in{re.escape(path)}\?token=([\w.-]+)",
                              message.get_body(("plain",)).get_content())
            if found:
                return found.group(1)
    raise AssertionError(f"no {path} link sent")


def test_an_alerts_confirm_and_cancel_links_are_made_when_sent(client, factories, smtp_sink):
    """The confirm mail and the back-in-stock mail keep placeholders; the sent links confirm and cancel."""
    book = factories.book(title="Indian Polity", stock=0, cover_key="covers/ab/abc.webp")
    assert client.post(f"/api/books/{book.id}/alerts", json={"kind": "back-in-stock",
                                                            "email": "reader@example.in"}).status_code == 201
    confirm = sent_link(smtp_sink, "/alerts/confirm")
    assert_no_live_token(confirm)
    assert client.post("/api/alerts/confirm", json={"token": confirm}).status_code == 200
    admin = factories.user(email="admin@example.in", password="admin-pass-1", role="admin")
    assert admin
    signed_in = client.post("/api/auth/login", json={"email": "admin@example.in", "password": "admin-pass-1"})
    headers = bearer(signed_in.get_json()["token"])
    assert client.put(f"/api/books/{book.id}", json={"stock": 3}, headers=headers).status_code == 200
    cancel = sent_link(smtp_sink, "/alerts/cancel")
    assert_no_live_token(cancel)
    assert client.post("/api/alerts/cancel", json={"token": cancel}).get_json()["success"] is True
    db.session.expire_all()
    assert db.session.scalar(db.select(db.func.count(BookAlert.id))) == 0


def test_a_newsletter_confirm_link_is_made_when_sent_and_only_its_hash_is_kept(client, smtp_sink):
    """The outbox keeps a placeholder and the subscriber row only a hash: neither confirms; the sent link does."""
    assert client.post("/api/newsletter", json={"email": "reader@example.in"}).status_code in (200, 201, 202)
    token = sent_link(smtp_sink, "/newsletter/confirm")
    assert_no_live_token(token)
    stored = db.session.scalar(db.select(NewsletterSubscriber.confirm_token))
    assert stored and stored != token and token not in stored
    assert client.post("/api/newsletter/confirm", json={"token": stored}).status_code == 404
    assert client.post("/api/newsletter/confirm", json={"token": token}).status_code == 200
    db.session.expire_all()
    assert db.session.scalar(db.select(NewsletterSubscriber.confirmed_at)) is not None


def test_a_confirm_link_mailed_before_the_change_still_works(client):
    """A subscriber row that still holds a clear token (mailed by an older release) confirms with it once."""
    db.session.add(NewsletterSubscriber(email="early@example.in", confirm_token="e" * 43,
                                        confirmation_sent_at=utcnow()))
    db.session.commit()
    assert client.post("/api/newsletter/confirm", json={"token": "e" * 43}).status_code == 200
    assert client.post("/api/newsletter/confirm", json={"token": "e" * 43}).status_code == 404


def test_a_newsletters_unsubscribe_link_is_made_when_sent(client, smtp_sink):
    """Body and unsubscribe_url keep a placeholder; List-Unsubscribe and the text of the sent mail carry the
    signed link, whose one-click POST unsubscribes."""
    db.session.add(NewsletterSubscriber(email="one@example.in", confirmed_at=utcnow()))
    db.session.commit()
    assert newsletter.send_issue("New GATE books", "Fresh titles.") == 1
    [message] = smtp_sink.messages
    header = re.fullmatch(r"<(.+)>", message["List-Unsubscribe"]).group(1)
    assert header.startswith("https://books.example.in/newsletter/unsubscribe?token=")
    assert header in message.get_body(("plain",)).get_content()
    url = urlsplit(header)
    assert_no_live_token(url.query.removeprefix("token="))
    [row] = db.session.scalars(db.select(OutboxMail)).all()
    assert row.unsubscribe_url.startswith("https://books.example.in/newsletter/unsubscribe?token={{link:")
    assert client.post(f"{url.path}?{url.query}", data={"List-Unsubscribe": "One-Click"}).status_code == 200
    db.session.expire_all()
    assert db.session.scalar(db.select(NewsletterSubscriber.unsubscribed_at)) is not None


def test_the_undo_link_of_an_email_change_is_made_when_sent(client, factories, smtp_sink):
    """The "this wasn't me" link is a placeholder in the outbox; the sent link gives the address back."""
    factories.user(email="ravi@example.in", password="secret-pass-1", first_name="Ravi", email_verified=True)
    signed_in = client.post("/api/auth/login", json={"email": "ravi@example.in", "password": "secret-pass-1"})
    headers = bearer(signed_in.get_json()["token"])
    assert client.put("/api/auth/profile", headers=headers, json={"email": "thief@example.in"}).status_code == 200
    undo = sent_link(smtp_sink, "/undo-email-change", to="ravi@example.in")
    assert_no_live_token(undo)
    assert client.post("/api/auth/undo-email-change", json={"token": undo}).status_code == 200
    db.session.expire_all()
    user = db.session.scalar(db.select(User).where(User.email == "ravi@example.in"))
    assert user is not None and user.pending_email is None
