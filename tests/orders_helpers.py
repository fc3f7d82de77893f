"""Kept so that older imports keep working: the order factory and payload builder live in
tests/factories.py, the other shared helpers in tests/helpers.py. New tests import from those."""
from tests.factories import (ADDRESS, SHIPPING_PAISE, order_payload as body, place, placed,  # noqa: F401
                             rupees, server_total_paise)
from tests.helpers import (assert_refused, book_row, expire_payment_window, order_row, outbox_subjects,  # noqa: F401
                           set_order, stock_of, subjects)
