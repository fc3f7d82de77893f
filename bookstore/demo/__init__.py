"""The demo catalogue behind `flask seed-demo`: generated study books and their cover art.

Only the CLI and tests import it; the web app never needs it to answer a request.
"""
