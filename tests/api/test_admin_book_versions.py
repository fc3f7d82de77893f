"""An admin form opened before copies were sold must not put the old stock back (seen: 8 copies sold
of 5). The admin read carries an ETag over stock, prices and edits; a PUT with a stale If-Match is 409
with the current book and changes nothing. Stock is a whole number: 2.9 is refused, not stored as 2."""
import pytest

from bookstore.extensions import db
from bookstore.models import Book
from tests.api.test_admin_books import admin, created  # noqa: F401  (admin is a fixture)
from tests.factories import placed


@pytest.fixture
def book(client, admin):
    """A book made through the admin API (with its cover), 5 in stock."""
    made = created(client, admin, title="IBPS PO Reasoning", price="399", stock=5)
    return db.session.get(Book, int(made["_id"]))


def read(client, headers, book):
    response = client.get(f"/api/books/{book.id}?includeArchived=true", headers=headers)
    assert response.status_code == 200
    assert response.headers["ETag"] == response.get_json()["version"]
    return response.headers["ETag"]


def stock_now(book) -> int:
    db.session.expire_all()
    return db.session.get(Book, book.id).stock


def test_a_stale_form_cannot_put_sold_copies_back(client, admin, book):
    """The form is read at stock 5, three copies sell, the save with the old ETag is 409 with the
    current book (2 in stock) and the stock stays 2; a save with the new ETag applies."""
    opened = read(client, admin, book)
    placed(client, [(book, 3)])
    response = client.put(f"/api/books/{book.id}", json={"stock": 5, "title": "IBPS PO Reasoning 2026"},
                          headers={**admin, "If-Match": opened})
    assert response.status_code == 409
    body = response.get_json()
    assert body["success"] is False and "changed since you opened it" in body["message"]
    assert body["book"]["stock"] == 2 and body["book"]["title"] == "IBPS PO Reasoning"
    assert body["version"] == response.headers["ETag"] != opened
    assert stock_now(book) == 2

    response = client.put(f"/api/books/{book.id}", json={"stock": 12}, headers={**admin, "If-Match": body["version"]})
    assert response.status_code == 200, response.get_json()
    assert stock_now(book) == 12 and response.headers["ETag"] not in (opened, body["version"])


def test_a_price_change_by_someone_else_makes_the_form_stale(client, admin, book):
    """Two admins: the second save, from a form read before the first, is refused."""
    first, second = read(client, admin, book), read(client, admin, book)
    assert client.put(f"/api/books/{book.id}", json={"price": 450}, headers={**admin, "If-Match": first}).status_code == 200
    response = client.put(f"/api/books/{book.id}", json={"price": 350}, headers={**admin, "If-Match": second})
    assert response.status_code == 409 and response.get_json()["book"]["price"] == 450


def test_without_if_match_the_save_applies(client, admin, book):
    """Callers that send no If-Match (scripts) keep today's behaviour."""
    assert client.put(f"/api/books/{book.id}", json={"stock": 7}, headers=admin).status_code == 200
    assert stock_now(book) == 7


@pytest.mark.parametrize("stock", [2.9, "2.9", True, -1, "three"])
def test_stock_must_be_a_whole_number(client, admin, book, stock):
    """2.9 (as a number or text), true, a negative number or a word is 422 on stock; nothing changes."""
    response = client.put(f"/api/books/{book.id}", json={"stock": stock}, headers=admin)
    assert response.status_code == 422 and "stock" in response.get_json()["errors"]
    assert stock_now(book) == 5


def test_the_plain_admin_read_carries_the_etag_too(client, admin, auth, book):
    """GET /api/books/{id} with an administrator's token answers the ETag and version without
    includeArchived, and a save with it applies; shoppers, guests and stale tokens get the book alone."""
    response = client.get(f"/api/books/{book.id}", headers=admin)
    assert response.status_code == 200
    tag = response.headers["ETag"]
    assert response.get_json()["version"] == tag == read(client, admin, book)
    placed(client, [(book, 1)])
    assert client.put(f"/api/books/{book.id}", json={"stock": 9}, headers={**admin, "If-Match": tag}).status_code == 409
    assert stock_now(book) == 4
    for headers in ({}, auth.customer(), {"Authorization": "Bearer not-a-token"}):
        response = client.get(f"/api/books/{book.id}", headers=headers)
        assert response.status_code == 200 and response.get_json()["book"]["_id"] == str(book.id)
        assert "ETag" not in response.headers and "version" not in response.get_json()
