"""gunicorn settings read from the project root (`gunicorn wsgi:app` finds this file by itself).

Each worker process serves requests on a pool of threads (WEB_THREADS, 8), so one slow client or one
slow call to Razorpay holds a thread, not a whole process; a client that sends or reads nothing for
CLIENT_TIMEOUT_SECONDS (10) is cut off. On a bare machine a buffering proxy (nginx) stands in front all
the same (README, "Deploying on a VM").

Besides the web workers, the master starts one job consumer (`python -m bookstore.jobs.worker`)
when JOBS_IN_WEB is true (the default), restarts it if it dies, and stops it on exit: one process
tree, one Ctrl-C, is a whole shop. On a fleet, JOBS_IN_WEB=false and the Procfile's `worker` runs
the consumers.
"""
import atexit
import errno
import gc
import glob
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time

from gunicorn.workers.gthread import TConn, ThreadWorker

_TRUE = {"1", "true", "yes", "on"}
_consumer: dict = {"pid": None, "started": 0.0, "stopping": False}


def _setting(name: str, default: str) -> str:
    return os.environ.get(name) or default


# Threads, not processes, wait on slow sockets and slow partners. Two processes (the Makefile's and the
# Procfile's --workers) keep both cores of the machine busy; the GIL lets one thread of a process run
# Python at a time, so more threads add no throughput, only room for requests that wait: 8 per process
# is 8 slow clients or Razorpay calls before a ninth request queues, within SQLAlchemy's pool (5 + 10).
threads = int(_setting("WEB_THREADS", "8"))
_client_timeout = float(_setting("CLIENT_TIMEOUT_SECONDS", "10"))


class _ClientSocket(socket.socket):
    """A client's connection that is never blocked on for long: while gunicorn reads a request or writes
    an answer, CLIENT_TIMEOUT_SECONDS without a byte either way ends it, as if the client had hung up
    (which gunicorn closes quietly: nothing to answer, nothing to log)."""

    def setblocking(self, flag: bool) -> None:
        # gunicorn's threads switch a socket to blocking before each request they read: bounded instead.
        if flag:
            self.settimeout(_client_timeout)
        else:
            super().setblocking(False)

    def recv(self, *args):
        try:
            return super().recv(*args)
        except TimeoutError:
            raise _silent() from None

    def recv_into(self, *args):
        try:
            return super().recv_into(*args)
        except TimeoutError:
            raise _silent() from None

    def send(self, *args):
        try:
            return super().send(*args)
        except TimeoutError:
            raise _silent() from None

    def sendall(self, *args):
        try:
            return super().sendall(*args)
        except TimeoutError:
            raise _silent() from None


def _silent() -> ConnectionResetError:
    return ConnectionResetError(errno.ECONNRESET, f"the client sent or read nothing for {_client_timeout:g} s")


class ShopWorker(ThreadWorker):
    """gunicorn's threaded worker, whose client connections time out: without it a client that sends
    half a request line and waits holds its thread for as long as it keeps the connection open."""

    def accept(self, listener):
        """ThreadWorker.accept, with the client's socket a _ClientSocket."""
        try:
            client_sock, client_addr = listener.accept()
            client_sock = _ClientSocket(fileno=client_sock.detach())
            self.nr_conns += 1
            client_sock.setblocking(True)
            self.enqueue_req(TConn(self.cfg, client_sock, client_addr, listener.getsockname()))
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise


worker_class = ShopWorker


def on_starting(server):
    """Refuse a start whose rate limits would be counted per worker: with `memory://` each worker keeps
    its own counts, and a limit of 10 lets 10 per worker through. One worker's threads share one count
    (`make run`); several workers need a shared storage (Redis), in development as in production."""
    limits_on = _setting("RATELIMIT_ENABLED", "true").lower() in _TRUE
    storage = _setting("RATELIMIT_STORAGE_URI", "memory://")
    if limits_on and storage.startswith("memory://") and server.cfg.workers > 1:
        raise RuntimeError("RATELIMIT_STORAGE_URI is memory:// with more than one worker: every worker would "
                           "count its own rate limits. Set it to redis://... (or run one worker).")


def when_ready(server):
    """Start the embedded job consumer once the master is listening, before any worker is forked."""
    if _setting("JOBS_IN_WEB", "true").lower() in _TRUE:
        _spawn_consumer(server)
        threading.Thread(target=_supervise_consumer, args=(server,), name="job-consumer", daemon=True).start()


def _spawn_consumer(server) -> None:
    # posix_spawn, not subprocess: Popen waits on a pipe that a worker forked at the same moment would
    # inherit, which blocked this supervisor until that worker exited.
    command = [sys.executable, "-m", "bookstore.jobs.worker"]
    # JOBS_PARENT_PID: the consumer stops itself if this master is ever killed outright.
    _consumer["pid"] = os.posix_spawn(sys.executable, command, {**os.environ, "JOBS_PARENT_PID": str(os.getpid())})
    _consumer["started"] = time.monotonic()
    server.log.info("Job consumer started (pid %s)", _consumer["pid"])


