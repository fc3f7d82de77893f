"""Double opt-in mails cannot flood a stranger's mailbox: no second mail while a link is valid, and at most 3
confirmation mails an hour per address across alerts, the newsletter and account addresses, counted in the
database every worker shares. E-mails read from a real SMTP sink."""
import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import BookAlert, NewsletterSubscriber, OutboxMail
from bookstore.services import mail
from tests.factories import Factories, count
from tests.helpers import bearer, register

VICTIM = "victim@example.in"
ALMOST = "Almost done: please confirm"


@pytest.fixture
def client(mail_app):
    return mail_app.test_client()


@pytest.fixture
def factories(mail_app):
    return Factories()


_ips = iter(range(1, 250))


def from_many_ips() -> dict:
    """Each request from another address, as a flood would come, so the per-IP form limit does not stop it."""
    return {"REMOTE_ADDR": f"10.0.0.{next(_ips)}"}


def ask_alert(client, book, email=VICTIM, kind="back-in-stock"):
    return client.post(f"/api/books/{book.id}/alerts", json={"kind": kind, "email": email},
                       environ_base=from_many_ips())


def subscribe(client, email=VICTIM):
    return client.post("/api/newsletter", json={"email": email}, environ_base=from_many_ips())


def confirmations_to(address: str) -> int:
    return db.session.scalar(select(db.func.count(OutboxMail.id)).where(
        OutboxMail.to_address == address, OutboxMail.kind == mail.CONFIRMATION))


def age(model, column: str, by: timedelta) -> None:
    """Move a time of every row back, as if it had happened `by` earlier."""
    for row in db.session.scalars(select(model)):
        setattr(row, column, getattr(row, column) - by)
    db.session.commit()


def test_a_second_alert_request_while_the_link_is_valid_mails_nothing(client, factories, smtp_sink):
    """Asking again for a pending alert answers the same but mails nothing while the first link works
    (7 days); once it has expired, asking again mails a fresh link."""
    book = factories.book(stock=0)
    first = ask_alert(client, book)
    assert first.status_code == 201 and len(smtp_sink.messages) == 1
    again = ask_alert(client, book)
    assert again.status_code == 200 and again.get_json()["message"] == first.get_json()["message"]
    assert len(smtp_sink.messages) == 1 and confirmations_to(VICTIM) == 1

    age(BookAlert, "confirmation_sent_at", timedelta(days=7, minutes=1))
    assert ask_alert(client, book).status_code == 200
    assert len(smtp_sink.messages) == 2 and db.session.scalars(select(BookAlert)).one().confirmed_at is None


def test_a_second_newsletter_signup_while_the_link_is_valid_mails_nothing(client, smtp_sink):
    """Signing up again while the first link is valid answers the same, mails nothing and keeps that link
    working; a week later a sign-up mails a fresh link."""
    first = subscribe(client)
    again = subscribe(client)
    assert (first.status_code, again.status_code) == (202, 202) and first.get_json() == again.get_json()
    assert len(smtp_sink.messages) == 1
    token = newsletter_token(smtp_sink.body())
    # The row keeps the token's hash only (the link is made when the mail is sent).
    stored = db.session.scalars(select(NewsletterSubscriber)).one().confirm_token
    assert stored == hashlib.sha256(token.encode()).hexdigest()

    age(NewsletterSubscriber, "confirmation_sent_at", timedelta(days=7, minutes=1))
    assert subscribe(client).status_code == 202 and len(smtp_sink.messages) == 2
    assert client.post("/api/newsletter/confirm", json={"token": token}).status_code == 404  # replaced
    fresh = newsletter_token(smtp_sink.body())
    assert client.post("/api/newsletter/confirm", json={"token": fresh}).status_code == 200


def newsletter_token(body: str) -> str:
    return re.search(r"/newsletter/confirm\?token=([\w-]+)", body).group(1)


def test_confirmations_to_one_address_are_capped_across_kinds(client, factories, smtp_sink):
    """Newsletter and alerts on several books for one address: 3 confirmation mails in an hour, then nothing;
    every answer is the same as when a mail went; an hour later mails go again. Other addresses are not held."""
    books = [factories.book(stock=0) for _ in range(4)]
    assert subscribe(client).status_code == 202
    answers = [ask_alert(client, book) for book in books]
    assert [answer.status_code for answer in answers] == [201, 201, 201, 201]
    assert all(answer.get_json()["message"].startswith(ALMOST) for answer in answers)
    assert len(smtp_sink.messages) == 3 and confirmations_to(VICTIM) == 3
    assert count(BookAlert) == 4  # the requests are kept; only the mails are held back
    assert ask_alert(client, books[0], email="someone.else@example.in").status_code == 201
    assert len(smtp_sink.messages) == 4

    age(OutboxMail, "created_at", timedelta(hours=1, minutes=1))
    assert ask_alert(client, books[3]).status_code == 200
    assert len(smtp_sink.messages) == 5 and confirmations_to(VICTIM) == 4


def test_the_cap_holds_in_another_worker(client, factories, smtp_sink, make_app):
    """The count lives in the database: an app of its own (another worker or server, with its own memory and
    rate limits) refuses the fourth mail too."""
    books = [factories.book(stock=0) for _ in range(4)]
    for book in books[:3]:
        ask_alert(client, book)
    other = make_app(MAIL_SERVER="127.0.0.1", MAIL_PORT=str(smtp_sink.port), PUBLIC_URL="https://books.example.in")
    with other.app_context():
        answer = other.test_client().post(f"/api/books/{books[3].id}/alerts",
                                          json={"kind": "back-in-stock", "email": VICTIM}, environ_base=from_many_ips())
        assert answer.status_code == 201
        assert confirmations_to(VICTIM) == 3
        db.session.remove()
    assert len(smtp_sink.messages) == 3


def test_parallel_requests_do_not_pass_the_cap(mail_app, factories, smtp_sink):
    """Eight sign-ups and alerts for one address at once: the count and the mail are one step per address, so
    no more than 3 confirmation mails are queued."""
    books = [factories.book(stock=0) for _ in range(7)]
    urls = [(f"/api/books/{book.id}/alerts", {"kind": "back-in-stock", "email": VICTIM}) for book in books]
    urls.append(("/api/newsletter", {"email": VICTIM}))

    def post(call):
        with mail_app.app_context():
            try:
                return mail_app.test_client().post(call[0], json=call[1], environ_base=from_many_ips()).status_code
            finally:
                db.session.remove()

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(post, urls))
    assert set(statuses) <= {201, 202}
    db.session.expire_all()
    assert confirmations_to(VICTIM) == 3


def test_an_address_change_counts_and_is_refused_past_the_cap(client, factories, smtp_sink):
    """The link to confirm a new account address is a confirmation mail too: past the address's cap the change
    is refused with 429 and nothing changes."""
    books = [factories.book(stock=0) for _ in range(3)]
    for book in books:
        ask_alert(client, book)
    headers = bearer(register(client)["token"])
    before = len(smtp_sink.messages)
    refused = client.put("/api/auth/profile", headers=headers,
                         json={"email": VICTIM, "currentPassword": "asha-reads-7"})
    assert refused.status_code == 429 and refused.get_json()["success"] is False
    assert len(smtp_sink.messages) == before and confirmations_to(VICTIM) == 3
    assert client.get("/api/auth/profile", headers=headers).get_json()["user"]["pendingEmail"] is None
