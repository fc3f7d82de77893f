"""What the fake HTTP services of the tests share: a threaded server on a local port that can be
stopped (callers then get connection refused) and started again on the same port, handing every
request to its fake's `respond(method, target, raw_body, headers) -> (status, headers, body)`."""
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server(ThreadingHTTPServer):
    """Handler threads are daemons, so stopping never waits for a slow call."""

    daemon_threads = True
    fake: "HttpFake"

    def handle_error(self, request, client_address):
        # A client that timed out hangs up before a delayed answer: expected, not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_PATCH(self):
        self._handle("PATCH")

    def do_PUT(self):
        self._handle("PUT")

    def do_DELETE(self):
        self._handle("DELETE")

    def log_message(self, format, *args):
        if self.server.fake.verbose:
            super().log_message(format, *args)

    def _handle(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        status, headers, body = self.server.fake.respond(method, self.path, raw, self.headers)
        payload = body.encode() if isinstance(body, str) else body
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except ConnectionError:
            pass  # the client gave up (timeout tests); nothing to answer to


class HttpFake:
    """Lifecycle of a fake service; subclasses implement `respond`. Use as a context manager or start()/stop()."""

    name = "fake"

    def __init__(self, host: str = "127.0.0.1", port: int = 0, verbose: bool = False):
        self.host = host
        self.verbose = verbose
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        # Set while stopped: handlers sleeping in a deliberate delay wake up and finish.
        self._stopping = threading.Event()

    @property
    def port(self) -> int:
        return self._port

    def respond(self, method: str, target: str, raw: bytes, headers) -> tuple[int, dict, bytes | str]:
        raise NotImplementedError

    def start(self):
        """Listen (again, on the same port after stop()) and serve in a background thread."""
        if self._server is not None:
            return self
        self._stopping.clear()
        self._server = _Server((self.host, self._port), _Handler)
        self._server.fake = self
        self._port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"{self.name}-{self._port}", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        """Close the port: calls now fail with connection refused (the service is down)."""
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
        self._server = self._thread = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
