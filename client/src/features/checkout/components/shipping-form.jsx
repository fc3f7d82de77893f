// Checkout step 1: where the books go (product §5.2 shipping address; India only).
import { Field } from "../../../components/ui/field.jsx";
import { useShop } from "../../../lib/shop.js";
import { estimateText } from "../../../lib/pin.js";
import { CityField } from "./city-field.jsx";

const ADDRESS_TYPES = [["home", "Home"], ["work", "Work"], ["other", "Other"]];

/** What the shop says about the PIN typed: the delivery dates, or why it cannot promise them. */
function deliveryNote(delivery) {
  if (delivery.status === "loading") return "Checking delivery to this PIN…";
  if (delivery.status === "error") return "";
  if (delivery.status !== "success") return "";
  const { data } = delivery;
  if (!data.serviceable) return data.message || "We can't confirm delivery to this PIN.";
  const when = estimateText(data.estimate);
  return [data.city && `Delivery to ${data.city}.`, when && `${when}.`].filter(Boolean).join(" ") || data.message;
}

/**
 * The state chosen is not the PIN's: say so next to the state, and let the shopper confirm their address
 * (the directory can be wrong, and a few PINs straddle two states) instead of correcting it.
 */
function StateCheck({ mismatch, state, confirmed, onConfirm, error }) {
  return (
    <div className="checkout-form__state-check" role="group" aria-labelledby="state-check-note">
      <p id="state-check-note" className={error ? "field__error" : "checkout-form__state-note"}>
        {mismatch} Please correct the state or the PIN code, or confirm that the address is right.
      </p>
      <label className="choice">
        <input type="checkbox" name="confirmStateMismatch" checked={confirmed}
          onChange={(event) => onConfirm(event.target.checked)} />
        My address is right: deliver to {state}.
      </label>
    </div>
  );
}

/** `digitalOnly`: every line is an e-book or audiobook (product §7.11): the bill needs a name, e-mail and phone,
 * and nothing is shipped, so the street, city, state and PIN are not asked. */
export function ShippingForm({ address, errors, onChange, delivery = { status: "idle" }, stateCheck = null,
  digitalOnly = false }) {
  const note = deliveryNote(delivery);
  const shop = useShop();
  const change = (event) => onChange({ ...address, [event.target.name]: event.target.value });
  return (
    <fieldset className="form checkout-form">
      <legend className="checkout-form__legend">{digitalOnly ? "Your Details" : "Shipping Address"}</legend>
      {digitalOnly && (
        <p className="checkout-form__digital-note">
          Your cart holds only e-books and audiobooks: nothing is shipped, so we need no address. Download links
          appear on your order page once you have paid online.
        </p>
      )}
      <div className="form__row">
        <Field label="First Name" error={errors.firstName} required>
          <input name="firstName" autoComplete="given-name" value={address.firstName} onChange={change} />
        </Field>
        <Field label="Last Name" error={errors.lastName} required>
          <input name="lastName" autoComplete="family-name" value={address.lastName} onChange={change} />
        </Field>
      </div>
      <div className="form__row">
        <Field label="Email" error={errors.email} required>
          <input name="email" type="email" autoComplete="email" value={address.email} onChange={change} />
        </Field>
        <Field label="Phone" error={errors.phone} hint="10-digit mobile number" required>
          <input name="phone" type="tel" autoComplete="tel" inputMode="tel" value={address.phone} onChange={change} />
        </Field>
      </div>
      {!digitalOnly && (<>
      <Field label="Address" error={errors.address} hint="House number, street, area" required>
        <textarea name="address" rows="2" autoComplete="street-address" value={address.address} onChange={change} />
      </Field>
      <Field label="Landmark (optional)" error={errors.landmark}>
        <input name="landmark" value={address.landmark} onChange={change} />
      </Field>
      </>)}
      <Field label="GSTIN (optional)" error={errors.buyerGstin} hint="For a business: printed on your bill of supply">
        <input name="buyerGstin" autoComplete="off" maxLength={20} value={address.buyerGstin ?? ""} onChange={change} />
      </Field>
      {!digitalOnly && (<>
      <div className="form__row">
        <CityField value={address.city} error={errors.city} onChange={(city) => onChange({ ...address, city })}
          pinCity={delivery.status === "success" ? delivery.data.city ?? "" : ""} />
        <Field label="State" error={errors.state} required>
          <select name="state" autoComplete="address-level1" value={address.state} onChange={change}>
            <option value="">Select a state</option>
            {/* The server's list (GET /api/shop): exactly the names an order may carry. */}
            {(shop?.states ?? []).map((state) => <option key={state} value={state}>{state}</option>)}
            {/* A state typed before the list came (or filled from the PIN) stays selected. */}
            {!shop && address.state && <option value={address.state}>{address.state}</option>}
          </select>
        </Field>
      </div>
      {stateCheck && (
        <StateCheck mismatch={stateCheck.mismatch} state={address.state} confirmed={stateCheck.confirmed}
          onConfirm={stateCheck.onConfirm} error={Boolean(errors.stateMismatch) && !stateCheck.confirmed} />
      )}
      <div className="form__row">
        <div className="checkout-form__pin">
          <Field label="PIN Code" error={errors.zipCode} hint="6 digits" required>
            <input name="zipCode" autoComplete="postal-code" inputMode="numeric" maxLength={7} pattern={shop?.pinPattern}
              value={address.zipCode}
              onChange={(event) => onChange({ ...address, zipCode: event.target.value.replace(/\D/g, "").slice(0, 6) })} />
          </Field>
          <p className="checkout-form__delivery" role="status">{note}</p>
        </div>
        <Field label="Country">
          <input name="country" value="India" readOnly />
        </Field>
      </div>
      <fieldset className="choice-group">
        <legend>Address Type</legend>
        {ADDRESS_TYPES.map(([value, label]) => (
          <label key={value} className="choice">
            <input type="radio" name="addressType" value={value} checked={address.addressType === value} onChange={change} />
            {label}
          </label>
        ))}
      </fieldset>
      </>)}
    </fieldset>
  );
}
