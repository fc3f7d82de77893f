// A new password typed twice, with the shop's password rule as its hint (sign-up, reset and change).
import { Field } from "../../../components/ui/field.jsx";
import { PASSWORD_HINT } from "../password-rules.js";

/** `label` names the first field ("Password" or "New Password"); the second is "Confirm <label>". */
export function NewPasswordFields({ values, errors, change, label = "New Password", autoFocus = false }) {
  return (
    <>
      <Field label={label} error={errors.password} hint={PASSWORD_HINT} required>
        <input name="password" type="password" autoComplete="new-password" autoFocus={autoFocus} value={values.password}
          onChange={change} />
      </Field>
      <Field label={`Confirm ${label}`} error={errors.confirmPassword} required>
        <input name="confirmPassword" type="password" autoComplete="new-password" value={values.confirmPassword}
          onChange={change} />
      </Field>
    </>
  );
}
