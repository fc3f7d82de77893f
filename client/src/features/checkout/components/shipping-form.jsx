// Checkout step 1: where the books go (product §5.2 shipping address; India only).
import { Field } from "../../../components/ui/field.jsx";
import { useShop } from "../../../lib/shop.js";
import { AddressTypeField, NameFields, PinField, StateField, StreetFields } from "../../../components/ui/address-fields.jsx";
import { estimateText } from "../../../lib/pin.js";
import { CityField } from "./city-field.jsx";

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
      <NameFields values={address} errors={errors} change={change} />
      <div className="form__row">
        <Field label="Email" error={errors.email} required>
          <input name="email" type="email" autoComplete="email" value={address.email} onChange={change} />
        </Field>
        <Field label="Phone" error={errors.phone} hint="10-digit mobile number" required>
          <input name="phone" type="tel" autoComplete="tel" inputMode="tel" value={address.phone} onChange={change} />
        </Field>
      </div>
      {!digitalOnly && <StreetFields values={address} errors={errors} change={change} />}
      <Field label="GSTIN (optional)" error={errors.buyerGstin} hint="For a business: printed on your bill of supply">
        <input name="buyerGstin" autoComplete="off" maxLength={20} value={address.buyerGstin ?? ""} onChange={change} />
      </Field>
      {!digitalOnly && (<>
      <div className="form__row">
        <CityField value={address.city} error={errors.city} onChange={(city) => onChange({ ...address, city })}
          pinCity={delivery.status === "success" ? delivery.data.city ?? "" : ""} />
        <StateField value={address.state} error={errors.state} change={change} />
      </div>
      {stateCheck && (
        <StateCheck mismatch={stateCheck.mismatch} state={address.state} confirmed={stateCheck.confirmed}
          onConfirm={stateCheck.onConfirm} error={Boolean(errors.stateMismatch) && !stateCheck.confirmed} />
      )}
      <div className="form__row">
        <div className="checkout-form__pin">
          <PinField value={address.zipCode} error={errors.zipCode} maxLength={7} pattern={shop?.pinPattern}
            onChange={(zipCode) => onChange({ ...address, zipCode })} />
          <p className="checkout-form__delivery" role="status">{note}</p>
        </div>
        <Field label="Country">
          <input name="country" value="India" readOnly />
        </Field>
      </div>
      <AddressTypeField value={address.addressType} change={change} />
      </>)}
    </fieldset>
  );
}
