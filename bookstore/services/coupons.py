"""Coupons: whether a code applies to a basket, what it takes off, and its uses (taken once under
races, given back when the order is cancelled).

A discount is on the books only (never on shipping or fees). A percentage is of the books the coupon
covers (all, or one category's), rounded down to the paisa; a flat amount is capped at those books'
price. Customers are told apart by account, e-mail and phone, so a guest cannot use a one-per-customer
code again by changing one of them.
"""
from dataclasses import dataclass
from datetime import timezone

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError

from bookstore import money
from bookstore.errors import Conflict, NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.models import Coupon, CouponUse, Order, User, utcnow
from bookstore.services import audit
from bookstore.services.catalogue import find_category


@dataclass
class Basket:
    """What a coupon is judged on: each line's paise and category, and who is buying."""

    lines: list[tuple[int, int]]  # (line total in paise, category id)
    email: str | None
    phone: str | None
    user_id: int | None


@dataclass
class Verdict:
    """A code's outcome: the coupon and its discount, or why it does not apply."""

    code: str
    coupon: Coupon | None = None
    discount_paise: int = 0
    reason: str | None = None

    @property
    def applies(self) -> bool:
        return self.reason is None


USED_UP = "This coupon has been used up."
FIRST_ORDER_ONLY = "This coupon is for a first order only."
ALREADY_USED = "You have already used this coupon."


def normalise(code: str | None) -> str:
    return (code or "").strip().upper()


def _aware(moment):
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _customer_uses(coupon: Coupon, basket: Basket) -> int:
    who = [CouponUse.email == basket.email.lower()] if basket.email else []
    if basket.phone:
        who.append(CouponUse.phone == basket.phone)
    if basket.user_id:
        who.append(CouponUse.user_id == basket.user_id)
    if not who:
        return 0
    return db.session.scalar(select(func.count()).select_from(CouponUse).where(
        CouponUse.coupon_id == coupon.id, CouponUse.released_at.is_(None), or_(*who))) or 0


def _has_ordered_before(basket: Basket, besides: int | None = None) -> bool:
    """Whether this buyer has an order that was not cancelled (other than the order `besides`)."""
    who = [Order.email == basket.email.lower()] if basket.email else []
    if basket.phone:
        who.append(Order.phone == basket.phone)
    if basket.user_id:
        who.append(Order.user_id == basket.user_id)
    return bool(who) and db.session.scalar(
        select(Order.id).where(or_(*who), Order.status != "cancelled", Order.id != (besides or 0)).limit(1)) is not None


def evaluate(code: str | None, basket: Basket, now=None) -> Verdict | None:
    """The verdict on a code for this basket; None when no code was given."""
    code = normalise(code)
    if not code:
        return None
    now = now or utcnow()
    coupon = db.session.scalar(select(Coupon).where(Coupon.code == code))
    if coupon is None or not coupon.active:
        return Verdict(code, reason="This coupon code is not valid.")
    if coupon.valid_from and _aware(coupon.valid_from) > now:
        return Verdict(code, coupon, reason="This coupon is not valid yet.")
    if coupon.valid_to and _aware(coupon.valid_to) < now:
        return Verdict(code, coupon, reason="This coupon has expired.")
    if coupon.max_uses is not None and coupon.uses >= coupon.max_uses:
        return Verdict(code, coupon, reason=USED_UP)
    covered = sum(paise for paise, category in basket.lines
                  if coupon.category_id is None or category == coupon.category_id)
    if covered == 0:
        return Verdict(code, coupon, reason="This coupon is for books of another category.")
    items = sum(paise for paise, _category in basket.lines)
    if items < coupon.min_order_paise:
        return Verdict(code, coupon, reason="This coupon needs books worth at least "
                                            f"{money.rupees_text(coupon.min_order_paise)}.")
    if coupon.first_order_only and _has_ordered_before(basket):
        return Verdict(code, coupon, reason=FIRST_ORDER_ONLY)
    if coupon.max_uses_per_customer is not None and _customer_uses(coupon, basket) >= coupon.max_uses_per_customer:
        return Verdict(code, coupon, reason=ALREADY_USED)
    discount = covered * coupon.value // 100 if coupon.kind == "percent" else min(coupon.value, covered)
    return Verdict(code, coupon, discount_paise=discount)


def redeem(verdict: Verdict, order: Order, basket: Basket) -> str | None:
    """In the order's transaction: take one use of the coupon and record it; None when taken, else why the
    code no longer applies (used up, or this customer's use or first order was taken meanwhile).

    The conditional UPDATE takes the last use once under a race, and it holds the coupon's row until the
    order commits: every redeem of the code waits for the one before it. The customer's rules are judged
    again after it, by statements that see what those redeems committed (PostgreSQL's read committed
    reads a fresh snapshot per statement; SQLite has one writer at a time), so one shopper's parallel
    checkouts cannot all pass them."""
    coupon = verdict.coupon
    taken = db.session.execute(
        update(Coupon).where(Coupon.id == coupon.id, Coupon.active.is_(True),
                             or_(Coupon.max_uses.is_(None), Coupon.uses < Coupon.max_uses))
        .values(uses=Coupon.uses + 1).execution_options(synchronize_session=False)).rowcount == 1
    if not taken:
        return USED_UP
    if coupon.first_order_only and _has_ordered_before(basket, besides=order.id):
        return FIRST_ORDER_ONLY
    if coupon.max_uses_per_customer is not None and _customer_uses(coupon, basket) >= coupon.max_uses_per_customer:
        return ALREADY_USED
    db.session.add(CouponUse(coupon_id=coupon.id, order_id=order.id, user_id=basket.user_id,
                             email=(basket.email or "").lower(), phone=basket.phone or "",
                             discount_paise=verdict.discount_paise))
    return None


