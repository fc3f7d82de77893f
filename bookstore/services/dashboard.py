"""The administrators' dashboard figures, each one aggregate query in the database.

Revenue (product §10.8): order totals, shipping included, of paid orders and of delivered
cash-on-delivery orders, less what RTO parcels and part refunds gave back or never collected; cancelled
orders never count. Days are India Standard Time days.
"""
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

from sqlalchemy import and_, cast, Date, func, literal_column, or_, select

from bookstore.extensions import db
from bookstore.models import ORDER_STATUSES, Book, Category, Order, OrderRefund, User, utcnow
from bookstore.services import coupons, orders, refund_attention, refunds
from bookstore.services.india import IST

LOW_STOCK_THRESHOLD = 5
LOW_STOCK_LIMIT = 10
REVENUE_DAYS = 30
RECENT_ORDERS = 10


def net_paise():
    """An order's total less what its RTO parcels and part refunds gave back or never collected."""
    given_back = (select(func.coalesce(func.sum(OrderRefund.amount_paise), 0))
                  .where(OrderRefund.order_id == Order.id, OrderRefund.status.in_(refunds.COUNTED))
                  .correlate(Order).scalar_subquery())
    return Order.total_paise - given_back


def counts_as_revenue():
    """Paid, or cash on delivery and delivered; never cancelled."""
    return and_(Order.status != "cancelled",
                or_(Order.payment_status == "paid", and_(Order.payment_method == "cod", Order.status == "delivered")))


@dataclass
class Stats:
    total_books: int
    in_stock_books: int
    archived_books: int
    total_orders: int
    total_users: int
    revenue_paise: int
    orders_by_status: dict
    revenue_by_day: list
    low_stock: list
    refunds_needing_attention: int
    discounts_paise: int


def stats(today: date | None = None) -> Stats:
    """Every figure of the dashboard; `today` is an IST date (tests pass one)."""
    today = today or utcnow().astimezone(IST).date()
    books = db.session.execute(select(
        func.count().filter(Book.archived.is_(False), Book.stock > 0),
        func.count().filter(Book.archived.is_(True)),
    )).one()
    by_status = dict(db.session.execute(select(Order.status, func.count()).group_by(Order.status)).all())
    revenue = db.session.scalar(select(func.coalesce(func.sum(net_paise()), 0)).where(counts_as_revenue()))
    return Stats(
        total_books=db.session.scalar(select(func.coalesce(func.sum(Category.book_count), 0))),
        in_stock_books=books[0],
        archived_books=books[1],
        total_orders=sum(by_status.values()),
        total_users=db.session.scalar(select(func.count()).select_from(User).where(User.role == "customer")),
        revenue_paise=int(revenue),
        orders_by_status={status: by_status.get(status, 0) for status in ORDER_STATUSES},
        revenue_by_day=revenue_by_day(today),
        low_stock=list(db.session.scalars(
            select(Book).where(Book.archived.is_(False), Book.stock <= LOW_STOCK_THRESHOLD)
            .order_by(Book.stock, Book.title, Book.id).limit(LOW_STOCK_LIMIT))),
        refunds_needing_attention=refund_attention.total(),
        discounts_paise=coupons.discounts_given(),
    )


def _ist_day(column):
    """The IST calendar day of a UTC timestamp column, computed by the database."""
    if db.engine.dialect.name == "postgresql":
        return cast(func.timezone("Asia/Kolkata", column), Date)
    # SQLite keeps UTC times as text; its date() can shift them.
    return func.date(column, literal_column("'+330 minutes'"))


def revenue_by_day(today: date) -> list[dict]:
    """The last 30 IST days, oldest first, ending today: revenue (paise) and counted orders per day."""
    first = today - timedelta(days=REVENUE_DAYS - 1)
    since = datetime.combine(first, time.min, IST).astimezone(timezone.utc)
    day = _ist_day(Order.created_at).label("day")
    rows = db.session.execute(
        select(day, func.sum(net_paise()), func.count())
        .where(Order.created_at >= since, counts_as_revenue()).group_by(day)).all()
    found = {str(row[0]): (int(row[1]), row[2]) for row in rows}
    days = [first + timedelta(days=n) for n in range(REVENUE_DAYS)]
    return [{"date": d.isoformat(), "revenue_paise": found.get(d.isoformat(), (0, 0))[0],
             "orders": found.get(d.isoformat(), (0, 0))[1]} for d in days]


def recent_orders(limit: int = RECENT_ORDERS) -> list:
    """The newest orders, for the dashboard's table, as summaries (orders.summaries)."""
    return orders.summaries(list(db.session.scalars(
        select(Order).options(*orders.LIST_ONLY).order_by(Order.created_at.desc(), Order.id.desc()).limit(limit))))
