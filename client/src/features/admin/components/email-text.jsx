// An e-mail address that may wrap after the @ in a narrow column, and nowhere else.
export function EmailText({ email }) {
  const text = String(email ?? "");
  const at = text.indexOf("@");
  if (at < 0) return text;
  return <>{text.slice(0, at)}<wbr />{text.slice(at)}</>;
}
