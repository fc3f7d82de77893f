"""Background work: a Huey queue (SQLite file by default, Redis on a fleet), its jobs and its consumer.

`queue` builds the queue from JOBS_URL and runs jobs inside the app; `tasks` lists the jobs;
`worker` is the consumer process (`python -m bookstore.jobs.worker`).
"""
from bookstore.jobs.queue import after_commit, huey, init_app, ping, queue_depth

__all__ = ["after_commit", "huey", "init_app", "ping", "queue_depth"]
