// The state of a shopper's form (sign-in, sign-up, profile, password, address): the values, per-field
// errors, the message above the form, the busy flag, and a timer that dies with the form.
import { useEffect, useRef, useState } from "react";

/** `change` is every input's onChange (by `name`); `later(fn, ms)` runs fn after ms unless the form has gone. */
export function useForm(initial) {
  const [fields, setFields] = useState(initial);
  const [errors, setErrors] = useState({});
  const [message, setMessage] = useState(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef(null);
  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (event) => {
    const { name, value } = event.target;
    setFields((current) => ({ ...current, [name]: value }));
  };
  const later = (fn, ms) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(fn, ms);
  };
  return { fields, setFields, change, errors, setErrors, message, setMessage, busy, setBusy, later };
}
