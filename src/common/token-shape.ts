// Whether a text is shaped like a credential — an API key, an access token, a JWT — when nothing
// says where it came from (the clipboard): then it is kept out of answers and logs like a value
// typed into a secret field. Pure.

/** Vendors' key formats: Stripe/OpenAI sk-, GitHub, Slack, AWS, Google, GitLab, npm, SendGrid. */
const PREFIXED =
  /^((sk|pk|rk)[-_]((live|test|proj)[-_])?[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|xox[abposr]-[\w-]{10,}|AKIA[0-9A-Z]{16}|AIza[\w-]{30,}|glpat-[\w-]{16,}|npm_[A-Za-z0-9]{30,}|SG\.[\w-]{16,}\.[\w-]{16,})$/;
const JWT = /^eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}$/;
/** A long random run: upper- and lower-case letters and digits mixed, no spaces. */
const RANDOM = /^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])[A-Za-z0-9_+/=~.-]{24,}$/;

export function looksLikeToken(text: string): boolean {
  const t = text.trim();
  if (t.length < 16 || t.length > 8192) return false;
  return PREFIXED.test(t) || JWT.test(t) || (RANDOM.test(t) && !/^[a-z][a-z0-9+.-]*:/i.test(t));
}
