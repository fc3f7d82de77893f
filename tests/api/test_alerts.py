""""Notify me" alerts: asking (guests confirm by e-mail), refusals, the mails on restock and on a newer edition
(one per alert even when the job runs twice), and cancelling; e-mails read from a real SMTP sink."""
import re

import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Book, BookAlert, OutboxMail
from bookstore.services import alerts
from tests.api.test_admin_books import form
from tests.factories import Factories, count, placed
from tests.helpers import assert_refused

GUEST = "reader@example.in"
COVER = "covers/ab/abc.webp"  # admin edits need a book with a cover


@pytest.fixture
def client(mail_app):
    return mail_app.test_client()


@pytest.fixture
def factories(mail_app):
    """Rows made in mail_app's context, so jobs run directly by a test send to the SMTP sink too."""
    return Factories()


def login(client, factories, email, role="customer", verified=True) -> dict:
    factories.user(email=email, password="secret-pass-1", role=role, email_verified=verified)
    response = client.post("/api/auth/login", json={"email": email, "password": "secret-pass-1"})
    assert response.status_code == 200, response.get_json()
    return {"Authorization": f"Bearer {response.get_json()['token']}"}


@pytest.fixture
def admin(client, factories):
    return login(client, factories, "admin@example.in", role="admin")


def ask(client, book, kind="back-in-stock", email=GUEST, headers=None):
    body = {"kind": kind} if email is None else {"kind": kind, "email": email}
    return client.post(f"/api/books/{book.id}/alerts", json=body, headers=headers or {})


def link(body: str, action: str) -> str:
    return re.search(rf"/alerts/{action}\?token=([\w.-]+)", body).group(1)


def mails_to(smtp_sink, address):
    return [message for message in smtp_sink.messages if message["To"] == address]


def the_alert() -> BookAlert:
    db.session.expire_all()
    return db.session.scalars(select(BookAlert)).one()


def test_guest_alert_waits_for_confirmation_from_the_mailed_link(client, factories, smtp_sink):
    """A guest's alert is stored pending and mails a signed confirmation link; confirming activates it once."""
    book = factories.book(title="Organic Chemistry", stock=0, cover_key=COVER)
    response = ask(client, book)
    assert response.status_code == 201, response.get_json()
    reply = response.get_json()
    assert reply["success"] is True and GUEST in reply["message"] and "confirm" in reply["message"]
    assert reply["alert"]["status"] == "pending" and reply["alert"]["bookId"] == str(book.id)
    assert the_alert().confirmed_at is None
    [message] = smtp_sink.messages
    assert message["To"] == GUEST and "Organic Chemistry" in message["Subject"]
    assert "https://books.example.in/alerts/confirm?token=" in smtp_sink.body()

    confirmed = client.post("/api/alerts/confirm", json={"token": link(smtp_sink.body(), "confirm")})
    assert confirmed.status_code == 200 and confirmed.get_json()["alert"]["status"] == "active"
    assert the_alert().confirmed_at is not None
    again = client.post("/api/alerts/confirm", json={"token": link(smtp_sink.body(), "confirm")})
    assert again.status_code == 200 and len(smtp_sink.messages) == 1


def test_a_pending_alert_is_not_mailed_on_restock(client, factories, smtp_sink, admin):
    """An unconfirmed guest alert stays silent when the book comes back."""
    book = factories.book(stock=0, cover_key=COVER)
    ask(client, book)
    assert client.put(f"/api/books/{book.id}", json={"stock": 5}, headers=admin).status_code == 200
    assert len(mails_to(smtp_sink, GUEST)) == 1  # the confirmation only
    assert the_alert().sent_at is None


def test_verified_shopper_alert_is_active_at_once_at_the_account_address(client, factories, smtp_sink):
    """A signed-in shopper with a verified address is not asked to confirm; the account's address is used."""
    book = factories.book(stock=0, cover_key=COVER)
    shopper = login(client, factories, "asha@example.in")
    response = ask(client, book, email="someone.else@example.in", headers=shopper)
    assert response.status_code == 201 and response.get_json()["alert"]["status"] == "active"
    alert = the_alert()
    assert alert.email == "asha@example.in" and alert.confirmed_at is not None and alert.user_id is not None
    assert smtp_sink.messages == []
    mine = client.get("/api/alerts/mine", headers=shopper).get_json()["alerts"]
    assert [(a["bookId"], a["kind"], a["status"], a["bookTitle"]) for a in mine] == [
        (str(book.id), "back-in-stock", "active", book.title)]


