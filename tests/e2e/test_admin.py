"""The admin area in a real browser: sign-in, dashboard, books with covers, orders, contact messages, phones.

Headless Chromium against gunicorn on the test database. Shoppers' sides of each journey go through
the HTTP API and, for a new book, the storefront's own screens.
"""
import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import Book, ContactMessage, Order
from tests.e2e.admin_support import (ADMIN_EMAIL, ADMIN_PASSWORD, SHOPPER_PASSWORD, admin, admin_session,  # noqa: F401
                                     api, cover_png, large_png, page, page_factory, server, sign_in)


def rupees(paise: int) -> str:
    """₹ with en-IN grouping for amounts under a lakh (where it matches the western grouping)."""
    assert paise < 100_000_00
    return f"₹{paise / 100:,.2f}"


def test_admin_signs_in_and_a_shopper_is_refused(page, server, admin, factories):
    """A shopper's correct password still gets 'not an administrator' and no admin session; an admin gets in."""
    factories.user(email="shopper@example.in", password=SHOPPER_PASSWORD)
    page.goto(server.base_url + "/admin-login")
    expect(page.get_by_role("heading", name="Admin Login")).to_be_visible()
    expect(page.get_by_text("Access the bookstore administration panel")).to_be_visible()
    expect(page.locator("header.header")).to_have_count(0)  # no shop header on admin paths

    sign_in(page, server, email="shopper@example.in", password=SHOPPER_PASSWORD)
    expect(page.get_by_role("alert")).to_have_text(re.compile("This account is not an administrator"))
    assert admin_session(page) == {"token": None, "user": None}
    assert page.url.endswith("/admin-login")

    sign_in(page, server, password="wrong-password")
    expect(page.get_by_role("alert")).to_contain_text(re.compile(r"\w"))
    assert admin_session(page)["token"] is None

    # 'Signing In...' while the server answers (the reply is held back for a moment).
    def slow_login(route):
        page.wait_for_timeout(400)
        route.continue_()

    page.route("**/api/auth/login", slow_login)
    page.get_by_label("Password").fill(ADMIN_PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(page.get_by_role("button", name="Signing In...")).to_be_disabled()
    page.wait_for_url(server.base_url + "/admin")
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()
    assert '"role":"admin"' in admin_session(page)["user"]

    page.get_by_role("button", name="Logout").click()
    page.wait_for_url(server.base_url + "/")
    assert admin_session(page) == {"token": None, "user": None}


def test_admin_screens_send_to_login_and_back(page, server, admin):
    """Without a session, or with a token the server refuses (401), an admin screen goes to the login and returns."""
    page.goto(server.base_url + "/admin/contacts?status=new")
    page.wait_for_url(re.compile(r"/admin-login\?from=%2Fadmin%2Fcontacts%3Fstatus%3Dnew$"))
    sign_in(page, server, path="/admin-login?from=%2Fadmin%2Fcontacts%3Fstatus%3Dnew")
    page.wait_for_url(server.base_url + "/admin/contacts?status=new")
    expect(page.get_by_role("heading", name="Contact Messages")).to_be_visible()

    # A forged token that looks current: the first API call answers 401 and the session ends.
    page.evaluate("""() => {
        const payload = btoa(JSON.stringify({sub: "1", exp: Math.floor(Date.now() / 1000) + 3600}));
        localStorage.setItem('adminToken', `eyJhbGciOiJIUzI1NiJ9.${payload}.bad-signature`);
    }""")
    page.goto(server.base_url + "/admin/orders")
    page.wait_for_url(re.compile(r"/admin-login\?from=%2Fadmin%2Forders$"))
    assert admin_session(page)["token"] is None

    # A login link crafted to send the admin off the admin area goes to the dashboard instead.
    sign_in(page, server, path="/admin-login?from=https%3A%2F%2Fevil.example")
    page.wait_for_url(server.base_url + "/admin")


def test_dashboard_figures_match_the_database(page, server, admin, factories, api, app):
    """The four cards, orders by status and recent orders show what the database holds."""
    books = [factories.book(title=f"Dashboard Book {n}", price_paise=30000 + n * 100, stock=3 + n) for n in range(3)]
    factories.book(title="Archived Book", archived=True)
    factories.user(email="reader@example.in", password=SHOPPER_PASSWORD)
    shopper = api.login("reader@example.in", SHOPPER_PASSWORD)
    token = api.login(ADMIN_EMAIL, ADMIN_PASSWORD)
    first = api.place_cod_order(shopper, [(api.book(books[0].id), 2)], first_name="Lata")
    second = api.place_cod_order(shopper, [(api.book(books[1].id), 1)], first_name="Nikhil")
    for status in ("processing", "shipped", "delivered"):
        assert api.call("PUT", f"/api/admin/orders/{first['_id']}/status", {"status": status}, token)[0] == 200

    sign_in(page, server)
    page.wait_for_url(server.base_url + "/admin")
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    visible = db.session.scalar(select(db.func.count()).select_from(Book).where(Book.archived.is_(False)))
    delivered = db.session.scalar(select(Order).where(Order.public_id == first["_id"]))
    expect(page.locator('[data-stat="Total Books"]')).to_have_text(str(visible))
    expect(page.locator('[data-stat="Total Orders"]')).to_have_text("2")
    expect(page.locator('[data-stat="Total Users"]')).to_have_text("1")
    expect(page.locator('[data-stat="Total Revenue"]')).to_have_text(rupees(delivered.total_paise))

    status_panel = page.get_by_role("region", name="Orders by status")
    expect(status_panel.get_by_role("link", name=re.compile(r"Delivered\s*1"))).to_be_visible()
    expect(status_panel.get_by_role("link", name=re.compile(r"Pending\s*1"))).to_be_visible()
    chart = page.get_by_role("img", name=re.compile("Revenue by day"))
    expect(chart).to_be_visible()

    recent = page.get_by_role("region", name="Recent Orders")
    expect(recent.get_by_role("row")).to_have_count(3)  # header + 2
    row = recent.get_by_role("row", name=re.compile(second["orderNumber"]))
    expect(row).to_contain_text("Nikhil Rao")
    expect(row).to_contain_text("Pending")
    recent.get_by_role("link", name="View All Orders").click()
    page.wait_for_url(server.base_url + "/admin/orders")


def test_dashboard_empty_state_and_retry(page, server, admin):
    """A shop without orders says 'No Recent Orders'; a failed load offers Retry, which loads again."""
    sign_in(page, server)
    page.wait_for_url(server.base_url + "/admin")
    expect(page.get_by_text("No Recent Orders")).to_be_visible()

    page.route("**/api/admin/dashboard/stats", lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"success": false, "message": "Try again soon."}'))
    page.reload()
    expect(page.get_by_role("alert")).to_contain_text("Failed to load dashboard data")
    page.unroute("**/api/admin/dashboard/stats")
    page.get_by_role("button", name="Retry").click()
    expect(page.locator('[data-stat="Total Orders"]')).to_have_text("0")


def test_add_edit_and_delete_a_book_with_a_cover(page, server, admin, factories, api, tmp_path, app):
    """A book added with a cover is on sale with its cover; edits show; deleting one that was ordered archives it."""
    title = "Quantitative Aptitude for Bank Exams"
    sign_in(page, server)
    page.wait_for_url(server.base_url + "/admin")
    page.get_by_role("link", name="Manage Books").click()
    page.get_by_role("link", name="+ Add New Book").click()
    expect(page.get_by_role("heading", name="Add New Book")).to_be_visible()

    # The checks of product §10.2, in their order, before anything is sent.
    posts = []
    page.on("request", lambda sent: sent.method == "POST" and "/api/books" in sent.url and posts.append(sent))
    page.get_by_role("button", name="Add Book").click()
    summary = page.get_by_role("alert")
    expect(summary.locator(".adm-summary__title")).to_have_text("Book title is required")
    expect(summary.get_by_role("listitem")).to_have_text([
        "Title: Book title is required", "Author: Author is required", "Description: Description is required",
        "Price (₹): Valid price is required", "Category: Category is required", "Weight: Weight is required",
        "Cover image: Book cover image is required"])

    # A cover over 5 MB is refused in the browser, with its size.
    page.get_by_label("Cover image").set_input_files(str(large_png(tmp_path / "huge.png")))
    expect(page.get_by_text(re.compile(r"This image is 6\.\d MB\. The cover image must be at most 5 MB\."))).to_be_visible()
    assert posts == []

    page.get_by_role("textbox", name="Title", exact=True).fill(title)
    page.get_by_role("textbox", name="Author", exact=True).fill("R. S. Agarwal")
    page.get_by_role("combobox", name="Category", exact=True).select_option("BANKING")
    page.get_by_role("textbox", name="Description", exact=True).fill("Practice sets with worked answers.")
    page.get_by_role("spinbutton", name="Price (₹)", exact=True).fill("349.50")
    page.get_by_role("spinbutton", name="Stock", exact=True).fill("12")
    page.get_by_role("textbox", name="ISBN", exact=True).fill("978-93-5266-090-2")
    page.get_by_role("spinbutton", name="Publish year", exact=True).fill("2024")
    page.get_by_role("spinbutton", name="Pages", exact=True).fill("612")
    page.get_by_role("textbox", name="Weight", exact=True).fill("650g")
    page.get_by_role("combobox", name="Format", exact=True).select_option("Hardcover")
    page.get_by_label("Cover image").set_input_files(str(cover_png(tmp_path / "cover.png")))
    expect(page.get_by_role("img", name="Preview of the chosen cover")).to_have_attribute(
        "src", re.compile(r"^data:image/png;base64,"))
    page.get_by_role("button", name="Add Book").click()
    page.wait_for_url(server.base_url + "/admin/books")
    expect(page.get_by_role("status").filter(has_text="Book created successfully!")).to_be_visible()

    # The storefront's catalogue finds it, with a cover the server stored and serves.
    [found] = api.search("Quantitative Aptitude Bank")
    assert (found["title"], found["price"], found["stock"], found["format"]) == (title, 349.5, 12, "Hardcover")
    assert found["isbn"] == "9789352660902" and found["publicationDate"] == "2024-01-01"
    status, _ = api.call("GET", found["imageUrl"])
    assert status == 200
    # ... and so do the storefront's screens: the search grid, then the book's own page with its cover.
    shop = page.context.new_page()
    shop.goto(server.base_url + "/books?search=Quantitative%20Aptitude%20Bank")
    expect(shop.get_by_text(title).first).to_be_visible()
    shop.goto(server.base_url + f"/book/{found['_id']}")
    expect(shop.get_by_role("heading", name=title, level=1)).to_be_visible()
    expect(shop.locator(f'img[src="{found["imageUrl"]}"]').first).to_be_visible()
    shop.close()

    # Edit: find it by ISBN, change price and stock, keep the cover.
    page.get_by_label("Search").fill("9789352660902")
    page.get_by_role("button", name="Search", exact=True).click()
    row = page.get_by_role("row", name=re.compile(title))
    expect(row).to_contain_text("₹349.50")
    row.get_by_role("link", name=f"Edit {title}").click()
    expect(page.get_by_role("heading", name="Edit Book")).to_be_visible()
    expect(page.get_by_role("textbox", name="Title", exact=True)).to_have_value(title)
    expect(page.get_by_role("img", name="Current cover")).to_be_visible()
    page.get_by_role("spinbutton", name="Price (₹)", exact=True).fill("0")
    page.get_by_role("button", name="Update Book").click()
    expect(page.get_by_role("alert")).to_contain_text("Valid price is required")
    page.get_by_role("spinbutton", name="Price (₹)", exact=True).fill("399")
    page.get_by_role("spinbutton", name="Stock", exact=True).fill("7")
    page.get_by_role("button", name="Update Book").click()
    page.wait_for_url(re.compile(r"/admin/books"))
    expect(page.get_by_role("status").filter(has_text="Book updated successfully!")).to_be_visible()
    edited = api.book(found["_id"])
    assert (edited["price"], edited["stock"], edited["imageUrl"]) == (399, 7, found["imageUrl"])

    # It was ordered, so Delete archives it after the question of product §10.2.
    factories.user(email="buyer@example.in", password=SHOPPER_PASSWORD)
    api.place_cod_order(api.login("buyer@example.in", SHOPPER_PASSWORD), [(edited, 1)])
    page.get_by_label("Search").fill("9789352660902")
    page.get_by_role("button", name="Search", exact=True).click()
    page.get_by_role("button", name=f"Delete {title}").click()
    dialog = page.get_by_role("dialog", name="Delete book")
    expect(dialog).to_contain_text("Are you sure you want to delete this book?")
    dialog.get_by_role("button", name="Delete").click()
    expect(page.get_by_role("status").filter(has_text="archived")).to_be_visible()
    expect(page.get_by_role("row", name=re.compile(title))).to_have_count(0)  # the list hides archived books
    page.get_by_label("Show archived").click()
    expect(page.get_by_role("row", name=re.compile(title))).to_contain_text("Archived")
    assert api.search("Quantitative Aptitude Bank") == []
    shop = page.context.new_page()
    shop.goto(server.base_url + f"/book/{found['_id']}")
    expect(shop.get_by_role("heading", name="Book not found", level=1)).to_be_visible()
    shop.close()
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    assert db.session.get(Book, int(found["_id"])).archived is True

    # An archived book stays editable and can go back on sale.
    page.get_by_role("link", name=f"Edit {title}").click()
    expect(page.get_by_role("note")).to_contain_text("Shoppers do not see this book")
    page.get_by_role("button", name="Put back on sale").click()
    expect(page.get_by_role("status").filter(has_text="is on sale again")).to_be_visible()
    assert [book["_id"] for book in api.search("Quantitative Aptitude Bank")] == [found["_id"]]


def test_order_status_change_reaches_the_shopper(page, server, admin, factories, api, app):
    """The admin moves an order on after confirming; the shopper's own order list shows the new status."""
    book = factories.book(title="Objective General English", price_paise=27500, stock=9)
    factories.user(email="asha@example.in", password=SHOPPER_PASSWORD)
    shopper = api.login("asha@example.in", SHOPPER_PASSWORD)
    order = api.place_cod_order(shopper, [(api.book(book.id), 2)], first_name="Asha", email="asha@example.in")
    short = order["orderNumber"]

    sign_in(page, server, path="/admin/orders")
    page.wait_for_url(server.base_url + "/admin/orders")
    row = page.get_by_role("row", name=re.compile(short))
    expect(row).to_contain_text("Asha Rao")
    expect(row).to_contain_text("asha@example.in")
    expect(row).to_contain_text("₹590.00")

    # Cancelling the question leaves everything as it was.
    row.get_by_label(f"Status of order {short}").select_option("processing")
    dialog = page.get_by_role("dialog", name="Change order status")
    expect(dialog).to_contain_text("from Pending to Processing")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(row.get_by_label(f"Status of order {short}")).to_have_value("pending")

    # The list offers the next step only: skipping to Shipped takes a reason, in the order's details.
    expect(row.get_by_label(f"Status of order {short}").locator("option[value=shipped]")).to_be_disabled()
    row.get_by_label(f"Status of order {short}").select_option("processing")
    page.get_by_role("dialog", name="Change order status").get_by_role("button", name="Mark as Processing").click()
    expect(page.get_by_role("status").filter(has_text="Order is now processing")).to_be_visible()
    expect(row.locator(".adm-badge")).to_have_text("Processing")

    status, mine = api.call("GET", "/api/orders/mine", token=shopper)
    assert status == 200
    assert [(o["_id"], o["status"]) for o in mine["orders"]] == [(order["_id"], "processing")]

    # The details modal: lines, address, history; Escape closes it and focus returns to View.
    view = row.get_by_role("button", name=f"View order {short}")
    view.click()
    details = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    expect(details.get_by_role("row", name=re.compile("Objective General English"))).to_contain_text("₹275.00")
    expect(details).to_contain_text("Pune, Maharashtra 411004")
    expect(details.locator(".adm-history li")).to_have_count(2)
    page.keyboard.press("Escape")
    expect(details).to_have_count(0)
    expect(view).to_be_focused()

    # Past a step (processing → delivered) takes a reason; delivered orders cannot be cancelled.
    view.click()
    details = page.get_by_role("dialog", name=re.compile(order["orderNumber"]))
    details.get_by_label("New status").select_option("delivered")
    details.get_by_label(re.compile("Reason \\(required")).fill("Handed over at the door")
    details.get_by_role("button", name="Update status").click()
    expect(details.get_by_role("status")).to_contain_text("Order is now delivered")
    expect(details.get_by_label("New status").locator("option[value=cancelled]")).to_be_disabled()
    expect(details).to_contain_text("Handed over at the door")
    details.get_by_role("button", name="Close").click()
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    assert db.session.scalar(select(Order.status).where(Order.public_id == order["_id"])) == "delivered"

    # Filters and the CSV export of what they show.
    page.get_by_label("Status", exact=True).select_option("delivered")
    page.wait_for_url(re.compile(r"status=delivered"))
    expect(page.get_by_role("row", name=re.compile(short))).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="Export CSV").click()
    csv_text = open(download.value.path(), encoding="utf-8-sig").read()
    assert order["orderNumber"] in csv_text and "asha@example.in" in csv_text
    assert re.fullmatch(r"orders-\d{4}-\d{2}-\d{2}\.csv", download.value.suggested_filename)


