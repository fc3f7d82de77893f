// Add to Cart and Add to Wishlist for one book, with what happened said in words (it joins the cart,
// the wishlist and the sign-in, so it is composed here rather than in a feature).
import { useState } from "react";
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { Banner } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { useCart } from "../../features/cart/cart-context.jsx";
import { useWishlist } from "../../features/wishlist/use-wishlist.js";

export function BookActions({ book, compact = false }) {
  const cart = useCart();
  const wishlist = useWishlist(useAuth());
  const [note, setNote] = useState(null);
  const [busy, setBusy] = useState(false);
  const soldOut = book.stock === 0;
  const wished = wishlist.has(book._id);

  function addToCart() {
    const inCart = cart.lines.find((line) => line.book._id === book._id);
    if (!inCart && cart.isFull) {
      setNote({ tone: "error", text: `Your cart is full (${cart.maxLines} different books). Remove one to add another.` });
      return;
    }
    if (inCart && Number.isInteger(book.stock) && inCart.quantity >= book.stock) {
      setNote({ tone: "error", text: book.stock === 1 ? "The only copy is already in your cart." : `All ${book.stock} copies are already in your cart.` });
      return;
    }
    cart.add(book, 1);
    setNote({ tone: "success", text: inCart ? "One more copy added to your cart." : "Added to your cart." });
  }

  async function toggleWishlist() {
    setBusy(true);
    try {
      if (wished) {
        await wishlist.remove(book._id);
        setNote({ tone: "success", text: "Removed from your wishlist." });
      } else if (await wishlist.add(book)) {
        setNote({ tone: "success", text: "Saved to your wishlist." });
      } // else: signed out, and the wishlist opened the sign-in dialog
    } catch (error) {
      setNote({ tone: "error", text: error.message || "Failed to update your wishlist." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={`book-actions ${compact ? "book-actions--compact" : ""}`}>
      <div className="book-actions__buttons">
        <button type="button" className="button" onClick={addToCart} disabled={soldOut}>
          {soldOut ? "Out of Stock" : "Add to Cart"}
        </button>
        {!compact && (
          <button type="button" className="button button--secondary" onClick={toggleWishlist} disabled={busy}>
            {wished ? "Remove from Wishlist" : "Add to Wishlist"}
          </button>
        )}
      </div>
      {note && (
        <Banner tone={note.tone} onDismiss={() => setNote(null)}>
          {note.text}{" "}
          {note.tone === "success" && note.text.includes("cart") && <Link to={paths.cart()}>View cart</Link>}
        </Banner>
      )}
    </div>
  );
}
