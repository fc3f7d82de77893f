"""Buyers' reviews in a real browser (issue 15): a shopper whose order was delivered writes a review on the book
page and sees it with the average; the admin hides it with a reason on /admin/reviews and it leaves the book page.

Headless Chromium against gunicorn on the test database, at desktop (1280 px) and phone (360 px) widths. The
shopper's order goes through the HTTP API; its delivery is set in the database (the admin's order screens have
their own tests).
"""
import json

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import AuditEntry, Book, Order, Review
from tests.e2e.admin_support import (ADMIN_EMAIL, ADMIN_PASSWORD, SHOPPER_PASSWORD, api, page_factory,  # noqa: F401
                                     server, sign_in)
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll

SHOPPER_EMAIL = "reader@example.in"


@pytest.fixture(params=[1280, 360], ids=["desktop", "phone"])
def width(request):
    return request.param


def open_page(page_factory, width):
    return page_factory(width, 900 if width > 400 else 740)


def sign_in_shopper(page, server, token: str, user: dict) -> None:
    """Keep the shopper's session the way the client does, on the shop's origin."""
    page.goto(server.base_url + "/about")
    page.evaluate("""([token, user]) => {
        localStorage.setItem("token", token);
        localStorage.setItem("user", user);
    }""", [token, json.dumps(user)])


def test_a_delivered_buyer_reviews_and_the_admin_hides_it(page_factory, width, server, factories, api):
    """The form appears for a delivered buyer; the published review shows with the book's new average; the admin
    hides it with a reason, which takes it off the book page and out of the stored average, audited."""
    factories.user(email=ADMIN_EMAIL, password=ADMIN_PASSWORD, role="admin", first_name="Meena")
    factories.user(email=SHOPPER_EMAIL, password=SHOPPER_PASSWORD, first_name="Kiran", last_name="Rao")
    book = factories.book(title="Organic Chemistry for NEET", price_paise=45000, stock=5)
    status, reply = api.call("POST", "/api/auth/login", {"email": SHOPPER_EMAIL, "password": SHOPPER_PASSWORD})
    assert status == 200
    order = api.place_cod_order(reply["token"], [(api.book(book.id), 1)], email=SHOPPER_EMAIL)
    db.session.scalar(select(Order).where(Order.public_id == order["_id"])).status = "delivered"
    db.session.commit()

    page = open_page(page_factory, width)
    sign_in_shopper(page, server, reply["token"], reply["user"])
    page.goto(f"{server.base_url}/book/{book.id}")
    reviews = page.get_by_role("region", name="What buyers say")
    expect(reviews.get_by_text("No reviews yet.")).to_be_visible()
    reviews.get_by_role("button", name="Write a review").click()
    reviews.get_by_label("4 stars").check()
    reviews.get_by_label("Title (optional)").fill("Every reaction explained")
    reviews.get_by_label("Your review (optional)").fill("Clear mechanisms and plenty of NEET questions.")
    reviews.get_by_role("button", name="Submit review").click()
    expect(reviews.get_by_text("Thank you for your review.")).to_be_visible()
    expect(reviews.locator(".review")).to_have_count(1)
    expect(reviews.locator(".review")).to_contain_text("Every reaction explained")
    expect(reviews.locator(".review")).to_contain_text("Kiran R.")
    expect(reviews.get_by_role("img", name="4 out of 5 stars").first).to_be_visible()
    expect(reviews.locator(".reviews__summary")).to_have_text("★★★★☆Rated 4.0 out of 5 (1 rating)")
    expect(reviews.get_by_role("button", name="Edit your review")).to_be_visible()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)
    db.session.commit()
    assert db.session.get(Book, book.id).rating_count == 1

    admin = open_page(page_factory, width)
    sign_in(admin, server, path="/admin/reviews")
    admin.wait_for_url(server.base_url + "/admin/reviews")
    expect(admin.get_by_role("heading", level=1, name="Reviews")).to_be_visible()
    review_id = str(db.session.scalar(select(Review.id)))
    row = admin.locator(f'[data-review-id="{review_id}"]')
    expect(row).to_contain_text("Organic Chemistry for NEET")
    assert_no_axe_violations(admin)
    row.get_by_role("button", name="Hide the review by Kiran R. of Organic Chemistry for NEET").click()
    dialog = admin.get_by_role("dialog", name="Hide the review by Kiran R.")
    dialog.get_by_label("Reason").fill("Names a coaching centre")
    assert_no_axe_violations(admin)
    dialog.get_by_role("button", name="Hide review").click()
    expect(admin.get_by_text("Review hidden.")).to_be_visible()
    expect(row).to_contain_text("Hidden")
    expect(row.get_by_role("button", name="Publish the review by Kiran R. of Organic Chemistry for NEET")).to_be_visible()
    assert_no_horizontal_scroll(admin)
    assert admin.errors == [] and page.errors == []

    db.session.commit()
    assert db.session.scalar(select(Review.status)) == "hidden"
    stored = db.session.get(Book, book.id)
    assert (stored.rating, stored.rating_count) == (0.0, 0)
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.entity_type == "review"))
    assert entry.after == {"status": "hidden", "hiddenReason": "Names a coaching centre"}

    page.goto(f"{server.base_url}/book/{book.id}")
    expect(reviews.get_by_text("No reviews yet.")).to_be_visible()
    expect(reviews.locator(".review")).to_have_count(0)
    expect(reviews.get_by_text("(hidden by the shop)")).to_be_visible()
