// The profile's details as read: name, e-mail with its verification (and a pending new one), phone, member since,
// and the way to edit.
import { Link } from "../../../lib/router.jsx";
import { paths } from "../../../config/paths.js";
import { ResendVerification } from "./resend-verification.jsx";

function VerifiedBadge({ verified }) {
  return verified
    ? <span className="status-badge status-badge--delivered">Verified</span>
    : <span className="status-badge status-badge--pending">Not verified</span>;
}

/** The shopper's details; `formatDate` writes the member-since date, `onEdit` opens the form. */
export function ProfileDetails({ user, formatDate, onEdit }) {
  return (
    <section className="card" aria-label="Your details">
      <dl className="profile-facts">
        <div><dt>Name</dt><dd>{user.firstName} {user.lastName}</dd></div>
        <div>
          <dt>Email</dt>
          <dd className="profile-facts__email">{user.email} <VerifiedBadge verified={user.isVerified !== false} /></dd>
        </div>
        <div><dt>Phone</dt><dd>{user.phone || "Not given"}</dd></div>
        {user.createdAt && <div><dt>Member since</dt><dd>{formatDate(user.createdAt)}</dd></div>}
      </dl>
      {user.pendingEmail && (
        <div className="profile-verify">
          <p>
            Pending verification of {user.pendingEmail}: open the link we e-mailed there within 24 hours. Until
            then you sign in, and we write to you, at {user.email}.
          </p>
          <ResendVerification />
        </div>
      )}
      {user.isVerified === false && !user.pendingEmail && (
        <div className="profile-verify">
          <p>Please verify your e-mail address: open the link we e-mailed to {user.email}. It works for 24 hours.</p>
          <ResendVerification />
        </div>
      )}
      <div className="order-card__actions">
        <button type="button" className="button" onClick={onEdit}>Edit Profile</button>
        <Link className="button button--secondary" to={paths.orders()}>My Orders</Link>
        <Link className="button button--secondary" to={paths.wishlist()}>Wishlist</Link>
        <Link className="button button--secondary" to={paths.myAlerts()}>My Alerts</Link>
      </div>
    </section>
  );
}
