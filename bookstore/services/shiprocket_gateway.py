"""Shiprocket's HTTP API (apiv2.shiprocket.in, `/v1/external/...`): log in for a token, create an
order, assign an AWB, generate a label and ask for a pickup.

The bottom of the shipping stack: it knows Shiprocket's API and nothing of shop orders. Every call has
the SHIPROCKET_TIMEOUT_SECONDS timeout; any failure is a 502 `ShippingProviderError` with a clear
message, raised before the shop writes anything.
"""
import logging
import time

import requests
from flask import current_app

from bookstore.errors import ApiError

log = logging.getLogger(__name__)
# Shiprocket's tokens last 240 hours; the shop logs in again well before that.
TOKEN_SECONDS = 9 * 24 * 3600


class ShippingProviderError(ApiError):
    """Shiprocket failed, refused or could not be reached: 502, and nothing was shipped on our side."""

    status = 502


def configured() -> bool:
    """Shiprocket can be used when its API user's e-mail and password are set."""
    config = current_app.config
    return bool(config.get("SHIPROCKET_EMAIL") and config.get("SHIPROCKET_PASSWORD"))


def _session() -> requests.Session:
    """One HTTP session per app (a connection pool)."""
    return current_app.extensions.setdefault("shiprocket_session", requests.Session())


def _url(path: str) -> str:
    return current_app.config["SHIPROCKET_BASE_URL"].rstrip("/") + "/v1/external/" + path


def _send(what: str, path: str, body: dict, token: str | None) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        return _session().post(_url(path), json=body, headers=headers,
                               timeout=current_app.config["SHIPROCKET_TIMEOUT_SECONDS"])
    except requests.Timeout:
        log.warning("Shiprocket timed out: %s", what)
        raise ShippingProviderError("Shiprocket did not answer in time. Nothing was shipped; please try again.") from None
    except requests.RequestException:
        log.warning("Shiprocket unreachable: %s", what)
        raise ShippingProviderError("Shiprocket cannot be reached right now. Nothing was shipped; please try again "
                                    "in a moment or ship manually.") from None


def _answer(what: str, response: requests.Response) -> dict:
    """The JSON of a successful answer. :raise ShippingProviderError: with Shiprocket's own message."""
    try:
        body = response.json()
    except ValueError:
        body = {}
    if response.status_code >= 400 or not isinstance(body, dict):
        message = body.get("message") if isinstance(body, dict) else None
        log.warning("Shiprocket refused %s: %s %s", what, response.status_code, message)
        raise ShippingProviderError(f"Shiprocket refused to {what}: {message or 'no reason given'}. "
                                    "Nothing was shipped.")
    return body


def _token(fresh: bool = False) -> str:
    """A bearer token, kept per app until shortly before it expires. :raise ShippingProviderError:"""
    config = current_app.config
    key = (config["SHIPROCKET_BASE_URL"], config["SHIPROCKET_EMAIL"])
    cached = current_app.extensions.setdefault("shiprocket_tokens", {}).get(key)
    if cached and not fresh and cached[1] > time.monotonic():
        return cached[0]
    body = _answer("sign the shop in", _send("log in", "auth/login", {
        "email": config["SHIPROCKET_EMAIL"], "password": config["SHIPROCKET_PASSWORD"]}, None))
    token = body.get("token")
    if not isinstance(token, str) or not token:
        raise ShippingProviderError("Shiprocket did not give the shop a token. Check SHIPROCKET_EMAIL and "
                                    "SHIPROCKET_PASSWORD.")
    current_app.extensions["shiprocket_tokens"][key] = (token, time.monotonic() + TOKEN_SECONDS)
    return token


def call(what: str, path: str, body: dict) -> dict:
    """POST to Shiprocket with the shop's token (logging in again once if it was refused)."""
    response = _send(what, path, body, _token())
    if response.status_code == 401:
        response = _send(what, path, body, _token(fresh=True))
    return _answer(what, response)


def create_order(body: dict) -> dict:
    """`orders/create/adhoc`: Shiprocket's order and shipment ids."""
    answer = call("create the order", "orders/create/adhoc", body)
    if not answer.get("shipment_id"):
        raise ShippingProviderError(f"Shiprocket did not create the order: {answer.get('message') or 'no reason given'}.")
    return answer


def assign_awb(shipment_id) -> dict:
    """`courier/assign/awb`: the AWB and courier Shiprocket chose for the shipment."""
    answer = call("assign an AWB", "courier/assign/awb", {"shipment_id": shipment_id})
    data = (answer.get("response") or {}).get("data") or {}
    if answer.get("awb_assign_status") != 1 or not data.get("awb_code"):
        reason = data.get("awb_assign_error") or answer.get("message") or "no reason given"
        raise ShippingProviderError(f"Shiprocket could not assign an AWB: {reason}. Nothing was shipped.")
    return data


def generate_label(shipment_id) -> str:
    """`courier/generate/label`: the label PDF's address."""
    answer = call("generate the label", "courier/generate/label", {"shipment_id": [shipment_id]})
    if answer.get("label_created") != 1 or not answer.get("label_url"):
        raise ShippingProviderError("Shiprocket could not generate the label. Nothing was shipped.")
    return answer["label_url"]


def generate_pickup(shipment_id) -> dict:
    """`courier/generate/pickup`: the pickup's date and token number."""
    answer = call("schedule the pickup", "courier/generate/pickup", {"shipment_id": [shipment_id]})
    if answer.get("pickup_status") != 1:
        raise ShippingProviderError("Shiprocket could not schedule the pickup. Nothing was shipped.")
    return answer.get("response") or {}
