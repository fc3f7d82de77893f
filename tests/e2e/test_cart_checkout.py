"""Cart and checkout journeys: quantities, changed prices, cash on delivery, online payment."""
import re

from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.checkout import fill_shipping, put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll


def cart_line(page, title):
    return page.get_by_role("listitem").filter(has=page.get_by_role("link", name=title))


def test_cart_quantities_follow_stock_and_survive_a_reload(page, shop):
    """Minus is disabled at 1, plus at the stock level; the summary adds ₹40 once; the cart outlives a reload."""
    book = shop.book(title="Quantities in Practice", price_paise=25000, stock=3)
    put_in_cart(page, book)
    page.goto("/cart")
    line = cart_line(page, "Quantities in Practice")
    minus = line.get_by_role("button", name="Decrease quantity of Quantities in Practice")
    plus = line.get_by_role("button", name="Increase quantity of Quantities in Practice")
    expect(minus).to_be_disabled()
    plus.click()
    plus.click()
    expect(line.locator("output")).to_have_text("3")
    expect(plus).to_be_disabled()
    summary = page.get_by_role("region", name="Order Summary")
    expect(summary).to_contain_text("₹750.00")
    expect(summary).to_contain_text("₹40.00")
    expect(summary).to_contain_text("₹790.00")
    assert_no_axe_violations(page)

    page.reload()
    expect(cart_line(page, "Quantities in Practice").locator("output")).to_have_text("3")
    minus.click()
    expect(line.locator("output")).to_have_text("2")
    line.get_by_role("button", name="Remove Quantities in Practice from cart").click()
    expect(page.get_by_text("Your cart is empty")).to_be_visible()
    expect(page.get_by_role("link", name="Continue Shopping")).to_be_visible()


def test_cart_tells_the_shopper_what_changed_since_adding(page, shop):
    """A new price and fewer copies are re-read from the API and said in words; a sold-out book leaves the cart."""
    dearer = shop.book(title="Price Riser", price_paise=30000, stock=10)
    scarce = shop.book(title="Nearly Gone", price_paise=20000, stock=5)
    gone = shop.book(title="Sold Elsewhere", price_paise=10000, stock=2)
    withdrawn = shop.book(title="Withdrawn Edition", price_paise=10000, stock=9)
    for book in (dearer, gone, withdrawn):
        put_in_cart(page, book)
    put_in_cart(page, scarce, quantity=4)
    shop.set_book(dearer["id"], price_paise=35000)
    shop.set_book(scarce["id"], stock=2)
    shop.set_book(gone["id"], stock=0)
    shop.set_book(withdrawn["id"], archived=True)
    # A line whose id is no book id at all (local storage edited by hand).
    page.evaluate("""() => {
        const lines = JSON.parse(localStorage.getItem("cart"));
        lines.push({bookId: "not-a-book", quantity: 1, book: {_id: "not-a-book", title: "Edited Line", price: 1}});
        localStorage.setItem("cart", JSON.stringify(lines));
    }""")

    book_reads = []
    page.on("request", lambda request: book_reads.append(request.url) if "/api/books/" in request.url else None)
    page.goto("/cart")
    notice = page.get_by_role("status").filter(has_text="Your cart was updated")
    expect(notice).to_contain_text("The price of 'Price Riser' changed from ₹300.00 to ₹350.00.")
    expect(notice).to_contain_text("Only 2 copies of 'Nearly Gone' are left, so your quantity is now 2.")
    expect(notice).to_contain_text("'Sold Elsewhere' is out of stock and was removed from your cart.")
    expect(notice).to_contain_text("'Withdrawn Edition' is no longer sold and was removed from your cart.")
    expect(notice).to_contain_text("'Edited Line' is no longer sold and was removed from your cart.")
    # The four real lines are re-read in one call; the edited one is not sent.
    assert [url.split("/api/")[1].split("?")[0] for url in book_reads] == ["books/by-ids"]
    expect(cart_line(page, "Nearly Gone").locator("output")).to_have_text("2")
    expect(page.get_by_role("link", name="Sold Elsewhere")).to_have_count(0)
    expect(page.get_by_role("region", name="Order Summary")).to_contain_text("₹790.00")  # 350 + 2×200 + 40
    notice.get_by_role("button", name="Dismiss message").click()
    expect(notice).to_have_count(0)


