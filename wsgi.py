"""Entry point for gunicorn and the flask command: `gunicorn wsgi:app`, `flask --app wsgi ...`."""
from bookstore import create_app

app = create_app()
