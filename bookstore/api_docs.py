"""/api/docs: Swagger UI over /api/openapi.json, from files the shop serves itself; admins only in production.

The build copies Swagger UI's script and stylesheet from the pinned npm package swagger-ui-dist into
static/dist/swagger-ui (no CDN). The page has no inline script, so it lives under the same
Content-Security-Policy as the shop's pages.
"""
import json

from flask import Flask, Response, current_app, url_for

from bookstore.security import require_admin

SWAGGER_UI = "/static/dist/swagger-ui/"

_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Bookstore API</title>
  <link rel="stylesheet" href="{assets}swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{assets}swagger-ui-bundle.js"></script>
  <script src="{init}"></script>
</body>
</html>
"""


def _production_admins_only() -> None:
    """Outside production anyone may read the docs; in production only an administrator's token opens them.
    :raise Unauthorized: :raise Forbidden:"""
    if current_app.config["BOOKSTORE_ENV"] == "production":
        require_admin()


def register_api_docs(app: Flask) -> None:
    """The docs page and its start-up script (a file, since the policy allows no inline script)."""

    @app.route("/api/docs")
    def api_docs():
        _production_admins_only()
        return Response(_PAGE.format(assets=SWAGGER_UI, init=url_for("api_docs_script")), mimetype="text/html")

    @app.route("/api/docs/init.js")
    def api_docs_script():
        _production_admins_only()
        options = {"url": url_for("api-docs.openapi_json"), "dom_id": "#swagger-ui"}
        return Response(f"window.ui = SwaggerUIBundle({json.dumps(options)});\n", mimetype="text/javascript")
