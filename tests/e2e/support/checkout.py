"""Steps of the checkout a shopper goes through, shared by the cart and checkout journeys."""
from playwright.sync_api import expect

ADDRESS = {"First Name": "Meera", "Last Name": "Iyer", "Email": "meera.iyer@example.in", "Phone": "9876543210",
           "Address": "12 Lake View Road, Flat 4B", "PIN Code": "560001"}


def put_in_cart(page, book: dict, quantity: int = 1) -> None:
    """Open the book's page and press Add to Cart `quantity` times."""
    page.goto(f"/book/{book['_id']}")
    add = page.get_by_role("main").get_by_role("button", name="Add to Cart").first
    for _ in range(quantity):
        add.click()
    expect(page.get_by_role("main").get_by_text("cart", exact=False).first).to_be_visible()


def fill_shipping(page, **overrides) -> dict:
    """Fill the shipping step (city picked from the suggestions, Karnataka) and continue."""
    values = {**ADDRESS, **overrides}
    for label, value in values.items():
        page.get_by_label(label, exact=False).first.fill(value)
    city = page.get_by_role("combobox", name="City")
    city.fill("Ba")
    page.get_by_role("option", name="Bengaluru (Bangalore)").click()
    expect(city).to_have_value("Bengaluru")
    page.get_by_role("combobox", name="State").select_option("Karnataka")
    page.get_by_role("button", name="Continue to Payment").click()
    expect(page.get_by_role("radio", name="Cash on Delivery")).to_be_visible()
    return values
