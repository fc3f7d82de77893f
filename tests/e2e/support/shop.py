"""Data and sign-in helpers for browser tests: rows straight in the served database, tokens via the API."""
import itertools
import json
import secrets

from bookstore.extensions import db
from bookstore.models import Book, Order, User
from tests.factories import Factories

_serial = itertools.count(1)


class ShopData:
    """Makes and reads rows in the live server's database (inside the e2e app's context).

    Every read starts from fresh rows and ends its transaction, so the browser's writes are seen
    and the server is never kept waiting on a lock.
    """

    def __init__(self, app):
        self.app = app
        self.factories = Factories()

    def _run(self, work):
        with self.app.app_context():
            try:
                return work()
            finally:
                db.session.rollback()
                db.session.remove()

    def book(self, **fields) -> dict:
        """A new book (factories' defaults: ₹499, 10 in stock); returns {_id, title, price_paise, stock}."""
        def make():
            book = self.factories.book(**fields)
            return {"_id": str(book.id), "id": book.id, "title": book.title, "price_paise": book.price_paise,
                    "stock": book.stock}
        return self._run(make)

    def digital_book(self, **fields) -> dict:
        """A new e-book (or `format="Audiobook"`) with its generated demo file in private storage."""
        from bookstore.services import digital

        book = self.book(format=fields.pop("format", "E-Book"), stock=0, **fields)

        def give():
            digital.store_demo_file(db.session.get(Book, book["id"]))
            db.session.commit()
        self._run(give)
        return book

    def user(self, role: str = "customer", password: str = "secret-pass", **fields) -> dict:
        """A new account with a unique e-mail; returns {id, email, password, firstName, lastName}."""
        email = fields.pop("email", None) or f"e2e-{role}-{next(_serial)}-{secrets.token_hex(3)}@example.in"

        def make():
            user = self.factories.user(email=email, password=password, role=role, **fields)
            return {"id": user.id, "email": user.email, "password": password, "firstName": user.first_name,
                    "lastName": user.last_name, "role": user.role}
        return self._run(make)

    def shopper(self, **fields) -> dict:
        return self.user("customer", **fields)

    def admin(self, **fields) -> dict:
        return self.user("admin", password=fields.pop("password", "admin-pass-1"), **fields)

    def order(self, order_number: str) -> Order | None:
        """The stored order with its lines, or None."""
        def read():
            order = db.session.scalar(db.select(Order).where(Order.order_number == order_number))
            if order is not None:
                _ = (order.lines, order.history)  # load before the session closes
                db.session.expunge_all()
            return order
        return self._run(read)

    def stock(self, book_id) -> int:
        return self._run(lambda: db.session.get(Book, int(book_id)).stock)

    def set_book(self, book_id, **values) -> None:
        """Change a book behind the shopper's back (a new price, stock sold elsewhere)."""
        def change():
            book = db.session.get(Book, int(book_id))
            for name, value in values.items():
                setattr(book, name, value)
            db.session.commit()
        self._run(change)

    def user_row(self, email: str) -> User | None:
        def read():
            user = db.session.scalar(db.select(User).where(User.email == email.lower()))
            if user is not None:
                db.session.expunge(user)
            return user
        return self._run(read)


def sign_in(page, user: dict) -> dict:
    """Sign `user` in through the real login API and store the session the way the client does."""
    response = page.request.post("/api/auth/login", data={"email": user["email"], "password": user["password"]})
    assert response.ok, response.text()
    reply = response.json()
    page.evaluate("""([token, user]) => {
        localStorage.setItem("token", token);
        localStorage.setItem("user", user);
        window.dispatchEvent(new Event("bookstore:auth-change"));
    }""", [reply["token"], json.dumps(reply["user"])])
    return reply


def admin_headers(page, shop: ShopData) -> dict:
    """A new administrator's API headers, signed in through the real login API (the page keeps no session)."""
    admin = shop.admin()
    response = page.request.post("/api/auth/login", data={"email": admin["email"], "password": admin["password"]})
    assert response.ok, response.text()
    return {"Authorization": f"Bearer {response.json()['token']}"}
