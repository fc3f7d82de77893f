// Every admin screen URL, built in one place.
import { query } from "../../lib/query.js";

/** Only an admin screen may be a return address, so a crafted link cannot send the admin elsewhere. */
export function safeReturnPath(from) {
  return typeof from === "string" && /^\/admin(\/|\?|$)/.test(from) && !from.startsWith("//") ? from : "/admin";
}

export const adminPaths = {
  /** The admin login; `from` is the admin screen to come back to after signing in. */
  login: (from) => (from && from !== "/admin" ? `/admin-login?from=${encodeURIComponent(from)}` : "/admin-login"),
  dashboard: () => "/admin",
  books: () => "/admin/books",
  newBook: () => "/admin/books/new",
  editBook: (id) => `/admin/books/edit/${encodeURIComponent(id)}`,
  orders: (params) => `/admin/orders${query(params)}`,
  contacts: () => "/admin/contacts",
  shopSettings: () => "/admin/shipping-payments",
  reviews: () => "/admin/reviews",
  refunds: (params) => `/admin/refunds${query(params)}`,
  returns: (params) => `/admin/returns${query(params)}`,
  coupons: (params) => `/admin/coupons${query(params)}`,
  newCoupon: () => "/admin/coupons/new",
  editCoupon: (id) => `/admin/coupons/edit/${encodeURIComponent(id)}`,
  kits: (params) => `/admin/kits${query(params)}`,
  newKit: () => "/admin/kits/new",
  editKit: (id) => `/admin/kits/edit/${encodeURIComponent(id)}`,
  newsletter: () => "/admin/newsletter",
  audit: (params) => `/admin/audit${query(params)}`,
};
