"""an e-mail change waits for the new address's link; confirmation mails are capped per recipient

Revision ID: 0029_pending_email_and_caps
Revises: 0028_order_checkout_browser
Create Date: 2026-11-27 21:45:00

users.pending_email: the address a profile change asked for, until its link is opened (product §2).
book_alerts.confirmation_sent_at, newsletter_subscribers.confirmation_sent_at: when the double opt-in mail
went out, so a second request while its link is valid sends nothing.
mail_outbox.kind ("confirmation" or NULL) and an index on (to_address, kind, created_at): the per-recipient
cap on confirmation mails counts there, in the database every worker shares.
"""
import sqlalchemy as sa
from alembic import op

revision = '0029_pending_email_and_caps'
down_revision = '0028_order_checkout_browser'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pending_email', sa.String(length=254), nullable=True))
    with op.batch_alter_table('book_alerts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('confirmation_sent_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('newsletter_subscribers', schema=None) as batch_op:
        batch_op.add_column(sa.Column('confirmation_sent_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=20), nullable=True))
        batch_op.create_index('ix_mail_outbox_to_kind', ['to_address', 'kind', 'created_at'], unique=False)


def downgrade():
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_mail_outbox_to_kind')
        batch_op.drop_column('kind')
    with op.batch_alter_table('newsletter_subscribers', schema=None) as batch_op:
        batch_op.drop_column('confirmation_sent_at')
    with op.batch_alter_table('book_alerts', schema=None) as batch_op:
        batch_op.drop_column('confirmation_sent_at')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('pending_email')
