"""Administrators' coupons: the list with usage counts, create and change (guarded: under /api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.models import parse_id
from bookstore.errors import NotFound
from bookstore.schemas.coupon import CouponInputSchema, CouponListReplySchema, CouponReplySchema, CouponUpdateSchema
from bookstore.security import current_user
from bookstore.services import coupons

blp = Blueprint("admin_coupons", __name__, url_prefix="/api/admin/coupons", description="Administration: coupons")


@blp.route("", methods=["GET"])
@blp.response(200, CouponListReplySchema)
def list_coupons():
    """Every coupon with how often it was used, newest first."""
    return {"coupons": coupons.listing()}


@blp.route("", methods=["POST"])
@blp.arguments(CouponInputSchema)
@blp.response(201, CouponReplySchema)
def create_coupon(data):
    """Create a coupon (code upper-cased; 409 if it exists)."""
    return {"message": "Coupon created.", "coupon": coupons.create(data, current_user())}


@blp.route("/<string:coupon_id>", methods=["PUT"])
@blp.arguments(CouponUpdateSchema)
@blp.response(200, CouponReplySchema)
def change_coupon(data, coupon_id):
    """Change a coupon's rules or switch it off; fields left out keep their values."""
    key = parse_id(coupon_id)
    if key is None:
        raise NotFound("Coupon not found.")
    return {"message": "Coupon saved.", "coupon": coupons.change(key, data, current_user())}
