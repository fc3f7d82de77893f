"""The data model: one module per aggregate, all imported here for Alembic and the app."""
from bookstore.models.base import parse_id, utcnow
from bookstore.models.user import User, ROLES
from bookstore.models.category import Category
from bookstore.models.exam import Exam, ExamSubject, book_exams, book_subjects
from bookstore.models.book import DIGITAL_FORMATS, MEDIA, Book, medium_from_text
from bookstore.models.wishlist import WishlistItem
from bookstore.models.contact import ContactMessage, CONTACT_STATUSES, CONTACT_SUBJECTS
from bookstore.models.newsletter import NewsletterSubscriber
from bookstore.models.order import (ADDRESS_TYPES, ORDER_STATUSES, PAYMENT_METHODS, PAYMENT_STATUSES, BillCounter,
                                    Order, OrderLine, OrderLineBook, OrderStatusChange, OutboxMail, PaymentEvent)
from bookstore.models.account_token import TOKEN_PURPOSES, AccountToken, RevokedToken
from bookstore.models.audit import AuditEntry
from bookstore.models.coupon import COUPON_KINDS, Coupon, CouponUse
from bookstore.models.shop_setting import ShopSetting
from bookstore.models.search_synonym import SearchSynonym
from bookstore.models.review import REVIEW_STATUSES, Review
from bookstore.models.alert import ALERT_KINDS, BookAlert
from bookstore.models.shipment import (AGGREGATORS, SHIPMENT_EVENTS, SHIPMENT_STATUSES, Courier, Shipment,
                                       ShipmentEvent, ShipmentLine)
from bookstore.models.account_data import MAX_ADDRESSES, CartLine, SavedAddress
from bookstore.models.kit import Kit, KitBook
from bookstore.models.order_refund import ORDER_REFUND_KINDS, ORDER_REFUND_STATUSES, OrderRefund
from bookstore.models.return_request import (REFUND_ROUTES, RETURN_METHODS, RETURN_REASONS, RETURN_STATUSES,
                                             ReturnLine, ReturnPhoto, ReturnRequest)
from bookstore.models.stock_movement import ADJUSTMENT_REASONS, MOVEMENT_KINDS, StockMovement

__all__ = [
    "parse_id", "utcnow", "User", "ROLES", "Category", "Book", "DIGITAL_FORMATS", "MEDIA", "medium_from_text", "Exam", "ExamSubject",
    "book_exams", "book_subjects", "WishlistItem", "ContactMessage",
    "CONTACT_STATUSES", "CONTACT_SUBJECTS", "NewsletterSubscriber", "Order", "OrderLine", "OrderStatusChange",
    "PaymentEvent", "OutboxMail", "BillCounter", "ORDER_STATUSES", "PAYMENT_STATUSES", "PAYMENT_METHODS", "ADDRESS_TYPES",
    "AccountToken", "RevokedToken", "TOKEN_PURPOSES", "AuditEntry", "Coupon", "CouponUse", "COUPON_KINDS", "ShopSetting",
    "SearchSynonym", "Review", "REVIEW_STATUSES", "BookAlert", "ALERT_KINDS",
    "Courier", "Shipment", "ShipmentLine", "ShipmentEvent",
    "SHIPMENT_EVENTS", "SHIPMENT_STATUSES", "AGGREGATORS",
    "CartLine", "SavedAddress", "MAX_ADDRESSES",
    "Kit", "KitBook", "OrderLineBook",
    "OrderRefund", "ORDER_REFUND_KINDS", "ORDER_REFUND_STATUSES", "ReturnRequest", "ReturnLine", "ReturnPhoto", "RETURN_STATUSES", "RETURN_REASONS", "RETURN_METHODS",
    "REFUND_ROUTES", "StockMovement", "MOVEMENT_KINDS", "ADJUSTMENT_REASONS",
]
