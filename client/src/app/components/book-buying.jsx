// What a shopper can do about one book, under its details on the page and in the dialog: the cart and
// wishlist buttons, then the delivery check that keeps a PIN on the signed-in shopper's account.
import { useAuth } from "../../features/auth/auth-context.jsx";
import { DeliveryCheck } from "../../features/delivery/components/delivery-check.jsx";
import { BookActions } from "./book-actions.jsx";

export function BookBuying({ book }) {
  const { user, updateProfile } = useAuth();
  return (
    <>
      <BookActions book={book} />
      <DeliveryCheck user={user} updateProfile={updateProfile} />
    </>
  );
}