def test_guest_checkout_with_cash_on_delivery(page, shop):
    """A guest pays on delivery: validation first, then the order is stored as placed and the cart is emptied."""
    book = shop.book(title="Cash Paying Guide", price_paise=45050, stock=4)
    put_in_cart(page, book, quantity=2)
    page.goto("/cart")
    page.get_by_role("button", name="Proceed to Checkout").click()
    expect(page).to_have_url(re.compile(r"/checkout$"))
    expect(page.get_by_role("list", name="Checkout progress")).to_contain_text("Confirmation")

    page.get_by_role("button", name="Continue to Payment").click()
    expect(page.get_by_role("alert")).to_contain_text("Please fill in all shipping details correctly.")
    expect(page.get_by_label("First Name")).to_have_attribute("aria-invalid", "true")
    assert_no_axe_violations(page)

    fill_shipping(page)
    page.get_by_role("button", name="Place Order").click()
    expect(page.get_by_role("alert")).to_contain_text("Please select a payment method.")
    page.get_by_role("radio", name="Cash on Delivery").check()
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Place Order").click()

    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Your order has been placed")
    number = page.locator("dt:text-is('Order Number') + dd").inner_text()
    expect(page.locator("dt:text-is('Payment Status') + dd")).to_have_text("Pending")
    expect(page.locator("dt:text-is('Payment Method') + dd")).to_have_text("Cash on Delivery")
    expect(page.get_by_role("region", name="What's Next?")).to_contain_text("within 24 hours")
    # The dates promised for the PIN (issue 14) replace the general "3-5 business days".
    expect(page.get_by_role("region", name="What's Next?")).to_contain_text(
        re.compile(r"Arriving (on|between) \w{3}, \d{1,2} \w{3}"))
    assert_no_axe_violations(page)

    order = shop.order(number)
    assert order is not None and order.payment_method == "cod" and order.payment_status == "pending"
    assert [(line.title, line.quantity, line.unit_price_paise) for line in order.lines] == [("Cash Paying Guide", 2, 45050)]
    assert order.total_paise == 2 * 45050 + 4000
    assert (order.city, order.state, order.zip_code, order.email) == ("Bengaluru", "Karnataka", "560001", "meera.iyer@example.in")
    assert shop.stock(book["id"]) == 2

    page.reload()  # the confirmation survives a reload, read back from the server
    expect(page.locator("dt:text-is('Order Number') + dd")).to_have_text(number)
    page.goto("/cart")
    expect(page.get_by_text("Your cart is empty")).to_be_visible()


def test_checkout_with_an_empty_cart_goes_to_the_cart(page):
    """Product §5.1: an empty cart sends the shopper from /checkout to /cart."""
    page.goto("/checkout")
    expect(page).to_have_url(re.compile(r"/cart$"))
    expect(page.get_by_text("Your cart is empty")).to_be_visible()


def test_a_price_change_at_checkout_is_shown_before_the_order_is_placed(page, shop):
    """The server's 409 is shown as what changed; placing again at the new total succeeds."""
    book = shop.book(title="Moving Price", price_paise=50000, stock=5)
    put_in_cart(page, book)
    page.goto("/checkout")
    fill_shipping(page)
    page.get_by_role("radio", name="Cash on Delivery").check()
    # The price moves after the shopper's last quote (a quote still in flight would show the new price).
    page.wait_for_load_state("networkidle")
    shop.set_book(book["id"], price_paise=52500)
    page.get_by_role("button", name="Place Order").click()
    expect(page.get_by_role("alert")).to_contain_text("Prices have changed since you opened your cart.")
    expect(page.get_by_role("status").filter(has_text="Your cart was updated")).to_contain_text(
        "The price of 'Moving Price' changed from ₹500.00 to ₹525.00.")
    expect(page.get_by_role("region", name="Order Summary")).to_contain_text("₹565.00")
    page.get_by_role("button", name="Place Order").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    order = shop.order(page.locator("dt:text-is('Order Number') + dd").inner_text())
    assert order.total_paise == 52500 + 4000


