// The coupon box of the checkout summary: Apply asks the server's quote with the code; Remove drops it.
import { useId } from "react";
import { useResettingState } from "../../../lib/use-resetting-state.js";

/**
 * `code` is the code being tried or applied ("" for none); `verdict` is the quote's coupon answer for it
 * ({code, applied, discount, reason}) once it has come; `busy` while that answer is on its way.
 */
export function CouponField({ code, verdict, busy, onApply, onRemove }) {
  const id = useId();
  const [text, setText] = useResettingState(code);
  const applied = Boolean(code) && verdict?.applied && verdict.code?.toUpperCase() === code.toUpperCase();
  const refused = Boolean(code) && verdict && !verdict.applied ? verdict.reason || "This coupon cannot be used." : "";
  const messageId = `${id}-message`;

  function apply(event) {
    event.preventDefault();
    const typed = text.trim();
    if (typed) onApply(typed.toUpperCase());
  }

  return (
    <div className="field coupon-field">
      {applied ? (
        <div className="coupon-field__applied">
          <p id={messageId} role="status">Coupon <strong>{verdict.code}</strong> applied.</p>
          <button type="button" className="button button--secondary" onClick={onRemove}
            aria-label={`Remove coupon ${verdict.code}`}>Remove</button>
        </div>
      ) : (
        <>
          <label className="field__label" htmlFor={id}>Coupon code</label>
          <div className="coupon-field__row">
            <input id={id} name="couponCode" autoComplete="off" autoCapitalize="characters" maxLength={20} value={text}
              aria-invalid={refused ? true : undefined} aria-describedby={refused ? messageId : undefined}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => event.key === "Enter" && apply(event)} />
            <button type="button" className="button button--secondary" onClick={apply} disabled={busy || !text.trim()}>
              {busy && code ? "Applying…" : "Apply"}
            </button>
          </div>
        </>
      )}
      {!applied && <p id={messageId} className="field__error" role="status">{refused}</p>}
    </div>
  );
}
