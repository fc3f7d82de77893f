// Checkout step 2: cash on delivery (unless the quote says why not), or online payment when the server has
// Razorpay configured.
export function PaymentOptions({ method, onChange, config, cod }) {
  const online = config?.onlineAvailable === true;
  const codRefused = cod?.available === false;
  return (
    <fieldset className="choice-group payment-options">
      <legend className="checkout-form__legend">Payment Method</legend>
      <label className={`payment-option ${codRefused ? "payment-option--disabled" : ""}`}>
        <input type="radio" name="paymentMethod" value="cod" checked={method === "cod"} disabled={codRefused}
          onChange={() => onChange("cod")} aria-describedby="cod-payment-note" />
        <span>
          <strong>Cash on Delivery</strong>
          <span className="payment-option__note" id="cod-payment-note">
            {codRefused ? `Not available: ${cod.reason || "cash on delivery cannot be offered for this order."}`
              : "Pay in cash when your books arrive."}
          </span>
        </span>
      </label>
      <label className={`payment-option ${online ? "" : "payment-option--disabled"}`}>
        <input type="radio" name="paymentMethod" value="online" checked={method === "online"} disabled={!online}
          onChange={() => onChange("online")} aria-describedby="online-payment-note" />
        <span>
          <strong>Pay Online</strong>
          <span className="payment-option__note" id="online-payment-note">
            {online ? "Card, UPI, net banking or wallet, through Razorpay."
              : config ? config.message || "Online payment is not available at the moment; cash on delivery is."
                : "Checking whether online payment is available…"}
          </span>
        </span>
      </label>
    </fieldset>
  );
}
