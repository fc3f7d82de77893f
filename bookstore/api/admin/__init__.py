"""The administrator API. Every route under it is guarded once, here, before any view runs."""
from flask_smorest import Blueprint

from bookstore.security import require_admin

admin_blp = Blueprint("admin", __name__, url_prefix="/api/admin", description="Administration")


@admin_blp.before_request
def _only_admins():
    """Secure by default: a route added to this blueprint can never forget the role check."""
    require_admin()


@admin_blp.route("/ping", methods=["GET"])
def ping():
    """A trivial admin call, so clients and tests can check an admin session."""
    return {"success": True, "message": "ok"}
