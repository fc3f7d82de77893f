"""Kit journeys (issue 15): an exam's page lists its kit; the kit page shows its books, their sum, the kit
price and the saving; Add to Cart puts the kit in the cart as one line, at desktop and phone sizes."""
import re
import secrets

import pytest
from playwright.sync_api import expect

from bookstore.extensions import db
from bookstore.models import Exam, Kit, KitBook
from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll


@pytest.fixture
def kit(shop):
    """A GATE Mechanical kit of two books (₹499 and 2 × ₹300 = ₹1,099) sold at ₹899: it saves ₹200."""
    word = "Kit" + secrets.token_hex(3)
    first = shop.book(title=f"{word} Thermodynamics", price_paise=49900, stock=10)
    second = shop.book(title=f"{word} Fluid Mechanics", price_paise=30000, stock=10)

    def make():
        exam = db.session.scalar(db.select(Exam).where(Exam.slug == "gate-me"))
        made = Kit(name=f"{word} GATE ME set", slug=f"{word.lower()}-gate-me-set", description="Two books for GATE ME.",
                   price_paise=89900, archived=False, exam_id=exam.id,
                   items=[KitBook(book_id=first["id"], quantity=1, position=0),
                          KitBook(book_id=second["id"], quantity=2, position=1)])
        db.session.add(made)
        db.session.commit()
        return {"id": made.id, "name": made.name, "slug": made.slug}

    made = shop._run(make)
    yield made
    shop._run(lambda: (db.session.execute(db.update(Kit).where(Kit.id == made["id"]).values(archived=True)),
                       db.session.commit()))


def journey(page, kit: dict) -> None:
    page.goto("/exam/gate-me")
    kits = page.get_by_role("region", name="GATE ME kits")
    kits.get_by_role("link", name=kit["name"]).click()
    expect(page).to_have_url(re.compile(f"/kit/{kit['slug']}$"))
    expect(page.get_by_role("heading", name=kit["name"], level=1)).to_be_visible()
    books = page.get_by_role("region", name="Books in this kit")
    expect(books.get_by_role("listitem")).to_have_count(2)
    expect(books.get_by_text("2 × ₹300")).to_be_visible()
    expect(page.get_by_text("₹1,099")).to_be_visible()
    expect(page.get_by_text("Save ₹200")).to_be_visible()
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)

    page.get_by_role("button", name="Add to Cart").click()
    expect(page.get_by_text("Added to your cart.")).to_be_visible()
    page.get_by_role("link", name="View cart").click()
    expect(page).to_have_url(re.compile(r"/cart$"))
    line = page.locator(".cart-line")
    expect(line).to_have_count(1)
    expect(line.get_by_role("link", name=kit["name"])).to_be_visible()
    expect(line.get_by_text("Kit of 3 books")).to_be_visible()
    expect(page.locator(".order-summary")).to_contain_text("₹899")
    assert_no_axe_violations(page)
    assert_no_horizontal_scroll(page)


def test_a_kit_from_its_exam_to_the_cart_on_a_desktop(page, kit):
    """At 1280 px: the exam lists the kit; its page shows the saving; the cart holds it as one line."""
    journey(page, kit)


def test_a_kit_from_its_exam_to_the_cart_on_a_phone(phone_page, kit):
    """At 360 px the same journey works without sideways scrolling."""
    journey(phone_page, kit)
