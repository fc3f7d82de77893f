"""The administrators' dashboard: headline figures, revenue by day, low stock, recent orders."""
from marshmallow import Schema, fields

from bookstore.schemas.common import ReplySchema
from bookstore.schemas.book import BookCardSchema
from bookstore.schemas.fields import Rupees
from bookstore.schemas.order import AdminOrderSummarySchema
from bookstore.services import dashboard
from bookstore.services.india import IST_NAME


class RevenueDaySchema(Schema):
    date = fields.String()
    revenue = Rupees(attribute="revenue_paise")
    orders = fields.Integer()


class LowStockBookSchema(BookCardSchema):
    class Meta:
        fields = ("_id", "title", "author", "isbn", "category", "stock", "thumbnailUrl")


class StatsReplySchema(ReplySchema):
    totalBooks = fields.Integer(attribute="total_books")
    inStockBooks = fields.Integer(attribute="in_stock_books")
    archivedBooks = fields.Integer(attribute="archived_books")
    totalOrders = fields.Integer(attribute="total_orders")
    totalUsers = fields.Integer(attribute="total_users")
    totalRevenue = Rupees(attribute="revenue_paise")
    ordersByStatus = fields.Dict(keys=fields.String(), values=fields.Integer(), attribute="orders_by_status")
    timezone = fields.Constant(IST_NAME)
    revenueByDay = fields.List(fields.Nested(RevenueDaySchema), attribute="revenue_by_day")
    lowStockThreshold = fields.Constant(dashboard.LOW_STOCK_THRESHOLD)
    lowStock = fields.List(fields.Nested(LowStockBookSchema), attribute="low_stock")
    # Cancelled orders whose refund has failed again and again: a person should look at them.
    refundsNeedingAttention = fields.Integer(attribute="refunds_needing_attention")
    # Taken off by coupons on orders that were not cancelled.
    discountsGiven = Rupees(attribute="discounts_paise")


class RecentOrdersReplySchema(ReplySchema):
    orders = fields.List(fields.Nested(AdminOrderSummarySchema))
