// /cookies: what the shop keeps in the browser.
import { ContentPage } from "../../components/ui/content-page.jsx";

export function Cookies() {
  return (
    <ContentPage title="Cookie Policy"
                 description="The Bookstore uses no advertising or tracking cookies; it keeps only your cart and sign-in in your browser."
                 lead="No advertising cookies, no tracking.">
      <h2>What we keep in your browser</h2>
      <table className="table">
        <caption className="sr-only">Data kept in your browser</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Purpose</th><th scope="col">Kept until</th></tr></thead>
        <tbody>
          <tr><td><code>cart</code></td><td>The books in your cart, so it survives a reload</td><td>You empty the cart or log out</td></tr>
          <tr><td><code>token</code>, <code>user</code></td><td>Keeps you signed in</td><td>You log out, or the sign-in expires after 7 days</td></tr>
        </tbody>
      </table>
      <p>These are stored with your browser’s local storage, not as cookies, and are never sent to other websites.</p>
      <h2>Third parties</h2>
      <p>When you pay online, Razorpay’s checkout window may set its own cookies to protect the payment against fraud. We use no analytics or advertising services.</p>
      <h2>Your choices</h2>
      <p>You can clear this data at any time in your browser’s settings. The shop still works, but your cart will be emptied and you will need to sign in again.</p>
    </ContentPage>
  );
}

export { Cookies as Component };
