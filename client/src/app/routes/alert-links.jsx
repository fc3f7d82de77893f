// /alerts/confirm?token=... and /alerts/cancel?token=...: the links in "Notify me" alert e-mails.
import { useCallback } from "react";
import { Link, useParams, useSearchParams } from "../../lib/router.jsx";
import { paths } from "../../config/paths.js";
import { usePageMeta } from "../../lib/use-page-meta.js";
import { useRequest } from "../../lib/use-request.js";
import { Loading } from "../../components/ui/request-state.jsx";
import { cancelAlert, confirmAlert } from "../../features/alerts/api.js";

const ACTIONS = {
  confirm: { title: "Confirm your alert", call: confirmAlert, waiting: "Confirming your alert…" },
  cancel: { title: "Cancel your alert", call: cancelAlert, waiting: "Cancelling your alert…" },
};

function refuse() {
  return Promise.reject(new Error("This link is not complete. Please use the whole link from the e-mail."));
}

export function AlertLink() {
  const { action } = useParams();
  const { title, call, waiting } = ACTIONS[action] ?? { title: "Alert", call: refuse, waiting: "" };
  usePageMeta(title);
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const request = useCallback(({ signal }) => (token ? call(token, { signal }) : refuse()), [token, call]);
  const { status, data: message, error } = useRequest(request);
  return (
    <section className="container notice-page" aria-labelledby="alert-link-title">
      <h1 id="alert-link-title">{title}</h1>
      {status === "loading" && <Loading label={waiting} />}
      {status === "success" && <p role="status">{message}</p>}
      {status === "error" && <p role="alert">{error.message}</p>}
      <p><Link className="button" to={paths.books()}>Browse books</Link></p>
    </section>
  );
}

export { AlertLink as Component };
