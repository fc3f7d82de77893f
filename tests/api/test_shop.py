"""GET /api/shop (issue 13): the shop's constants live once on the server and reach the client from one
reply, embedded in every page too; the client keeps no copy of them."""
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import ShopSetting
from bookstore.schemas.book import FORMATS, LANGUAGES
from bookstore.services.india import STATES_AND_UNION_TERRITORIES

URL = "/api/shop"
SETTINGS = "/api/admin/shop-settings"
CLIENT_SRC = Path(__file__).resolve().parents[2] / "client" / "src"
FIELDS = {"success", "shippingFee", "freeShippingThreshold", "zoneShippingFees", "codLimit", "codFee", "maxLinesPerOrder",
          "maxQuantityPerLine", "pinPattern", "states", "formats", "languages", "coverImage", "contact", "socialLinks"}


def shop(client) -> dict:
    response = client.get(URL)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_reply_carries_the_defaults_and_writes_nothing(app, client):
    """A fresh shop answers the default settings (product §5.3, §5.5: ₹40 shipping, no free-shipping
    threshold, COD cap ₹5,000 and fee ₹0), 20 lines, the PIN rule, the 36 states and union territories, the
    formats, languages and cover limits; asking stores no setting."""
    body = shop(client)
    assert set(body) == FIELDS
    assert body["success"] is True
    assert body["shippingFee"] == 40
    assert body["freeShippingThreshold"] is None
    assert body["zoneShippingFees"] == {}
    assert body["codLimit"] == 5000 and body["codFee"] == 0
    assert body["maxLinesPerOrder"] == 20
    assert body["maxQuantityPerLine"] == app.config["MAX_QUANTITY_PER_LINE"]
    assert body["states"] == list(STATES_AND_UNION_TERRITORIES) and len(body["states"]) == 36
    assert body["formats"] == list(FORMATS) == ["Paperback", "Hardcover", "E-Book", "Audiobook"]
    assert body["languages"] == list(LANGUAGES)
    assert body["coverImage"] == {"maxBytes": 5 * 1024 * 1024, "maxSide": 4000,
                                  "types": ["image/jpeg", "image/png", "image/webp"]}
    # None shown until set, but for the shop's address: the seller's, which bills need (product §10.6).
    assert body["contact"] == {"email": "", "phone": "", "address": "2nd Floor, MG Road, Bengaluru, Karnataka 560001",
                               "hours": ""}
    assert body["socialLinks"] == {}
    assert db.session.scalar(select(func.count()).select_from(ShopSetting)) == 0


def test_the_pin_pattern_is_the_one_orders_are_checked_with(client):
    """The pattern accepts 6 digits not starting with 0 and refuses the rest, as placing an order does."""
    pattern = re.compile(shop(client)["pinPattern"])
    assert pattern.fullmatch("560001") and pattern.fullmatch("110001")
    for wrong in ("060001", "56000", "5600011", "56000a", ""):
        assert not pattern.fullmatch(wrong), wrong


def test_an_admins_fees_show_at_once(client, auth):
    """Shipping fee, free-shipping threshold, COD fee and copies per line changed by an admin are what the
    next reply says."""
    admin = auth.admin()
    response = client.put(SETTINGS, json={"shippingFee": 55, "freeShippingThreshold": 499.5, "codFee": 20,
                                          "maxQuantityPerLine": 4}, headers=admin)
    assert response.status_code == 200, response.get_json()
    body = shop(client)
    assert (body["shippingFee"], body["freeShippingThreshold"], body["codFee"], body["maxQuantityPerLine"]) == (
        55, 499.5, 20, 4)


def test_the_reply_is_public_and_briefly_cacheable(client, auth):
    """No token is needed, a shopper's token changes nothing, and browsers may keep the answer a minute."""
    response = client.get(URL)
    assert response.headers["Cache-Control"] == "public, max-age=60"
    assert client.get(URL, headers=auth.customer()).get_json() == response.get_json()


def test_other_methods_are_refused_and_change_nothing(client):
    """Only GET: a POST is 405 in the envelope and stores nothing."""
    response = client.post(URL, json={"shippingFee": 0})
    assert response.status_code == 405
    assert response.get_json()["success"] is False
    assert db.session.scalar(select(func.count()).select_from(ShopSetting)) == 0
    assert shop(client)["shippingFee"] == 40


def test_every_page_embeds_the_same_reply(client, auth, factories):
    """Home, the catalogue, a book page, the cart and an unknown screen carry GET /api/shop's answer in a
    JSON block the client reads at start-up, with the admin's current fee."""
    client.put(SETTINGS, json={"shippingFee": 45}, headers=auth.admin())
    book = factories.book()
    expected = shop(client)
    for path in ("/", "/books", f"/book/{book.id}", "/cart", "/no-such-screen"):
        html = client.get(path).get_data(as_text=True)
        found = re.search(r'<script type="application/json" id="shop-data">(.*?)</script>', html)
        assert found, path
        assert json.loads(found.group(1)) == expected, path
        assert json.loads(found.group(1))["shippingFee"] == 45


def test_the_api_document_describes_the_reply(client):
    """/api/openapi.json names GET /api/shop and its fields."""
    document = client.get("/api/openapi.json").get_json()
    operation = document["paths"]["/api/shop"]["get"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    name = schema["$ref"].rsplit("/", 1)[-1]
    assert FIELDS <= set(document["components"]["schemas"][name]["properties"])


# The admin screens (their book form's formats and cover limits) move to the reply with their own rework.
ADMIN_SCREENS = ("features/admin", "app/routes/admin")


def _client_sources() -> list[tuple[Path, str]]:
    return [(path, path.read_text()) for path in CLIENT_SRC.rglob("*")
            if path.suffix in (".js", ".jsx") and not path.name.endswith(".test.js")
            and not str(path.relative_to(CLIENT_SRC)).startswith(ADMIN_SCREENS)]


def test_the_client_keeps_no_copy_of_the_shops_constants():
    """client/src never writes the shipping fee (₹40, 4000 paise), the list of states, the formats, the
    languages or the PIN rule itself: every screen takes them from GET /api/shop."""
    sources = _client_sources()
    assert sources
    # Lists: a copy names most of their entries; one mention (an example, a filter link) is not a copy.
    lists = {"states": STATES_AND_UNION_TERRITORIES, "formats": FORMATS, "languages": LANGUAGES}
    for path, text in sources:
        where = path.relative_to(CLIENT_SRC)
        assert "₹40" not in text and "4000" not in text, where
        assert not re.search(r"SHIPPING_(RUPEES|PAISE)\s*=", text), where
        assert "[1-9]" not in text and "[1-9][0-9]{5}" not in text, where
        assert not re.search(r"MAX_LINES\s*=\s*\d", text), where
        for name, values in lists.items():
            quoted = [value for value in values if f'"{value}"' in text]
            assert len(quoted) < min(3, len(values)), f"{where} copies the {name}: {quoted}"


def test_each_app_keeps_its_own_api_document(client, make_app):
    """Another app of the process, even one refused half-way through start-up, leaves this app's OpenAPI
    document whole (one document per app)."""
    with pytest.raises(RuntimeError, match="JOBS_URL"):
        make_app(JOBS_URL="amqp://127.0.0.1/")
    assert "/api/shop" in client.get("/api/openapi.json").get_json()["paths"]
