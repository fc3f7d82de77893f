// The step indicator: Shipping, Payment, and the Confirmation that follows (product §5.1).
const STEPS = ["Shipping", "Payment", "Confirmation"];

export function CheckoutSteps({ current }) {
  return (
    <ol className="checkout-steps" aria-label="Checkout progress">
      {STEPS.map((label, index) => {
        const state = index < current ? "done" : index === current ? "current" : "todo";
        return (
          <li key={label} className={`checkout-steps__step checkout-steps__step--${state}`}
            aria-current={state === "current" ? "step" : undefined}>
            <span className="checkout-steps__number" aria-hidden="true">{index < current ? "✓" : index + 1}</span>
            {label}
            {state === "done" && <span className="sr-only"> (completed)</span>}
          </li>
        );
      })}
    </ol>
  );
}
