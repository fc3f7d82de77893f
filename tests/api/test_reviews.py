"""Buyers' reviews (issue 15): only a delivered buyer reviews a book, once, and may edit it; an admin hides or
publishes it (audited); the book's average and count follow every change in the same transaction."""
import json
import re

import pytest

from bookstore.extensions import db
from bookstore.models import AuditEntry, Book, Category, Order, Review
from tests.api.test_kits import as_line, kit_order, make_kit
from tests.factories import count


@pytest.fixture
def book(factories):
    return factories.book(title="Physics for JEE Main")


def buyer(auth, factories, client, book, email="buyer@example.in", status="delivered", first="Asha", last="Verma"):
    """A signed-in shopper whose order holding the book has reached `status`; returns their headers."""
    factories.user(email=email, first_name=first, last_name=last)
    headers = auth.login(email, "secret-pass")
    order = factories.order([(book, 1)], client=client, headers=headers)
    db.session.scalar(db.select(Order).where(Order.public_id == order["_id"])).status = status
    db.session.commit()
    return headers


def review_body(**changes):
    return {"stars": 4, "title": "Clear chapters", "text": "Worked examples for every topic.", **changes}


def stored_rating(book_id):
    db.session.expire_all()
    book = db.session.get(Book, book_id)
    return book.rating, book.rating_count


def test_a_delivered_buyer_reviews_and_the_book_average_follows(client, auth, factories, book):
    """A delivered buyer's review is published at once (201); the list shows it with the reviewer's first name and
    last initial, and the book's stored average and count (which the cards and the rating sort read) include it."""
    headers = buyer(auth, factories, client, book)
    response = client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=5), headers=headers)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["success"] is True
    assert body["review"]["stars"] == 5 and body["review"]["status"] == "published"
    assert body["review"]["reviewer"] == "Asha V."
    assert stored_rating(book.id) == (5.0, 1)

    listing = client.get(f"/api/books/{book.id}/reviews").get_json()
    assert listing["rating"] == 5.0 and listing["ratingCount"] == 1
    assert [r["title"] for r in listing["reviews"]] == ["Clear chapters"]
    assert "email" not in str(listing["reviews"][0]).lower() and "verma" not in str(listing).lower()
    assert listing["pagination"]["totalReviews"] == 1
    shown = client.get(f"/api/books/{book.id}").get_json()["book"]
    assert shown["rating"] == 5.0 and shown["ratingCount"] == 1


def test_the_average_and_count_cover_every_published_review(client, auth, factories, book):
    """Three buyers give 5, 4 and 2 stars: the average is 3.67 of 3 reviews, newest first in the list."""
    for n, stars in enumerate((5, 4, 2)):
        headers = buyer(auth, factories, client, book, email=f"b{n}@example.in")
        assert client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=stars, title=f"R{n}"),
                           headers=headers).status_code == 201
    assert stored_rating(book.id) == (3.67, 3)
    listing = client.get(f"/api/books/{book.id}/reviews?limit=2").get_json()
    assert [r["title"] for r in listing["reviews"]] == ["R2", "R1"]
    assert listing["pagination"] == {"page": 1, "limit": 2, "total": 3, "totalPages": 2, "totalReviews": 3}


def test_a_shopper_who_never_bought_the_book_is_refused(client, auth, book):
    """403 with a clear message, and nothing stored, for a shopper with no order of the book."""
    headers = auth.customer()
    response = client.post(f"/api/books/{book.id}/reviews", json=review_body(), headers=headers)
    assert response.status_code == 403
    assert response.get_json() == {"success": False,
                                   "message": "Only shoppers whose order of this book has been delivered can review it."}
    assert count(Review) == 0 and stored_rating(book.id) == (0.0, 0)
    mine = client.get(f"/api/books/{book.id}/reviews/mine", headers=headers).get_json()
    assert mine["canReview"] is False and mine["review"] is None and "delivered" in mine["reason"]


