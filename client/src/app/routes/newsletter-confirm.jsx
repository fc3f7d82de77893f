// /newsletter/confirm?token=...: the link in the newsletter's confirmation e-mail.
import { useCallback } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Loading } from "../../components/ui/request-state.jsx";
import { confirmSubscription } from "../../features/newsletter/api.js";

export function NewsletterConfirm() {
  usePageMeta("Confirm Newsletter");
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
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
