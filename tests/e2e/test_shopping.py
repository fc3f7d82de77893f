"""Wishlist, My Orders with cancel, the guest order look-up and the contact form."""
import re

from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import sign_in

ADDRESS = {"firstName": "Arjun", "lastName": "Rao", "email": "arjun.rao@example.in", "phone": "9123456789",
           "address": "7 Temple Street", "city": "Chennai", "state": "Tamil Nadu", "zipCode": "600001"}


def place_order(page, book: dict, quantity: int = 1, token: str | None = None, email: str | None = None) -> dict:
    """An order placed through the API (as the shopper with token, or as a guest)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"orderItems": [{"book": book["_id"], "quantity": quantity}],
            "shippingAddress": {**ADDRESS, **({"email": email} if email else {})}, "paymentMethod": "cod",
            "totalPrice": (book["price_paise"] * quantity + 4000) / 100}
    response = page.request.post("/api/orders", data=body, headers=headers)
    assert response.status == 201, response.text()
    return response.json()["order"]


def test_wishlist_save_move_to_cart_and_remove(page, shop):
    """Signed out, Add to Wishlist asks to sign in; signed in, saved books can move to the cart or go."""
    user = shop.shopper()
    keep = shop.book(title="Wish to Keep")
    move = shop.book(title="Wish to Buy")
    page.goto(f"/book/{move['_id']}")
    page.get_by_role("main").get_by_role("button", name="Add to Wishlist").click()
    expect(page.get_by_role("dialog", name="Login")).to_be_visible()
    page.keyboard.press("Escape")

    sign_in(page, user)
    for book in (keep, move):
        page.goto(f"/book/{book['_id']}")
        page.get_by_role("main").get_by_role("button", name="Add to Wishlist").click()
        expect(page.get_by_role("main").get_by_role("button", name="Remove from Wishlist")).to_be_visible()

    page.goto("/wishlist")
    expect(page.get_by_role("link", name="Wish to Keep")).to_be_visible()
    assert_no_axe_violations(page)
    page.get_by_role("button", name=re.compile(r"Move to Cart\W+Wish to Buy")).click()
    expect(page.get_by_role("status")).to_contain_text("'Wish to Buy' was moved to your cart.")
    expect(page.get_by_role("link", name="Wish to Buy")).to_have_count(0)
    page.get_by_role("button", name="Remove Wish to Keep from wishlist").click()
    expect(page.get_by_text("Your wishlist is empty")).to_be_visible()
    assert page.request.get("/api/users/wishlist", headers={
        "Authorization": f"Bearer {page.evaluate('localStorage.token')}"}).json()["books"] == []

    page.goto("/cart")
    expect(page.get_by_role("link", name="Wish to Buy")).to_be_visible()


def test_my_orders_show_lines_history_and_cancel(page, shop):
    """My Orders lists the shopper's orders with their lines and history; Cancel restocks and says so."""
    user = shop.shopper()
    book = shop.book(title="Cancellable Companion", price_paise=35000, stock=6)
    page.goto("/")
    token = sign_in(page, user)["token"]
    order = place_order(page, book, quantity=2, token=token)
    assert shop.stock(book["id"]) == 4

    page.goto("/order")  # the second address of the same screen (product §2.1)
    card = page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=f"Order {order['orderNumber']}"))
    expect(card).to_contain_text("Pending")
    expect(card).to_contain_text("2 books")
    expect(card).to_contain_text("₹740.00")
    card.get_by_role("button", name=re.compile("View Details")).click()
    expect(card.get_by_role("list", name="Books in this order")).to_contain_text("Cancellable Companion")
    expect(card).to_contain_text("Order timeline")
    assert_no_axe_violations(page)

    card.get_by_role("button", name=re.compile("Cancel Order")).click()
    card.get_by_role("button", name="Keep Order").click()
    card.get_by_role("button", name=re.compile("Cancel Order")).click()
    card.get_by_role("button", name="Yes, Cancel It").click()
    expect(page.get_by_role("status").filter(has_text="has been cancelled")).to_contain_text(order["orderNumber"])
    expect(card.locator(".order-card__head")).to_contain_text("Cancelled")
    expect(card.get_by_role("button", name=re.compile("Cancel Order"))).to_have_count(0)
    assert shop.order(order["orderNumber"]).status == "cancelled"
    assert shop.stock(book["id"]) == 6


