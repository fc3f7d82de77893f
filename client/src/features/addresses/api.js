// The signed-in shopper's address book (GET/POST /api/addresses, PUT/DELETE /api/addresses/{id}).
import { apiClient } from "../../lib/api-client.js";

/** Every call resolves to {addresses (default first), limit, address?, message?}. */
export const listAddresses = ({ signal } = {}) => apiClient("addresses", { signal });
export const addAddress = (address) => apiClient("addresses", { body: address });
export const changeAddress = (id, fields) => apiClient(`addresses/${encodeURIComponent(id)}`, { method: "PUT", body: fields });
export const makeDefault = (id) => changeAddress(id, { isDefault: true });
export const deleteAddress = (id) => apiClient(`addresses/${encodeURIComponent(id)}`, { method: "DELETE" });

// The fields an address-book entry holds: checkout's address without the e-mail.
export const ADDRESS_FIELDS = ["firstName", "lastName", "phone", "address", "landmark", "city", "state", "zipCode",
  "addressType"];

/** Only the saved fields of an address (a checkout form also holds the e-mail), trimmed. */
export function savedFields(address) {
  return Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, String(address[name] ?? "").trim()]));
}

/** One line for a saved address: "Asha Verma, 12 MG Road, Bengaluru, Karnataka 560001". */
export function addressLine(address) {
  return [`${address.firstName} ${address.lastName}`, address.address, address.landmark, address.city,
    `${address.state} ${address.zipCode}`].filter((part) => part && part.trim()).join(", ");
}
