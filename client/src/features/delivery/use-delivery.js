// The delivery answer for a PIN while it is typed: asked once the PIN is well formed, the last answer wins.
import { useEffect, useState } from "react";
import { getDelivery } from "./api.js";
import { normalisePin } from "../../lib/pin.js";

const IDLE = { status: "idle", pin: null, data: null, error: null };

/** {status: "idle"|"loading"|"success"|"error", pin, data, error} for `text` (a PIN as typed, or ""). */
export function useDelivery(text) {
  const pin = normalisePin(text);
  // The last answer, for the PIN it answers; a PIN without its answer yet is loading.
  const [state, setState] = useState(IDLE);
  useEffect(() => {
    if (!pin) return undefined;
    const controller = new AbortController();
    getDelivery(pin, { signal: controller.signal }).then(
      (data) => setState({ status: "success", pin, data, error: null }),
      (error) => error.name !== "AbortError" && setState({ status: "error", pin, data: null, error }),
    );
    return () => controller.abort();
  }, [pin]);
  if (!pin) return IDLE;
  return state.pin === pin ? state : { status: "loading", pin, data: null, error: null };
}
