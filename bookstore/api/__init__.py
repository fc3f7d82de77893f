"""Thin HTTP adapters, one module per resource, all under /api."""
from flask import Flask

from bookstore.extensions import api


def register_blueprints(app: Flask) -> None:
    """Mount every API blueprint; each one declares its own /api/... prefix."""
    from bookstore.api import (auth, books, categories, contact, google, health, newsletter, orders, payments,
                               wishlist)
    from bookstore.api.admin import admin_blp
    from bookstore.api.admin import orders as admin_orders

    for module in (health, auth, google, books, categories, wishlist, contact, newsletter, orders, payments, admin_orders):
        api.register_blueprint(module.blp)
    api.register_blueprint(admin_blp)