def test_my_orders_empty_state(page, shop):
    """A new shopper sees that there are no orders yet, and a way to start."""
    page.goto("/")
    sign_in(page, shop.shopper())
    page.goto("/orders")
    expect(page.get_by_text("No orders yet")).to_be_visible()
    expect(page.get_by_role("link", name="Start Shopping")).to_be_visible()


def test_guest_order_lookup(page, shop):
    """A guest finds an order by number and e-mail; a wrong e-mail gets the server's message."""
    book = shop.book(title="Looked Up Later", price_paise=20000)
    page.goto("/")
    order = place_order(page, book, email="guest.lookup@example.in")
    page.goto("/order-lookup")
    assert_no_axe_violations(page)
    page.get_by_label("Order Number").fill(order["orderNumber"])
    page.get_by_label("Email").fill("someone.else@example.in")
    page.get_by_role("button", name="Find Order").click()
    expect(page.get_by_role("alert")).to_contain_text("No order matches that number and e-mail.")
    page.get_by_label("Email").fill("Guest.Lookup@example.in")
    page.get_by_role("button", name="Find Order").click()
    result = page.get_by_role("region", name=f"Order {order['orderNumber']}")
    expect(result).to_contain_text("Looked Up Later")
    expect(result).to_contain_text("Cash on Delivery · Pending")
    expect(result).to_contain_text("₹240.00")


def test_contact_form(page, shop):
    """Required fields are checked, the message is stored, the form is cleared and thanked."""
    page.goto("/contact")
    expect(page.get_by_role("heading", name="Frequently Asked Questions")).to_be_visible()
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Send Message").click()
    expect(page.get_by_text("Full name is required.")).to_be_visible()
    expect(page.get_by_text("Subject is required.")).to_be_visible()

    page.get_by_label("Full Name").fill("Lakshmi Menon")
    page.get_by_label("Email").fill("lakshmi@example.in")
    page.get_by_label("Subject").select_option(label="Returns & Refunds")
    page.get_by_role("textbox", name="Message").fill("Short")
    page.get_by_role("button", name="Send Message").click()
    expect(page.get_by_role("alert")).to_contain_text("10")  # the server's minimum length, in its words
    page.get_by_role("textbox", name="Message").fill("My copy of the GATE guide arrived with torn pages. Order BK-2026-000001.")
    page.get_by_role("button", name="Send Message").click()
    expect(page.get_by_role("status")).to_contain_text("Thank you for your message! We will get back to you soon.")
    expect(page.get_by_label("Full Name")).to_have_value("")

    from bookstore.extensions import db
    from bookstore.models import ContactMessage
    with shop.app.app_context():
        stored = db.session.scalar(db.select(ContactMessage).where(ContactMessage.email == "lakshmi@example.in"))
        assert stored.subject == "returns" and stored.message.startswith("My copy of the GATE guide")
        db.session.remove()


def test_shopping_screens_fit_a_phone(phone_page, shop):
    """Wishlist, orders, look-up and contact scroll only vertically at 360 px."""
    page = phone_page
    user = shop.shopper()
    book = shop.book(title="Phone Sized Order")
    page.goto("/contact")
    expect(page.get_by_role("button", name="Send Message")).to_be_visible()
    assert_no_horizontal_scroll(page)
    page.goto("/order-lookup")
    assert_no_horizontal_scroll(page)
    token = sign_in(page, user)["token"]
    place_order(page, book, token=token)
    page.goto("/orders")
    page.get_by_role("button", name=re.compile("View Details")).click()
    expect(page.get_by_role("list", name="Books in this order")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
    page.goto("/wishlist")
    expect(page.get_by_text("Your wishlist is empty")).to_be_visible()
    assert_no_horizontal_scroll(page)
