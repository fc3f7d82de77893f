"""The API answers what its OpenAPI document says (issue 12): schemathesis over every operation.

Every operation of /api/openapi.json is called with generated input (valid and invalid), as a guest,
as a shopper and as an administrator, and each answer must pass schemathesis' checks: no 5xx, a
documented status, the documented content type and a body matching the documented schema (errors
included: the envelope). The run is bounded (few examples per operation, a fixed seed), so it stays a
small part of the suite on SQLite and PostgreSQL alike.
"""
import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from bookstore import create_app
from tests.conftest import Auth, _config
from tests.factories import Factories

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES_PER_OPERATION = 10


def _document_app():
    """An app that only serves the document (it never touches its database) to collect the operations;
    each test calls the `app` fixture's app, on the test database."""
    folder = tempfile.mkdtemp(prefix="openapi-")
    return create_app(_config(f"sqlite:///{folder}/unused.db", folder))


schema = schemathesis.openapi.from_wsgi("/api/openapi.json", _document_app())


@pytest.fixture
def callers(shop_app) -> dict[str, dict]:
    """The headers of a guest (no token), a shopper and an administrator, on the shop with online payment
    (the fake Razorpay) and mail configured; a book exists to find."""
    auth = Auth(shop_app.test_client(), Factories())
    Factories().book(stock=3)
    # schemathesis reads the body as sent; compressed bytes would not be JSON to it.
    plain = {"Accept-Encoding": "identity"}
    return {"guest": plain, "shopper": {**plain, **auth.customer(email="fuzz-shopper@example.in")},
            "admin": {**plain, **auth.admin(email="fuzz-admin@example.in")}}


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, shop_app, callers):
    """Each generated call of an operation, as a guest, a shopper and an admin: never a 5xx, never an
    undocumented status, content type or shape."""
    for headers in callers.values():
        case.call_and_validate(headers=headers, checks=CHECKS, app=shop_app)


def test_real_replies_match_the_document(shop_app, razorpay):
    """What generated input rarely reaches (placed, replayed, paid and cancelled orders, an admin's book
    with its version, a profile without a phone) is checked against the document too."""
    from tests.fakes.uploads import cover
    from tests.factories import order_payload

    client = shop_app.test_client()
    auth, factories = Auth(client, Factories()), Factories()
    shopper, admin = auth.customer(email="real-shopper@example.in"), auth.admin(email="real-admin@example.in")
    book = factories.book(stock=5, price_paise=49900)
    checked = []

    def call(method: str, path: str, expected: int, **kwargs):
        response = client.open(path, method=method, **kwargs)
        assert response.status_code == expected, (method, path, response.get_json())
        operation = schema.find_operation_by_path(method, path.split("?")[0])
        assert operation is not None, path
        operation.validate_response(response)
        checked.append((method, path, expected))
        return response.get_json()

    placed = call("POST", "/api/orders", 201, json=order_payload([(book, 1)]),
                  headers={**shopper, "Idempotency-Key": "k-1"})
    order_id = placed["order"]["_id"]
    call("POST", "/api/orders", 200, json=order_payload([(book, 1)]), headers={**shopper, "Idempotency-Key": "k-1"})
    call("GET", f"/api/orders/{order_id}", 200, headers=shopper)
    call("GET", "/api/orders/mine", 200, headers=shopper)
    call("GET", f"/api/admin/orders/{order_id}", 200, headers=admin)
    call("POST", f"/api/orders/{order_id}/cancel", 200, headers=shopper)
    online = call("POST", "/api/orders", 201, json=order_payload([(book, 1)], "online"), headers=shopper)
    call("POST", "/api/payments/create-order", 200, json={"orderId": online["order"]["_id"]}, headers=shopper)
    call("GET", "/api/auth/profile", 200, headers=shopper)
    created = call("POST", "/api/books", 201, headers=admin, json={
        "title": "Organic Chemistry Workbook", "author": "O. P. Tandon", "description": "Practice problems.",
        "price": 300, "category": "GATE", "weight": "400g", "imageUrl": cover(), "stock": 4})
    book_id = created["book"]["_id"]
    version = call("GET", f"/api/books/{book_id}?includeArchived=true", 200, headers=admin)["version"]
    call("PUT", f"/api/books/{book_id}", 200, json={"stock": 6}, headers={**admin, "If-Match": version})
    call("GET", "/api/books/suggest?q=organic", 200)
    call("GET", "/api/books?search=chemistry", 200)
    assert len(checked) == 14
