"""The shared extension objects, created unbound and attached by register_extensions."""
import os
import sqlite3

from flask import Flask, request
from flask_compress import Compress
from flask_jwt_extended import JWTManager
from flask_limiter import Limiter
from flask_migrate import Migrate
from flask_smorest import Api
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase
from werkzeug.middleware.proxy_fix import ProxyFix

# One naming convention so SQLite and PostgreSQL migrations name constraints alike.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def client_ip() -> str:
    """The caller's address; ProxyFix has already applied PROXY_COUNT to X-Forwarded-For."""
    return request.remote_addr or "unknown"


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
jwt = JWTManager()
limiter = Limiter(key_func=client_ip)
compress = Compress()


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, _record):
    """WAL lets readers work while a writer commits; foreign keys are off by default in SQLite.
    Reads go through a memory map and a larger page cache: pages are not copied in for every query."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA mmap_size=268435456")  # 256 MB of address space, not of memory
        cursor.execute("PRAGMA cache_size=-16000")  # 16 MB per connection
        cursor.close()


def _private_sqlite_file(database_url: str) -> None:
    """Create the SQLite file readable by the shop's user alone (0600): it holds password hashes and
    addresses. SQLite gives its -wal and -shm files the same mode; an existing file is tightened too."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:" \
            or url.database.startswith("file:"):
        return
    try:
        os.close(os.open(url.database, os.O_CREAT | os.O_WRONLY, 0o600))
        if os.stat(url.database).st_mode & 0o077:
            os.chmod(url.database, 0o600)
    except OSError:
        pass  # a folder that does not exist, or a file of another user: SQLite reports it on connect


def register_extensions(app: Flask) -> None:
    """Bind every extension to the app."""
    _private_sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["PROXY_COUNT"] > 0:
        count = app.config["PROXY_COUNT"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=count)
    db.init_app(app)
    migrate.init_app(app, db, render_as_batch=True, compare_type=True)
    jwt.init_app(app)
    from bookstore.openapi import BearerSecurity, DocumentedRefusals, ErrorSchema
    # One Api per app: flask-smorest keeps one OpenAPI document per Api, and a shared one would describe
    # whichever app of the process was built last (tests build several).
    api = Api()
    api.ERROR_SCHEMA = ErrorSchema  # the document describes the shop's envelope, not flask-smorest's errors
    api.init_app(app, spec_kwargs={"extra_plugins": [BearerSecurity(app), DocumentedRefusals()]})
    app.extensions["bookstore_api"] = api
    limiter.init_app(app)
    compress.init_app(app)
    from bookstore import jobs
    jobs.init_app(app)
