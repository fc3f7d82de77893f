// Every screen URL the client links to, built in one place.
import { query } from "../lib/query.js";

export const paths = {
  home: () => "/",
  /** The catalogue; params are the API's names: search, category, sortBy, page, minPrice, ... */
  books: (params) => `/books${query(params)}`,
  book: (id) => `/book/${encodeURIComponent(id)}`,
  categories: () => "/categories",
  /** Product §3.1: category pages are addressed by the lower-cased category name ("b.com", "i to xii school"). */
  category: (name) => `/category/${encodeURIComponent(name.toLowerCase())}`,
  exams: () => "/exams",
  /** An exam's page; params are its filters (subject, medium, page ...). */
  exam: (slug, params) => `/exam/${encodeURIComponent(slug)}${query(params)}`,
  kit: (slug) => `/kit/${encodeURIComponent(slug)}`,
  bestsellers: () => "/bestsellers",
  newReleases: () => "/new-releases",
  cart: () => "/cart",
  login: (from) => `/login${query({ from })}`,
  register: (from) => `/register${query({ from })}`,
  forgotPassword: (email) => `/forgot-password${query({ email })}`,
  checkout: () => "/checkout",
  orderSuccess: () => "/order/success",
  profile: () => "/profile",
  orders: () => "/orders",
  orderLookup: (params) => `/order-lookup${query(params)}`,
  wishlist: () => "/wishlist",
  myAlerts: () => "/alerts",
  admin: () => "/admin",
  about: () => "/about",
  contact: () => "/contact",
  shipping: () => "/shipping",
  returnPolicy: () => "/return-policy",
  faq: () => "/faq",
  privacy: () => "/privacy",
  terms: () => "/terms",
  cookies: () => "/cookies",
};
