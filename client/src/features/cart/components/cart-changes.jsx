// What a re-read of the cart changed, in the shopper's words, until they dismiss it.
import { formatRupees } from "../../../lib/money.js";
import { Banner } from "../../../components/ui/request-state.jsx";
import { useCart } from "../cart-context.jsx";

const rupees = (paise) => formatRupees(paise / 100);

/** One sentence per change found by refresh(). */
export function describeChange(change) {
  const title = `'${change.title}'`;
  switch (change.kind) {
    case "price":
      return `The price of ${title} changed from ${rupees(change.fromPaise)} to ${rupees(change.toPaise)}.`;
    case "stock":
      return `Only ${change.to} ${change.to === 1 ? "copy" : "copies"} of ${title} ${change.to === 1 ? "is" : "are"} left, so your quantity is now ${change.to}.`;
    case "soldOut":
      return `${title} is out of stock and was removed from your cart.`;
    default:
      return `${title} is no longer sold and was removed from your cart.`;
  }
}

export function CartChanges() {
  const { changes, dismissChanges } = useCart();
  if (changes.length === 0) return null;
  return (
    <Banner tone="warning" onDismiss={dismissChanges}>
      <strong>Your cart was updated.</strong>{" "}
      {changes.map((change) => <span key={`${change.bookId}-${change.kind}`} className="cart-change">{describeChange(change)} </span>)}
    </Banner>
  );
}
