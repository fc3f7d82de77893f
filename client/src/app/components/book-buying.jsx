// What a shopper can do about one book, under its details on the page and in the dialog: the cart and
// wishlist buttons, "Notify me" alerts (back in stock, new editions), then the delivery check that keeps a
// PIN on the signed-in shopper's account.
import { NotifyMe } from "../../features/alerts/components/notify-me.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { DeliveryCheck } from "../../features/delivery/components/delivery-check.jsx";
import { BookActions } from "./book-actions.jsx";

export function BookBuying({ book }) {
  const { user, updateProfile } = useAuth();
  return (
    <>
      <BookActions book={book} />
      <NotifyMe key={book._id} book={book} signedIn={Boolean(user)} />
      <DeliveryCheck user={user} updateProfile={updateProfile} />
    </>
  );
}
