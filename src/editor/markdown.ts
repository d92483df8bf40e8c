/** Escapes text from the service or the user for a MarkdownString (tooltips). */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
