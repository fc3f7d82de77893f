// Administrator calls (contract: docs/admin-api.md). Each sends the admin token, never the shopper's.
import { apiClient } from "../../lib/api-client.js";
import { query } from "../../lib/query.js";
import { clearAdminSession, getAdminSession } from "./session.js";

export const ADMIN_PAGE_SIZE = 10; // product §2.5: orders and contacts, 10 a page
export const BOOKS_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 20;

/**
 * An authenticated admin call. A 401 (missing, expired or revoked token) or 403 (no longer an
 * admin) ends the session, which sends the screen to the admin login and back afterwards.
 */
async function adminCall(endpoint, options = {}) {
  try {
    return await apiClient(endpoint, { ...options, token: getAdminSession()?.token ?? null });
  } catch (error) {
    if (error.status === 401 || error.status === 403) clearAdminSession();
    throw error;
  }
}

/** Sign in with the shop's login; refuses (without keeping anything) an account that is not an admin's. */
export async function loginAdmin({ email, password }) {
  const { token, user } = await apiClient("auth/login", { body: { email, password }, token: null });
  if (user?.role !== "admin") {
    // The token was issued all the same: end it at once, whatever the answer.
    apiClient("auth/logout", { method: "POST", token }).catch(() => {});
    const error = new Error("This account is not an administrator");
    error.status = 403;
    throw error;
  }
  return { token, user };
}

/** End the admin token on the server (best effort: signing out locally never waits on it). */
export function logoutAdmin() {
  const token = getAdminSession()?.token;
  if (token) apiClient("auth/logout", { method: "POST", token }).catch(() => {});
}

// ------------------------------------------------------------------ dashboard

export function getDashboardStats({ signal } = {}) {
  return adminCall("admin/dashboard/stats", { signal });
}

export async function getRecentOrders({ signal } = {}) {
  const { orders } = await adminCall("admin/dashboard/recent-orders", { signal });
  return orders;
}

// ------------------------------------------------------------------ books

/** A page of the catalogue, archived books too with `archived`: {books, totalBooks, totalPages, pagination}. */
export function listBooks({ page = 1, search, category, archived = false, signal } = {}) {
  const params = { includeArchived: archived || undefined, page, limit: BOOKS_PAGE_SIZE, search, category, sortBy: "newest" };
  return adminCall(`books${query(params)}`, { signal });
}

/** A book as the admin form edits it, with its version (the ETag to send back when saving). */
export async function getBook(id, { signal } = {}) {
  const { book, version } = await adminCall(`books/${encodeURIComponent(id)}?includeArchived=true`, { signal });
  return { book, version };
}

/** Create a book; resolves to {message, book}. */
export function createBook(fields) {
  return adminCall("books", { body: fields });
}

/**
 * Change a book (omitted fields keep their values); resolves to {message, book, version}. With `version`
 * the server refuses (409, with the current book and version) if the book changed since it was read.
 */
export function updateBook(id, fields, { version } = {}) {
  return adminCall(`books/${encodeURIComponent(id)}`, {
    method: "PUT", body: fields, ...(version && { headers: { "If-Match": version } }),
  });
}

