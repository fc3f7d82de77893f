"""The administrator API. Everything under /api/admin is guarded by security.guard_admin_routes."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import SuccessSchema

admin_blp = Blueprint("admin", __name__, url_prefix="/api/admin", description="Administration")


@admin_blp.route("/ping", methods=["GET"])
@admin_blp.response(200, SuccessSchema)
def ping():
    """A trivial admin call, so clients and tests can check an admin session."""
    return {"success": True, "message": "ok"}
