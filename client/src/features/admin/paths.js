// Every admin screen URL, built in one place.

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
  orders: (params) => `/admin/orders${params ? `?${new URLSearchParams(params)}` : ""}`,
  contacts: () => "/admin/contacts",
  shopSettings: () => "/admin/shipping-payments",
  reviews: () => "/admin/reviews",
  returns: (params) => `/admin/returns${params ? `?${new URLSearchParams(params)}` : ""}`,
  coupons: (params) => `/admin/coupons${params ? `?${new URLSearchParams(params)}` : ""}`,
  newCoupon: () => "/admin/coupons/new",
  editCoupon: (id) => `/admin/coupons/edit/${encodeURIComponent(id)}`,
  kits: (params) => `/admin/kits${params ? `?${new URLSearchParams(params)}` : ""}`,
  newKit: () => "/admin/kits/new",
  editKit: (id) => `/admin/kits/edit/${encodeURIComponent(id)}`,
  newsletter: () => "/admin/newsletter",
  audit: (params) => `/admin/audit${params ? `?${new URLSearchParams(params)}` : ""}`,
};
