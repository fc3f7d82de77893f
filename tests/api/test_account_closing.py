"""Closing an account (decisions §9): personal data erased, the e-mail free again, orders kept without the
shopper's details, reviews gone with the books' averages recomputed, every session ended, audited and mailed."""
import pytest

from bookstore.extensions import db
from bookstore.models import (AuditEntry, Book, BookAlert, CartLine, NewsletterSubscriber, Order, Review,
                              SavedAddress, User, WishlistItem)
from bookstore.security import issue_token
from bookstore.services import reviews
from tests.factories import count
from tests.helpers import REGISTRATION, bearer, order_row, register, subjects

PASSWORD = REGISTRATION["password"]
ADDRESS = {"firstName": "Asha", "lastName": "Verma", "phone": "9876543210", "address": "12 MG Road",
           "city": "Bengaluru", "state": "Karnataka", "zipCode": "560001"}


def _shopper_with_everything(client, factories):
    """A registered shopper with a delivered order, a review, a saved address, a cart, a wishlist, the
    newsletter and a back-in-stock alert; returns (headers, order, book)."""
    headers = bearer(register(client)["token"])
    book, other = factories.book(), factories.book()
    order = factories.order([(book, 1)], client=client, headers=headers)
    order_row(order["_id"]).status = "delivered"
    db.session.commit()
    client.post(f"/api/books/{book.id}/reviews", headers=headers, json={"stars": 1, "title": "Poor", "text": "No."})
    client.post("/api/addresses", headers=headers, json=ADDRESS)
    client.put("/api/cart", headers=headers, json={"items": [{"book": str(other.id), "quantity": 2}]})
    client.post("/api/users/wishlist", headers=headers, json={"bookId": str(other.id)})
    db.session.add(NewsletterSubscriber(email=REGISTRATION["email"]))
    gone = factories.book(stock=0)
    db.session.add(BookAlert(email=REGISTRATION["email"], book_id=gone.id, kind="back-in-stock"))
    db.session.commit()
    return headers, order, book


def test_closing_erases_the_account_and_keeps_its_orders(mail_app, smtp_sink, factories):
    """After closing: login fails, the token is refused, the e-mail registers again, personal rows are gone, the
    order is kept without contact details, the book's average no longer counts the review, an audit entry names
    the account by id, and a confirmation went to the old address."""
    client = mail_app.test_client()
    headers, order, book = _shopper_with_everything(client, factories)
    buyer = factories.user(email="other@example.in")
    db.session.add(Review(book_id=book.id, user_id=buyer.id, stars=5, title="Great", text="Yes", status="published"))
    reviews.refresh_rating(book.id)  # as a review write would: 1 star from the shopper, 5 from the other buyer
    db.session.commit()
    user_id = db.session.scalar(db.select(User.id).where(User.email == REGISTRATION["email"]))
    assert (db.session.get(Book, book.id).rating, db.session.get(Book, book.id).rating_count) == (3.0, 2)

    closed = client.post("/api/auth/close-account", headers=headers, json={"password": PASSWORD})
    assert closed.status_code == 200, closed.get_json()
    assert closed.get_json()["success"] is True

    db.session.expire_all()
    account = db.session.get(User, user_id)
    assert account.closed_at is not None and account.email.endswith("@closed.invalid")
    assert (account.first_name, account.phone, account.password_hash, account.delivery_pin) == (
        "Closed", None, None, None)
    for model in (SavedAddress, CartLine, WishlistItem, NewsletterSubscriber, BookAlert):
        assert count(model) == 0, model
    assert db.session.scalar(db.select(db.func.count()).select_from(Review).where(Review.user_id == user_id)) == 0
    assert (db.session.get(Book, book.id).rating, db.session.get(Book, book.id).rating_count) == (5.0, 1)

    kept = order_row(order["_id"])
    assert kept.user_id == user_id and kept.total_paise == order_row(order["_id"]).total_paise
    assert kept.email == account.email and kept.phone == "" and kept.first_name == "Closed"
    assert (kept.city, kept.state, kept.zip_code) == ("Bengaluru", "Karnataka", "560001")

    entry = db.session.scalar(db.select(AuditEntry).where(AuditEntry.action == "account.close"))
    assert entry.entity_id == str(user_id) and REGISTRATION["email"] not in entry.actor_email

    assert client.get("/api/auth/profile", headers=headers).status_code == 401
    assert client.get("/api/cart", headers=headers).status_code == 401
    login = client.post("/api/auth/login", json={"email": REGISTRATION["email"], "password": PASSWORD})
    assert login.status_code == 401
    assert "Your Bookstore account is closed" in subjects(smtp_sink)
    notice = next(m for m in smtp_sink.messages if m["Subject"] == "Your Bookstore account is closed")
    assert notice["To"] == REGISTRATION["email"]

    again = client.post("/api/auth/register", json=REGISTRATION)
    assert again.status_code == 201
    fresh = bearer(again.get_json()["token"])
    assert client.get("/api/orders/mine", headers=fresh).get_json()["orders"] == []
    assert client.get("/api/cart", headers=fresh).get_json()["items"] == []


@pytest.mark.parametrize("body", [{}, {"password": "wrong-password"}, {"password": ""},
                                  {"confirmation": REGISTRATION["email"]}])
def test_a_wrong_password_closes_nothing(client, body):
    """A password account must give its own password (typing the e-mail is not enough): 422, nothing changes."""
    headers = bearer(register(client)["token"])
    response = client.post("/api/auth/close-account", headers=headers, json=body)
    assert response.status_code == 422 and "password" in response.get_json()["errors"]
    assert client.get("/api/auth/profile", headers=headers).status_code == 200
    assert db.session.scalar(db.select(User.closed_at)) is None


def test_a_google_account_confirms_by_typing_its_email(client, factories):
    """An account without a password confirms by typing its e-mail address; anything else is 422."""
    user = factories.user(email="gita@example.in")
    user.password_hash = None
    user.google_subject = "google-subject-1"
    db.session.commit()
    headers = bearer(issue_token(user))
    refused = client.post("/api/auth/close-account", headers=headers, json={"confirmation": "close"})
    assert refused.status_code == 422 and "confirmation" in refused.get_json()["errors"]
    closed = client.post("/api/auth/close-account", headers=headers, json={"confirmation": " Gita@example.in "})
    assert closed.status_code == 200
    db.session.expire_all()
    account = db.session.get(User, user.id)
    assert account.google_subject is None and account.closed_at is not None


def test_orders_on_their_way_keep_the_account_open(client, factories):
    """An order not yet delivered or cancelled needs its contact details: closing is 409 until it is."""
    headers = bearer(register(client)["token"])
    factories.order(client=client, headers=headers)
    response = client.post("/api/auth/close-account", headers=headers, json={"password": PASSWORD})
    assert response.status_code == 409 and "on their way" in response.get_json()["message"]
    assert db.session.scalar(db.select(User.closed_at)) is None
    assert db.session.scalar(db.select(Order.email)) == REGISTRATION["email"]


def test_administrators_cannot_close_their_account_here(client, auth):
    """The shop's administrators are not shoppers: 403."""
    headers = auth.admin()
    response = client.post("/api/auth/close-account", headers=headers, json={"password": "admin-pass-1"})
    assert response.status_code == 403 and db.session.scalar(db.select(User.closed_at)) is None


def test_closing_needs_a_token(client):
    """Without a session there is nothing to close (401)."""
    assert client.post("/api/auth/close-account", json={"password": "x"}).status_code == 401
