"""Coupons (issue 14): each rule, the quote that explains why a code does not apply, the order that
re-checks it (the 409 rule covers the discount), the use taken once under a race and given back on
cancel, and the admin's list with usage counts."""
import threading
from datetime import timedelta

import pytest

from bookstore.extensions import db
from bookstore.models import Coupon, CouponUse, utcnow
from tests.factories import ADDRESS, order_payload, place, placed
from tests.helpers import assert_refused, order_row

SHIPPING = 40


@pytest.fixture
def admin(auth):
    return auth.admin()


@pytest.fixture
def books(factories):
    """Two GATE books (₹500 and ₹300) and one NEET book (₹200)."""
    return (factories.book(title="GATE Maths", price_paise=50000, stock=50, category="gate"),
            factories.book(title="GATE Physics", price_paise=30000, stock=50, category="gate"),
            factories.book(title="NEET Biology", price_paise=20000, stock=50, category="pmt"))


def make(client, admin, **rules) -> dict:
    response = client.post("/api/admin/coupons", json={"kind": "percent", "value": 10, **rules}, headers=admin)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["coupon"]


def quote(client, lines, code=None, **who) -> dict:
    payload = {"orderItems": [{"book": str(book.id), "quantity": qty} for book, qty in lines], **who}
    if code is not None:
        payload["couponCode"] = code
    response = client.post("/api/cart/quote", json=payload)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_percentage_coupon_is_quoted_and_charged(client, admin, books):
    """10% off ₹800 of books: the quote and the order both take ₹80 off the books, not the shipping; the
    order, its reply and the admin CSV carry the code and the discount."""
    make(client, admin, code="exam10")
    gate, physics, _neet = books
    figures = quote(client, [(gate, 1), (physics, 1)], "EXAM10")
    assert (figures["itemsPrice"], figures["discount"], figures["shippingPrice"], figures["totalPrice"]) == \
        (800, 80, SHIPPING, 760)
    assert figures["coupon"] == {"code": "EXAM10", "applied": True, "discount": 80, "reason": None}
    response = place(client, [(gate, 1), (physics, 1)], couponCode=" exam10 ", totalPrice=760)
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert (order["discount"], order["couponCode"], order["totalPrice"]) == (80, "EXAM10", 760)
    row = order_row(order["_id"])
    assert (row.items_paise, row.discount_paise, row.total_paise) == (80000, 8000, 76000)
    assert Coupon.query.one().uses == 1 and CouponUse.query.one().discount_paise == 8000


@pytest.mark.parametrize("rules, reason", [
    ({"active": False}, "This coupon code is not valid."),
    ({"minOrder": 1000}, "This coupon needs books worth at least ₹1,000."),
    ({"category": "pmt"}, None),  # applies to the NEET book only: checked below
    ({"maxUses": 1}, None),
])
def test_each_rule_is_explained_by_the_quote(client, admin, books, rules, reason):
    """An inactive code, a minimum order, a category restriction and a use limit each show in the quote."""
    make(client, admin, code="RULES", **rules)
    gate, physics, neet = books
    figures = quote(client, [(gate, 1), (neet, 1)], "RULES")
    if reason:
        assert figures["coupon"]["applied"] is False and figures["coupon"]["reason"] == reason
        assert figures["discount"] == 0 and figures["totalPrice"] == 700 + SHIPPING
    elif "category" in rules:
        assert figures["discount"] == 20  # 10% of the ₹200 NEET book only
    else:
        assert placed(client, [(gate, 1)], couponCode="RULES", totalPrice=450 + SHIPPING)
        assert quote(client, [(gate, 1)], "RULES")["coupon"]["reason"] == "This coupon has been used up."


def test_unknown_expired_and_future_codes(client, admin, books):
    """Unknown, expired and not-yet-valid codes are quoted with their own reason and take nothing off."""
    gate = books[0]
    make(client, admin, code="OLD", validTo=(utcnow() - timedelta(days=1)).isoformat())
    make(client, admin, code="SOON", validFrom=(utcnow() + timedelta(days=1)).isoformat())
    assert quote(client, [(gate, 1)], "NOPE")["coupon"]["reason"] == "This coupon code is not valid."
    assert quote(client, [(gate, 1)], "OLD")["coupon"]["reason"] == "This coupon has expired."
    assert quote(client, [(gate, 1)], "SOON")["coupon"]["reason"] == "This coupon is not valid yet."


