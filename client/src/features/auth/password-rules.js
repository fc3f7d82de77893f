// The password rules (product §8.2, §8.3), checked in the browser before anything is sent.
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const PASSWORD_HINT = `At least ${PASSWORD_MIN} characters.`;

/** The problem with a new password, or null; every character counts, so nothing is trimmed. */
export function passwordProblem(password, label = "Password") {
  if (!password) return `${label} is required.`;
  if (password.length < PASSWORD_MIN) return `${label} must be at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `${label} must be at most ${PASSWORD_MAX} characters.`;
  return null;
}

/** {password?, confirmPassword?} messages for a new password typed twice. */
export function newPasswordErrors(password, confirmPassword, label = "Password") {
  const errors = {};
  const problem = passwordProblem(password, label);
  if (problem) errors.password = problem;
  else if (confirmPassword !== password) errors.confirmPassword = "Passwords do not match";
  return errors;
}

/** The first message of each field in a server's `errors`, keyed by field. */
export function fieldErrors(error) {
  return Object.fromEntries(Object.entries(error?.errors ?? {}).map(([field, list]) => [field, [].concat(list)[0]]));
}
