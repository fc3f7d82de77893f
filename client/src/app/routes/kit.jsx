// /kit/{slug}: a kit's books, their sum, the kit price and the saving, and Add to Cart (the cart takes the
// kit as one line; it joins the kits and the cart, so it is composed here).
import { useCallback, useState } from "react";
import { Link, useParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { kitCartItem } from "../../lib/kit-lines.js";
import { formatRupees } from "../../lib/money.js";
import { Banner, ErrorNotice, Loading } from "../../components/ui/request-state.jsx";
import { useCart } from "../../features/cart/cart-context.jsx";
import { getKit } from "../../features/kits/api.js";
import { KitDetails } from "../../features/kits/components/kit-details.jsx";

function KitActions({ kit }) {
  const cart = useCart();
  const [note, setNote] = useState(null);
  const item = kitCartItem(kit);

  function addToCart() {
    const inCart = cart.lines.find((line) => line.book._id === item._id);
    if (!inCart && cart.isFull) {
      setNote({ tone: "error", text: `Your cart is full (${cart.maxLines} different items). Remove one to add another.` });
      return;
    }
    if (inCart && inCart.quantity >= kit.stock) {
      setNote({ tone: "error", text: `All ${kit.stock} kits in stock are already in your cart.` });
      return;
    }
    cart.add(item, 1);
    setNote({ tone: "success", text: inCart ? "One more kit added to your cart." : "Added to your cart." });
  }

  return (
    <div className="book-actions">
      <div className="book-actions__buttons">
        <button type="button" className="button" onClick={addToCart} disabled={!kit.inStock}>
          {kit.inStock ? "Add to Cart" : "Out of Stock"}
        </button>
      </div>
      {note && (
        <Banner tone={note.tone}>
          {note.text} {note.tone === "success" && <Link to={paths.cart()}>View cart</Link>}
        </Banner>
      )}
    </div>
  );
}

export function Kit() {
  const { slug = "" } = useParams();
  const request = useCallback(({ signal }) => getKit(slug, { signal }), [slug]);
  const { status, data: kit, error, retry } = useRequest(request);
  const missing = status === "error" && error?.status === 404;
  usePageMeta(kit ? kit.name : missing ? "Kit not found" : "Kit",
    kit ? `${kit.name}: ${kit.books.length} books for ${formatRupees(kit.price)}. Delivered across India.` : undefined);

  if (status === "loading") return <div className="container page"><Loading label="Loading kit…" /></div>;
  if (missing) {
    return (
      <section className="container notice-page" aria-labelledby="kit-missing">
        <h1 id="kit-missing">Kit not found</h1>
        <p>This kit is not sold any more.</p>
        <p><Link className="button" to={paths.exams()}>Browse exams</Link></p>
      </section>
    );
  }
  if (status === "error") {
    return <div className="container page"><ErrorNotice title="Failed to load the kit." error={error} retry={retry} /></div>;
  }
  return (
    <section className="container page kit-page" aria-labelledby="kit-title">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <ol>
          <li><Link to={paths.home()}>Home</Link></li>
          {kit.exam && <li><Link to={paths.exam(kit.exam.slug)}>{kit.exam.name}</Link></li>}
          <li aria-current="page">{kit.name}</li>
        </ol>
      </nav>
      <h1 id="kit-title">{kit.name}</h1>
      <KitDetails kit={kit} actions={<KitActions kit={kit} />} />
    </section>
  );
}

export { Kit as Component };
