// A book's price; a discounted price is shown first with the list price struck through.
import { formatRupees } from "../../lib/money.js";

export function Price({ price, discountedPrice }) {
  const discounted = discountedPrice != null && discountedPrice < price;
  if (!discounted) return <p className="price"><span className="price__now">{formatRupees(price)}</span></p>;
  return (
    <p className="price">
      <span className="price__now"><span className="sr-only">Offer price </span>{formatRupees(discountedPrice)}</span>{" "}
      <s className="price__was"><span className="sr-only">List price </span>{formatRupees(price)}</s>
    </p>
  );
}
