"""The admin's coupon list and editor in a real browser (issue 14): create, the server's refusals (a clash of
codes, a bad discount) on the form, change, and the use count after an order takes the coupon; the dashboard's
discounts given.

Headless Chromium against gunicorn on the test database, at desktop (1280 px) and phone (360 px) widths. The
shopper's order goes through the HTTP API.
"""
import re
from datetime import datetime, timezone

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import Coupon, Order
from tests.e2e.admin_support import (ADMIN_EMAIL, ADMIN_PASSWORD, SHOPPER_PASSWORD, admin, admin_page,  # noqa: F401
                                     api, page_factory, server, sign_in)
from tests.e2e.support.axe import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll

LIST = "/admin/coupons"


def coupons() -> list[Coupon]:
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    return list(db.session.scalars(select(Coupon)))


def row(page, code: str):
    return page.locator(f'[data-coupon="{code}"]')


def field_error(page, name: str):
    return page.locator(f"#field-coupon-{name} .adm-field__error")


def test_admin_creates_edits_and_counts_a_coupon(admin_page, server, admin, factories, api):
    """A new coupon is refused with the server's words (a 95% discount: 422; a code that exists in another case:
    409) beside the field and nothing stored; created and changed coupons show in the list with their rules, and
    an order placed with the code counts one use there, in the editor and in the dashboard's discounts given; the
    end date typed in India time is stored as its UTC instant."""
    page = admin_page
    book = factories.book(title="Coupon Companion", price_paise=50000, stock=5)
    sign_in(page, server, path=LIST)
    page.wait_for_url(server.base_url + LIST)
    expect(page.get_by_role("heading", level=1, name="Coupons")).to_be_visible()
    expect(page.get_by_text("No coupons yet")).to_be_visible()
    assert_no_axe_violations(page)

    page.get_by_role("link", name="+ New coupon").click()
    page.wait_for_url(server.base_url + "/admin/coupons/new")
    page.get_by_role("textbox", name="Code", exact=True).fill("exam10")
    page.get_by_label("Discount (%)").fill("95")
    page.get_by_label("Minimum order (₹)").fill("300")
    page.get_by_label("Total uses").fill("5")
    page.get_by_role("button", name="Create coupon").click()
    expect(field_error(page, "value")).to_have_text("A percentage must be a whole number from 1 to 90.")
    expect(page.get_by_label("Discount (%)")).to_have_attribute("aria-invalid", "true")
    assert coupons() == []
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)

    page.get_by_label("Discount (%)").fill("10")
    page.get_by_role("button", name="Create coupon").click()
    page.wait_for_url(server.base_url + LIST)
    expect(page.get_by_role("status").filter(has_text="Coupon created.")).to_contain_text("Coupon created. EXAM10")
    created = row(page, "EXAM10")
    expect(created).to_contain_text("10% off")
    expect(created).to_contain_text("Min. order ₹300.00")
    expect(created).to_contain_text("0 / 5")
    expect(created).to_contain_text("Active")
    [stored] = coupons()
    assert (stored.code, stored.kind, stored.value, stored.min_order_paise, stored.max_uses, stored.uses) == (
        "EXAM10", "percent", 10, 30000, 5, 0)

    # The same code in another case: the server's 409, on the code field.
    page.get_by_role("link", name="+ New coupon").click()
    page.get_by_role("textbox", name="Code", exact=True).fill("Exam10")
    page.get_by_label("Discount type").select_option("flat")
    page.get_by_label("Discount (₹)").fill("50")
    page.get_by_role("button", name="Create coupon").click()
    expect(field_error(page, "code")).to_have_text("A coupon with this code exists already.")
    expect(page.get_by_role("textbox", name="Code", exact=True)).to_have_attribute("aria-invalid", "true")
    assert len(coupons()) == 1
    assert_no_axe_violations(page)
    page.get_by_role("link", name="Cancel").click()

    page.wait_for_url(server.base_url + LIST)
    row(page, "EXAM10").get_by_role("link", name="Edit coupon EXAM10").click()
    page.wait_for_url(re.compile(r"/admin/coupons/edit/\w+$"))
    expect(page.get_by_role("textbox", name="Code", exact=True)).to_have_value("EXAM10")
    expect(page.get_by_label("Minimum order (₹)")).to_have_value("300")
    page.get_by_label("Discount (%)").fill("15")
    page.get_by_label("Total uses").fill("10")
    page.get_by_label("Valid until").fill("2026-12-31T23:59")  # India time
    page.get_by_role("button", name="Save coupon").click()
    page.wait_for_url(server.base_url + LIST)
    expect(page.get_by_role("status").filter(has_text="Coupon saved.")).to_contain_text("Coupon saved. EXAM10")
    expect(row(page, "EXAM10")).to_contain_text("15% off")
    expect(row(page, "EXAM10")).to_contain_text("0 / 10")
    expect(row(page, "EXAM10")).to_contain_text("Until 31 Dec 2026, 11:59 pm")
    [stored] = coupons()
    assert (stored.value, stored.max_uses, stored.min_order_paise) == (15, 10, 30000)
    ends = stored.valid_to  # SQLite gives it back naive (UTC), PostgreSQL aware
    assert (ends.astimezone(timezone.utc).replace(tzinfo=None) if ends.tzinfo else ends) == datetime(2026, 12, 31, 18, 29)
    assert stored.valid_from is None

    # A shopper orders with the code (₹500 book, 15% off, ₹40 shipping).
    status, reply = api.call("POST", "/api/orders", {
        "orderItems": [{"book": str(book.id), "quantity": 1}], "couponCode": "exam10", "paymentMethod": "cod",
        "totalPrice": 465, "shippingAddress": {"firstName": "Kiran", "lastName": "Rao", "email": "kiran@example.in",
                                               "phone": "9876543210", "address": "12 FC Road", "city": "Pune",
                                               "state": "Maharashtra", "zipCode": "411004"}})
    assert status == 201, reply
    assert (reply["order"]["couponCode"], reply["order"]["discount"]) == ("EXAM10", 75)
    page.reload()
    expect(row(page, "EXAM10")).to_contain_text("1 / 10")
    expect(page.get_by_text("1 coupon · 1 use in all")).to_be_visible()
    assert coupons()[0].uses == 1
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)

    row(page, "EXAM10").get_by_role("link", name="Edit coupon EXAM10").click()
    expect(page.locator("[data-coupon-uses]")).to_have_text("1 / 10")

    page.goto(server.base_url + "/admin")
    expect(page.locator('[data-stat="Discounts Given"]')).to_have_text("₹75.00")
    order = db.session.scalar(select(Order).where(Order.public_id == reply["order"]["_id"]))
    assert order.discount_paise == 7500