def test_handle_a_contact_message(page, server, admin, factories, app):
    """The admin reads a whole message (shown as text, never markup) and moves it to in progress, then resolved."""
    message = "Hello,\n<script>alert(1)</script> my GATE book has missing pages 40-56.\nPlease help."
    contact = factories.contact(name="Farah Khan", email="farah@example.in", phone="9876512345", subject="returns",
                                message=message)
    sign_in(page, server, path="/admin/contacts")
    page.wait_for_url(server.base_url + "/admin/contacts")
    row = page.get_by_role("row", name=re.compile("Farah Khan"))
    expect(row).to_contain_text("Returns & Refunds")
    expect(row.locator(".adm-badge")).to_have_text("New")
    expect(row.locator(".adm-badge")).to_have_css("color", "rgb(161, 34, 27)")  # product §10.4: new is red

    row.get_by_role("button", name="View message from Farah Khan").click()
    dialog = page.get_by_role("dialog", name="Message from Farah Khan")
    expect(dialog.locator(".adm-message")).to_have_text(message)
    dialog.get_by_label("Set status").select_option("in-progress")
    expect(dialog.locator(".adm-badge")).to_have_text("In progress")
    expect(dialog.locator(".adm-badge")).to_have_css("color", "rgb(143, 71, 0)")  # orange
    page.keyboard.press("Escape")
    expect(row.locator(".adm-badge")).to_have_text("In progress")

    row.get_by_label("Status of the message from Farah Khan").select_option("resolved")
    expect(row.locator(".adm-badge")).to_have_text("Resolved")
    db.session.commit()  # end any earlier read, so the next one sees what the server wrote
    assert db.session.get(ContactMessage, contact.id).status == "resolved"


