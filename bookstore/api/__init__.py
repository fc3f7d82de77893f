"""Thin HTTP adapters, one module per resource, all under /api."""
from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Mount every API blueprint (each declares its own /api/... prefix) behind the one admin guard."""
    from bookstore.security import guard_admin_routes, refuse_untrusted_host
    from bookstore.api import (addresses, alerts, auth, books, cart, categories, contact, delivery, downloads, exams,
                               google, health, kits, newsletter, orders, payments, reviews, shipments, shop, wishlist)
    from bookstore.api.admin import admin_blp
    from bookstore.api.admin import audit as admin_audit
    from bookstore.api.admin import book_files as admin_book_files
    from bookstore.api.admin import coupons as admin_coupons
    from bookstore.api.admin import dashboard as admin_dashboard
    from bookstore.api.admin import feeds as admin_feeds
    from bookstore.api.admin import kits as admin_kits
    from bookstore.api.admin import newsletter as admin_newsletter
    from bookstore.api.admin import orders as admin_orders
    from bookstore.api.admin import refunds as admin_refunds
    from bookstore.api.admin import returns as admin_returns
    from bookstore.api.admin import reviews as admin_reviews
    from bookstore.api.admin import search_synonyms as admin_search_synonyms
    from bookstore.api.admin import shipments as admin_shipments
    from bookstore.api.admin import shop_settings as admin_shop_settings
    from bookstore.api.admin import stock as admin_stock

    api = app.extensions["bookstore_api"]
    app.before_request(refuse_untrusted_host)
    app.before_request(guard_admin_routes)
    for module in (health, auth, google, books, cart, categories, exams, wishlist, contact, newsletter, orders,
                   payments, delivery, shop, admin_orders, admin_dashboard, admin_newsletter, admin_audit,
                   admin_shop_settings, admin_coupons, admin_search_synonyms, reviews, admin_reviews, alerts,
                   shipments, admin_shipments, addresses, kits,
                   admin_kits, downloads, admin_book_files, admin_returns, admin_stock, admin_refunds,
                   admin_feeds):
        api.register_blueprint(module.blp)
    api.register_blueprint(newsletter.one_click_blp)
    api.register_blueprint(admin_blp)
