// The root route's element: account and cart state around every screen, and the sign-in dialog.
// It sits inside the router so providers and the dialog can use router hooks.
import { Outlet } from "react-router-dom";
import { AuthProvider } from "../features/auth/auth-context.jsx";
import { AuthModal } from "../features/auth/components/auth-modal.jsx";
import { CartProvider } from "../features/cart/cart-context.jsx";

export function AppProviders() {
  return (
    <AuthProvider>
      <CartProvider>
        <Outlet />
        <AuthModal />
      </CartProvider>
    </AuthProvider>
  );
}
