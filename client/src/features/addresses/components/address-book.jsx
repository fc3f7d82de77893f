// The profile's address book: list, add, edit, make default and delete saved delivery addresses.
import { useEffect, useState } from "react";
import { Field } from "../../../components/ui/field.jsx";
import { Banner } from "../../../components/ui/request-state.jsx";
import { useForm } from "../../../lib/use-form.js";
import { AddressTypeField, NameFields, PinField, StateField, StreetFields } from "../../../components/ui/address-fields.jsx";
import { addAddress, addressLine, changeAddress, deleteAddress, listAddresses, makeDefault, savedFields } from "../api.js";

const EMPTY = { firstName: "", lastName: "", phone: "", address: "", landmark: "", city: "", state: "", zipCode: "",
  addressType: "home" };

const firstErrors = (error) => Object.fromEntries(Object.entries(error?.errors ?? {})
  .map(([field, list]) => [field, [].concat(list)[0]]));

function AddressForm({ initial, onSave, onCancel }) {
  const { fields, setFields, change, errors, setErrors, message, setMessage, busy, setBusy } = useForm({ ...EMPTY, ...initial });

  async function submit(event) {
    event.preventDefault();
    setBusy(true);
    try {
      await onSave(savedFields(fields));
    } catch (error) {
      const found = firstErrors(error);
      setErrors(found);
      // Field errors stand beside their fields; the banner is for the rest (the book is full, the network).
      setMessage(Object.keys(found).length ? null : error.message);
      setBusy(false);
    }
  }

  return (
    <form className="form address-form" onSubmit={submit} noValidate aria-label={initial._id ? "Edit address" : "New address"}>
      {message && <Banner onDismiss={() => setMessage(null)}>{message}</Banner>}
      <NameFields values={fields} errors={errors} change={change} />
      <Field label="Phone" error={errors.phone} hint="10-digit mobile number" required>
        <input name="phone" type="tel" autoComplete="tel" value={fields.phone} onChange={change} />
      </Field>
      <StreetFields values={fields} errors={errors} change={change} />
      <div className="form__row">
        <Field label="City" error={errors.city} required>
          <input name="city" autoComplete="address-level2" value={fields.city} onChange={change} />
        </Field>
        <StateField value={fields.state} error={errors.state} change={change} />
      </div>
      <PinField value={fields.zipCode} error={errors.zipCode} onChange={(zipCode) => setFields({ ...fields, zipCode })} />
      <AddressTypeField value={fields.addressType} change={change} />
      <div className="order-card__actions">
        <button type="submit" className="button" disabled={busy}>{busy ? "Saving…" : "Save Address"}</button>
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>Cancel</button>
      </div>
    </form>
  );
}

export function AddressBook() {
  const [book, setBook] = useState(null);
  const [editing, setEditing] = useState(null); // null, "new" or an address
  const [message, setMessage] = useState(null);

  useEffect(() => {
    const controller = new AbortController();
    listAddresses({ signal: controller.signal }).then(setBook, (error) => {
      if (error.name !== "AbortError") setMessage({ tone: "error", text: error.message });
    });
    return () => controller.abort();
  }, []);

  async function run(call, done) {
    try {
      const reply = await call();
      setBook(reply);
      setEditing(null);
      setMessage({ tone: "success", text: done });
    } catch (error) {
      setMessage({ tone: "error", text: error.message });
    }
  }

  async function save(fields) {
    const reply = editing === "new" ? await addAddress(fields) : await changeAddress(editing._id, fields);
    setBook(reply);
    setEditing(null);
    setMessage({ tone: "success", text: editing === "new" ? "Address saved." : "Address updated." });
  }

  const addresses = book?.addresses ?? [];
  const full = book && addresses.length >= book.limit;
  return (
    <section className="card profile-section" aria-labelledby="addresses-title">
      <h2 id="addresses-title">Saved Addresses</h2>
      {message && <Banner tone={message.tone} onDismiss={() => setMessage(null)}>{message.text}</Banner>}
      {book && !addresses.length && <p>No saved addresses yet. Checkout offers the ones you save here.</p>}
      <ul className="address-list">
        {addresses.map((address) => (
          <li key={address._id} className="address-list__item">
            <p>
              {addressLine(address)}, {address.phone}
              {address.isDefault && <span className="status-badge status-badge--delivered">Default</span>}
            </p>
            <div className="order-card__actions">
              {!address.isDefault && (
                <button type="button" className="button button--secondary"
                  onClick={() => run(() => makeDefault(address._id), "Default address changed.")}>Make Default</button>
              )}
              <button type="button" className="button button--secondary" onClick={() => setEditing(address)}
                aria-label={`Edit ${addressLine(address)}`}>Edit</button>
              <button type="button" className="button button--secondary"
                onClick={() => run(() => deleteAddress(address._id), "Address deleted.")}
                aria-label={`Delete ${addressLine(address)}`}>Delete</button>
            </div>
          </li>
        ))}
      </ul>
      {editing ? (
        <AddressForm key={editing._id ?? "new"} initial={editing === "new" ? {} : editing} onSave={save}
          onCancel={() => setEditing(null)} />
      ) : book && (
        full
          ? <p className="field__hint">You have saved {book.limit} addresses, the most an account keeps. Delete one to add another.</p>
          : <button type="button" className="button" onClick={() => { setMessage(null); setEditing("new"); }}>Add Address</button>
      )}
    </section>
  );
}
