"""The bookstore application factory."""
from flask import Flask

from bookstore.config import load_config


def create_app(config: dict | None = None) -> Flask:
    """Build the app: settings, logs and metrics, extensions, API, error handlers, CLI and the SPA."""
    app = Flask(__name__, instance_relative_config=True)
    load_config(app, overrides=config)
    app.json.sort_keys = False

    from bookstore.observability import register_observability
    from bookstore.extensions import register_extensions
    from bookstore.request_input import register_request_input
    from bookstore.api import register_blueprints
    from bookstore.errors import register_error_handlers
    from bookstore.security import register_jwt_handlers
    from bookstore.cli import register_cli
    from bookstore.spa import register_spa
    from bookstore.http_headers import register_http_headers
    from bookstore.api_docs import register_api_docs
    from bookstore.services.google_signin import init_app as register_google_signin

    register_observability(app)  # first: its request hooks wrap every other one
    register_request_input(app)  # before the rate limits: their key functions read the body
    register_extensions(app)
    register_google_signin(app)
    register_jwt_handlers(app)
    register_blueprints(app)
    register_error_handlers(app)
    register_cli(app)
    register_api_docs(app)
    register_spa(app)
    register_http_headers(app)
    return app
