"""The job consumer: `python -m bookstore.jobs.worker` (the Procfile's `worker`; gunicorn starts one
beside the web workers when JOBS_IN_WEB is true). Ctrl-C or SIGINT stops it after the jobs in hand;
SIGTERM stops it at once (a job cut short is found again by its sweep).

A consumer started by another process (gunicorn's master, a test) is given that process's id in
JOBS_PARENT_PID and stops itself, as by SIGTERM, once that parent is gone: a master killed outright
(SIGKILL, the OOM killer) must not leave a consumer taking jobs with nobody to stop it."""
import logging
import os
import signal
import threading
import time

PARENT_CHECK_SECONDS = 1.0


def main() -> None:
    from bookstore import create_app
    from bookstore.jobs import huey
    from bookstore.jobs import tasks  # noqa: F401  (registers the jobs)

    app = create_app()
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    parent = os.environ.get("JOBS_PARENT_PID", "")
    if parent.isdigit():
        threading.Thread(target=_stop_when_orphaned, args=(int(parent),), name="parent-watch", daemon=True).start()
    consumer = huey.create_consumer(workers=app.config["JOBS_WORKERS"], worker_type="thread", periodic=True,
                                    check_worker_health=True, initial_delay=0.1, max_delay=1.0)
    consumer.run()


def _stop_when_orphaned(parent: int) -> None:
    """SIGTERM this process once its parent is no longer `parent` (the orphan is re-parented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    logging.getLogger(__name__).warning("Parent process %s is gone; stopping the consumer", parent)
    os.kill(os.getpid(), signal.SIGTERM)


if __name__ == "__main__":
    main()