/** Delete a book, or archive it when it is in past orders; resolves to {archived, message}. */
export function deleteBook(id) {
  return adminCall(`books/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Put an archived book back on sale as it is (audited as book.restore); resolves to {message, book, version}. */
export function restoreBook(id) {
  return adminCall(`books/${encodeURIComponent(id)}/restore`, { method: "POST" });
}

export async function getCategories({ signal } = {}) {
  const { categories } = await apiClient("categories", { signal, token: null });
  return categories;
}

// ------------------------------------------------------------------ orders

/** {orders, pagination: {page, totalOrders, totalPages}}, newest first. */
export function listOrders({ page = 1, status, search, signal } = {}) {
  return adminCall(`admin/orders${query({ page, limit: ADMIN_PAGE_SIZE, status, search })}`, { signal });
}

export async function getOrder(id, { signal } = {}) {
  const { order } = await adminCall(`admin/orders/${encodeURIComponent(id)}`, { signal });
  return order;
}

/** Move an order to status; resolves to {message, order}. */
export function updateOrderStatus(id, status, note = "") {
  return adminCall(`admin/orders/${encodeURIComponent(id)}/status`, { method: "PUT", body: { status, note } });
}

/** Refund part of a paid order {amount, reason, payoutReference?}; resolves to {message, order}. */
export function refundPartOfOrder(id, body) {
  return adminCall(`admin/orders/${encodeURIComponent(id)}/refunds`, { method: "POST", body });
}

/** {refunds, pagination}: refunds that need a person, the longest waiting first. */
export function listStuckRefunds({ page = 1, signal } = {}) {
  return adminCall(`admin/refunds/attention${query({ page, limit: ADMIN_PAGE_SIZE })}`, { signal });
}

/** Ask again for a refund (kind: cancel, return, rto or part) once its cause is fixed; resolves to {message, order}. */
export function retryRefund(kind, id) {
  return adminCall(`admin/refunds/${encodeURIComponent(kind)}/${encodeURIComponent(id)}/retry`, { method: "POST" });
}

/** Ship lines of an order: {courier, awb, trackingUrl?, packages?, aggregator?, lines?}; resolves to
 * {message, order, shipment} (through Shiprocket: 202 and the parcel `booking` until the job books it). */
export function shipOrder(id, body) {
  return adminCall(`admin/orders/${encodeURIComponent(id)}/shipments`, { method: "POST", body });
}

/** Book a parcel whose Shiprocket booking failed again; resolves to {message, order, shipment}. */
export function retryBooking(orderId, shipmentId) {
  return adminCall(`admin/orders/${encodeURIComponent(orderId)}/shipments/${encodeURIComponent(shipmentId)}/retry`,
    { method: "POST" });
}

/** A tracking event {status, at?, location?, note?} of a parcel; resolves to {message, order}. */
export function addShipmentEvent(orderId, shipmentId, body) {
  return adminCall(`admin/orders/${encodeURIComponent(orderId)}/shipments/${encodeURIComponent(shipmentId)}/events`,
    { method: "POST", body });
}

/** A parcel returned to origin is back at the shop; resolves to {message, order}. */
export function receiveParcel(orderId, shipmentId) {
  return adminCall(`admin/orders/${encodeURIComponent(orderId)}/shipments/${encodeURIComponent(shipmentId)}/received`,
    { method: "POST" });
}

export const STOCK_MOVEMENTS_PAGE_SIZE = 20;

/** A book's stock ledger, newest first: {stock, movements, pagination} (product §5.9). */
export function listStockMovements(bookId, { page = 1, signal } = {}) {
  return adminCall(`admin/books/${encodeURIComponent(bookId)}/stock-movements${query({ page, limit: STOCK_MOVEMENTS_PAGE_SIZE })}`,
    { signal });
}

/** Adjust a book's stock {quantity (signed), reason, note}; resolves to {message, stock, movement}. */
export function adjustStock(bookId, body) {
  return adminCall(`admin/books/${encodeURIComponent(bookId)}/stock-movements`, { method: "POST", body });
}

/** {couriers: [{_id, name, trackingUrlTemplate, active}], shiprocket} */
export function listCouriers({ signal } = {}) {
  return adminCall("admin/couriers", { signal });
}

/** The filtered order list as a CSV Blob. */
export function exportOrders({ status, search } = {}) {
  return adminCall(`admin/orders/export.csv${query({ status, search })}`, { as: "blob", headers: { Accept: "text/csv" } });
}

// ------------------------------------------------------------------ contact messages

/** {contacts, pagination: {page, totalContacts, totalPages}}, newest first. */
export function listContacts({ page = 1, status, signal } = {}) {
  return adminCall(`contact${query({ page, limit: ADMIN_PAGE_SIZE, status })}`, { signal });
}

/** Set a message's status (new, in-progress, resolved); resolves to {message, contact}. */
export function updateContactStatus(id, status) {
  return adminCall(`contact/${encodeURIComponent(id)}/status`, { method: "PUT", body: { status } });
}

// ------------------------------------------------------------------ shipping & payments

/** Every delivery, fee and cash-on-delivery setting (money in rupees). */
export async function getShopSettings({ signal } = {}) {
  const { settings } = await adminCall("admin/shop-settings", { signal });
  return settings;
}

/** Save settings (fields left out keep their values); resolves to {message, settings}. */
export function saveShopSettings(changes) {
  return adminCall("admin/shop-settings", { method: "PUT", body: changes });
}

// ------------------------------------------------------------------ reviews

/** {reviews, pagination: {page, totalReviews, totalPages}}, newest first; status: published or hidden. */
export function listReviews({ page = 1, status, signal } = {}) {
  return adminCall(`admin/reviews${query({ page, limit: ADMIN_PAGE_SIZE, status })}`, { signal });
}

/** Publish a review, or hide it with a reason; resolves to {message, review}. */
export function moderateReview(id, status, reason = "") {
  return adminCall(`admin/reviews/${encodeURIComponent(id)}`, { method: "PUT", body: { status, reason } });
}

// ------------------------------------------------------------------ returns

/** {returns, pagination: {page, totalReturns, totalPages}}: newest first, or a status's oldest first. */
export function listReturns({ page = 1, status, signal } = {}) {
  return adminCall(`admin/returns${query({ page, limit: ADMIN_PAGE_SIZE, status })}`, { signal });
}

/** One step: {status: approved|rejected|received|refunded, note, method, lines: [{book, resaleable}], payoutReference}. */
export function updateReturn(id, body) {
  return adminCall(`admin/returns/${encodeURIComponent(id)}`, { method: "PUT", body });
}

/** A return's photo as a Blob (the call needs the admin token, so no plain <img src>). */
export function returnPhoto(url, { signal } = {}) {
  return adminCall(url.replace(/^\/api\//, ""), { as: "blob", signal });
}

// ------------------------------------------------------------------ kits

/** A page of kits, archived too, newest first: {kits, pagination}. */
export function listKits({ page = 1, search, status, signal } = {}) {
  return adminCall(`admin/kits${query({ page, limit: ADMIN_PAGE_SIZE, search, status })}`, { signal });
}

export async function getKit(id, { signal } = {}) {
  const { kit } = await adminCall(`admin/kits/${encodeURIComponent(id)}`, { signal });
  return kit;
}

/** Create a kit; resolves to {message, kit}. 409 when the slug is taken. */
export function createKit(fields) {
  return adminCall("admin/kits", { body: fields });
}

/** Change, archive ({archived: true}) or restore a kit; resolves to {message, kit}. */
export function updateKit(id, fields) {
  return adminCall(`admin/kits/${encodeURIComponent(id)}`, { method: "PUT", body: fields });
}

/** Every exam, for a kit's exam link: [{_id, name, shortName}]. */
export async function getExamChoices({ signal } = {}) {
  const { exams } = await apiClient("exams", { signal });
  return exams;
}

// ------------------------------------------------------------------ coupons

/** Every coupon with its use count, newest first (the server sends the whole list). */
export async function listCoupons({ signal } = {}) {
  const { coupons } = await adminCall("admin/coupons", { signal });
  return coupons;
}

/** Create a coupon; resolves to {message, coupon}. 409 when the code exists. */
export function createCoupon(fields) {
  return adminCall("admin/coupons", { body: fields });
}

/** Change a coupon (fields left out keep their values); resolves to {message, coupon}. */
export function updateCoupon(id, fields) {
  return adminCall(`admin/coupons/${encodeURIComponent(id)}`, { method: "PUT", body: fields });
}

// ------------------------------------------------------------------ newsletter

/** {subscribers, pagination: {page, totalSubscribers, totalPages}}: confirmed subscribers, newest first. */
export function listSubscribers({ page = 1, signal } = {}) {
  return adminCall(`admin/newsletter${query({ page, limit: ADMIN_PAGE_SIZE })}`, { signal });
}

/** Every confirmed subscriber as a CSV Blob. */
export function exportSubscribers() {
  return adminCall("admin/newsletter/export.csv", { as: "blob", headers: { Accept: "text/csv" } });
}

// ------------------------------------------------------------------ audit log

/** {entries, pagination: {page, totalEntries, totalPages}}, newest first, of one kind of thing or one thing. */
export function listAuditEntries({ page = 1, entityType, entityId, signal } = {}) {
  return adminCall(`admin/audit${query({ page, limit: AUDIT_PAGE_SIZE, entityType, entityId })}`, { signal });
}

/** An Error shaped like api-client's ApiError (importing that class here would grow the shoppers' first load). */
function uploadError(message, status = 0, data = null) {
  return Object.assign(new Error(message), { name: "ApiError", status, errors: data?.errors ?? null, data });
}

/**
 * Upload an e-book's or audiobook's file (multipart: the shared JSON client sends JSON only, and growing it would
 * grow every shopper's first load). Resolves to {message, book}. :raise Error: with status, errors, data.
 */
export async function uploadBookFile(id, file) {
  const form = new FormData();
  form.append("file", file);
  const token = getAdminSession()?.token;
  let response;
  try {
    response = await fetch(`/api/admin/books/${encodeURIComponent(id)}/file`, {
      method: "PUT", body: form, headers: { Accept: "application/json", ...(token && { Authorization: `Bearer ${token}` }) },
    });
  } catch {
    throw uploadError("Could not reach the shop. Check your connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (response.status === 401 || response.status === 403) clearAdminSession();
  if (!response.ok || !data?.success) {
    throw uploadError(data?.message || `The upload failed (${response.status}). Please try again.`, response.status, data);
  }
  const { success, ...payload } = data;
  return payload;
}