def test_coupon_list_searches_filters_and_pages_in_the_url(page_factory, server, admin):
    """Search by code and the status filter live in the address (shareable, Back works); 10 coupons a page."""
    page = page_factory()
    sign_in(page, server)
    page.wait_for_url(server.base_url + "/admin")
    token = page.evaluate("localStorage.getItem('adminToken')")
    for number in range(12):
        response = page.request.post(server.base_url + "/api/admin/coupons", headers={"Authorization": f"Bearer {token}"},
                                     data={"code": f"SALE{number:02d}", "kind": "flat", "value": 20 + number,
                                           "active": number != 3})
        assert response.status == 201, response.text()
    page.goto(server.base_url + LIST)
    expect(page.get_by_text("12 coupons · 0 uses in all")).to_be_visible()
    expect(page.locator("[data-coupon]")).to_have_count(10)
    expect(page.locator("[data-coupon]").first).to_have_attribute("data-coupon", "SALE11")  # newest first
    page.get_by_role("button", name="Next").click()
    expect(page).to_have_url(re.compile(r"/admin/coupons\?page=2$"))
    expect(page.locator("[data-coupon]")).to_have_count(2)
    expect(page.get_by_text("Page 2 of 2")).to_be_visible()

    page.get_by_label("Search").fill("sale0")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page).to_have_url(re.compile(r"/admin/coupons\?search=sale0$"))
    expect(page.locator("[data-coupon]")).to_have_count(10)
    page.get_by_label("Status").select_option("off")
    expect(page).to_have_url(re.compile(r"search=sale0&state=off$"))
    expect(page.locator("[data-coupon]")).to_have_count(1)
    expect(row(page, "SALE03")).to_contain_text("Off")

    page.get_by_label("Search").fill("NOSUCH")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.get_by_text("No coupons found")).to_be_visible()
    page.go_back()
    expect(row(page, "SALE03")).to_be_visible()
    expect(page.get_by_label("Search")).to_have_value("sale0")
    page.get_by_role("button", name="Clear").click()
    expect(page).to_have_url(re.compile(r"/admin/coupons$"))
    expect(page.locator("[data-coupon]")).to_have_count(10)
    assert page.errors == []
