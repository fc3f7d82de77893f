// "Deliver to [PIN] Check" on a book's page: the shop's answer for that PIN (dates, cash on delivery),
// and the PIN kept for the next book and the checkout (in this browser, and on a signed-in shopper's account).
import { useId, useState } from "react";
import { getDelivery } from "../api.js";
import { estimateText, normalisePin, rememberPin, savedPin } from "../../../lib/pin.js";

function answerText(data) {
  if (!data.serviceable) return data.message || "We can't confirm delivery to this PIN.";
  const when = estimateText(data.estimate);
  return data.message || [data.city && `Delivery to ${data.city}.`, when && `${when}.`].filter(Boolean).join(" ");
}

/** user: the signed-in shopper or null; updateProfile(fields) keeps a checked PIN on their account (both from the app). */
export function DeliveryCheck({ user, updateProfile }) {
  const id = useId();
  const [text, setText] = useState(() => savedPin(user));
  const [answer, setAnswer] = useState({ status: "idle", text: "" });
  const accountPin = user?.deliveryPin;

  // The account's PIN arrives with the profile read on start: it wins until the shopper checks one.
  const [seenPin, setSeenPin] = useState(undefined);
  if (seenPin !== accountPin) {
    setSeenPin(accountPin);
    if (accountPin && answer.status === "idle") setText(accountPin);
  }

  async function check(event) {
    event.preventDefault();
    const pin = normalisePin(text);
    if (!pin) {
      setAnswer({ status: "error", text: "PIN code must be 6 digits and cannot start with 0." });
      return;
    }
    setAnswer({ status: "loading", text: "Checking…" });
    try {
      const data = await getDelivery(pin);
      if (data.serviceable) {
        rememberPin(pin); // a PIN the shop cannot deliver to is no help at checkout
        // Kept on the account too; the answer shown does not wait for it, nor fail with it.
        if (user && accountPin !== pin) updateProfile({ deliveryPin: pin }).catch(() => {});
      }
      setText(pin);
      setAnswer({ status: data.serviceable ? "success" : "error", text: answerText(data) });
    } catch (error) {
      setAnswer({ status: "error", text: error.message });
    }
  }

  const answerId = `${id}-answer`;
  return (
    <form className="field delivery-check" onSubmit={check} noValidate aria-label="Delivery">
      <label className="field__label" htmlFor={id}>Deliver to</label>
      <div className="delivery-check__row">
        <input id={id} name="deliveryPin" inputMode="numeric" autoComplete="postal-code" maxLength={7}
          placeholder="PIN code" value={text} aria-describedby={answerId}
          aria-invalid={answer.status === "error" && !normalisePin(text) ? true : undefined}
          onChange={(event) => setText(event.target.value.replace(/[^\d ]/g, ""))} />
        <button type="submit" className="button button--secondary" disabled={answer.status === "loading"}>Check</button>
      </div>
      <p id={answerId} className={`delivery-check__answer ${answer.status === "error" ? "field__error" : ""}`}
        role="status">{answer.text}</p>
    </form>
  );
}
