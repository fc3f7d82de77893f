// The state every admin editor form keeps: its values, per-field problems, the failure shown in the error
// summary (focused when it appears), the saving flag, and the props that bind a FormField to a value.
import { useEffect, useId, useRef, useState } from "react";

export function useAdminForm({ initial, prefix, labels }) {
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState({});
  const [failure, setFailure] = useState(null);
  const [saving, setSaving] = useState(false);
  const summaryRef = useRef(null);
  const summaryId = useId();

  // The summary takes focus when it appears: for the server's failure, or for the form's own checks.
  useEffect(() => {
    if (failure || Object.keys(problems).length > 0) summaryRef.current?.focus();
  }, [failure, problems]);

  const set = (event) => {
    const { name, value } = event.target;
    setValues((current) => ({ ...current, [name]: value }));
  };
  const bind = (props) => ({ ...props, value: values[props.name], onChange: set, disabled: saving });
  const field = (name) => ({ prefix, name, label: labels[name], error: problems[name] });

  return { values, setValues, problems, setProblems, failure, setFailure, saving, setSaving, summaryRef, summaryId,
    bind, field };
}
