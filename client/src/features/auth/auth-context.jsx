// Who is signed in, the calls that change it, and the sign-in dialog any screen can open.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { clearAuth, getToken, getUser, onAuthChange, setAuth } from "../../lib/auth-storage.js";
import * as api from "./api.js";

const AuthContext = createContext(null);

// useSyncExternalStore wants a stable snapshot: a new object only when storage really changed.
let snapshot = null;
function readSnapshot() {
  const token = getToken();
  const user = getUser();
  const key = `${token}\n${JSON.stringify(user)}`;
  if (snapshot?.key !== key) {
    const signedIn = Boolean(token && user);
    snapshot = { key, token: signedIn ? token : null, user: signedIn ? user : null };
  }
  return snapshot;
}

/** onLogout() runs after a logout has forgotten the shopper (the app empties the cart there). */
export function AuthProvider({ onLogout, children }) {
  const { token, user } = useSyncExternalStore(onAuthChange, readSnapshot, readSnapshot);
  const [modalMode, setModalMode] = useState(null);

  // Product §2.3: the profile is read on start and merged into the stored user; a revoked token
  // answers 401 and the api client forgets it.
  useEffect(() => {
    if (!token) return undefined;
    const controller = new AbortController();
    api.getProfile({ signal: controller.signal }).then(
      (fresh) => {
        if (getToken() === token) setAuth({ token, user: { ...getUser(), ...fresh } });
      },
      () => {},
    );
    return () => controller.abort();
  }, [token]);

  const login = useCallback(async (credentials) => {
    const reply = await api.login(credentials);
    setAuth({ token: reply.token, user: reply.user });
    return reply;
  }, []);

  const register = useCallback(async (fields) => {
    const reply = await api.register(fields);
    setAuth({ token: reply.token, user: reply.user });
    return reply;
  }, []);

  const logout = useCallback(async () => {
    await api.logout();
    // Product §2.3: logout removes token, user and cart (the cart through onLogout).
    clearAuth();
    onLogout?.();
  }, [onLogout]);

  const updateProfile = useCallback(async (fields) => {
    const fresh = await api.updateProfile(fields);
    setAuth({ token: getToken(), user: fresh });
    return fresh;
  }, []);

  const openAuthModal = useCallback((mode = "login") => setModalMode(mode === "register" ? "register" : "login"), []);
  const closeAuthModal = useCallback(() => setModalMode(null), []);

  const value = useMemo(() => ({
    user,
    token,
    isSignedIn: Boolean(token && user),
    isAdmin: user?.role === "admin",
    login,
    register,
    logout,
    updateProfile,
    modalMode,
    openAuthModal,
    closeAuthModal,
  }), [user, token, login, register, logout, updateProfile, modalMode, openAuthModal, closeAuthModal]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/**
 * {user, token, isSignedIn, isAdmin, login({email, password}), register(fields), logout(),
 * updateProfile(fields), modalMode, openAuthModal("login" | "register"), closeAuthModal()}.
 */
export function useAuth() {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error("useAuth must be used inside AuthProvider");
  return auth;
}
