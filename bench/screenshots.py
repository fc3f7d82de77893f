"""Phone screenshots (360 x 740) of the shopper screens for the README's gallery (docs/screenshots/<name>-phone.jpg).

Usage (from the project root, against a shop serving the demo catalogue, e.g. `make run`):

    .venv/bin/python bench/screenshots.py --url http://127.0.0.1:8000
    .venv/bin/python bench/screenshots.py --url http://127.0.0.1:8000 cart checkout login

Each screen is opened in a fresh phone-sized context (Debian's Chromium, touch, 1x pixels), once its
network is idle; the cart and checkout get the two best-selling books in the browser's cart first.
Look at every picture before committing it.

The gallery's pictures are drawn in Noto Sans, the sans-serif of Android phones. On a machine without it
(Debian: fonts-noto-core), point FONTCONFIG_FILE at a fontconfig file that adds its folder and prefers it
for system-ui and sans-serif; wider fallbacks such as DejaVu Sans wrap the phone header onto two lines.
"""
import argparse
import json
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from web import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
# name: (address, needs books in the cart)
SCREENS = {
    "books": ("/books", False),
    "categories": ("/categories", False),
    "exam": ("/exam/jee-main", False),
    "cart": ("/cart", True),
    "checkout": ("/checkout", True),
    "login": ("/login", False),
    "register": ("/register", False),
    "forgot-password": ("/forgot-password", False),
    "order-lookup": ("/order-lookup", False),
    "contact": ("/contact", False),
    "about": ("/about", False),
    "shipping": ("/shipping", False),
    "faq": ("/faq", False),
    "return-policy": ("/return-policy", False),
    "not-found": ("/no-such-page", False),
    "bestsellers": ("/bestsellers", False),
    "new-releases": ("/new-releases", False),
}


def cart_lines(base_url: str) -> str:
    """localStorage's cart (client/src/features/cart/cart-storage.js) holding the two best sellers, once each."""
    with urllib.request.urlopen(f"{base_url}/api/books?limit=2&sortBy=bestselling", timeout=30) as response:
        books = json.load(response)["books"]
    keep = ("_id", "title", "author", "category", "price", "discountedPrice", "stock", "thumbnailUrl", "imageUrl")
    return json.dumps([{"bookId": book["_id"], "quantity": 1, "book": {key: book.get(key) for key in keep}}
                       for book in books])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the running shop")
    parser.add_argument("names", nargs="*", help=f"screens to take (default all): {', '.join(SCREENS)}")
    args = parser.parse_args()
    base_url = args.url.rstrip("/")
    unknown = set(args.names) - set(SCREENS)
    if unknown:
        parser.error(f"unknown screens: {', '.join(sorted(unknown))}")
    cart = cart_lines(base_url)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for name in args.names or SCREENS:
            path, with_cart = SCREENS[name]
            context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
            if with_cart:
                context.add_init_script(f"window.localStorage.setItem('cart', {json.dumps(cart)});")
            page = context.new_page()
            page.goto(base_url + path, wait_until="networkidle")
            # A screen still asking the API shows a spinner: wait it out (a busy shop may take a while).
            expect(page.locator(".spinner")).to_have_count(0, timeout=30000)
            page.wait_for_timeout(300)
            target = OUT / f"{name}-phone.jpg"
            page.screenshot(path=target, type="jpeg", quality=85)
            print(target.relative_to(ROOT))
            context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
