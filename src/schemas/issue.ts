import * as v from 'valibot';

/**
 * A message for a validation issue that names the field and what was expected, never the value that
 * was sent: valibot's own messages quote the input ("Expected string but received 654321", or
 * "Received 7.25" when nothing was expected), and the input may be an OTP or a card number. Our own
 * messages (given to the schemas) name no value, so they are kept.
 */
export function issueMessage(issue: v.BaseIssue<unknown>): string {
  // A key is the sender's text too (an unknown field's name): kept short.
  const full = (issue.path ?? []).map((item) => String(item.key)).join('.') || 'body';
  const path = full.length > 100 ? `${full.slice(0, 99)}…` : full;
  if (issue.input === undefined) return `${path} is required`;
  if (issue.type === 'strict_object' && issue.expected === 'never') return `${path} is not an allowed field`;
  // valibot's own messages ("Invalid type: Expected …", "Invalid integer: Received …") are rewritten;
  // ours (given to a schema, a union or a custom check) say what is wrong and are kept as they are.
  const valibots = /^Invalid [\w ]+:/.test(issue.message) || /received/i.test(issue.message);
  if (valibots) return `${path} is invalid: expected ${issue.expected ?? issue.type.replace(/_/g, ' ')}`;
  return `${path}: ${issue.message}`;
}