def test_side_menu_collapses_on_a_phone(page_factory, server, admin):
    """At 360 px the menu hides behind a toggle that works from the keyboard and closes after a choice."""
    phone = page_factory(360, 740)
    sign_in(phone, server)
    phone.wait_for_url(server.base_url + "/admin")
    toggle = phone.get_by_role("button", name="Menu")
    menu = phone.get_by_role("navigation", name="Admin")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_hidden()

    toggle.focus()
    phone.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(menu).to_be_visible()
    expect(menu.get_by_role("link")).to_have_text(["Dashboard", "Manage Books", "Manage Orders", "Returns", "Contact Messages",
                                                    "Coupons", "Kits", "Reviews", "Shipping & payments", "Newsletter", "Audit log",
                                                    "Back to Store"])
    expect(menu.get_by_role("button", name="Logout")).to_be_visible()
    menu.get_by_role("link", name="Manage Orders").click()
    phone.wait_for_url(server.base_url + "/admin/orders")
    expect(menu).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(phone.get_by_role("heading", name="Manage Orders")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # nothing overflows sideways
    assert phone.errors == []


def test_shoppers_never_download_the_admin_area(page, server):
    """The storefront's first load fetches no admin script or stylesheet; an admin address links its own styles."""
    fetched = []
    page.on("request", lambda sent: fetched.append(sent.url))
    page.goto(server.base_url + "/")
    page.wait_for_load_state("networkidle")
    assert fetched and not [url for url in fetched if "admin" in url]

    page.goto(server.base_url + "/admin-login")
    expect(page.get_by_role("heading", name="Admin Login")).to_be_visible()
    assert [url for url in fetched if re.search(r"/static/dist/admin-[A-Z0-9]+\.css$", url)]
    assert page.locator("header.header").count() == 0