def test_a_flat_coupon_never_exceeds_the_books(client, admin, books):
    """A flat coupon takes off at most the price of the books, never the shipping."""
    make(client, admin, code="FLAT600", kind="flat", value=600, maxUsesPerCustomer=None)
    assert quote(client, [(books[2], 1)], "FLAT600")["discount"] == 200  # ₹200 of books, not ₹600
    assert quote(client, [(books[0], 2)], "FLAT600")["discount"] == 600


def test_one_use_per_customer_counts_email_and_phone(client, admin, books):
    """A guest who used a once-per-customer code cannot use it again by changing the e-mail or the phone."""
    make(client, admin, code="ONCE")
    gate = books[0]
    assert place(client, [(gate, 1)], couponCode="ONCE", totalPrice=490).status_code == 201
    for contact in ({**ADDRESS, "email": "other@example.in"}, {**ADDRESS, "phone": "9123456780"}):
        figures = quote(client, [(gate, 1)], "ONCE", email=contact["email"], phone=contact["phone"])
        assert figures["coupon"]["reason"] == "You have already used this coupon."
        response = place(client, [(gate, 1)], couponCode="ONCE", totalPrice=490, shippingAddress=contact)
        assert_refused(response, 409)
        assert response.get_json()["current"]["coupon"]["reason"] == "You have already used this coupon."
    assert Coupon.query.one().uses == 1


def test_first_order_only(client, admin, books):
    """A first-order-only coupon applies until the buyer's address or phone has placed an order."""
    make(client, admin, code="WELCOME", firstOrderOnly=True)
    gate = books[0]
    assert quote(client, [(gate, 1)], "WELCOME", email=ADDRESS["email"])["coupon"]["applied"] is True
    placed(client, [(gate, 1)])
    figures = quote(client, [(gate, 1)], "WELCOME", email=ADDRESS["email"], phone=ADDRESS["phone"])
    assert figures["coupon"]["reason"] == "This coupon is for a first order only."


def test_a_code_switched_off_between_quote_and_order_is_409(client, admin, books):
    """The order re-checks the code: switched off meanwhile, the discounted total is refused with the
    current figures and the reason; nothing is written."""
    coupon = make(client, admin, code="GONE")
    gate = books[0]
    assert quote(client, [(gate, 1)], "GONE")["totalPrice"] == 490
    assert client.put(f"/api/admin/coupons/{coupon['_id']}", json={"active": False}, headers=admin).status_code == 200
    response = place(client, [(gate, 1)], couponCode="GONE", totalPrice=490)
    body_ = assert_refused(response, 409)
    assert body_["current"]["totalPrice"] == 540 and body_["current"]["coupon"]["applied"] is False
    assert CouponUse.query.count() == 0 and books[0].stock == 50


def test_cancelling_gives_the_use_back(client, admin, auth, books):
    """A cancelled order's use is released once; the code can be used again."""
    make(client, admin, code="BACK", maxUses=1)
    owner = auth.customer()
    order = placed(client, [(books[0], 1)], couponCode="BACK", totalPrice=490, headers=owner)
    assert Coupon.query.one().uses == 1
    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 200
    db.session.expire_all()
    assert Coupon.query.one().uses == 0 and CouponUse.query.one().released_at is not None
    assert quote(client, [(books[0], 1)], "BACK")["coupon"]["applied"] is True


