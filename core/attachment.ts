// How a resource attached to a user's message is marked in its text, so views can show the words and the resource
// apart. Its own module, free of Temporal imports, for the web chat.

export const ATTACHMENT_MARK = '[attached resource ';

/** A message's own words and its attachment, if it has one (for views that show them apart). */
export function splitAttachment(text: string): { text: string; attachment?: { title: string; body: string } } {
  const at = text.indexOf(`\n\n${ATTACHMENT_MARK}`);
  if (at < 0) return { text };
  const rest = text.slice(at + 2);
  const end = rest.indexOf(']\n');
  if (end < 0) return { text };
  return { text: text.slice(0, at), attachment: { title: rest.slice(1, end), body: rest.slice(end + 2) } };
}
