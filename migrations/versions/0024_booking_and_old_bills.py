"""parcels booked by a job (`booking`, `booking_failed`), and bill numbers for orders paid before bills existed

Revision ID: 0024_booking_and_old_bills
Revises: 0023_returns
Create Date: 2026-11-25 21:30:00

shipments: two new statuses, `booking` (Shiprocket is booking it in a job; awb is NULL until then, so
awb becomes nullable) and `booking_failed`; booking_attempts, booking_next_at and booking_error follow
the job.

Data: every order that owes a bill (paid, or delivered) and has no number gets one, in the order its
bill became due (the earlier of its payment and its delivery; id breaks ties), per financial year
(April to March, India time), continuing that year's counter in bill_counters. Its billed_at is that
moment. This replaces numbering on the first download, so GET /api/orders/{id}/bill never writes.
The downgrade keeps the numbers (a bill number, once given, is never taken back).
"""
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from alembic import op

revision = '0024_booking_and_old_bills'
down_revision = '0023_returns'
branch_labels = None
depends_on = None

OLD_STATUSES = ("status IN ('shipped', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', "
                "'failed_attempt', 'rto', 'received')")
NEW_STATUSES = ("status IN ('booking', 'booking_failed', 'shipped', 'picked_up', 'in_transit', 'out_for_delivery', "
                "'delivered', 'failed_attempt', 'rto', 'received')")
IST = timezone(timedelta(hours=5, minutes=30))
MAX_SERIAL = 99999999  # "BS/2627/99999999" is 16 characters, the most a bill number may have

orders = sa.table('orders', sa.column('id', sa.Integer), sa.column('status', sa.String),
                  sa.column('payment_status', sa.String), sa.column('paid_at', sa.DateTime(timezone=True)),
                  sa.column('updated_at', sa.DateTime(timezone=True)), sa.column('created_at', sa.DateTime(timezone=True)),
                  sa.column('bill_number', sa.String), sa.column('billed_at', sa.DateTime(timezone=True)))
changes = sa.table('order_status_changes', sa.column('order_id', sa.Integer), sa.column('status', sa.String),
                   sa.column('at', sa.DateTime(timezone=True)))
counters = sa.table('bill_counters', sa.column('financial_year', sa.String), sa.column('last_number', sa.Integer))


def upgrade():
    with op.batch_alter_table('shipments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('booking_attempts', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('booking_next_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('booking_error', sa.String(length=300), server_default='', nullable=False))
        batch_op.alter_column('awb', existing_type=sa.String(length=40), nullable=True)
        batch_op.drop_constraint(op.f('ck_shipments_status'), type_='check')
        batch_op.create_check_constraint(op.f('ck_shipments_status'), sa.text(NEW_STATUSES))
    number_old_bills(op.get_bind())



def _utc(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes, stored in UTC."""
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def financial_year(moment: datetime) -> str:
    """'2026-27' for any moment from 1 April 2026 to 31 March 2027, India time (as services/bills.py)."""
    day = moment.astimezone(IST).date()
    start = day.year if day.month >= 4 else day.year - 1
    return f"{start}-{(start + 1) % 100:02d}"


def number_old_bills(connection) -> int:
    """Number every owed, unnumbered bill in the order it became due, continuing each year's counter."""
    delivered = (sa.select(changes.c.order_id, sa.func.min(changes.c.at).label('at'))
                 .where(changes.c.status == 'delivered').group_by(changes.c.order_id).subquery())
    rows = connection.execute(
        sa.select(orders.c.id, orders.c.paid_at, delivered.c.at, orders.c.updated_at, orders.c.created_at)
        .select_from(orders.outerjoin(delivered, delivered.c.order_id == orders.c.id))
        .where(orders.c.bill_number.is_(None),
               sa.or_(orders.c.payment_status == 'paid', orders.c.status == 'delivered'))).all()
    due = []
    for order_id, paid_at, delivered_at, updated_at, created_at in rows:
        moments = [m for m in (_utc(paid_at), _utc(delivered_at)) if m is not None]
        due.append((min(moments) if moments else _utc(updated_at) or _utc(created_at), order_id))
    due.sort()
    last = dict(connection.execute(sa.select(counters.c.financial_year, counters.c.last_number)).all())
    known = set(last)
    for moment, order_id in due:
        year = financial_year(moment)
        serial = last.get(year, 0) + 1
        if serial > MAX_SERIAL:
            continue  # the year's numbers are used up: the order stays without a bill (its download is 409)
        last[year] = serial
        connection.execute(orders.update().where(orders.c.id == order_id).values(
            bill_number=f"BS/{year[2:4]}{year[5:7]}/{serial:06d}", billed_at=moment))
    for year, serial in last.items():
        if year in known:
            connection.execute(counters.update().where(counters.c.financial_year == year).values(last_number=serial))
        else:
            connection.execute(counters.insert().values(financial_year=year, last_number=serial))
    return len(due)


def downgrade():
    op.execute("DELETE FROM shipments WHERE status IN ('booking', 'booking_failed')")
    with op.batch_alter_table('shipments', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_shipments_status'), type_='check')
        batch_op.create_check_constraint(op.f('ck_shipments_status'), sa.text(OLD_STATUSES))
        batch_op.alter_column('awb', existing_type=sa.String(length=40), nullable=False)
        batch_op.drop_column('booking_error')
        batch_op.drop_column('booking_next_at')
        batch_op.drop_column('booking_attempts')
