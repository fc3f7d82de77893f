"""shipments: couriers, shipments with their lines and tracking events; order status `returned`

Revision ID: 0017_shipments
Revises: 0016_alerts
Create Date: 2026-11-25 18:20:00

couriers is a list an administrator keeps (seeded with India Post, Delhivery, Blue Dart, DTDC, Ekart,
Xpressbees and Other, with their public tracking pages where they take the AWB in the address).
shipments holds one parcel of an order (courier and AWB unique together, Shiprocket's ids when it
was booked there), shipment_lines which copies of which order line went in it, shipment_events its
tracking events (dedupe_key unique, so a webhook delivered twice is recorded once).
orders.status gains `returned` (an RTO parcel received back); the check constraint is rebuilt.
"""
import sqlalchemy as sa
from alembic import op

revision = '0017_shipments'
down_revision = '0016_alerts'
branch_labels = None
depends_on = None

OLD_STATUSES = "status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled')"
NEW_STATUSES = "status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled', 'returned')"

COURIERS = [
    ("India Post", "https://www.indiapost.gov.in/_layouts/15/dop.portal.tracking/trackconsignment.aspx?consignment={awb}"),
    ("Delhivery", "https://www.delhivery.com/track/package/{awb}"),
    ("Blue Dart", "https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&trackNo={awb}"),
    ("DTDC", "https://www.dtdc.in/tracking.asp?strCnno={awb}"),
    ("Ekart", "https://ekartlogistics.com/shipmenttrack/{awb}"),
    ("Xpressbees", "https://www.xpressbees.com/shipment/tracking?awbNo={awb}"),
    ("Other", ""),
]


def upgrade():
    couriers = op.create_table('couriers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('tracking_url_template', sa.String(length=300), server_default='', nullable=False),
    sa.Column('active', sa.Boolean(), server_default=sa.true(), nullable=False),
    sa.Column('position', sa.Integer(), server_default='0', nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_couriers')),
    sa.UniqueConstraint('name', name=op.f('uq_couriers_name'))
    )
    op.bulk_insert(couriers, [{"name": name, "tracking_url_template": template, "active": True, "position": index}
                              for index, (name, template) in enumerate(COURIERS)])
    op.create_table('shipments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('courier', sa.String(length=60), nullable=False),
    sa.Column('awb', sa.String(length=40), nullable=False),
    sa.Column('tracking_url', sa.String(length=500), nullable=False),
    sa.Column('packages', sa.Integer(), nullable=False),
    sa.Column('aggregator', sa.String(length=20), nullable=False),
    sa.Column('provider_order_id', sa.String(length=40), server_default='', nullable=False),
    sa.Column('provider_shipment_id', sa.String(length=40), server_default='', nullable=False),
    sa.Column('label_url', sa.String(length=500), server_default='', nullable=False),
    sa.Column('pickup_token', sa.String(length=60), server_default='', nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('shipped_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('shipped_by', sa.String(length=40), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("aggregator IN ('manual', 'shiprocket')", name=op.f('ck_shipments_aggregator')),
    sa.CheckConstraint('packages >= 1', name=op.f('ck_shipments_packages_positive')),
    sa.CheckConstraint("status IN ('shipped', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', "
                       "'failed_attempt', 'rto', 'received')", name=op.f('ck_shipments_status')),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_shipments_order_id_orders'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shipments')),
    sa.UniqueConstraint('courier', 'awb', name=op.f('uq_shipments_courier'))
    )
    with op.batch_alter_table('shipments', schema=None) as batch_op:
        batch_op.create_index('ix_shipments_awb', ['awb'], unique=False)
        batch_op.create_index('ix_shipments_order_id', ['order_id'], unique=False)
    op.create_table('shipment_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shipment_id', sa.Integer(), nullable=False),
    sa.Column('order_line_id', sa.Integer(), nullable=False),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.CheckConstraint('quantity > 0', name=op.f('ck_shipment_lines_quantity_positive')),
    sa.ForeignKeyConstraint(['order_line_id'], ['order_lines.id'],
                            name=op.f('fk_shipment_lines_order_line_id_order_lines'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['shipment_id'], ['shipments.id'],
                            name=op.f('fk_shipment_lines_shipment_id_shipments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shipment_lines'))
    )
    with op.batch_alter_table('shipment_lines', schema=None) as batch_op:
        batch_op.create_index('ix_shipment_lines_order_line_id', ['order_line_id'], unique=False)
        batch_op.create_index('ix_shipment_lines_shipment_id', ['shipment_id'], unique=False)
    op.create_table('shipment_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('shipment_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('location', sa.String(length=120), nullable=False),
    sa.Column('note', sa.String(length=300), nullable=False),
    sa.Column('source', sa.String(length=40), nullable=False),
    sa.Column('dedupe_key', sa.String(length=200), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("status IN ('picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'failed_attempt', "
                       "'rto')", name=op.f('ck_shipment_events_status')),
    sa.ForeignKeyConstraint(['shipment_id'], ['shipments.id'],
                            name=op.f('fk_shipment_events_shipment_id_shipments'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_shipment_events')),
    sa.UniqueConstraint('dedupe_key', name=op.f('uq_shipment_events_dedupe_key'))
    )
    with op.batch_alter_table('shipment_events', schema=None) as batch_op:
        batch_op.create_index('ix_shipment_events_shipment_id', ['shipment_id'], unique=False)
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_orders_status'), type_='check')
        batch_op.create_check_constraint(op.f('ck_orders_status'), sa.text(NEW_STATUSES))


def downgrade():
    # A returned order reads as delivered-and-undone no more: it goes back to cancelled.
    op.execute("UPDATE orders SET status = 'cancelled' WHERE status = 'returned'")
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_orders_status'), type_='check')
        batch_op.create_check_constraint(op.f('ck_orders_status'), sa.text(OLD_STATUSES))
    with op.batch_alter_table('shipment_events', schema=None) as batch_op:
        batch_op.drop_index('ix_shipment_events_shipment_id')
    op.drop_table('shipment_events')
    with op.batch_alter_table('shipment_lines', schema=None) as batch_op:
        batch_op.drop_index('ix_shipment_lines_shipment_id')
        batch_op.drop_index('ix_shipment_lines_order_line_id')
    op.drop_table('shipment_lines')
    with op.batch_alter_table('shipments', schema=None) as batch_op:
        batch_op.drop_index('ix_shipments_order_id')
        batch_op.drop_index('ix_shipments_awb')
    op.drop_table('shipments')
    op.drop_table('couriers')
