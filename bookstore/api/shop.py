"""The shop's public constants: fees, limits and the lists the client's forms offer (read once at start-up)."""
from bookstore.blueprint import Blueprint
from bookstore.extensions import limiter
from bookstore.schemas.shop import ShopReplySchema
from bookstore.services import delivery

blp = Blueprint("shop", __name__, url_prefix="/api/shop", description="Shop")

# Browsers and proxies may reuse the answer briefly; an admin's new fee shows within this many seconds.
MAX_AGE = 60


@blp.route("", methods=["GET"])
@limiter.exempt  # one small read of public settings, also embedded in every page
@blp.response(200, ShopReplySchema, headers={"Cache-Control": {
    "description": f"public, max-age={MAX_AGE}", "schema": {"type": "string"}}})
def shop():
    """Shipping fee, the zones with a fee of their own and the free-shipping threshold, cash-on-delivery cap
    and fee, order limits, the PIN pattern, states, book formats and languages, and cover image limits."""
    return delivery.rules(), 200, {"Cache-Control": f"public, max-age={MAX_AGE}"}
