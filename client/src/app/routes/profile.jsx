// Profile (/profile): the signed-in shopper's details, viewed and edited; the address book, the password and
// closing the account. Each section is its own component; this screen puts them in order.
import { useState } from "react";
import { clearAuth } from "../../lib/auth-storage.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { Banner } from "../../components/ui/request-state.jsx";
import { useAuth } from "../../features/auth/auth-context.jsx";
import { AccountClosed } from "../../features/auth/components/account-closed.jsx";
import { PasswordSection } from "../../features/auth/components/change-password.jsx";
import { CloseAccount } from "../../features/auth/components/close-account.jsx";
import { ProfileDetails } from "../../features/auth/components/profile-details.jsx";
import { ProfileForm } from "../../features/auth/components/profile-form.jsx";
import { clearStoredCart } from "../../features/cart/cart-storage.js";
import { formatDate } from "../../features/orders/labels.js";
import { AddressBook } from "../../features/addresses/components/address-book.jsx";
import { RequireSignIn } from "./login.jsx";

function ProfileScreen({ onClosed }) {
  usePageMeta("My Profile");
  const { user } = useAuth();
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState(null);

  return (
    <div className="container page narrow">
      <h1>My Profile</h1>
      {note && <Banner tone="success" onDismiss={() => setNote(null)}>{note}</Banner>}
      {editing ? (
        <ProfileForm user={user} onDone={(message) => { setEditing(false); setNote(message); }} />
      ) : (
        <ProfileDetails user={user} formatDate={formatDate} onEdit={() => { setNote(null); setEditing(true); }} />
      )}
      <AddressBook />
      <PasswordSection user={user} />
      <CloseAccount user={user} onClosed={onClosed} />
    </div>
  );
}

export function Profile() {
  const [closed, setClosed] = useState(null);
  if (closed) return <AccountClosed message={closed} />;
  return (
    <RequireSignIn>
      <ProfileScreen onClosed={(message) => { setClosed(message); clearAuth(); clearStoredCart(); }} />
    </RequireSignIn>
  );
}

export { Profile as Component };
