// Text from the service, the repository or the user is data, never markup. VS Code turns
// `[label](command:…)` in a notification into a link that runs the command when clicked,
// and renders Markdown (with autolinked bare URLs) in tooltips and hovers. These helpers
// make such text inert where it is shown; the log keeps it as it was.

/**
 * VS Code's notification link syntax: `[label](https://…|http://…|command:…|file:…)`
 * (its `parseLinkedText`). Exported so tests can check text against the very rule the
 * workbench applies.
 */
export const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** Longest text a notification shows; the log has the rest. */
export const NOTIFICATION_MAX_CHARS = 600;

/**
 * Text safe for a notification: a link needs `]` directly followed by `(`, so a space
 * goes between them (the words stay readable). Control characters become spaces and very
 * long text is shortened.
 */
export function plainNotificationText(text: string): string {
  // eslint-disable-next-line no-control-regex
  let out = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').replace(/\](?=\()/g, '] ');
  if (out.length > NOTIFICATION_MAX_CHARS) out = `${out.slice(0, NOTIFICATION_MAX_CHARS - 1)}…`;
  return out;
}

/**
 * Escapes text for a MarkdownString (tooltips, hovers): every character Markdown gives a
 * meaning, and also `:`, `.` and `@`, which would otherwise let bare `https://…`,
 * `www.…` and e-mail addresses become links. `$` stops `$(icon)` syntax.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~:@$=&"']/g, '\\$&').replace(/\r\n|\r|\n/g, '  \n');
}

/** One line for a label or a quick pick: whitespace runs collapsed, at most `max` characters. */
export function oneLine(text: string, max = 120): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
