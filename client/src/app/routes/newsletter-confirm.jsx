// /newsletter/confirm?token=...: the link in the newsletter's confirmation e-mail; /newsletter/unsubscribe?token=...:
// the one-click link of every newsletter (a mail program POSTs to it; a person opening it confirms here).
import { useCallback, useState } from "react";
import { Link, useParams, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Loading } from "../../components/ui/request-state.jsx";
import { confirmSubscription } from "../../features/newsletter/api.js";
import { unsubscribe } from "../../features/newsletter/unsubscribe-api.js";
import { NotFound } from "./not-found.jsx";

/** A GET never unsubscribes (link checkers open links too): the shopper presses the button. */
function Unsubscribe({ token }) {
  usePageMeta("Unsubscribe");
  const [state, setState] = useState({ status: "idle" });

  async function confirm() {
    setState({ status: "loading" });
    try {
      setState({ status: "success", message: await unsubscribe(token) });
    } catch (error) {
      setState({ status: "error", message: error.message });
    }
  }

  return (
    <section className="container notice-page" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">Unsubscribe from the newsletter</h1>
      {state.status === "success" && <p role="status">{state.message}</p>}
      {state.status === "error" && <p role="alert">{state.message}</p>}
      {(state.status === "idle" || state.status === "loading") && (
        <>
          <p>Stop receiving the Bookstore newsletter at this address?</p>
          <p>
            <button type="button" className="button" onClick={confirm} disabled={state.status === "loading"}>
              {state.status === "loading" ? "Unsubscribing…" : "Unsubscribe"}
            </button>
          </p>
        </>
      )}
      <p><Link className="button button--secondary" to={paths.books()}>Browse books</Link></p>
    </section>
  );
}

export function NewsletterConfirm() {
  const { step } = useParams();
  const [params] = useSearchParams();
  if (step === "unsubscribe") return <Unsubscribe token={params.get("token") ?? ""} />;
  if (step !== "confirm") return <NotFound />;
  return <Confirm token={params.get("token") ?? ""} />;
}

function Confirm({ token }) {
  usePageMeta("Confirm Newsletter");
  const request = useCallback(
    ({ signal }) => (token ? confirmSubscription(token, { signal }) : Promise.reject(new Error("This link has no confirmation code."))),
    [token],
  );
  const { status, data: message, error } = useRequest(request);
  return (
    <section className="container notice-page" aria-labelledby="newsletter-confirm-title">
      <h1 id="newsletter-confirm-title">Newsletter subscription</h1>
      {status === "loading" && <Loading label="Confirming your subscription…" />}
      {status === "success" && <p role="status">{message}</p>}
      {status === "error" && <p role="alert">{error.message}</p>}
      <p><Link className="button" to={paths.books()}>Browse books</Link></p>
    </section>
  );
}

export { NewsletterConfirm as Component };