def test_unverified_shopper_confirms_by_mail(client, factories, smtp_sink):
    """A signed-in shopper whose address is not verified confirms the alert like a guest."""
    book = factories.book(stock=0, cover_key=COVER)
    shopper = login(client, factories, "new@example.in", verified=False)
    response = ask(client, book, email=None, headers=shopper)
    assert response.status_code == 201 and response.get_json()["alert"]["status"] == "pending"
    assert [m["To"] for m in smtp_sink.messages] == ["new@example.in"]


def test_asking_again_is_idempotent(client, factories, smtp_sink):
    """Asking twice keeps one alert and answers 200 (a pending one whose link still works mails nothing new, nor
    does an active one); the address is compared lower-cased."""
    book = factories.book(stock=0, cover_key=COVER)
    assert ask(client, book).status_code == 201
    again = ask(client, book, email=GUEST.upper())
    assert again.status_code == 200 and again.get_json()["success"] is True
    assert count(BookAlert) == 1 and len(smtp_sink.messages) == 1
    client.post("/api/alerts/confirm", json={"token": link(smtp_sink.body(), "confirm")})
    third = ask(client, book)
    assert third.status_code == 200 and third.get_json()["alert"]["status"] == "active"
    assert count(BookAlert) == 1 and len(smtp_sink.messages) == 1
    # Another kind on the same book is another alert.
    assert ask(client, book, kind="new-edition").status_code == 201 and count(BookAlert) == 2


@pytest.mark.parametrize("body, status, field", [
    ({"kind": "back-in-stock", "email": "not-an-address"}, 422, "email"),
    ({"kind": "back-in-stock"}, 422, "email"),
    ({"kind": "price-drop", "email": GUEST}, 422, "kind"),
    ({"email": GUEST}, 422, "kind"),
])
def test_bad_input_is_refused_and_changes_nothing(client, factories, smtp_sink, body, status, field):
    """A bad or missing address or kind is 422 on its field; no alert and no mail."""
    book = factories.book(stock=0, cover_key=COVER)
    assert_refused(client.post(f"/api/books/{book.id}/alerts", json=body), status, field=field)
    assert count(BookAlert) == 0 and smtp_sink.messages == []


def test_unknown_or_archived_book_is_404(client, factories):
    """An alert on a book that does not exist or is archived is 404."""
    archived = factories.book(stock=0, archived=True, cover_key=COVER)
    for book_id in ("999999", "abc", str(archived.id)):
        response = client.post(f"/api/books/{book_id}/alerts", json={"kind": "back-in-stock", "email": GUEST})
        assert_refused(response, 404, "Book not found.")
    assert count(BookAlert) == 0


def test_book_in_stock_refuses_a_back_in_stock_alert(client, factories, smtp_sink):
    """A back-in-stock alert on a book in stock is 409 saying it can be ordered; a new-edition one is fine."""
    book = factories.book(title="Physics Vol 1", stock=3, cover_key=COVER)
    assert_refused(ask(client, book), 409,
                   "'Physics Vol 1' is in stock: you can order it now. Alerts are for books that are out of stock.")
    assert count(BookAlert) == 0 and smtp_sink.messages == []
    assert ask(client, book, kind="new-edition").status_code == 201


def test_restock_by_the_admin_mails_each_active_alert_once(client, factories, smtp_sink, admin):
    """Stock from 0 to more sends one mail per active alert, with a cancel link, and marks each sent;
    the job run again, a later restock and the sweep send nothing more."""
    book = factories.book(title="Indian Polity", stock=0, cover_key=COVER)
    shopper = login(client, factories, "asha@example.in")
    ask(client, book, headers=shopper)
    ask(client, book)
    client.post("/api/alerts/confirm", json={"token": link(smtp_sink.body(), "confirm")})
    other = factories.book(stock=0, cover_key=COVER)
    ask(client, other, headers=shopper)  # a book that stays out of stock
    before = len(smtp_sink.messages)

    assert client.put(f"/api/books/{book.id}", json={"stock": 4}, headers=admin).status_code == 200
    sent = smtp_sink.messages[before:]
    assert sorted(m["To"] for m in sent) == ["asha@example.in", GUEST]
    assert all(m["Subject"] == "Back in stock: Indian Polity" for m in sent)
    assert all(f"https://books.example.in/book/{book.id}" in m.get_body(("plain",)).get_content() for m in sent)
    assert all("/alerts/cancel?token=" in m.get_body(("plain",)).get_content() for m in sent)
    db.session.expire_all()
    assert all(a.sent_at is not None for a in BookAlert.query.filter_by(book_id=book.id))

    tasks.send_book_alerts.call_local(book.id)
    tasks.send_book_alerts.call_local(book.id)
    assert tasks.sweep_book_alerts.call_local() == 0
    client.put(f"/api/books/{book.id}", json={"stock": 0}, headers=admin)
    client.put(f"/api/books/{book.id}", json={"stock": 2}, headers=admin)
    assert len(smtp_sink.messages) == before + 2
    assert count(OutboxMail) == before + 2


