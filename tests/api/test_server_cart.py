"""The signed-in shopper's cart on the server: GET and PUT /api/cart, its checks, and that it outlives a logout."""
import pytest

from bookstore.extensions import db
from bookstore.models import CartLine
from tests.factories import count


def _lines(reply):
    return [(item["book"]["_id"], item["quantity"]) for item in reply.get_json()["items"]]


def test_the_cart_needs_a_token(client):
    """Reading and replacing the saved cart need a signed-in shopper (401 otherwise)."""
    for response in (client.get("/api/cart"), client.put("/api/cart", json={"items": []})):
        assert response.status_code == 401 and response.get_json()["success"] is False


def test_put_replaces_the_whole_cart_and_get_reads_it_in_order(client, auth, factories):
    """PUT stores exactly the lines sent, in their order, with the books; a second PUT replaces the first."""
    headers = auth.customer()
    first, second, third = factories.book(), factories.book(), factories.book()
    assert client.get("/api/cart", headers=headers).get_json()["items"] == []
    saved = client.put("/api/cart", headers=headers, json={"items": [
        {"book": str(second.id), "quantity": 2}, {"book": str(first.id), "quantity": 1}]})
    assert saved.status_code == 200 and saved.get_json()["success"] is True
    assert _lines(saved) == [(str(second.id), 2), (str(first.id), 1)]
    assert saved.get_json()["items"][0]["book"]["title"] == second.title
    assert _lines(client.get("/api/cart", headers=headers)) == [(str(second.id), 2), (str(first.id), 1)]

    replaced = client.put("/api/cart", headers=headers, json={"items": [{"book": str(third.id), "quantity": 3}]})
    assert _lines(replaced) == [(str(third.id), 3)]
    assert count(CartLine) == 1
    assert client.put("/api/cart", headers=headers, json={"items": []}).get_json()["items"] == []
    assert count(CartLine) == 0


@pytest.mark.parametrize("items, field", [
    ("nope", "items"),
    ([{"book": "999999", "quantity": 1}], "items"),
    ([{"book": "abc", "quantity": 1}], "items"),
    ([{"book": "BOOK", "quantity": 0}], "items"),
    ([{"book": "BOOK", "quantity": 11}], "items"),
    ([{"book": "BOOK", "quantity": 1.5}], "items"),
    ([{"book": "BOOK", "quantity": 1}, {"book": "BOOK", "quantity": 2}], "items"),
    ([{"book": "ARCHIVED", "quantity": 1}], "items"),
    ([{"quantity": 1}], "items"),
    ([{"kit": "1", "quantity": 1}], "items"),  # kits stay in the browser's cart
])
def test_bad_carts_are_refused_and_change_nothing(client, auth, factories, items, field):
    """Unknown, archived or repeated books, quantities outside 1..copies per line (10), kits and bad shapes are
    422, and the saved cart stays as it was."""
    headers = auth.customer()
    book, kept = factories.book(), factories.book()
    archived = factories.book(archived=True)
    client.put("/api/cart", headers=headers, json={"items": [{"book": str(kept.id), "quantity": 4}]})
    if isinstance(items, list):
        items = [{**item, "book": {"BOOK": str(book.id), "ARCHIVED": str(archived.id)}.get(item["book"], item["book"])}
                 if "book" in item else item for item in items]
    response = client.put("/api/cart", headers=headers, json={"items": items})
    body = response.get_json()
    assert response.status_code == 422 and body["success"] is False
    assert any(key.startswith(field) for key in body["errors"]), body
    assert _lines(client.get("/api/cart", headers=headers)) == [(str(kept.id), 4)]


def test_more_lines_than_an_order_takes_are_refused(client, auth, factories):
    """A cart is at most the shop's lines per order (20): 21 lines are 422 and nothing is saved."""
    headers = auth.customer()
    books = [factories.book() for _ in range(21)]
    response = client.put("/api/cart", headers=headers,
                          json={"items": [{"book": str(book.id), "quantity": 1} for book in books]})
    assert response.status_code == 422 and "items" in response.get_json()["errors"]
    assert count(CartLine) == 0


def test_copies_per_line_follow_the_shop_setting(client, auth, factories):
    """The per-line limit is the admin's copies-per-line setting, not a constant."""
    headers = auth.customer()
    admin = auth.admin()
    book = factories.book()
    assert client.put("/api/admin/shop-settings", headers=admin, json={"maxQuantityPerLine": 3}).status_code == 200
    assert client.put("/api/cart", headers=headers, json={"items": [{"book": str(book.id), "quantity": 4}]}
                      ).status_code == 422
    assert client.put("/api/cart", headers=headers, json={"items": [{"book": str(book.id), "quantity": 3}]}
                      ).status_code == 200


def test_the_cart_is_kept_after_logout_and_read_at_the_next_sign_in(client, auth, factories):
    """Logging out ends the session but keeps the saved cart; the next sign-in reads it back."""
    headers = auth.customer("cart@example.in")
    book = factories.book()
    client.put("/api/cart", headers=headers, json={"items": [{"book": str(book.id), "quantity": 2}]})
    assert client.post("/api/auth/logout", headers=headers).status_code == 200
    assert client.get("/api/cart", headers=headers).status_code == 401
    again = auth.login("cart@example.in", "secret-pass")
    assert _lines(client.get("/api/cart", headers=again)) == [(str(book.id), 2)]


def test_carts_are_private_and_archived_books_drop_out(client, auth, factories):
    """One shopper never sees another's cart; a book archived later is left out of the saved cart."""
    book, later = factories.book(), factories.book()
    one = auth.customer("one@example.in")
    two = auth.customer("two@example.in")
    client.put("/api/cart", headers=one, json={"items": [{"book": str(book.id), "quantity": 1},
                                                         {"book": str(later.id), "quantity": 1}]})
    assert client.get("/api/cart", headers=two).get_json()["items"] == []
    later.archived = True
    db.session.commit()
    assert _lines(client.get("/api/cart", headers=one)) == [(str(book.id), 1)]
