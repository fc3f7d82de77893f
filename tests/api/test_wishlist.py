"""The shopper's wishlist: bearer-only, idempotent, shaped as product §3.8."""
import pytest

from bookstore.extensions import db
from bookstore.models import WishlistItem
from tests.factories import count


def test_wishlist_needs_a_token(client):
    """Reading, adding to and removing from the wishlist need a signed-in shopper (401 otherwise)."""
    for response in (client.get("/api/users/wishlist"), client.post("/api/users/wishlist", json={"bookId": "1"}),
                     client.delete("/api/users/wishlist/1")):
        assert response.status_code == 401 and response.get_json()["success"] is False


def test_add_list_and_remove(client, auth, factories):
    """Adding answers 201 with the list; entries carry a book sub-object with _id."""
    headers = auth.customer()
    book = factories.book(title="Quantitative Aptitude")
    added = client.post("/api/users/wishlist", headers=headers, json={"bookId": str(book.id)})
    assert added.status_code == 201
    entries = added.get_json()["books"]
    assert [entry["book"]["_id"] for entry in entries] == [str(book.id)]
    assert entries[0]["book"]["title"] == "Quantitative Aptitude" and entries[0]["addedAt"]

    listed = client.get("/api/users/wishlist", headers=headers).get_json()
    assert listed["success"] is True and [e["book"]["_id"] for e in listed["books"]] == [str(book.id)]

    removed = client.delete(f"/api/users/wishlist/{book.id}", headers=headers)
    assert removed.status_code == 200 and removed.get_json()["books"] == []
    assert count(WishlistItem) == 0


def test_adding_twice_keeps_one_entry(client, auth, factories):
    """A second add is a 200 no-op, not a duplicate or an error."""
    headers = auth.customer()
    book = factories.book()
    assert client.post("/api/users/wishlist", headers=headers, json={"bookId": str(book.id)}).status_code == 201
    again = client.post("/api/users/wishlist", headers=headers, json={"bookId": book.id})
    assert again.status_code == 200 and len(again.get_json()["books"]) == 1
    assert count(WishlistItem) == 1


def test_removing_an_absent_book_succeeds(client, auth):
    """Removing a book that is not on the wishlist (or no book at all) succeeds and answers the list."""
    headers = auth.customer()
    for book_id in ("12345", "abc", "99999999999999999999"):
        response = client.delete(f"/api/users/wishlist/{book_id}", headers=headers)
        assert response.status_code == 200 and response.get_json()["books"] == []


@pytest.mark.parametrize("body, status", [
    ({}, 422), ({"bookId": ""}, 422), ({"bookId": None}, 422), ({"bookId": "999999"}, 404),
    ({"bookId": "abc"}, 404), ({"bookId": "99999999999999999999"}, 404), ({"bookId": ["1"]}, 422),
])
def test_bad_book_ids_change_nothing(client, auth, body, status):
    """Adding a missing or malformed book id is refused and adds nothing."""
    headers = auth.customer()
    response = client.post("/api/users/wishlist", headers=headers, json=body)
    assert response.status_code == status and response.get_json()["success"] is False
    assert count(WishlistItem) == 0


def test_archived_books_cannot_be_added_and_drop_out_of_the_list(client, auth, factories):
    """Archived books cannot be added and drop out of a wishlist that had them."""
    headers = auth.customer()
    book = factories.book()
    client.post("/api/users/wishlist", headers=headers, json={"bookId": str(book.id)})
    book.archived = True
    db.session.commit()
    assert client.get("/api/users/wishlist", headers=headers).get_json()["books"] == []
    other = factories.book(archived=True)
    assert client.post("/api/users/wishlist", headers=headers, json={"bookId": str(other.id)}).status_code == 404


def test_wishlists_are_private(client, auth, factories):
    """One shopper never sees or changes another's list."""
    book = factories.book()
    first = auth.customer("one@example.in")
    second = auth.customer("two@example.in")
    client.post("/api/users/wishlist", headers=first, json={"bookId": str(book.id)})
    assert client.get("/api/users/wishlist", headers=second).get_json()["books"] == []
    client.delete(f"/api/users/wishlist/{book.id}", headers=second)
    assert len(client.get("/api/users/wishlist", headers=first).get_json()["books"]) == 1