def test_a_stock_adjustment_from_zero_mails_the_alert(client, factories, smtp_sink, admin):
    """Any ledger entry taking a book from 0 to more wakes its alerts: here an adjustment "found" (product §5.9)."""
    book = factories.book(title="Indian Polity", stock=0, cover_key=COVER)
    ask(client, book, headers=login(client, factories, "asha@example.in"))
    reply = client.post(f"/api/admin/books/{book.id}/stock-movements", json={"quantity": 2, "reason": "found"},
                        headers=admin)
    assert reply.status_code == 201, reply.get_json()
    assert [(m["To"], m["Subject"]) for m in smtp_sink.messages] == [("asha@example.in", "Back in stock: Indian Polity")]
    assert the_alert().sent_at is not None


def test_the_job_running_twice_queues_one_mail(client, factories, smtp_sink):
    """Restocked behind the job's back, the alert is found by the sweep; running the job twice queues one mail."""
    book = factories.book(stock=0, cover_key=COVER)
    shopper = login(client, factories, "asha@example.in")
    ask(client, book, headers=shopper)
    db.session.get(Book, book.id).stock = 3
    db.session.commit()  # no service call: nothing was enqueued
    assert smtp_sink.messages == []
    assert alerts.due_book_ids() == [book.id]
    assert alerts.send_due(book.id) == 1
    assert alerts.send_due(book.id) == 0
    assert alerts.due_book_ids() == []
    assert OutboxMail.query.filter_by(to_address="asha@example.in").count() == 1


def test_the_sweep_sends_what_a_lost_job_missed(client, factories, smtp_sink):
    """A restock whose job was lost is found by the periodic sweep, which mails the alert once."""
    book = factories.book(title="Lost Job", stock=0, cover_key=COVER)
    shopper = login(client, factories, "asha@example.in")
    ask(client, book, headers=shopper)
    db.session.get(Book, book.id).stock = 1
    db.session.commit()
    assert tasks.sweep_book_alerts.call_local() == 1
    assert tasks.sweep_book_alerts.call_local() == 0
    assert [m["Subject"] for m in smtp_sink.messages] == ["Back in stock: Lost Job"]


def test_an_expired_confirmation_link_is_refused(client, factories, smtp_sink, monkeypatch):
    """A confirmation link past its days is 422 on token with reason expired; the alert stays pending."""
    book = factories.book(stock=0, cover_key=COVER)
    ask(client, book)
    monkeypatch.setattr(alerts, "CONFIRM_DAYS", -1)
    reply = assert_refused(client.post("/api/alerts/confirm", json={"token": link(smtp_sink.body(), "confirm")}),
                           422, field="token")
    assert reply["reason"] == "expired"
    assert the_alert().confirmed_at is None


def test_cancelled_order_giving_stock_back_fires_the_alert(client, factories, smtp_sink, admin):
    """An order that took the last copy is cancelled: its copy comes back and the waiting shopper is told."""
    book = factories.book(title="Last Copy", stock=1, cover_key=COVER)
    order = placed(client, [(book, 1)])
    db.session.expire_all()
    assert db.session.get(Book, book.id).stock == 0
    shopper = login(client, factories, "asha@example.in")
    assert ask(client, book, headers=shopper).status_code == 201
    before = len(mails_to(smtp_sink, "asha@example.in"))
    moved = client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled", "note": "Out"},
                       headers=admin)
    assert moved.status_code == 200, moved.get_json()
    told = [m["Subject"] for m in mails_to(smtp_sink, "asha@example.in")[before:]]
    assert [subject for subject in told if "stock" in subject] == ["Back in stock: Last Copy"]


def test_new_edition_added_by_the_admin_mails_the_alert(client, factories, smtp_sink, admin):
    """A book created as the newer edition of a watched book mails its alerts once, naming the new edition;
    an edition already there when the shopper asked is not news."""
    older = factories.book(title="Physics 2024", stock=5, cover_key=COVER)
    already = factories.book(title="Physics 2025", stock=5, replaces=older, cover_key=COVER)
    shopper = login(client, factories, "asha@example.in")
    assert ask(client, older, kind="new-edition", headers=shopper).status_code == 201
    assert alerts.due_book_ids() == [] and smtp_sink.messages == []
    assert already.id == the_alert().known_edition_id

    response = client.post("/api/books", headers=admin, json=form(
        title="Physics 2026", editionYear=2026, replacesId=str(older.id)))
    assert response.status_code == 201, response.get_json()
    newest = response.get_json()["book"]["_id"]
    told = mails_to(smtp_sink, "asha@example.in")
    assert [m["Subject"] for m in told] == ["A newer edition of Physics 2024"]
    text = told[0].get_body(("plain",)).get_content()
    assert "Physics 2026" in text and f"/book/{newest}" in text
    tasks.send_book_alerts.call_local(older.id)
    assert len(mails_to(smtp_sink, "asha@example.in")) == 1