def _supervise_consumer(server):
    """Wait for the consumer; start it again (at most every 5 s) if it exits while gunicorn runs."""
    while not _consumer["stopping"]:
        pid = _consumer["pid"]
        try:
            _pid, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            code = "unknown"  # the master's own reaping (waitpid(-1)) collected it first
            while _alive(pid):
                time.sleep(0.2)
        if _consumer["stopping"]:
            return
        server.log.error("Job consumer exited with %s; starting it again", code)
        time.sleep(max(0.0, 5 - (time.monotonic() - _consumer["started"])))
        if not _consumer["stopping"]:
            _spawn_consumer(server)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def on_exit(server):
    """Stop the consumer: SIGINT lets it finish the jobs in hand; after 10 s it is killed."""
    _consumer["stopping"] = True
    pid = _consumer.get("pid")
    if pid is None or not _alive(pid):
        return
    os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
        except ChildProcessError:
            pass
        time.sleep(0.1)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)


def post_worker_init(worker):
    """Move everything the app built at start-up (modules, mappers, schemas: ~140,000 objects) out of
    the garbage collector's reach. Otherwise every full collection walks them all again, a 50-60 ms
    pause in the middle of some request: the catalogue's p99, unloaded, was that pause."""
    # The PIN directory (about 20,000 places) is read before the first checkout rather than during it,
    # and frozen with the rest.
    from bookstore.services import pin_directory
    pin_directory.preload()
    gc.collect()
    gc.freeze()


# The request line's limit is raised from 4,094 bytes to gunicorn's most, 8,190: the app itself refuses
# a path and query over 4,096 characters with a JSON 414 (bookstore/request_input.py), so /api never
# answers gunicorn's HTML page for an address between the two.
limit_request_line = 8190


# Metrics and logs (bookstore/observability). Workers count in files under PROMETHEUS_MULTIPROC_DIR and
# any of them answers /metrics with the sum of all; prometheus_client reads the variable when a worker
# first imports it, so it is set here, in the master, when this file is loaded and before any fork.

def _prepare_metrics_folder() -> None:
    """The operator's folder, emptied of a previous run's files, or a fresh one removed at exit."""
    if os.environ.get("BOOKSTORE_METRICS_MASTER") == str(os.getpid()):
        return  # this file read again on a reload (HUP): the running workers still count in the folder
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        for stale in glob.glob(os.path.join(folder, "*.db")):
            os.remove(stale)
    else:
        folder = tempfile.mkdtemp(prefix="bookstore-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
        master = os.getpid()
        # Workers run atexit hooks too when they exit: only the master removes the folder.
        atexit.register(lambda: os.getpid() == master and shutil.rmtree(folder, ignore_errors=True))
    os.environ["BOOKSTORE_METRICS_MASTER"] = str(os.getpid())


_prepare_metrics_folder()


def child_exit(server, worker):
    """A worker is gone: prometheus_client forgets its live gauges (its counts stay in the sums)."""
    from prometheus_client import multiprocess
    multiprocess.mark_process_dead(worker.pid)


def _log_format() -> str:
    """LOG_FORMAT as the app reads it: json or text, json in production when unset."""
    production = os.environ.get("BOOKSTORE_ENV") == "production"
    return (os.environ.get("LOG_FORMAT") or ("json" if production else "text")).lower()


from gunicorn.glogging import Logger as _GunicornLogger  # noqa: E402


class RedactingLogger(_GunicornLogger):
    """gunicorn's logger whose access log, in any format, keeps no credentials: a download link's signature
    and e-mailed links' tokens are redacted from every atom (bookstore.observability.logs.redact)."""

    def atoms(self, resp, req, environ, request_time):
        from bookstore.observability.logs import redact_atoms
        return redact_atoms(super().atoms(resp, req, environ, request_time))


logger_class = RedactingLogger

if _log_format() == "json":
    from gunicorn.glogging import SafeAtoms as _SafeAtoms

    class _RawAtoms(_SafeAtoms):
        """gunicorn's request atoms without its escaping of quotes: JSON escapes them itself."""

        def __init__(self, atoms):
            dict.__init__(self, atoms)

    class JsonLogger(RedactingLogger):
        """gunicorn's error and access logs as JSON lines like the app's (the access log only when
        asked for, e.g. `--access-logfile -` in the Procfile)."""

        atoms_wrapper_class = _RawAtoms

        def setup(self, cfg):
            super().setup(cfg)
            from bookstore.observability.logs import use_json_for_gunicorn
            use_json_for_gunicorn(self.error_log, self.access_log)

    logger_class = JsonLogger