def give_back(order: Order) -> None:
    """In a cancel's transaction: the order's coupon use is released once, and the code counts one use less."""
    released = db.session.execute(
        update(CouponUse).where(CouponUse.order_id == order.id, CouponUse.released_at.is_(None))
        .values(released_at=utcnow()).execution_options(synchronize_session=False)).rowcount
    if released:
        coupon_id = db.session.scalar(select(CouponUse.coupon_id).where(CouponUse.order_id == order.id))
        db.session.execute(update(Coupon).where(Coupon.id == coupon_id, Coupon.uses > 0)
                           .values(uses=Coupon.uses - 1).execution_options(synchronize_session=False))


def discounts_given() -> int:
    """Paise taken off by coupons on orders that were not cancelled (for the dashboard)."""
    return db.session.scalar(select(func.coalesce(func.sum(Order.discount_paise), 0))
                             .where(Order.status != "cancelled")) or 0


def listing() -> list[Coupon]:
    """Every coupon, newest first (the admin list; shops run tens, not thousands)."""
    return list(db.session.scalars(select(Coupon).order_by(Coupon.created_at.desc(), Coupon.id.desc())))


def _apply(coupon: Coupon, data: dict) -> None:
    data = dict(data)
    if "code" in data:
        coupon.code = normalise(data.pop("code"))
    if "category" in data:
        name = data.pop("category")
        category = find_category(name) if name else None
        if name and category is None:
            raise ValidationFailed({"category": ["Unknown category."]})
        coupon.category_id = category.id if category else None
    kind = data.get("kind", coupon.kind)
    if "value" in data:
        value = data.pop("value")
        if kind == "percent" and value != int(value):
            raise ValidationFailed({"value": [PERCENT_RULE]})
        if kind == "flat" and value < 1:
            raise ValidationFailed({"value": [FLAT_RULE]})
        coupon.value = int(value) if kind == "percent" else money.to_paise(value)
    for name, value in data.items():
        setattr(coupon, name, value)
    _check_rules(coupon)


PERCENT_RULE = "A percentage must be a whole number from 1 to 90."
FLAT_RULE = "A flat discount must be from ₹1 to ₹1,00,000."


def _check_rules(coupon: Coupon) -> None:
    """The rules that join fields, on the coupon as it will be saved (a change may send one field of a pair).
    :raise ValidationFailed:"""
    if coupon.kind == "percent" and not 1 <= coupon.value <= 90:
        raise ValidationFailed({"value": [PERCENT_RULE]})
    if coupon.kind == "flat" and not 100 <= coupon.value <= 100_000_00:
        raise ValidationFailed({"value": [FLAT_RULE]})
    if coupon.valid_from and coupon.valid_to and _aware(coupon.valid_to) <= _aware(coupon.valid_from):
        raise ValidationFailed({"validTo": ["The end must be after the start."]})


def create(data: dict, actor: User) -> Coupon:
    """A new coupon, audited. :raise Conflict: the code exists. :raise ValidationFailed:"""
    return _save(Coupon(uses=0), data, actor, "coupon.create", None)


def change(coupon_id: int, data: dict, actor: User) -> Coupon:
    """Change a coupon's rules (fields not sent keep their values), audited. :raise NotFound: :raise Conflict:"""
    coupon = db.session.get(Coupon, coupon_id)
    if coupon is None:
        raise NotFound("Coupon not found.")
    return _save(coupon, data, actor, "coupon.update", _snapshot(coupon))


def _save(coupon: Coupon, data: dict, actor: User, action: str, before: dict | None) -> Coupon:
    """Apply the changes and commit them with their audit entry; the unique code settles a repeat."""
    with db.session.no_autoflush:  # the category look-up must not write a half-changed coupon
        _apply(coupon, data)
    db.session.add(coupon)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict("A coupon with this code exists already.") from None
    audit.record(actor, action, "coupon", coupon.id, before, _snapshot(coupon))
    db.session.commit()
    return coupon


def _snapshot(coupon: Coupon) -> dict:
    fields = ("code", "kind", "value", "min_order_paise", "max_uses", "max_uses_per_customer", "category_id",
              "first_order_only", "active")
    shown = {name: getattr(coupon, name) for name in fields}
    shown.update(valid_from=coupon.valid_from and coupon.valid_from.isoformat(),
                 valid_to=coupon.valid_to and coupon.valid_to.isoformat())
    return shown
