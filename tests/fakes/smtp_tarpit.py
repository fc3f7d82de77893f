"""A mail server that accepts connections and never says a word: an SMTP client waits for the
greeting until its own timeout. What a wedged or overloaded mail relay looks like from the shop."""
import socket
import threading


class SmtpTarpit:
    """`with SmtpTarpit() as tarpit:`; `tarpit.port`, `tarpit.connections` (how many were held).
    Leaving the block closes every held connection and frees the port."""

    def __init__(self):
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        self._held: list[socket.socket] = []
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def connections(self) -> int:
        return len(self._held)

    def _accept(self):
        while not self._closing.is_set():
            try:
                conn, _address = self._listener.accept()
            except OSError:
                return
            self._held.append(conn)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._closing.set()
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        except OSError:
            pass
        self._listener.close()
        for conn in self._held:
            conn.close()
        self._thread.join(timeout=5)
