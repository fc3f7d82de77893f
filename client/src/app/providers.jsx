// The root route's element: account and cart state around every screen, the sign-in dialog and, for a
// signed-in shopper, the server's copy of the cart; a logout empties the browser's cart (product §2.3).
// It sits inside the router so providers and the dialog can use router hooks.
import { lazy, Suspense } from "react";
import { Outlet } from "../lib/router.jsx";
import { AuthProvider, useAuth } from "../features/auth/auth-context.jsx";
import { CartProvider } from "../features/cart/cart-context.jsx";
import { clearStoredCart } from "../features/cart/cart-storage.js";
import { getToken } from "../lib/auth-storage.js";

// The dialog and its forms load on first use, keeping them out of the home page's JavaScript.
const AuthModal = lazy(() => import("../features/auth/components/auth-modal.jsx")
  .then((module) => ({ default: module.AuthModal })));
const CartSync = lazy(() => import("./screens/shopping.js").then((module) => ({ default: module.CartSync })));
// A token other than the page's first one means the shopper signed in on this page: merge the carts.
const firstToken = getToken();

function AuthModalSlot() {
  const { modalMode, token } = useAuth();
  return (
    <Suspense fallback={null}>
      {modalMode && <AuthModal />}
      {token && <CartSync signedInNow={token !== firstToken} />}
    </Suspense>
  );
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
