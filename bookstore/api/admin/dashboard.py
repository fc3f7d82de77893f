"""The administrators' dashboard: headline figures, orders by status, 30 days of revenue, low stock."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.dashboard import RecentOrdersReplySchema, StatsReplySchema
from bookstore.services import dashboard

blp = Blueprint("admin_dashboard", __name__, url_prefix="/api/admin/dashboard", description="Administration: dashboard")


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
