"""A local fake of Shiprocket's HTTP API (`/v1/external/...`) for the tests.

A real HTTP server on 127.0.0.1, so the shop's `requests` calls run unchanged against it:

    with FakeShiprocket(email="api@shop.in", password="pw", webhook_token="tok") as fake:
        # SHIPROCKET_BASE_URL=fake.base_url
        ...
        fake.send_webhook(shop_url, awb, "DELIVERED")

API (JSON in and out; every call but login needs `Authorization: Bearer <token>`, else 401
`{"message": "Token has expired", "status_code": 401}`):
    POST /v1/external/auth/login              {email, password} -> {token, ...}
    POST /v1/external/orders/create/adhoc     -> {order_id, shipment_id, status: "NEW", status_code: 1, ...}
    POST /v1/external/courier/assign/awb      {shipment_id} -> {awb_assign_status: 1, response: {data: {awb_code, ...}}}
    POST /v1/external/courier/generate/label  {shipment_id: [id]} -> {label_created: 1, label_url, ...}
    POST /v1/external/courier/generate/pickup {shipment_id: [id]} -> {pickup_status: 1, response: {...}}

An adhoc order with a channel `order_id` seen before answers the same Shiprocket order (a retry after a
lost answer), as Shiprocket does. Test controls: fail_next(path, status, message), delay_next(seconds),
expire_tokens(), webhook_body(...) / send_webhook(...), requests, orders, reset.
"""
import json
import secrets
import threading
import time
import urllib.request
from typing import NamedTuple

from tests.fakes.http_fake import HttpFake

# Fields Shiprocket refuses an adhoc order without ("The X field is required.").
REQUIRED_ORDER_FIELDS = ("order_id", "order_date", "pickup_location", "billing_customer_name", "billing_address",
                         "billing_city", "billing_pincode", "billing_state", "billing_country", "billing_email",
                         "billing_phone", "order_items", "payment_method", "sub_total", "length", "breadth",
                         "height", "weight")
COURIER_NAME = "Delhivery Surface"


class Recorded(NamedTuple):
    method: str
    path: str
    body: object
    authorization: str | None


