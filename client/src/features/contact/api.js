// The contact form's one call.
import { apiClient } from "../../lib/api-client.js";

/** {message, contact}: the stored message. */
export function sendContactMessage({ name, email, phone, subject, message }) {
  return apiClient("contact", { body: { name, email, phone: phone || null, subject, message } });
}
