// The root route's element: account and cart state around every screen, and the sign-in dialog;
// a logout empties the cart (product §2.3).
// It sits inside the router so providers and the dialog can use router hooks.
import { lazy, Suspense } from "react";
import { Outlet } from "react-router-dom";
import { AuthProvider, useAuth } from "../features/auth/auth-context.jsx";
import { CartProvider } from "../features/cart/cart-context.jsx";
import { clearStoredCart } from "../features/cart/cart-storage.js";

// The dialog and its forms load on first use, keeping them out of the home page's JavaScript.
const AuthModal = lazy(() => import("../features/auth/components/auth-modal.jsx")
  .then((module) => ({ default: module.AuthModal })));

function AuthModalSlot() {
  const { modalMode } = useAuth();
  return modalMode ? <Suspense fallback={null}><AuthModal /></Suspense> : null;
}

export function AppProviders() {
  return (
    <AuthProvider onLogout={clearStoredCart}>
      <CartProvider>
        <Outlet />
        <AuthModalSlot />
      </CartProvider>
    </AuthProvider>
  );
}
