// The fields of a person's name and an Indian address, shared by the checkout's shipping form, the address
// book and the profile (and the sign-up's names). Each form arranges them and keeps its own state.
import { Field } from "./field.jsx";
import { useShop } from "../../lib/shop.js";

const ADDRESS_TYPES = [["home", "Home"], ["work", "Work"], ["other", "Other"]];

/** First and last name side by side; `change` is the form's input handler (by `name`). */
export function NameFields({ values, errors, change, autoFocus = false }) {
  return (
    <div className="form__row">
      <Field label="First Name" error={errors.firstName} required>
        <input name="firstName" autoComplete="given-name" autoFocus={autoFocus} value={values.firstName} onChange={change} />
      </Field>
      <Field label="Last Name" error={errors.lastName} required>
        <input name="lastName" autoComplete="family-name" value={values.lastName} onChange={change} />
      </Field>
    </div>
  );
}

/** The street address and an optional landmark. */
export function StreetFields({ values, errors, change }) {
  return (
    <>
      <Field label="Address" error={errors.address} hint="House number, street, area" required>
        <textarea name="address" rows="2" autoComplete="street-address" value={values.address} onChange={change} />
      </Field>
      <Field label="Landmark (optional)" error={errors.landmark}>
        <input name="landmark" value={values.landmark} onChange={change} />
      </Field>
    </>
  );
}

/** The state, from the server's list (GET /api/shop): exactly the names an order may carry. */
export function StateField({ value, error, change }) {
  const shop = useShop();
  return (
    <Field label="State" error={error} required>
      <select name="state" autoComplete="address-level1" value={value} onChange={change}>
        <option value="">Select a state</option>
        {(shop?.states ?? []).map((state) => <option key={state} value={state}>{state}</option>)}
        {/* A state chosen before the list came (or filled from the PIN) stays selected. */}
        {!shop && value && <option value={value}>{value}</option>}
      </select>
    </Field>
  );
}

/** The PIN code: digits only, at most six; `onChange(pin)` gets what is kept. */
export function PinField({ value, error, onChange, ...input }) {
  return (
    <Field label="PIN Code" error={error} hint="6 digits" required>
      <input name="zipCode" autoComplete="postal-code" inputMode="numeric" maxLength={6} {...input} value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, "").slice(0, 6))} />
    </Field>
  );
}

/** Home, work or other. */
export function AddressTypeField({ value, change }) {
  return (
    <fieldset className="choice-group">
      <legend>Address Type</legend>
      {ADDRESS_TYPES.map(([type, label]) => (
        <label key={type} className="choice">
          <input type="radio" name="addressType" value={type} checked={value === type} onChange={change} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
