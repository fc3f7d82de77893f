"""Every change of a book's stock: a conditional UPDATE and its ledger row, in the caller's transaction.

`move` and `move_many` are the one way stock changes (product §5.9): each book's copies change in one UPDATE
that refuses to go below zero (so concurrent checkouts never oversell), and one multi-row INSERT writes a
`stock_movements` row per move with the stock after it. A move that takes a book from 0 to more wakes its
back-in-stock alerts. Checkout takes its copies before its order row exists, so `take` applies the UPDATEs
and returns the rows for `Taken.write` once the order has an id.

E-books and audiobooks have no copies to run out of (product §7.11): their stock is neither checked nor
counted down, and no ledger row is written for them; copies sold still count them."""
from dataclasses import dataclass, field, replace

from sqlalchemy import case, func, insert, literal, or_, select, update

from bookstore.errors import Conflict
from bookstore.extensions import db
from bookstore.models import DIGITAL_FORMATS, MOVEMENT_KINDS, Book, Order, StockMovement, utcnow
from bookstore.services import alerts

_DIGITAL = Book.format.in_(DIGITAL_FORMATS)
# Kinds that move sold copies: copies_sold changes by the opposite of the shelf's change.
_SOLD = frozenset(("sale", "kit_sale", "cancel", "kit_cancel", "return_restocked", "rto_received"))


@dataclass(frozen=True)
class Cause:
    """Who moved the stock and why: written on each ledger row of the move."""

    actor: str = "system"          # "admin:<id>", "customer", "job:<name>", "system"
    actor_id: int | None = None
    order_id: int | None = None
    return_id: int | None = None
    shipment_id: int | None = None
    import_id: str | None = None
    reason: str | None = None
    note: str | None = None

    @classmethod
    def of(cls, by: str, **values) -> "Cause":
        """A cause from an order history's `by` ("admin:<id>", "customer", "system")."""
        kind, _, number = by.partition(":")
        return cls(actor=by[:40], actor_id=int(number) if kind == "admin" and number.isdigit() else None, **values)


@dataclass(frozen=True)
class Move:
    """Copies of one book onto (+) or off (-) the shelf, and what kind of movement it is."""

    book_id: int
    quantity: int
    kind: str


@dataclass
class Taken:
    """Copies a checkout took: the ledger rows still to write once the order has its id."""

    rows: list[dict] = field(default_factory=list)
    after: dict[int, int] = field(default_factory=dict)  # each printed book's stock after the move
    refused: int | None = None  # the first book that had too few copies (nothing more was taken)

    def write(self, cause: Cause) -> None:
        """Write the rows, with the cause (the order), in one INSERT."""
        _insert([row | _cause_values(cause) for row in self.rows])
        self.rows = []


def move(book_id: int, quantity: int, kind: str, cause: Cause, *, on_sale_only: bool = False) -> int | None:
    """Move one book's stock; the stock after it, or None when there were too few copies (nothing written)."""
    after = move_many([Move(book_id, quantity, kind)], cause, on_sale_only=on_sale_only)
    return None if after is None else after.get(book_id)


def move_many(moves: list[Move], cause: Cause, *, on_sale_only: bool = False) -> dict[int, int] | None:
    """Apply moves (several may name one book: one UPDATE for its total) in book id order, so two writers
    never deadlock, and write their ledger rows in one INSERT. Returns each book's stock after, or None if
    a book had too few copies or is not on sale (with `on_sale_only`); the caller then rolls back."""
    taken = _apply(moves, on_sale_only)
    if taken.refused is not None:
        return None
    taken.write(cause)
    return taken.after


def take(moves: list[Move]) -> Taken:
    """Checkout: take copies of books on sale; write the returned rows with `Taken.write(Cause(order_id=...))`.
    `refused` names the first book short of copies: the caller must roll back."""
    return _apply(moves, on_sale_only=True)


def release(order: Order, cause: Cause | None = None) -> bool:
    """Give an order's copies back, exactly once however often or concurrently it is called."""
    claimed = db.session.execute(
        update(Order).where(Order.id == order.id, Order.stock_released.is_(False))
        .values(stock_released=True).execution_options(synchronize_session=False)
    ).rowcount == 1
    if not claimed:
        return False
    moves = [Move(book_id, quantity, "kit_cancel" if line.kit_id is not None else "cancel")
             for line in order.lines for book_id, quantity in line.copies().items()]
    move_many(moves, replace(cause or Cause(), order_id=order.id))
    return True


