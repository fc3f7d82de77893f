// Delivery to a PIN: where it is, whether the shop delivers there (and cash on delivery), and when.
import { apiClient } from "../../lib/api-client.js";

/** {pin, city, district, state, serviceable, zone, cod, codLimit, codFee, estimate: {from, to}, message} */
export function getDelivery(pin, { signal } = {}) {
  return apiClient(`delivery/${encodeURIComponent(pin)}`, { signal });
}