@pytest.mark.parametrize("status", ["pending", "processing", "shipped", "cancelled"])
def test_a_buyer_whose_order_was_not_delivered_is_refused(client, auth, factories, book, status):
    """An order of the book that is not delivered (yet, or ever) does not let its buyer review it."""
    headers = buyer(auth, factories, client, book, status=status)
    response = client.post(f"/api/books/{book.id}/reviews", json=review_body(), headers=headers)
    assert response.status_code == 403
    assert count(Review) == 0


def test_a_delivered_order_of_another_book_does_not_count(client, auth, factories, book):
    """The delivered order must hold this book."""
    other = factories.book()
    headers = buyer(auth, factories, client, other)
    assert client.post(f"/api/books/{book.id}/reviews", json=review_body(), headers=headers).status_code == 403
    assert count(Review) == 0


def test_a_delivered_kit_makes_its_buyer_a_buyer_of_each_of_its_books(client, auth, factories, book):
    """A delivered order of a kit holding the book (order_line_books) lets its buyer review each of the kit's
    books; a book outside the kit, or the same kit on an order not yet delivered, does not."""
    chemistry, outside = factories.book(title="Chemistry for JEE Main"), factories.book()
    kit = make_kit(client, auth.admin(), [(book, 1), (chemistry, 2)])
    factories.user(email="kit-buyer@example.in")
    headers = auth.login("kit-buyer@example.in", "secret-pass")
    response = client.post("/api/orders", json=kit_order([(as_line(kit), 1)]), headers=headers)
    assert response.status_code == 201, response.get_json()
    order = db.session.scalar(db.select(Order).where(Order.public_id == response.get_json()["order"]["_id"]))
    assert client.get(f"/api/books/{book.id}/reviews/mine", headers=headers).get_json()["canReview"] is False
    order.status = "delivered"
    db.session.commit()

    for each in (book, chemistry):
        mine = client.get(f"/api/books/{each.id}/reviews/mine", headers=headers).get_json()
        assert mine["canReview"] is True and mine["reason"] is None
        assert client.post(f"/api/books/{each.id}/reviews", json=review_body(), headers=headers).status_code == 201
    refused = client.post(f"/api/books/{outside.id}/reviews", json=review_body(), headers=headers)
    assert refused.status_code == 403
    assert count(Review) == 2 and stored_rating(chemistry.id) == (4.0, 1)


def test_a_guest_cannot_review(client, book):
    """401 without a token, nothing stored; the published list stays open to guests."""
    assert client.post(f"/api/books/{book.id}/reviews", json=review_body()).status_code == 401
    assert client.put(f"/api/books/{book.id}/reviews/mine", json=review_body()).status_code == 401
    assert client.get(f"/api/books/{book.id}/reviews/mine").status_code == 401
    assert client.get(f"/api/books/{book.id}/reviews").status_code == 200
    assert count(Review) == 0


def test_one_review_per_buyer_per_book_and_the_author_edits_it(client, auth, factories, book):
    """A second POST is 409 and changes nothing; PUT .../reviews/mine edits the review and the average follows."""
    headers = buyer(auth, factories, client, book)
    assert client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=5), headers=headers).status_code == 201
    again = client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=1), headers=headers)
    assert again.status_code == 409
    assert again.get_json()["message"] == "You have already reviewed this book. Edit your review instead."
    assert count(Review) == 1 and stored_rating(book.id) == (5.0, 1)

    edited = client.put(f"/api/books/{book.id}/reviews/mine", json={"stars": 2}, headers=headers)
    assert edited.status_code == 200, edited.get_json()
    assert edited.get_json()["review"]["stars"] == 2
    assert edited.get_json()["review"]["title"] == "Clear chapters"  # fields left out are kept
    assert stored_rating(book.id) == (2.0, 1)
    mine = client.get(f"/api/books/{book.id}/reviews/mine", headers=headers).get_json()
    assert mine["canReview"] is False and mine["review"]["stars"] == 2


