// An e-book's or audiobook's Download button (product §7.11): each press counts one of the line's downloads and
// opens the short-lived address the server answers; the order's link token lets a guest download too.
import { useState } from "react";
import { downloadLine } from "../api.js";

function tokenOf(order) {
  try {
    return new URL(order.link, window.location.origin).searchParams.get("token");
  } catch {
    return null;
  }
}

export function DownloadButton({ order, line, onDownloaded }) {
  const [left, setLeft] = useState(line.downloadsLeft);
  const [state, setState] = useState({ busy: false, message: "" });
  const open = order.paymentStatus === "paid" && Boolean(order.downloadsUntil)
    && !["cancelled", "returned"].includes(order.status);
  const expired = open && new Date(order.downloadsUntil) <= new Date();
  if (!open) return <span className="order-line__download-note">Download after payment</span>;
  if (expired) return <span className="order-line__download-note">Downloads expired</span>;

  async function download() {
    setState({ busy: true, message: "" });
    try {
      const { url } = await downloadLine(order._id, line.lineId, tokenOf(order));
      setLeft((count) => Math.max(0, count - 1));
      setState({ busy: false, message: "Your download has started." });
      onDownloaded?.();
      window.location.assign(url);
    } catch (error) {
      setState({ busy: false, message: error.message || "The download could not start. Please try again." });
    }
  }

  return (
    <span className="order-line__download">
      <button type="button" className="button button--small" onClick={download} disabled={state.busy || left <= 0}>
        Download<span className="sr-only"> {line.title}</span>
      </button>
      <span className="order-line__download-note">
        {left > 0 ? `${left} ${left === 1 ? "download" : "downloads"} left` : "No downloads left"}
      </span>
      <span role="status" className="order-line__download-note">{state.message}</span>
    </span>
  );
}
