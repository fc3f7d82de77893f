"""Account journeys: register, log in, the sign-in dialog, user menu, profile, sign-out, external sign-in."""
import json
import re
from urllib.parse import quote

from playwright.sync_api import expect

from tests.e2e.conftest import assert_no_axe_violations
from tests.e2e.support.checkout import put_in_cart
from tests.e2e.support.layout import assert_no_horizontal_scroll
from tests.e2e.support.shop import sign_in


def test_register_signs_in_and_returns_home(page, shop, smtp):
    """The register page checks passwords locally, creates the account, asks for e-mail verification and goes home."""
    page.goto("/register")
    assert_no_axe_violations(page)
    page.get_by_label("First Name").fill("Kavya")
    page.get_by_label("Last Name").fill("Nair")
    page.get_by_label("Email").fill("kavya.nair@example.in")
    page.get_by_label(re.compile(r"^Password")).fill("secret-pass")
    page.get_by_label("Confirm Password").fill("secret-pasS")
    page.get_by_role("main").get_by_role("button", name="Sign Up").click()
    expect(page.get_by_text("Passwords do not match")).to_be_visible()
    assert shop.user_row("kavya.nair@example.in") is None

    page.get_by_label("Confirm Password").fill("secret-pass")
    page.get_by_role("main").get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("status")).to_contain_text("Please check your e-mail to verify your account")
    expect(page).to_have_url(re.compile(r"/$"), timeout=5_000)
    expect(page.get_by_role("button", name=re.compile("Account menu for Kavya"))).to_be_visible()
    user = shop.user_row("kavya.nair@example.in")
    assert user is not None and user.first_name == "Kavya" and user.role == "customer"


def test_register_shows_the_servers_message_for_a_taken_email(page, shop):
    """A duplicate e-mail is refused by the server and its message is shown in the banner."""
    existing = shop.shopper()
    page.goto("/register")
    page.get_by_label("First Name").fill("Dup")
    page.get_by_label("Last Name").fill("Licate")
    page.get_by_label("Email").fill(existing["email"])
    page.get_by_label(re.compile(r"^Password")).fill("secret-pass")
    page.get_by_label("Confirm Password").fill("secret-pass")
    page.get_by_role("main").get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("alert")).to_contain_text("already")
    expect(page).to_have_url(re.compile(r"/register$"))


def test_login_page_goes_back_to_the_protected_screen(page, shop):
    """A signed-out visit to /orders goes to /login?from=/orders, and signing in comes back there."""
    user = shop.shopper(first_name="Rohan")
    page.goto("/orders")
    expect(page).to_have_url(re.compile(r"/login\?from=%2Forders$"))
    page.get_by_role("main").get_by_role("button", name="Login").click()
    expect(page.get_by_text("E-mail is required.")).to_be_visible()
    page.get_by_label("Email").fill(user["email"])
    page.get_by_label("Password").fill("wrong-password")
    page.get_by_role("main").get_by_role("button", name="Login").click()
    alert = page.get_by_role("main").get_by_role("alert")
    expect(alert).to_be_visible()
    assert_no_axe_violations(page)
    alert.get_by_role("button", name="Dismiss message").click()
    page.get_by_label("Password").fill(user["password"])
    page.get_by_role("main").get_by_role("button", name="Login").click()
    expect(page.get_by_role("main").get_by_role("status")).to_contain_text("Login successful")
    expect(page).to_have_url(re.compile(r"/orders$"))
    expect(page.get_by_role("heading", name="My Orders")).to_be_visible()


def test_auth_dialog_from_the_header(page, shop):
    """The header opens the dialog; Escape closes it; the toggle clears the form; login closes it and shows the menu."""
    user = shop.shopper(first_name="Ishaan")
    page.goto("/")
    page.get_by_role("banner").get_by_role("button", name="Login").click()
    dialog = page.get_by_role("dialog", name="Login")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Email")).to_be_focused()
    assert_no_axe_violations(page)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    page.get_by_role("banner").get_by_role("button", name="Sign Up").click()
    dialog = page.get_by_role("dialog", name="Create Account")
    dialog.get_by_label("First Name").fill("Someone")
    dialog.get_by_role("button", name="Login").click()
    dialog = page.get_by_role("dialog", name="Login")
    dialog.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("dialog", name="Create Account").get_by_label("First Name")).to_have_value("")
    page.get_by_role("dialog").get_by_role("button", name="Login").click()

    dialog = page.get_by_role("dialog", name="Login")
    # Tabbing through never leaves the dialog.
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('dialog') !== null")
    dialog.get_by_label("Email").fill(user["email"])
    dialog.get_by_label("Password").fill(user["password"])
    dialog.get_by_role("button", name="Login").first.click()
    expect(dialog.get_by_role("status")).to_contain_text("Login successful")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("Account menu for Ishaan"))).to_be_visible()


