// The newsletter box: an e-mail address, sent to the server, confirmed by e-mail (double opt-in).
import { useId, useState } from "react";
import { Banner } from "../../../components/ui/request-state.jsx";
import { subscribe } from "../api.js";

/** tone "dark" on the footer's dark background, "light" on the home page. */
export function NewsletterForm({ title = "Newsletter", lead, tone = "light", headingLevel = 2 }) {
  const [email, setEmail] = useState("");
  const [state, setState] = useState({ status: "idle", message: "" });
  const id = useId();
  const Heading = `h${headingLevel}`;

  async function submit(event) {
    event.preventDefault();
    setState({ status: "sending", message: "" });
    try {
      const message = await subscribe(email.trim());
      setState({ status: "done", message });
      setEmail("");
    } catch (error) {
      const field = error.errors?.email?.[0];
      setState({ status: "error", message: field || error.message || "Subscription failed. Please try again." });
    }
  }

  return (
    <section className={`newsletter newsletter--${tone}`} aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="newsletter__title">{title}</Heading>
      {lead && <p className="newsletter__lead">{lead}</p>}
      <form className="newsletter__form" onSubmit={submit} noValidate={false}>
        <label htmlFor={`${id}-email`} className="sr-only">E-mail address</label>
        <input id={`${id}-email`} type="email" name="email" required autoComplete="email" maxLength={254}
               placeholder="you@example.in" value={email} onChange={(event) => setEmail(event.target.value)} />
        <button type="submit" className="button" disabled={state.status === "sending"}>
          {state.status === "sending" ? "Subscribing…" : "Subscribe"}
        </button>
      </form>
      {(state.status === "done" || state.status === "error") && (
        <Banner tone={state.status === "done" ? "success" : "error"}
                onDismiss={() => setState({ status: "idle", message: "" })}>
          {state.message}
        </Banner>
      )}
    </section>
  );
}
