// The delivery answer for a PIN while it is typed: asked once the PIN is well formed, the last answer wins.
import { useEffect, useState } from "react";
import { getDelivery } from "./api.js";
import { normalisePin } from "../../lib/pin.js";

/** {status: "idle"|"loading"|"success"|"error", pin, data, error} for `text` (a PIN as typed, or ""). */
export function useDelivery(text) {
  const pin = normalisePin(text);
  const [state, setState] = useState({ status: "idle", pin: null, data: null, error: null });
  useEffect(() => {
    if (!pin) {
      setState({ status: "idle", pin: null, data: null, error: null });
      return undefined;
    }
    const controller = new AbortController();
    setState({ status: "loading", pin, data: null, error: null });
    getDelivery(pin, { signal: controller.signal }).then(
      (data) => setState({ status: "success", pin, data, error: null }),
      (error) => error.name !== "AbortError" && setState({ status: "error", pin, data: null, error }),
    );
    return () => controller.abort();
  }, [pin]);
  return state;
}