def adjust(book_id: int, quantity: int, reason: str, cause: Cause) -> int:
    """An administrator's adjustment; the stock after it. :raise Conflict: it would go below zero."""
    after = move(book_id, quantity, "adjustment", replace(cause, reason=reason))
    if after is None:
        left = db.session.scalar(select(Book.stock).where(Book.id == book_id))
        raise Conflict(f"The stock cannot go below 0: {left} {'copy is' if left == 1 else 'copies are'} left.",
                       data={"available": left})
    return after


def open_ledgers() -> int:
    """One `opening` row of its current stock for every book whose ledger has no row yet (one INSERT ... SELECT);
    how many were opened. For books loaded in bulk (the demo catalogue)."""
    opened = select(Book.id, literal("opening"), Book.stock, Book.stock, literal("system"), literal(utcnow())).where(
        ~select(StockMovement.id).where(StockMovement.book_id == Book.id).exists())
    result = db.session.execute(insert(StockMovement).from_select(
        ["book_id", "kind", "quantity", "stock_after", "actor", "created_at"], opened))
    return result.rowcount


def differences() -> list[tuple[int, str, int, int]]:
    """Printed books whose stock is not the sum of their ledger: (id, title, stock, ledger sum), by id."""
    ledger = (select(StockMovement.book_id, func.sum(StockMovement.quantity).label("total"))
              .group_by(StockMovement.book_id).subquery())
    total = func.coalesce(ledger.c.total, 0)
    rows = db.session.execute(select(Book.id, Book.title, Book.stock, total)
                              .outerjoin(ledger, ledger.c.book_id == Book.id)
                              .where(Book.stock != total, ~_DIGITAL).order_by(Book.id))
    return [tuple(row) for row in rows]


def _apply(moves: list[Move], on_sale_only: bool) -> Taken:
    by_book: dict[int, list[Move]] = {}
    for one in moves:
        if one.kind not in MOVEMENT_KINDS:
            raise ValueError(f"Unknown stock movement kind {one.kind!r}.")  # a caller's mistake, never input
        if one.quantity:
            by_book.setdefault(one.book_id, []).append(one)
    taken = Taken()
    woken = []
    for book_id in sorted(by_book):
        total = sum(one.quantity for one in by_book[book_id])
        sold = sum(-one.quantity for one in by_book[book_id] if one.kind in _SOLD)
        conditions = [Book.id == book_id]
        if total < 0:
            conditions.append(or_(_DIGITAL, Book.stock >= -total))
        if on_sale_only:
            conditions.append(Book.archived.is_(False))
        values = {"stock": case((_DIGITAL, Book.stock), else_=Book.stock + total)}
        if sold:
            values["copies_sold"] = Book.copies_sold + sold
        row = db.session.execute(update(Book).where(*conditions).values(**values)
                                 .returning(Book.stock, _DIGITAL.label("digital"))
                                 .execution_options(synchronize_session=False)).first()
        if row is None:
            taken.refused = book_id
            return taken
        if row.digital:
            continue
        after = taken.after[book_id] = row.stock
        if after - total <= 0 < after:
            woken.append(book_id)
        running = after - total
        for one in by_book[book_id]:
            running += one.quantity
            taken.rows.append({"book_id": book_id, "kind": one.kind, "quantity": one.quantity,
                               "stock_after": running})
    # Copies back on the shelf of a sold-out book: shoppers waiting for it are told after the commit.
    alerts.awaken(woken)
    return taken


def _cause_values(cause: Cause) -> dict:
    return {"actor": cause.actor, "actor_id": cause.actor_id, "order_id": cause.order_id,
            "return_id": cause.return_id, "shipment_id": cause.shipment_id, "import_id": cause.import_id,
            "reason": cause.reason, "note": cause.note, "created_at": utcnow()}


def _insert(rows: list[dict]) -> None:
    if rows:
        db.session.execute(insert(StockMovement).values(rows))