def test_user_menu_by_keyboard_and_logout_clears_the_cart(page, shop):
    """The menu opens with the keyboard, lists the shopper's pages, and Logout drops token, user and cart."""
    user = shop.shopper(first_name="Tara")
    admin = shop.admin(first_name="Ada")
    book = shop.book(title="Logout Leaves Nothing")
    page.goto("/")
    sign_in(page, user)
    put_in_cart(page, book)
    menu_button = page.get_by_role("button", name=re.compile("Account menu for Tara"))
    menu_button.focus()
    page.keyboard.press("ArrowDown")
    menu = page.locator(".user-menu")
    expect(menu.get_by_role("link", name="My Profile")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(menu.get_by_role("link", name="My Orders")).to_be_focused()
    expect(menu.get_by_role("link", name="Admin Dashboard")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(menu.get_by_role("link", name="My Profile")).to_be_hidden()
    expect(menu_button).to_be_focused()

    menu_button.click()
    page.get_by_role("button", name="Logout").click()
    expect(page.get_by_role("banner").get_by_role("button", name="Login")).to_be_visible()
    stored = page.evaluate("[localStorage.getItem('token'), localStorage.getItem('user'), localStorage.getItem('cart')]")
    assert stored == [None, None, None]

    sign_in(page, admin)
    page.get_by_role("button", name=re.compile("Account menu for Ada")).click()
    expect(page.get_by_role("link", name="Admin Dashboard")).to_be_visible()


def test_profile_view_and_edit(page, shop):
    """The profile shows the account and saves changes; a bad phone gets the server's message."""
    user = shop.shopper(first_name="Neha", last_name="Gupta")
    page.goto("/")
    sign_in(page, user)
    page.goto("/profile")
    expect(page.get_by_role("region", name="Your details")).to_contain_text("Neha Gupta")
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Edit Profile").click()
    page.get_by_label("Phone").fill("12345")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_role("alert")).to_contain_text("10-digit")
    page.get_by_label("Phone").fill("98450 12345")
    page.get_by_label("Last Name").fill("Sharma")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_role("status")).to_contain_text("Your profile has been updated.")
    expect(page.get_by_role("region", name="Your details")).to_contain_text("Neha Sharma")
    expect(page.get_by_role("region", name="Your details")).to_contain_text("9845012345")
    row = shop.user_row(user["email"])
    assert (row.last_name, row.phone) == ("Sharma", "9845012345")


def test_external_sign_in_callback(page, shop):
    """#token=...&user=... signs in and goes home after 1.5 s; missing or unreadable data says why."""
    page.goto("/auth/callback")
    expect(page.get_by_role("alert")).to_have_text("Authentication failed: Missing token or user data")
    expect(page).to_have_url(re.compile(r"/$"), timeout=5_000)

    page.goto("/auth/callback#token=abc&user=%7Bnot-json")
    expect(page.get_by_role("alert")).to_have_text("Authentication failed: Invalid response from provider")
    expect(page).to_have_url(re.compile(r"/$"), timeout=5_000)

    user = shop.shopper(first_name="Gita")
    token = page.request.post("/api/auth/login", data={"email": user["email"], "password": user["password"]}).json()
    page.goto(f"/auth/callback#token={token['token']}&user={quote(json.dumps(token['user']))}")
    expect(page.get_by_role("status")).to_have_text("Authentication successful! Redirecting...")
    assert "token=" not in page.url
    expect(page).to_have_url(re.compile(r"/$"), timeout=5_000)
    expect(page.get_by_role("button", name=re.compile("Account menu for Gita"))).to_be_visible()


def test_account_screens_fit_a_phone(phone_page, shop):
    """Login, register and profile scroll only vertically at 360 px."""
    page = phone_page
    user = shop.shopper()
    for path in ("/login", "/register"):
        page.goto(path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert_no_horizontal_scroll(page)
    sign_in(page, user)
    page.goto("/profile")
    expect(page.get_by_role("region", name="Your details")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert_no_axe_violations(page)
