"""Administrators' kits: the list, one kit, create, change and archive (guarded: under /api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import pagination
from bookstore.schemas.kit import (AdminKitListReplySchema, AdminKitQuerySchema, KitInputSchema, KitReplySchema,
                                   KitUpdateSchema)
from bookstore.security import current_user
from bookstore.services import kits

blp = Blueprint("admin_kits", __name__, url_prefix="/api/admin/kits", description="Administration: kits")


@blp.route("", methods=["GET"])
@blp.arguments(AdminKitQuerySchema, location="query")
@blp.response(200, AdminKitListReplySchema)
def list_kits(query):
    """Kits newest first, archived ones too, by name or slug and status."""
    page = kits.admin_list(query["page"], query["limit"], query.get("search"), query.get("status"))
    return {"kits": page.items, "pagination": pagination(page, "totalKits")}


@blp.route("", methods=["POST"])
@blp.arguments(KitInputSchema)
@blp.response(201, KitReplySchema)
def create_kit(data):
    """Create a kit (the slug from the name when none is sent; 409 if taken); audited."""
    return {"message": "Kit created.", "kit": kits.create(data, current_user())}


@blp.route("/<string:kit_id>", methods=["GET"])
@blp.response(200, KitReplySchema)
def get_kit(kit_id):
    """One kit, archived too."""
    return {"kit": kits.find_any(kit_id)}


@blp.route("/<string:kit_id>", methods=["PUT"])
@blp.arguments(KitUpdateSchema)
@blp.response(200, KitReplySchema)
def change_kit(data, kit_id):
    """Change a kit, or archive (`archived: true`) or restore it; fields left out keep their values; audited."""
    return {"message": "Kit saved.", "kit": kits.change(kit_id, data, current_user())}
