"""one shop address: the contact address merged into the seller's address

Revision ID: 0021_one_shop_address
Revises: 0020_bill
Create Date: 2026-11-25 21:40:00

Two settings held the shop's postal address: contact_address (footer and contact page, empty by default)
and seller_address (bills of supply and mail footers, a default address). seller_address is kept: bills must
print an address, so the one setting cannot be empty. An administrator's saved contact address becomes the
seller address unless the administrator had saved a seller address too (that one is on bills already, so it
wins); either way the contact_address row goes. A contact address under 10 characters (below the seller
address's minimum) is not carried over. Downgrade gives the contact address the seller's saved value back.
"""
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

revision = '0021_one_shop_address'
down_revision = '0020_bill'
branch_labels = None
depends_on = None

settings = sa.table('shop_settings', sa.column('key', sa.String(40)), sa.column('value', sa.JSON()),
                    sa.column('updated_at', sa.DateTime(timezone=True)))


def _stored(connection, key):
    """The saved value of a setting, or None when it has no row."""
    return connection.execute(sa.select(settings.c.value).where(settings.c.key == key)).scalar()


def upgrade():
    connection = op.get_bind()
    contact = _stored(connection, 'contact_address')
    seller = _stored(connection, 'seller_address')
    if isinstance(contact, str) and len(contact.strip()) >= 10 and seller is None:
        op.execute(settings.insert().values(key='seller_address', value=contact.strip(),
                                            updated_at=datetime.now(timezone.utc)))
    op.execute(settings.delete().where(settings.c.key == 'contact_address'))


def downgrade():
    connection = op.get_bind()
    seller = _stored(connection, 'seller_address')
    if isinstance(seller, str) and _stored(connection, 'contact_address') is None:
        op.execute(settings.insert().values(key='contact_address', value=seller[:200],
                                            updated_at=datetime.now(timezone.utc)))
