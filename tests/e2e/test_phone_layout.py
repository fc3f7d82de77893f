"""Every shopper page on a 360×740 phone (issue 16): the header is one row (menu, brand, search and cart
side by side) and nothing is wider than the screen. The header once wrapped its cart onto a second row
in a wide fallback font (DejaVu Sans, Debian's Chromium without Inter or Roboto), 112 px tall instead of 60."""
import pytest
from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.models import Exam
from tests.e2e.support.checkout import put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import sign_in

# The header's row: 3.75rem high at most, plus a pixel of rounding.
HEADER_MAX_HEIGHT = 61


def assert_header_is_one_row(page) -> None:
    """The menu button, the brand, the search button and the cart share one row of one header height."""
    header = page.get_by_role("banner")
    parts = {
        "menu": header.get_by_role("button", name="Menu"),
        "brand": header.get_by_role("link", name="Bookstore"),
        "search": header.get_by_role("button", name="Show search"),
        "cart": header.get_by_role("link", name="Cart,"),
    }
    boxes = {}
    for name, locator in parts.items():
        expect(locator).to_be_visible()
        boxes[name] = locator.bounding_box()
    middles = {name: round(box["y"] + box["height"] / 2) for name, box in boxes.items()}
    assert max(middles.values()) - min(middles.values()) <= 2, f"header parts on different rows on {page.url}: {middles}"
    order = sorted(boxes, key=lambda name: boxes[name]["x"])
    assert order == ["menu", "brand", "search", "cart"], f"header parts out of order on {page.url}: {order}"
    height = header.bounding_box()["height"]
    assert height <= HEADER_MAX_HEIGHT, f"header is {height} px tall on {page.url} (one row is 60)"


@pytest.fixture
def exam_slug(shop):
    """An exam with a book on its shelf, so its page shows a grid of covers (off the shelf again after)."""
    with shop.app.app_context():
        try:
            exam = db.session.scalar(db.select(Exam).where(Exam.slug == "clat"))
            book_id = shop.factories.book(title="Legal Reasoning for CLAT: 40 Mock Tests with Detailed Solutions",
                                          exams=[exam], category="other-competitive").id
            slug = exam.slug
        finally:
            db.session.rollback()
            db.session.remove()
    yield slug
    shop.set_book(book_id, archived=True)


def test_every_shopper_page_has_a_one_row_header_and_no_sideways_scroll_on_a_phone(phone_page, shop, exam_slug):
    page = phone_page
    book = shop.book(title="Concepts of Physics Volume 1 with Fully Worked Out Examples (Revised 2026 Edition)",
                     category="gate", stock=5)
    put_in_cart(page, book)
    pages = ["/", "/books", f"/book/{book['_id']}", f"/exam/{exam_slug}", "/exams", "/cart", "/checkout", "/login"]
    for address in pages:
        page.goto(address)
        expect(page.get_by_role("heading", level=1).first).to_be_visible()
        expect(page.get_by_role("heading", name="Something went wrong")).to_have_count(0)
        assert_header_is_one_row(page)
        assert_no_horizontal_scroll(page)
    sign_in(page, shop.shopper())
    page.goto("/orders")
    expect(page.get_by_role("heading", name="My Orders", level=1)).to_be_visible()
    assert_header_is_one_row(page)
    assert_no_horizontal_scroll(page)
