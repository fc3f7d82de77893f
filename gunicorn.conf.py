"""gunicorn settings read from the project root (`gunicorn wsgi:app` finds this file by itself)."""
import gc


def post_worker_init(worker):
    """Move everything the app built at start-up (modules, mappers, schemas: ~140,000 objects) out of
    the garbage collector's reach. Otherwise every full collection walks them all again, a 50-60 ms
    pause in the middle of some request: the catalogue's p99, unloaded, was that pause."""
    gc.collect()
    gc.freeze()
