"""After the order (issue 17): the success page says what was ordered, where it goes, how it is paid and when it
arrives; the e-mailed link opens the order without an account, cancels it within the hour, and downloads the bill
of supply once the order is delivered."""
import itertools
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.checkout import fill_shipping, put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.mailbox import link_in, wait_for_mail

_serial = itertools.count(1)


def contact() -> tuple[str, str]:
    """An e-mail and phone of this test's own, so no other test's orders count against its limits."""
    n = next(_serial)
    return f"guest-bill-{n}-{id(_serial) % 10000}@example.in", f"97{(id(_serial) + n) % 10 ** 8:08d}"


@pytest.mark.parametrize("screen", ["page", "phone_page"])
def test_guest_checkout_success_page_and_the_order_link(request, screen, shop, smtp):
    """A guest's success page lists the books, the address, the payment and the promised dates; the link in
    the order e-mail opens the order with no sign-in, and the guest cancels it there within the hour."""
    page = request.getfixturevalue(screen)
    book = shop.book(title="Guest Link Handbook", price_paise=32000, stock=4)
    email, phone = contact()
    put_in_cart(page, book)
    page.goto("/checkout")
    fill_shipping(page, **{"First Name": "अनीता", "Email": email, "Phone": phone, "GSTIN": "29AAACB1234C1ZV"})
    page.get_by_role("radio", name="Cash on Delivery").check()
    before = len(smtp.messages)
    page.get_by_role("button", name="Place Order").click()

    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    summary = page.get_by_role("region", name="Your order")
    expect(summary.get_by_role("list", name="Books in this order")).to_contain_text("Guest Link Handbook")
    expect(summary).to_contain_text("12 Lake View Road, Flat 4B")
    expect(summary).to_contain_text("Bengaluru, Karnataka 560001")
    expect(summary).to_contain_text("Cash on Delivery")
    expect(summary).to_contain_text("₹360.00")
    expect(page.locator(".order-success__head")).to_contain_text(re.compile(r"Arriving (on|between) \w{3}, \d{1,2} \w{3}"))
    expect(page.get_by_role("link", name="View this order")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    number = page.locator("dt:text-is('Order Number') + dd").inner_text()
    order = shop.order(number)
    assert order.buyer_gstin == "29AAACB1234C1ZV" and order.first_name == "अनीता"

    mail = wait_for_mail(page, smtp, email, "placed", after=before)
    assert mail.get_body(("html",)) is not None and "Bookstore" in mail.get_body(("plain",)).get_content()
    page.context.clear_cookies()
    page.goto(link_in(mail, f"/orders/{order.public_id}"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Order {number}")
    expect(page.get_by_role("list", name="Books in this order")).to_contain_text("Guest Link Handbook")
    expect(page.get_by_role("link", name=re.compile("Download Bill"))).to_have_count(0)  # not paid yet
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Cancel Order").click()
    page.get_by_role("button", name="Yes, Cancel It").click()
    expect(page.get_by_text(f"Order {number} has been cancelled.")).to_be_visible()
    assert shop.order(number).status == "cancelled"

    page.goto(f"/orders/{order.public_id}?token=forged.1.abc")
    expect(page.get_by_role("alert")).to_contain_text("This order link is not valid.")


@pytest.mark.parametrize("screen", ["page", "phone_page"])
def test_bill_of_supply_downloads_from_the_guest_order_page(request, screen, shop, smtp):
    """Once delivered, the delivered mail carries the bill as a PDF, and the guest order page's Download Bill
    button gives the same PDF (application/pdf)."""
    page = request.getfixturevalue(screen)
    book = shop.book(title="Bill Download Atlas", price_paise=45000, stock=4)
    admin = shop.admin()
    email, phone = contact()
    address = {"firstName": "Ravi", "lastName": "Kumar", "email": email, "phone": phone,
               "address": "7 Residency Road", "city": "Bangalore", "state": "Karnataka", "zipCode": "560025"}
    placed = page.request.post("/api/orders", data={"orderItems": [{"book": book["_id"], "quantity": 1}],
                                                    "shippingAddress": address, "paymentMethod": "cod",
                                                    "totalPrice": 490})
    assert placed.status == 201, placed.text()
    order = placed.json()["order"]
    token = page.request.post("/api/auth/login", data={"email": admin["email"], "password": admin["password"]}).json()["token"]
    before = len(smtp.messages)
    for status in ("processing", "shipped", "delivered"):
        moved = page.request.put(f"/api/admin/orders/{order['_id']}/status", data={"status": status},
                                 headers={"Authorization": f"Bearer {token}"})
        assert moved.status == 200, moved.text()
    delivered = moved.json()["order"]
    assert re.fullmatch(r"BS/\d{4}/\d{6}", delivered["billNumber"])

    mail = wait_for_mail(page, smtp, email, "delivered", after=before)
    attachments = [part for part in mail.iter_attachments() if part.get_content_type() == "application/pdf"]
    assert len(attachments) == 1 and attachments[0].get_content().startswith(b"%PDF")
    assert "Delivering to" not in mail.get_body(("plain",)).get_content()

    page.goto(link_in(mail, f"/orders/{order['_id']}"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Order {order['orderNumber']}")
    button = page.get_by_role("link", name=re.compile("Download Bill"))
    expect(button).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    with page.expect_download() as download_info:
        button.click()
    download = download_info.value
    assert download.suggested_filename == f"bill-{delivered['billNumber'].replace('/', '-')}.pdf"
    with open(download.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"
    response = page.request.get(button.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
