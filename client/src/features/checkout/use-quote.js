// The server's price for the checkout as it stands (PIN, payment method, coupon): asked again on every change.
import { useEffect, useMemo, useState } from "react";
import { normalisePin } from "../../lib/pin.js";
import { getQuote } from "./api.js";
import { orderItem } from "../../lib/kit-lines.js";

/** The quote's request body; fields the server would refuse (a half-typed PIN or e-mail) are left out. */
export function quoteBody(lines, { zipCode, method, couponCode, email, phone }) {
  const pin = normalisePin(zipCode);
  const mail = String(email ?? "").trim();
  // The phone and e-mail count toward the open cash-on-delivery orders a contact may have.
  const mobile = String(phone ?? "").replace(/[\s\-()]/g, "").replace(/^(\+91|91|0)(?=\d{10}$)/, "");
  return {
    orderItems: lines.map(orderItem),
    ...(couponCode && { couponCode }),
    ...(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(mail) && { email: mail }),
    ...(/^[6-9]\d{9}$/.test(mobile) && { phone: mobile }),
    ...((method === "cod" || method === "online") && { paymentMethod: method }),
    ...(pin && { zipCode: pin }),
  };
}

/**
 * {quote, current, error, requote, latest}: `quote` is the last answer (kept while the next is on its way),
 * `current` says it answers the body as it stands now, `requote()` asks again (after a 409), `latest()`
 * resolves to the quote for the body as it stands.
 */
export function useQuote(lines, options) {
  // A new body only when a field it reads changes (options is a new object every render).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const body = useMemo(() => quoteBody(lines, options), [lines, options.zipCode, options.method,
    options.couponCode, options.email, options.phone]);
  const json = JSON.stringify(body);
  const [round, setRound] = useState(0);
  const [state, setState] = useState({ json: null, round: -1, quote: null, error: null });
  useEffect(() => {
    if (!lines.length) return undefined;
    const controller = new AbortController();
    getQuote(JSON.parse(json), { signal: controller.signal }).then(
      (quote) => setState({ json, round, quote, error: null }),
      (error) => error.name !== "AbortError" && setState((old) => ({ json, round, quote: old.quote, error })),
    );
    return () => controller.abort();
  }, [json, round, lines.length]);
  const current = state.json === json && state.round === round && !state.error;
  return {
    quote: state.quote,
    current,
    error: state.json === json ? state.error : null,
    requote: () => setRound((value) => value + 1),
    /** The quote for the body as it stands: the one shown when current, else asked now. */
    latest: () => (current ? Promise.resolve(state.quote) : getQuote(JSON.parse(json))),
  };
}
