"""The shop's jobs. Each is idempotent: run twice, or by two consumers at once, it changes nothing
twice and sends nothing twice (the services below claim their rows with conditional UPDATEs).

Services are imported inside the jobs: they import this module to enqueue, and the jobs call them.
"""
from huey import crontab
from huey.exceptions import RetryTask

from bookstore.jobs.queue import huey, periodic, task


@task()
def send_mail(mail_id: int) -> bool:
    """Send one outbox mail (claimed first, so a repeat sends nothing); a failure is tried again after
    the mail's back-off, and the sweep catches whatever this misses."""
    from bookstore.services import mail
    if mail.send_one(mail_id):
        return True
    delay = mail.seconds_until_retry(mail_id)
    if delay is not None:
        raise RetryTask(delay=delay)
    return False


@periodic(crontab(minute="*"))
def sweep_outbox() -> int:
    """Every minute: enqueue unsent mails whose job was lost or whose sender died mid-send."""
    from bookstore.services import mail
    ids = mail.due_ids()
    for mail_id in ids:
        huey.enqueue(send_mail.s(mail_id))
    return len(ids)


@task(retries=5, retry_delay=60)
def refund_order(order_id: int) -> str:
    """Refund a cancelled order's payment through Razorpay (retried; a lost answer is looked up first)."""
    from bookstore.services import refunds
    return refunds.refund(order_id)


@task(retries=5, retry_delay=60)
def refund_return(return_id: int) -> str:
    """Refund a received return's books through Razorpay (part of the payment; a lost answer is looked up)."""
    from bookstore.services import returns
    return returns.refund(return_id)


@task(retries=5, retry_delay=60)
def refund_part(refund_id: int) -> str:
    """Refund an RTO parcel's share or an administrator's part refund through Razorpay (retried; a lost answer
    is looked up)."""
    from bookstore.services import refunds
    return refunds.refund_part(refund_id)


@periodic(crontab(minute="*/5"))
def sweep_refunds() -> int:
    """Every five minutes: enqueue refunds still pending (a lost job, or retries used up), of cancelled
    orders, of returns, of RTO parcels and part refunds."""
    from bookstore.services import refunds, returns
    ids = refunds.pending_ids()
    for order_id in ids:
        huey.enqueue(refund_order.s(order_id))
    return_ids = returns.pending_ids()
    for return_id in return_ids:
        huey.enqueue(refund_return.s(return_id))
    part_ids = refunds.pending_part_ids()
    for refund_id in part_ids:
        huey.enqueue(refund_part.s(refund_id))
    return len(ids) + len(return_ids) + len(part_ids)


@periodic(crontab(minute="*"))
def expire_unpaid_orders() -> int:
    """Every minute: cancel online orders unpaid past the payment window and free their stock."""
    from bookstore.services import orders
    return orders.release_all_expired_holds()


@periodic(crontab(minute="*/5"))
def reconcile_payments() -> int:
    """Every five minutes: ask Razorpay about online orders whose verify and webhook never came."""
    from bookstore.services import payments
    return payments.reconcile_unverified()


@periodic(crontab(minute="17"))
def prune_expired() -> int:
    """Hourly: delete spent or expired account links, revoked tokens past their expiry, and mail sent more
    than MAIL_KEEP_SENT_DAYS ago."""
    from bookstore.services import account_links, mail, sessions
    return account_links.prune_expired() + sessions.prune_expired() + mail.prune_sent()


@task()
def send_book_alerts(book_id: int) -> int:
    """Queue the mails of a book's due alerts (back in stock, newer edition), each marked sent with its mail,
    so running twice sends nothing twice."""
    from bookstore.services import alerts
    return alerts.send_due(book_id)


@periodic(crontab(minute="*/5"))
def sweep_book_alerts() -> int:
    """Every five minutes: enqueue the alert job of books whose due alerts were not sent (a lost job)."""
    from bookstore.services import alerts
    ids = alerts.due_book_ids()
    for book_id in ids:
        huey.enqueue(send_book_alerts.s(book_id))
    return len(ids)


@task()
def book_shipment(shipment_id: int) -> str:
    """Book a parcel with Shiprocket (product §7.8). A failure is tried again with a longer wait each time
    (30 s, 1, 2, 4 minutes...); after SHIPROCKET_BOOKING_ATTEMPTS tries the parcel is `booking_failed` and its
    lines are free. Each try names the same Shiprocket order, and only a parcel still `booking` is booked."""
    from bookstore.services import shipments
    outcome, delay = shipments.book_parcel(shipment_id)
    if delay is not None:
        raise RetryTask(delay=delay)
    return outcome


@periodic(crontab(minute="*/5"))
def sweep_bookings() -> int:
    """Every five minutes: enqueue parcels still booking whose next try is overdue (a lost job or consumer)."""
    from bookstore.services import shipments
    ids = shipments.pending_booking_ids()
    for shipment_id in ids:
        huey.enqueue(book_shipment.s(shipment_id))
    return len(ids)