def test_linking_an_existing_book_as_newer_edition_mails_the_alert(client, factories, smtp_sink, admin):
    """An admin edit naming a book as the one another replaces fires that book's new-edition alerts."""
    older = factories.book(title="Maths Old", stock=0, cover_key=COVER)
    newer = factories.book(title="Maths New", stock=5, cover_key=COVER)
    ask(client, older, kind="new-edition")
    client.post("/api/alerts/confirm", json={"token": link(smtp_sink.body(), "confirm")})
    response = client.put(f"/api/books/{newer.id}", json={"replacesId": str(older.id)}, headers=admin)
    assert response.status_code == 200, response.get_json()
    assert [m["Subject"] for m in mails_to(smtp_sink, GUEST)][-1] == "A newer edition of Maths Old"


def test_confirming_after_the_book_came_back_mails_at_once(client, factories, smtp_sink):
    """A guest who confirms after the restock is told straight away."""
    book = factories.book(title="Back Already", stock=0, cover_key=COVER)
    ask(client, book)
    db.session.get(Book, book.id).stock = 2
    db.session.commit()
    client.post("/api/alerts/confirm", json={"token": link(smtp_sink.body(), "confirm")})
    assert [m["Subject"] for m in mails_to(smtp_sink, GUEST)][-1] == "Back in stock: Back Already"


def test_cancel_link_deletes_the_alert(client, factories, smtp_sink, admin):
    """The cancel link in an alert's mail deletes it; clicking again is still 200; a forged link is 404."""
    book = factories.book(stock=0, cover_key=COVER)
    shopper = login(client, factories, "asha@example.in")
    ask(client, book, headers=shopper)
    client.put(f"/api/books/{book.id}", json={"stock": 1}, headers=admin)
    token = link(smtp_sink.body(), "cancel")
    assert_refused(client.post("/api/alerts/cancel", json={"token": token + "x"}), 404)
    assert_refused(client.post("/api/alerts/cancel", json={"token": confirm_token_of_the_alert()}), 404)
    assert count(BookAlert) == 1
    first = client.post("/api/alerts/cancel", json={"token": token})
    assert first.status_code == 200 and first.get_json()["message"] == "Your alert is cancelled."
    assert count(BookAlert) == 0
    second = client.post("/api/alerts/cancel", json={"token": token})
    assert second.status_code == 200 and second.get_json()["message"] == "This alert was already cancelled."


def confirm_token_of_the_alert() -> str:
    """The alert's confirm token: not accepted as a cancel link."""
    return alerts.link_token(the_alert(), "confirm")


def test_forged_or_missing_confirm_token(client, factories, smtp_sink):
    """A forged confirm token is 404, a missing one 422; the alert stays pending."""
    book = factories.book(stock=0, cover_key=COVER)
    ask(client, book)
    assert_refused(client.post("/api/alerts/confirm", json={"token": "forged"}), 404)
    assert_refused(client.post("/api/alerts/confirm", json={}), 422, field="token")
    assert the_alert().confirmed_at is None


def test_shopper_cancels_own_alert_only(client, factories):
    """DELETE /api/alerts/{id}: the owner's alert goes; someone else's is 404 and stays."""
    book = factories.book(stock=0, cover_key=COVER)
    asha = login(client, factories, "asha@example.in")
    ravi = login(client, factories, "ravi@example.in")
    alert_id = ask(client, book, headers=asha).get_json()["alert"]["_id"]
    assert_refused(client.delete(f"/api/alerts/{alert_id}", headers=ravi), 404, "Alert not found.")
    assert client.get("/api/alerts/mine", headers=ravi).get_json()["alerts"] == []
    assert client.delete(f"/api/alerts/{alert_id}").status_code == 401
    assert count(BookAlert) == 1
    assert client.delete(f"/api/alerts/{alert_id}", headers=asha).status_code == 200
    assert count(BookAlert) == 0


def test_asking_is_rate_limited_per_address(make_app):
    """Asking is limited like the other public forms (FORM_LIMIT_PER_IP): 429 past the limit."""
    from tests.conftest import empty_database
    from tests.factories import Factories
    app = make_app(FORM_LIMIT_PER_IP="2 per minute")
    with app.app_context():
        empty_database()
        book = Factories().book(stock=0)
        client = app.test_client()
        statuses = [ask(client, book, email=f"r{n}@example.in").status_code for n in range(3)]
        assert statuses == [201, 201, 429]
        assert count(BookAlert) == 2
        db.session.remove()
