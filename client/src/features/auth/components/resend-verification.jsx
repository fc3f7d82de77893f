// "Resend verification e-mail": a new link to the signed-in account's address, with the server's
// answer (sent, already verified, or too many requests) read out in a live region.
import { useState } from "react";
import { Banner } from "../../../components/ui/request-state.jsx";
import { resendVerification } from "../account-api.js";

export function ResendVerification({ className = "button button--secondary" }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState(null);

  async function resend() {
    setBusy(true);
    setMessage(null);
    try {
      const reply = await resendVerification();
      setMessage({ tone: "success", text: reply.message || "We have sent you a new verification link." });
    } catch (error) {
      // 429 (too many e-mails) and 409 (verified already) carry a message written for the shopper.
      setMessage({ tone: "error", text: error.message || "Failed to send the verification e-mail." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="resend-verification">
      <button type="button" className={className} onClick={resend} disabled={busy}>
        {busy ? "Sending…" : "Resend verification e-mail"}
      </button>
      {message && <Banner tone={message.tone} onDismiss={() => setMessage(null)}>{message.text}</Banner>}
    </div>
  );
}
