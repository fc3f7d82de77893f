"""The e-mails a shopper gets about an order: placed, paid, and each status change.

Each links to the order with a signed, expiring token (`order_links`), so a guest needs no account to
follow, cancel or download the bill; the delivered mail carries the bill of supply as a PDF.
"""
from datetime import timezone

from flask import current_app

from bookstore import money
from bookstore.models import Order
from bookstore.services import delivery, mail
from bookstore.services.india import IST

# Statuses after which the parcel is no longer on its way: their mails promise no dates and no address.
_JOURNEY_OVER = ("delivered", "cancelled", "returned")


def _rupees(paise: int) -> str:
    """Receipts show paise too: '₹940.00'."""
    return money.rupees_text(paise, always_paise=True)


def _summary(order: Order) -> str:
    lines = "\n".join(f"  {line.quantity} × {line.title} — {_rupees(line.line_total_paise)}" for line in order.lines)
    if order.discount_paise:
        lines += f"\n  Coupon {order.coupon_code} — −{_rupees(order.discount_paise)}"
    lines += f"\n  Shipping — {_rupees(order.shipping_paise)}"
    if order.cod_fee_paise:
        # The fee an admin set for cash orders is part of the total, as on the bill and the order page.
        lines += f"\n  Cash on delivery fee — {_rupees(order.cod_fee_paise)}"
    text = f"{lines}\n  Total — {_rupees(order.total_paise)}\n"
    given_back = [row for row in order.refunds if row.status in ("refund_pending", "refunded", "not_collected")]
    for row in given_back:
        what = "Parcel that came back to us (not delivered)" if row.kind == "rto" else f"Refund: {row.reason}"
        text += f"  {what} — −{_rupees(row.amount_paise)}\n"
    if given_back:
        net = order.total_paise - sum(row.amount_paise for row in given_back)
        text += f"  {'You pay' if order.payment_status == 'pending' else 'You paid'} — {_rupees(net)}\n"
    text += "\n"
    if order.status not in _JOURNEY_OVER and order.has_printed:
        text += (f"Delivering to {order.first_name} {order.last_name}, {order.address}, {order.city}, "
                 f"{order.state} {order.zip_code}.\n")
        if order.promised:
            text += f"Arriving {delivery.dates_text(*order.promised)}.\n"
        text += "\n"
    text += _downloads_text(order)
    text += f"See your order (no sign-in needed): {mail.order_page_link(order)}"
    if order.bill_number:
        text += f"\nBill of supply {order.bill_number}: {mail.bill_link(order)}"
    return text


def _downloads_text(order: Order) -> str:
    """How many downloads each e-book or audiobook has and until when (product §7.11), once paid."""
    if order.downloads_until is None or order.status in ("cancelled", "returned"):
        return ""
    until = order.downloads_until
    until = (until if until.tzinfo else until.replace(tzinfo=timezone.utc)).astimezone(IST)
    return (f"Your e-books and audiobooks are ready: download each up to {current_app.config['DOWNLOADS_PER_LINE']} "
            f"times until {until.day} {until:%B %Y}, from the Download buttons on your order page.\n")


def order_placed(order: Order) -> None:
    """Cash on delivery: the order is confirmed as soon as it is placed."""
    # A large cash order waits for the shop's call (checkout._confirm_by): the shopper knows it may be cancelled.
    confirm = ("\n\nAs this is a large cash-on-delivery order, we will confirm it with you before we dispatch it; "
               f"if we cannot confirm it within {current_app.config['LARGE_COD_HOLD_HOURS']} hours, it is cancelled and its "
               "books released." if order.confirm_by else "")
    mail.queue(order.email, f"Order {order.order_number} placed",
               f"Hello {order.first_name},\n\nThank you for your order {order.order_number}. "
               f"Please keep {_rupees(order.total_paise)} ready for the delivery person.{confirm}\n\n{_summary(order)}")


def order_paid(order: Order) -> None:
    """Online: confirmed once Razorpay's payment is verified."""
    mail.queue(order.email, f"Order {order.order_number} confirmed — payment received",
               f"Hello {order.first_name},\n\nWe have received your payment of {_rupees(order.total_paise)} "
               f"(payment {order.razorpay_payment_id}) for order {order.order_number}.\n\n{_summary(order)}")


def status_changed(order: Order, note: str = "") -> None:
    """Any status change, including cancellation and its refund."""
    extra = f"\n\n{note}" if note else ""
    if order.status == "cancelled" and order.payment_status in ("refund_pending", "refunded"):
        extra += f"\n\nYour payment of {_rupees(order.total_paise)} is being refunded; it reaches you in 3-5 business days."
    if order.status == "delivered" and order.bill_number:
        extra += f"\n\nYour bill of supply {order.bill_number} is attached."
    mail.queue(order.email, f"Order {order.order_number} is now {order.status}",
               f"Hello {order.first_name},\n\nYour order {order.order_number} is now {order.status}.{extra}\n\n"
               f"{_summary(order)}", bill_of=order if order.status == "delivered" and order.bill_number else None)
