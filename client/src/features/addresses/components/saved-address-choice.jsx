// Checkout: the signed-in shopper picks one of their saved addresses (the default first) or types a new one.
import { addressLine } from "../api.js";

/** `addresses` from the address book; `chosen` is an address id or "new"; onChoose(id or "new"). */
export function SavedAddressChoice({ addresses, chosen, onChoose }) {
  if (!addresses.length) return null;
  return (
    <fieldset className="choice-group saved-addresses">
      <legend>Saved addresses</legend>
      {addresses.map((address) => (
        <label key={address._id} className="choice">
          <input type="radio" name="savedAddress" value={address._id} checked={chosen === address._id}
            onChange={() => onChoose(address._id)} />
          <span>{addressLine(address)}{address.isDefault && <strong> (default)</strong>}</span>
        </label>
      ))}
      <label className="choice">
        <input type="radio" name="savedAddress" value="new" checked={chosen === "new"} onChange={() => onChoose("new")} />
        A new address
      </label>
    </fieldset>
  );
}
