// The message above an account form: {kind|tone: "success" | "error", text}; only an error can be dismissed.
import { Banner } from "../../../components/ui/request-state.jsx";

export function FormMessage({ message, onDismiss }) {
  if (!message) return null;
  const tone = message.kind ?? message.tone;
  return <Banner tone={tone} onDismiss={tone === "error" ? onDismiss : undefined}>{message.text}</Banner>;
}
