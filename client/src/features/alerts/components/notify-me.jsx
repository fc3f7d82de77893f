// "Notify me" under a book's buttons: told by e-mail when an out-of-stock book is back, or when a newer
// edition is added. Guests give an address and confirm it from the e-mail; signed-in shoppers just ask.
import { useId, useState } from "react";
import { Banner } from "../../../components/ui/request-state.jsx";
import { askForAlert } from "../api.js";

const LABELS = { "back-in-stock": "Notify me when it's back", "new-edition": "Tell me about new editions" };

export function NotifyMe({ book, signedIn }) {
  const soldOut = book.stock === 0;
  // Which alert the address form asks for; an out-of-stock book shows it at once.
  const [formKind, setFormKind] = useState(soldOut ? "back-in-stock" : null);
  const [email, setEmail] = useState("");
  const [state, setState] = useState({ status: "idle", message: "" });
  const id = useId();
  const sending = state.status === "sending";

  async function send(kind) {
    setState({ status: "sending", message: "" });
    try {
      const message = await askForAlert(book._id, kind, signedIn ? undefined : email.trim());
      setState({ status: "done", message });
    } catch (error) {
      const field = error.errors?.email?.[0];
      setState({ status: "error", message: field || error.message || "Could not set up the alert. Please try again." });
    }
  }

  function submit(event) {
    event.preventDefault();
    send(formKind);
  }

  function askNewEditions() {
    if (signedIn || email.trim()) send("new-edition");
    else if (formKind) setState({ status: "error", message: "Enter your e-mail address first." });
    else setFormKind("new-edition");
  }

  const showForm = formKind !== null && (!signedIn || formKind === "back-in-stock");
  return (
    <div className="notify-me">
      {showForm && (
        <form className="field notify-me__form" onSubmit={submit} aria-label="Book alert">
          {!signedIn && <label className="field__label" htmlFor={`${id}-email`}>Your e-mail for the alert</label>}
          <div className="notify-me__row">
            {!signedIn && (
              <input id={`${id}-email`} type="email" name="email" required autoComplete="email" maxLength={254}
                     placeholder="you@example.in" value={email} onChange={(event) => setEmail(event.target.value)} />
            )}
            <button type="submit" className="button button--secondary" disabled={sending}>
              {sending ? "Sending…" : LABELS[formKind]}
            </button>
          </div>
        </form>
      )}
      {formKind !== "new-edition" || signedIn ? (
        <button type="button" className="notify-me__link" onClick={askNewEditions} disabled={sending}>
          {LABELS["new-edition"]}
        </button>
      ) : null}
      {(state.status === "done" || state.status === "error") && (
        <Banner tone={state.status === "done" ? "success" : "error"}
                onDismiss={() => setState({ status: "idle", message: "" })}>
          {state.message}
        </Banner>
      )}
    </div>
  );
}