def test_editing_before_writing_is_not_found(client, auth, factories, book):
    """PUT .../reviews/mine before a review exists is 404 and creates nothing."""
    headers = buyer(auth, factories, client, book)
    assert client.put(f"/api/books/{book.id}/reviews/mine", json=review_body(), headers=headers).status_code == 404
    assert count(Review) == 0
    mine = client.get(f"/api/books/{book.id}/reviews/mine", headers=headers).get_json()
    assert mine == {"success": True, "canReview": True, "reason": None, "review": None}


@pytest.mark.parametrize("body, field", [
    ({"stars": 0}, "stars"), ({"stars": 6}, "stars"), ({"stars": 4.5}, "stars"), ({"stars": "5"}, "stars"),
    ({"stars": None}, "stars"), ({}, "stars"), ({"stars": True}, "stars"),
    ({"stars": 4, "title": "t" * 121}, "title"), ({"stars": 4, "text": "x" * 2001}, "text"),
    ({"stars": 4, "text": 12}, "text"),
])
def test_stars_and_text_limits(client, auth, factories, book, body, field):
    """1-5 whole stars, a title up to 120 and a text up to 2,000 characters: otherwise 422 on the field, nothing
    stored, and an edit with the same mistake changes nothing either."""
    headers = buyer(auth, factories, client, book)
    response = client.post(f"/api/books/{book.id}/reviews", json=body, headers=headers)
    assert response.status_code == 422, response.get_json()
    assert field in response.get_json()["errors"]
    assert count(Review) == 0 and stored_rating(book.id) == (0.0, 0)
    assert client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=3), headers=headers).status_code == 201
    if body.get("stars", 4) is not None or field != "stars":
        edit = client.put(f"/api/books/{book.id}/reviews/mine", json=body, headers=headers)
        if body:
            assert edit.status_code == 422
    db.session.expire_all()
    assert db.session.scalar(db.select(Review.stars)) == 3 and stored_rating(book.id) == (3.0, 1)


def test_limits_at_their_edges_are_accepted(client, auth, factories, book):
    """1 star, a 120-character title and 2,000 characters of text are fine; white space is trimmed."""
    headers = buyer(auth, factories, client, book)
    response = client.post(f"/api/books/{book.id}/reviews",
                           json={"stars": 1, "title": "  " + "t" * 120 + " ", "text": "x" * 2000}, headers=headers)
    assert response.status_code == 201
    assert len(db.session.scalar(db.select(Review.title))) == 120


def test_unknown_or_archived_books_are_not_found(client, auth, factories, book):
    """Reviews of a book that does not exist or is archived: 404."""
    headers = buyer(auth, factories, client, book)
    assert client.get("/api/books/999999/reviews").status_code == 404
    assert client.get("/api/books/abc/reviews").status_code == 404
    assert client.post("/api/books/999999/reviews", json=review_body(), headers=headers).status_code == 404
    db.session.get(Book, book.id).archived = True
    db.session.commit()
    assert client.post(f"/api/books/{book.id}/reviews", json=review_body(), headers=headers).status_code == 404
    assert count(Review) == 0


