"""The shop settings behind delivery estimates, cash on delivery and fees (guarded: under /api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.delivery import ShopSettingsReplySchema, ShopSettingsSchema
from bookstore.security import current_user
from bookstore.services import delivery

blp = Blueprint("admin_shop_settings", __name__, url_prefix="/api/admin/shop-settings",
                description="Administration: shop settings")


@blp.route("", methods=["GET"])
@blp.response(200, ShopSettingsReplySchema)
def read_settings():
    """Every setting, defaults included."""
    return {"settings": delivery.settings()}


@blp.route("", methods=["PUT"])
@blp.arguments(ShopSettingsSchema)
@blp.response(200, ShopSettingsReplySchema)
def update_settings(changes):
    """Change the settings sent (zones one by one); the others are kept. Audited."""
    return {"message": "Settings saved.", "settings": delivery.update_settings(changes, current_user())}
