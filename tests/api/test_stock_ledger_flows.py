"""The stock ledger across the shop's flows (product §5.9): kits, returns received, parcels back from an RTO,
and the back-in-stock alert woken by an adjustment; `flask check-stock` holds after all of them."""
import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import StockMovement
from tests.api import test_returns as returns
from tests.api import test_shipments as shipments
from tests.api.test_kits import as_line, kit_order, make_kit
from tests.api.test_stock_ledger import opened, rows
from tests.factories import placed


@pytest.fixture
def app(shop_app):
    return shop_app


def test_a_kit_order_and_its_cancel_write_kit_rows(client, factories, auth, runner):
    """A kit line takes each of its books as `kit_sale`, a book line beside it as `sale`, in one UPDATE per
    book; the cancel gives them back as `kit_cancel` and `cancel`."""
    admin = auth.admin()
    physics, chemistry = opened(factories.book(stock=10), factories.book(stock=7))
    kit = make_kit(client, admin, [(physics, 1), (chemistry, 2)])
    owner = auth.customer()
    body = kit_order([(as_line(kit), 2), (("book", physics.id, physics.sale_price_paise), 1)])
    response = client.post("/api/orders", json=body, headers=owner)
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert rows(physics) == [("opening", 10, 10), ("kit_sale", -2, 8), ("sale", -1, 7)]  # in the cart's order
    assert rows(chemistry) == [("opening", 7, 7), ("kit_sale", -4, 3)]
    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 200
    assert rows(physics)[3:] == [("kit_cancel", 2, 9), ("cancel", 1, 10)]
    assert rows(chemistry)[2:] == [("kit_cancel", 4, 7)]
    assert runner.invoke(args=["check-stock"]).exit_code == 0


def test_a_received_return_writes_return_restocked_rows(client, factories, auth, runner):
    admin = auth.admin()
    (book,) = opened(factories.book(stock=10))
    shopper = auth.customer()
    order = returns.deliver(client, placed(client, [(book, 3)], headers=shopper), admin)
    made = returns.ask(client, order, [returns.line(book, 2)], shopper, refundTo=returns.UPI).get_json()["returnRequest"]
    assert returns.step(client, made["_id"], admin, status="approved", method="pickup").status_code == 200
    reply = returns.step(client, made["_id"], admin, status="received",
                         lines=[{"book": str(book.id), "resaleable": True}])
    assert reply.status_code == 200, reply.get_json()
    assert rows(book)[-1] == ("return_restocked", 2, 9)
    row = db.session.scalars(select(StockMovement).where(StockMovement.kind == "return_restocked")).one()
    assert row.return_id is not None and row.order is not None and row.actor.startswith("admin:")
    assert runner.invoke(args=["check-stock"]).exit_code == 0


def test_a_parcel_back_from_rto_writes_rto_received_rows(client, factories, auth, runner):
    admin = auth.admin()
    (book,) = opened(factories.book(stock=10))
    order = placed(client, [(book, 2)])
    sid = shipments.ship(client, order, admin, courier="DTDC", awb="MX9").get_json()["order"]["shipments"][0]["_id"]
    assert shipments.event(client, order, sid, admin, status="rto").status_code == 201
    assert shipments.receive(client, order, sid, admin).status_code == 200
    assert rows(book) == [("opening", 10, 10), ("sale", -2, 8), ("rto_received", 2, 10)]
    row = db.session.scalars(select(StockMovement).where(StockMovement.kind == "rto_received")).one()
    assert row.shipment_id == int(sid)
    assert runner.invoke(args=["check-stock"]).exit_code == 0
