// Wishlist (/wishlist): saved books, each movable to the cart or removable.
import { useState } from "react";
import { Link } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { formatRupees } from "../../lib/money.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Banner, ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { useCart } from "../../features/cart/cart-context.jsx";
import { useWishlist } from "../../features/wishlist/use-wishlist.js";
import { RequireSignIn } from "./login.jsx";

function WishlistItem({ book, onMessage }) {
  const cart = useCart();
  const wishlist = useWishlist(useAuth());
  const [busy, setBusy] = useState(false);
  const soldOut = book.stock === 0;

  async function moveToCart() {
    if (!cart.has(book._id) && cart.isFull) {
      onMessage({ tone: "error", text: `Your cart is full (${cart.maxLines} different books). Remove one to add another.` });
      return;
    }
    setBusy(true);
    try {
      cart.add(book, 1);
      await wishlist.remove(book._id);
      onMessage({ tone: "success", text: `'${book.title}' was moved to your cart.` });
    } catch (error) {
      onMessage({ tone: "error", text: error.message || "Failed to remove from wishlist" });
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await wishlist.remove(book._id);
      onMessage({ tone: "success", text: `'${book.title}' was removed from your wishlist.` });
    } catch (error) {
      onMessage({ tone: "error", text: error.message || "Failed to remove from wishlist" });
      setBusy(false);
    }
  }

  const price = book.discountedPrice ?? book.price;
  return (
    <li className="wishlist-item">
      {book.thumbnailUrl
        ? <img className="cart-line__cover" src={book.thumbnailUrl} alt="" width="72" height="96" loading="lazy" />
        : <div className="cart-line__cover cart-line__cover--placeholder" aria-hidden="true">{book.title.slice(0, 1)}</div>}
      <div>
        <h2><Link to={paths.book(book._id)}>{book.title}</Link></h2>
        <p className="cart-line__author">{book.author}</p>
        <p><strong>{formatRupees(price)}</strong></p>
        {soldOut && <p className="cart-line__stock">Out of stock</p>}
      </div>
      <div className="wishlist-item__actions">
        <button type="button" className="button button--small" onClick={moveToCart} disabled={busy || soldOut}>
          {soldOut ? "Out of Stock" : "Move to Cart"}<span className="sr-only">: {book.title}</span>
        </button>
        <button type="button" className="link-button link-button--danger" onClick={remove} disabled={busy}
          aria-label={`Remove ${book.title} from wishlist`}>Remove</button>
      </div>
    </li>
  );
}

function WishlistScreen() {
  usePageMeta("My Wishlist");
  const wishlist = useWishlist(useAuth());
  const [message, setMessage] = useState(null);
  const entries = wishlist.entries.filter((entry) => entry.book);

  return (
    <div className="container page">
      <h1>My Wishlist</h1>
      {message && <Banner tone={message.tone} onDismiss={() => setMessage(null)}>{message.text}</Banner>}
      {(wishlist.status === "loading" || wishlist.status === "idle") && <Loading label="Loading your wishlist…" />}
      {wishlist.status === "error" && <ErrorNotice title="Failed to fetch wishlist." error={wishlist.error} retry={wishlist.reload} />}
      {wishlist.status === "ready" && entries.length === 0 && (
        <div className="empty empty--large">
          <p className="empty__title">Your wishlist is empty</p>
          <p>Save books you like with Add to Wishlist and find them here later.</p>
          <Link className="button" to={paths.books()}>Browse Books</Link>
        </div>
      )}
      {wishlist.status === "ready" && entries.length > 0 && (
        <ul className="wishlist-grid">
          {entries.map((entry) => <WishlistItem key={entry.book._id} book={entry.book} onMessage={setMessage} />)}
        </ul>
      )}
    </div>
  );
}

export function Wishlist() {
  return <RequireSignIn><WishlistScreen /></RequireSignIn>;
}

export { Wishlist as Component };
