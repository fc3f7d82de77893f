"""The job consumer: `python -m bookstore.jobs.worker` (the Procfile's `worker`; gunicorn starts one
beside the web workers when JOBS_IN_WEB is true). Ctrl-C or SIGINT stops it after the jobs in hand;
SIGTERM stops it at once (a job cut short is found again by its sweep)."""
import logging


def main() -> None:
    from bookstore import create_app
    from bookstore.jobs import huey
    from bookstore.jobs import tasks  # noqa: F401  (registers the jobs)

    app = create_app()
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    consumer = huey.create_consumer(workers=app.config["JOBS_WORKERS"], worker_type="thread", periodic=True,
                                    check_worker_health=True, initial_delay=0.1, max_delay=1.0)
    consumer.run()


if __name__ == "__main__":
    main()
