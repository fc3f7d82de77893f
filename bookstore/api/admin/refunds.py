"""Refunds that need a person: the list and the retry (guarded: under /api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import AdminPageQuerySchema, pagination
from bookstore.schemas.order import AdminOrderReplySchema
from bookstore.schemas.order_refund import StuckRefundListReplySchema
from bookstore.security import current_user
from bookstore.services import orders, refund_attention

blp = Blueprint("admin_refunds", __name__, url_prefix="/api/admin/refunds", description="Administration: refunds")


@blp.route("/attention", methods=["GET"])
@blp.arguments(AdminPageQuerySchema, location="query")
@blp.response(200, StuckRefundListReplySchema)
def attention(query):
    """Refunds Razorpay refused for good or that failed again and again (cancels, returns, RTO parcels, part
    refunds), the longest waiting first."""
    page = refund_attention.stuck(query["page"], query["limit"])
    return {"refunds": page.items, "pagination": pagination(page, "totalRefunds")}


@blp.route("/<string:kind>/<string:refund_id>/retry", methods=["POST"])
@blp.response(200, AdminOrderReplySchema)
def retry(kind, refund_id):
    """Retry a refund once its cause is fixed (kind: cancel, return, rto or part): the stop and the error are
    cleared, the retry audited, the job asked for again; never more than the order may still refund. 409 when
    the refund is not waiting or nothing is left to refund."""
    order = refund_attention.retry(kind, refund_id, current_user())
    return {"message": "Refund asked for again", "order": orders.find(order.public_id)}
