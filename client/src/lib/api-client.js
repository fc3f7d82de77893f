// The one way the client talks to the server: same-origin /api, JSON in and out.
import { clearAuth, getToken } from "./auth-storage.js";

/** A failed call: the server's message, HTTP status (0 when unreachable), field errors and body. */
export class ApiError extends Error {
  constructor(message, { status = 0, errors = null, data = null } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.errors = errors;
    this.data = data;
  }
}

/**
 * Call /api/{endpoint}; a body makes it a JSON POST unless method says otherwise.
 * Resolves to the reply without its `success` flag. :raise ApiError: on any failure but an abort.
 * `token` replaces the shopper's (the admin area keeps its own session, and its 401 leaves the
 * shopper signed in); `as: "blob"` resolves to the body as a Blob, for downloads.
 */
export async function apiClient(endpoint, { body, method, headers, signal, token: ownToken, as } = {}) {
  const token = ownToken === undefined ? getToken() : ownToken;
  let response;
  try {
    response = await fetch(`/api/${endpoint.replace(/^\/+/, "")}`, {
      method: method ?? (body === undefined ? "GET" : "POST"),
      headers: {
        Accept: "application/json",
        ...(body !== undefined && { "Content-Type": "application/json" }),
        ...(token && { Authorization: `Bearer ${token}` }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError("Could not reach the shop. Check your connection and try again.");
  }
  if (as === "blob" && response.ok) return response.blob();
  const data = await response.json().catch(() => null);
  // A rejected token is stale: forget it, unless a newer one was stored meanwhile (a password change
  // replaces it). A 401 without one is just a failed login.
  if (response.status === 401 && token && ownToken === undefined && getToken() === token) clearAuth();
  if (response.ok && data?.success !== false) {
    const { success, ...payload } = data ?? {};
    return payload;
  }
  throw new ApiError(data?.message || `The request failed (${response.status}). Please try again.`, {
    status: response.status,
    errors: data?.errors ?? null,
    data,
  });
}