def test_online_checkout_through_razorpay(page, shop, razorpay):
    """Online payment opens Checkout with the options of product §6.2, verifies on the server and shows Paid."""
    book = shop.book(title="Paid Online Handbook", price_paise=60000, stock=3)
    put_in_cart(page, book)
    page.goto("/checkout")
    fill_shipping(page, Email="online.payer@example.in")
    page.get_by_role("radio", name="Pay Online").check()
    page.get_by_role("button", name="Place Order").click()

    checkout = page.get_by_role("dialog", name="Fake Razorpay Checkout")
    expect(checkout).to_contain_text("Amount: 640.00 INR")
    options = page.evaluate("window.__razorpayOptions")
    assert options["name"] == "Bookstore" and options["description"] == "Book Purchase"
    assert options["prefill"] == {"name": "Meera Iyer", "email": "online.payer@example.in", "contact": "9876543210"}
    assert options["theme"]["color"] == "#1b5e20" and options["amount"] == 64000 and options["currency"] == "INR"
    assert "Lake View Road" in options["notes"]["address"] and options["notes"]["orderId"].startswith("BK-")

    checkout.get_by_role("button", name="Fail").click()
    expect(page.get_by_role("alert")).to_contain_text("Payment failed: Payment failed because the UPI request was declined")
    checkout.get_by_role("button", name="Pay").click()

    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    expect(page.locator("dt:text-is('Payment Status') + dd")).to_have_text("Paid")
    payment_id = page.locator("dt:text-is('Payment ID') + dd").inner_text()
    assert payment_id.startswith("pay_")
    order = shop.order(page.locator("dt:text-is('Order Number') + dd").inner_text())
    assert order.payment_status == "paid" and order.razorpay_payment_id == payment_id
    assert razorpay.payment(payment_id)["status"] == "captured"


def test_closing_checkout_keeps_the_order_for_a_second_try(page, shop):
    """Closing Razorpay leaves the order reserved; Place Order again pays that same order, not a new one."""
    book = shop.book(title="Second Try Atlas", price_paise=30000, stock=3)
    put_in_cart(page, book)
    page.goto("/checkout")
    fill_shipping(page)
    page.get_by_role("radio", name="Pay Online").check()
    page.get_by_role("button", name="Place Order").click()
    page.get_by_role("dialog", name="Fake Razorpay Checkout").get_by_role("button", name="Close").click()
    expect(page.get_by_role("status").filter(has_text="Payment was not completed")).to_be_visible()
    first_order = page.evaluate("window.__razorpayOptions.notes.orderId")

    page.get_by_role("button", name="Place Order").click()
    page.get_by_role("dialog", name="Fake Razorpay Checkout").get_by_role("button", name="Pay").click()
    expect(page).to_have_url(re.compile(r"/order/success$"), timeout=15_000)
    expect(page.locator("dt:text-is('Order Number') + dd")).to_have_text(first_order)
    assert shop.stock(book["id"]) == 2


def test_cart_and_checkout_fit_a_phone(phone_page, shop):
    """At 360 px the cart and both checkout steps scroll only vertically."""
    page = phone_page
    book = shop.book(title="A Rather Long Title About Quantitative Aptitude For Competitive Examinations", stock=5)
    put_in_cart(page, book)
    page.goto("/cart")
    expect(page.get_by_role("button", name="Proceed to Checkout")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.get_by_role("button", name="Proceed to Checkout").click()
    expect(page.get_by_role("button", name="Continue to Payment")).to_be_visible()
    assert_no_horizontal_scroll(page)
    fill_shipping(page)
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