def test_admin_hides_a_review_with_a_reason_audited_and_publishes_it_again(client, auth, factories, book):
    """Hiding takes the review out of the list and the average in the same transaction, with an audit entry;
    publishing it again puts it back. The author still sees their hidden review and can edit it."""
    first = buyer(auth, factories, client, book, email="a@example.in")
    second = buyer(auth, factories, client, book, email="b@example.in")
    client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=5, title="Great"), headers=first)
    client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=1, title="Spam link"), headers=second)
    assert stored_rating(book.id) == (3.0, 2)
    admin = auth.admin()
    listed = client.get("/api/admin/reviews", headers=admin).get_json()
    spam = next(r for r in listed["reviews"] if r["title"] == "Spam link")
    assert spam["reviewerEmail"] == "b@example.in" and spam["book"]["title"] == "Physics for JEE Main"

    hidden = client.put(f"/api/admin/reviews/{spam['_id']}", json={"status": "hidden", "reason": "Advertising"},
                        headers=admin)
    assert hidden.status_code == 200, hidden.get_json()
    assert hidden.get_json()["review"]["status"] == "hidden"
    assert hidden.get_json()["review"]["hiddenReason"] == "Advertising"
    assert stored_rating(book.id) == (5.0, 1)
    public = client.get(f"/api/books/{book.id}/reviews").get_json()
    assert [r["title"] for r in public["reviews"]] == ["Great"] and public["ratingCount"] == 1
    entry = db.session.scalar(db.select(AuditEntry).where(AuditEntry.entity_type == "review"))
    assert entry.action == "review.status" and entry.entity_id == spam["_id"]
    assert entry.before == {"status": "published", "hiddenReason": None}
    assert entry.after == {"status": "hidden", "hiddenReason": "Advertising"}
    assert [r["_id"] for r in client.get("/api/admin/reviews?status=hidden", headers=admin).get_json()["reviews"]] \
        == [spam["_id"]]

    # The author's edit of a hidden review keeps it hidden and out of the average.
    mine = client.put(f"/api/books/{book.id}/reviews/mine", json={"stars": 2}, headers=second).get_json()
    assert mine["review"]["status"] == "hidden" and stored_rating(book.id) == (5.0, 1)

    published = client.put(f"/api/admin/reviews/{spam['_id']}", json={"status": "published"}, headers=admin)
    assert published.status_code == 200
    assert stored_rating(book.id) == (3.5, 2)
    assert count(AuditEntry) == 2


@pytest.mark.parametrize("body", [{"status": "hidden"}, {"status": "hidden", "reason": "   "}, {"status": "gone"},
                                  {}, {"status": "hidden", "reason": "r" * 501}])
def test_moderation_needs_a_known_status_and_a_reason_to_hide(client, auth, factories, book, body):
    """422, and the review, the average and the audit log unchanged."""
    headers = buyer(auth, factories, client, book)
    review_id = client.post(f"/api/books/{book.id}/reviews", json=review_body(), headers=headers).get_json()["review"]["_id"]
    response = client.put(f"/api/admin/reviews/{review_id}", json=body, headers=auth.admin())
    assert response.status_code == 422
    assert db.session.scalar(db.select(Review.status)) == "published"
    assert stored_rating(book.id) == (4.0, 1) and count(AuditEntry) == 0


def test_admin_routes_refuse_guests_and_shoppers(client, auth):
    """The moderation routes sit under /api/admin: 401 for a guest, 403 for a shopper."""
    shopper = auth.customer()
    for method, path in (("GET", "/api/admin/reviews"), ("PUT", "/api/admin/reviews/1")):
        assert client.open(path, method=method, json={"status": "published"}).status_code == 401
        refused = client.open(path, method=method, json={"status": "published"}, headers=shopper)
        assert refused.status_code == 403
        assert refused.get_json()["message"] == "Administrator access required."
    assert client.put("/api/admin/reviews/999", json={"status": "published"}, headers=auth.admin()).status_code == 404


def test_a_new_rating_bumps_the_filter_version(client, auth, factories, book):
    """The book's rating is what the rating filter compares: a review's write bumps the category's filter_version
    (migration 0010's trigger), so a remembered filtered total is never stale."""
    before = db.session.get(Category, book.category_id).filter_version
    headers = buyer(auth, factories, client, book)
    client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=5), headers=headers)
    db.session.expire_all()
    assert db.session.get(Category, book.category_id).filter_version > before
    assert client.get(f"/api/books?rating=4.5&category={book.category.slug}").get_json()["pagination"]["total"] == 1


def test_the_book_page_carries_aggregate_rating(client, auth, factories, book):
    """schema.org AggregateRating in the book page's JSON-LD is the stored average and count of published reviews."""
    for n, stars in enumerate((4, 5)):
        headers = buyer(auth, factories, client, book, email=f"b{n}@example.in")
        client.post(f"/api/books/{book.id}/reviews", json=review_body(stars=stars), headers=headers)
    page = client.get(f"/book/{book.id}").get_data(as_text=True)
    (ld_text,) = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, flags=re.S)
    assert json.loads(ld_text)["aggregateRating"] == {"@type": "AggregateRating", "ratingValue": 4.5,
                                                      "ratingCount": 2}