def test_the_last_use_is_taken_once(app, client, admin, books):
    """Eight shoppers race for a code with one use left: one order gets the discount, the others 409."""
    make(client, admin, code="LAST", maxUses=1, maxUsesPerCustomer=None)
    gate = books[0]
    results, barrier = [], threading.Barrier(8)

    payloads = [order_payload([(gate, 1)], couponCode="LAST", totalPrice=490,
                     shippingAddress={**ADDRESS, "email": f"racer{n}@example.in", "phone": f"91234567{n:02d}"})
                for n in range(8)]

    def shopper(n):
        own = app.test_client()
        barrier.wait()
        try:
            results.append(own.post("/api/orders", json=payloads[n]).status_code)
        except Exception as error:  # noqa: BLE001 - shown in the assertion
            results.append(repr(error))

    threads = [threading.Thread(target=shopper, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [201] + [409] * 7
    db.session.expire_all()
    assert Coupon.query.one().uses == 1 and CouponUse.query.count() == 1


def test_admin_lists_coupons_with_usage_and_validates(client, admin, books):
    """Administrators list coupons with their uses; invalid new coupons are 422 on the bad field and a code
    taken in any letter case is 409."""
    make(client, admin, code="LISTED")
    placed(client, [(books[0], 1)], couponCode="LISTED", totalPrice=490)
    listed = client.get("/api/admin/coupons", headers=admin).get_json()["coupons"]
    assert [(c["code"], c["uses"], c["value"], c["kind"]) for c in listed] == [("LISTED", 1, 10, "percent")]
    for bad, field in (({"code": "a"}, "code"), ({"value": 95}, "value"), ({"kind": "bogo"}, "kind"),
                       ({"kind": "flat", "value": 0}, "value")):
        response = client.post("/api/admin/coupons", json={"code": "BAD1", "kind": "percent", "value": 10, **bad},
                               headers=admin)
        assert response.status_code == 422 and field in response.get_json()["errors"]
    assert client.post("/api/admin/coupons", json={"code": "listed", "kind": "percent", "value": 5},
                       headers=admin).status_code == 409


def test_the_dashboard_shows_discounts_given(client, admin, books):
    """Discounts of orders that were not cancelled are summed for the admin."""
    make(client, admin, code="DASH", maxUsesPerCustomer=None)
    placed(client, [(books[0], 1)], couponCode="DASH", totalPrice=490)
    placed(client, [(books[1], 1)], couponCode="DASH", totalPrice=310,
           shippingAddress={**ADDRESS, "email": "b@example.in", "phone": "9000000002"})
    stats = client.get("/api/admin/dashboard/stats", headers=admin).get_json()
    assert stats["discountsGiven"] == 80


def test_a_category_coupon_is_created_and_a_code_clash_on_change_is_409(client, admin, books):
    """Creating with a category and renaming a code onto another's answer 201 and 409, never 500."""
    make(client, admin, code="TAKEN")
    other = make(client, admin, code="OTHER", category="pmt")
    assert other["category"] == "pmt"
    response = client.put(f"/api/admin/coupons/{other['_id']}", json={"code": "taken", "category": "gate"},
                          headers=admin)
    assert response.status_code == 409 and response.get_json()["success"] is False
    assert {c["code"] for c in client.get("/api/admin/coupons", headers=admin).get_json()["coupons"]} == \
        {"TAKEN", "OTHER"}


def test_coupon_dates_sent_in_india_time_are_kept_as_the_same_instant(client, admin, books):
    """A validity date sent with a +05:30 offset is stored and answered as the same instant in UTC."""
    coupon = make(client, admin, code="IST", validFrom="2026-12-01T10:00:00+05:30",
                  validTo="2026-12-31T23:59:00+05:30")
    assert coupon["validFrom"].startswith("2026-12-01T04:30:00")
    assert coupon["validTo"].startswith("2026-12-31T18:29:00")
    db.session.expire_all()
    stored = Coupon.query.one()
    assert stored.valid_from.replace(tzinfo=None).isoformat() == "2026-12-01T04:30:00"


@pytest.mark.parametrize("change, field", [
    ({"value": 500}, "value"),                                  # a percent coupon's stored kind
    ({"kind": "flat"}, "value"),                                # 10 as a flat amount is 10 paise
    ({"validTo": "2026-11-30T00:00:00+00:00"}, "validTo"),      # before the stored start
    ({"validFrom": "2027-02-01T00:00:00+00:00"}, "validTo"),    # after the stored end
])
def test_a_partial_change_is_checked_against_the_stored_rules(client, admin, books, change, field):
    """A PUT of some fields is checked together with the coupon's stored ones: 422 on the field, nothing kept."""
    coupon = make(client, admin, code="WHOLE", validFrom="2026-12-01T00:00:00+00:00",
                  validTo="2027-01-31T00:00:00+00:00")
    response = client.put(f"/api/admin/coupons/{coupon['_id']}", json=change, headers=admin)
    assert response.status_code == 422, response.get_json()
    assert field in response.get_json()["errors"]
    db.session.expire_all()
    stored = Coupon.query.one()
    assert (stored.kind, stored.value, stored.valid_from.replace(tzinfo=None).isoformat(),
            stored.valid_to.replace(tzinfo=None).isoformat()) == \
        ("percent", 10, "2026-12-01T00:00:00", "2027-01-31T00:00:00")