class FakeShiprocket(HttpFake):
    name = "shiprocket"

    def __init__(self, email="api@bookstore.example", password="shiprocket-pass", webhook_token="tracking-token",
                 **kwargs):
        super().__init__(**kwargs)
        self.email = email
        self.password = password
        self.webhook_token = webhook_token
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        """Forget every order, token, request and planned failure."""
        with getattr(self, "_lock", threading.Lock()):
            self.tokens: set[str] = set()
            self.orders: dict[str, dict] = {}       # channel order id -> Shiprocket order
            self.shipments: dict[int, dict] = {}    # shipment id -> shipment
            self.requests: list[Recorded] = []
            self._failures: dict[str, tuple[int, str]] = {}
            self._delay = 0.0
            self._next_id = 1000

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    # ---- test controls ----------------------------------------------------------------------------------

    def fail_next(self, path: str, status: int = 422, message: str = "Something went wrong"):
        """The next call to `path` (e.g. "courier/assign/awb") answers `status` with `message`."""
        self._failures[path] = (status, message)

    def delay_next(self, seconds: float):
        """The next call waits this long before answering (timeouts)."""
        self._delay = seconds

    def expire_tokens(self):
        """Every token handed out stops working (the shop must log in again)."""
        self.tokens.clear()

    def calls(self, path: str) -> list[Recorded]:
        return [r for r in self.requests if r.path == "/v1/external/" + path]

    def webhook_body(self, awb: str, status: str, status_id: int = 0, timestamp: str = "25 11 2026 10:15:00",
                     location: str = "Bengaluru Hub") -> dict:
        """A tracking webhook body as Shiprocket sends it."""
        shipment = next((s for s in self.shipments.values() if s.get("awb") == awb), {})
        return {
            "awb": awb, "courier_name": COURIER_NAME, "current_status": status, "current_status_id": status_id,
            "shipment_status": status, "shipment_status_id": status_id, "current_timestamp": timestamp,
            "order_id": shipment.get("channel_order_id", ""), "sr_order_id": shipment.get("order_id", 0),
            "awb_assigned_date": "2026-11-25 09:00:00", "pickup_scheduled_date": "2026-11-25 12:00:00",
            "etd": "2026-11-28 18:00:00", "is_return": 0, "channel_id": 1, "pod_status": "", "pod": "",
            "scans": [{"date": timestamp, "status": "X-UCI", "activity": status, "location": location,
                       "sr-status": str(status_id), "sr-status-label": status}],
        }

    def send_webhook(self, url: str, body: dict, token: str | None = "default") -> tuple[int, dict]:
        """POST a webhook to the shop (a live server), with x-api-key; answers (status, JSON)."""
        headers = {"Content-Type": "application/json"}
        token = self.webhook_token if token == "default" else token
        if token is not None:
            headers["x-api-key"] = token
        request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    # ---- the API ----------------------------------------------------------------------------------------

    def respond(self, method, target, raw, headers):
        path = target.split("?", 1)[0]
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = None
        with self._lock:
            self.requests.append(Recorded(method, path, body, headers.get("Authorization")))
            delay, self._delay = self._delay, 0.0
        if delay:
            self._stopping.wait(delay)
        if method != "POST" or not path.startswith("/v1/external/"):
            return self._json(404, {"message": "Not found", "status_code": 404})
        name = path[len("/v1/external/"):]
        if not isinstance(body, dict):
            return self._json(400, {"message": "Invalid JSON", "status_code": 400})
        if name == "auth/login":
            return self._login(body)
        auth = headers.get("Authorization") or ""
        if not auth.startswith("Bearer ") or auth[len("Bearer "):] not in self.tokens:
            return self._json(401, {"message": "Token has expired", "status_code": 401})
        if name in self._failures:
            status, message = self._failures.pop(name)
            return self._json(status, {"message": message, "status_code": status})
        handler = {"orders/create/adhoc": self._create_order, "courier/assign/awb": self._assign_awb,
                   "courier/generate/label": self._label, "courier/generate/pickup": self._pickup}.get(name)
        if handler is None:
            return self._json(404, {"message": "Not found", "status_code": 404})
        with self._lock:
            return handler(body)

    @staticmethod
    def _json(status, body):
        return status, {"Content-Type": "application/json"}, json.dumps(body)

    def _login(self, body):
        if body.get("email") != self.email or body.get("password") != self.password:
            return self._json(400, {"message": "Invalid email and password combination", "status_code": 400})
        token = secrets.token_urlsafe(24)
        self.tokens.add(token)
        return self._json(200, {"id": 1, "first_name": "API", "last_name": "User", "email": self.email,
                                "company_id": 1, "created_at": "2026-01-01 10:00:00", "token": token})

    def _create_order(self, body):
        missing = [field for field in REQUIRED_ORDER_FIELDS if body.get(field) in (None, "", [])]
        if missing:
            return self._json(422, {"message": "Oops! Invalid Data.", "status_code": 422,
                                    "errors": {field: [f"The {field} field is required."] for field in missing}})
        if body["payment_method"] not in ("COD", "Prepaid"):
            return self._json(422, {"message": "Oops! Invalid Data.", "status_code": 422,
                                    "errors": {"payment_method": ["The selected payment method is invalid."]}})
        existing = self.orders.get(str(body["order_id"]))
        if existing is None:
            self._next_id += 1
            existing = {"order_id": self._next_id * 10, "shipment_id": self._next_id,
                        "channel_order_id": str(body["order_id"]), "body": body, "awb": "", "label_url": "",
                        "pickup": False}
            self.orders[str(body["order_id"])] = existing
            self.shipments[existing["shipment_id"]] = existing
        return self._json(200, {"order_id": existing["order_id"], "shipment_id": existing["shipment_id"],
                                "status": "NEW", "status_code": 1, "onboarding_completed_now": 0,
                                "awb_code": existing["awb"] or None, "courier_company_id": None,
                                "courier_name": None})

    def _shipment(self, raw):
        ids = raw if isinstance(raw, list) else [raw]
        try:
            return self.shipments.get(int(ids[0])) if ids else None
        except (TypeError, ValueError):
            return None

    def _assign_awb(self, body):
        shipment = self._shipment(body.get("shipment_id"))
        if shipment is None:
            return self._json(400, {"message": "Invalid shipment id", "status_code": 400})
        if not shipment["awb"]:
            shipment["awb"] = f"1900{shipment['shipment_id']}{secrets.randbelow(10**6):06d}"
        return self._json(200, {"awb_assign_status": 1, "response": {"data": {
            "courier_company_id": 12, "awb_code": shipment["awb"], "cod": int(shipment["body"]["payment_method"] == "COD"),
            "order_id": shipment["order_id"], "shipment_id": shipment["shipment_id"], "awb_code_status": 1,
            "assigned_date_time": {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "timezone_type": 3,
                                   "timezone": "Asia/Kolkata"},
            "applied_weight": shipment["body"]["weight"], "courier_name": COURIER_NAME, "routing_code": "BLR/KOR",
            "transporter_id": "", "transporter_name": "", "shipped_by": {}}}})

    def _label(self, body):
        shipment = self._shipment(body.get("shipment_id"))
        if shipment is None or not shipment["awb"]:
            return self._json(400, {"message": "AWB not assigned", "status_code": 400})
        shipment["label_url"] = f"{self.base_url}/labels/{shipment['shipment_id']}.pdf"
        return self._json(200, {"label_created": 1, "label_url": shipment["label_url"],
                                "response": "Label has been created and uploaded successfully!", "not_created": []})

    def _pickup(self, body):
        shipment = self._shipment(body.get("shipment_id"))
        if shipment is None or not shipment["awb"]:
            return self._json(400, {"message": "AWB not assigned", "status_code": 400})
        shipment["pickup"] = True
        return self._json(200, {"pickup_status": 1, "response": {
            "pickup_scheduled_date": "2026-11-26 10:00:00",
            "pickup_token_number": f"Reference No: {shipment['shipment_id']}",
            "status": 3, "others": "", "pickup_generated_date": {}, "data": f"Pickup is confirmed for AWB :- {shipment['awb']}"}})
