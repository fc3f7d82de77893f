"""The administrators' dashboard: headline figures, orders by status, 30 days of revenue, low stock."""
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from bookstore.api.admin.orders import AdminOrderSchema
from bookstore.schemas.book import BookSchema
from bookstore.schemas.fields import Rupees
from bookstore.services import dashboard
from bookstore.services.india import IST_NAME

blp = Blueprint("admin_dashboard", __name__, url_prefix="/api/admin/dashboard", description="Administration: dashboard")


class RevenueDaySchema(Schema):
    date = fields.String()
    revenue = Rupees(attribute="revenue_paise")
    orders = fields.Integer()


class LowStockBookSchema(BookSchema):
    class Meta:
        fields = ("_id", "title", "author", "isbn", "category", "stock", "thumbnailUrl")


class StatsReplySchema(Schema):
    success = fields.Constant(True)
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


class RecentOrdersReplySchema(Schema):
    success = fields.Constant(True)
    orders = fields.List(fields.Nested(AdminOrderSchema))


@blp.route("/stats", methods=["GET"])
@blp.response(200, StatsReplySchema)
def stats():
    """Totals (revenue: paid orders and delivered cash on delivery, never cancelled), by status, by IST day."""
    return dashboard.stats()


@blp.route("/recent-orders", methods=["GET"])
@blp.response(200, RecentOrdersReplySchema)
def recent_orders():
    """The 10 newest orders with the customer's name."""
    return {"orders": dashboard.recent_orders()}
