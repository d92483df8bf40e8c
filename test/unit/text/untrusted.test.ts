// Server and workspace text shown by the editor: no notification link, no Markdown link,
// no autolinked URL survives; the words stay readable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { marked } from 'marked';
import { NOTIFICATION_LINK, NOTIFICATION_MAX_CHARS, escapeMarkdown, plainNotificationText } from '../../../src/core/text/untrusted';

const HOSTILE = [
  '[Open guide](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
  'Denied. [docs](https://evil.example/x) and [file](file:///etc/passwd)',
  '[Sign in](command:codeScanner.signIn?%7B%22token%22%3A%22attacker%22%7D "Sign in")',
  '[[y](https://evil.example)',
  '[Open guide](COMMAND:x)',
  '[a](http://evil.example)[b](command:y)',
];

function links(text: string): number {
  return [...text.matchAll(new RegExp(NOTIFICATION_LINK.source, NOTIFICATION_LINK.flags))].length;
}

test('every hostile sample is a link as VS Code parses notifications (the rule the check relies on)', () => {
  for (const s of HOSTILE) assert.ok(links(s) > 0, s);
});

test('notification text: no link survives, the words stay', () => {
  for (const s of HOSTILE) {
    const out = plainNotificationText(s);
    assert.equal(links(out), 0, `${s} -> ${out}`);
    assert.equal(out.replace(/\] \(/g, ']('), s, 'only a space was added');
  }
});

test('notification text: control characters become spaces, long text is shortened', () => {
  assert.equal(plainNotificationText('a\u0000b\u001bc\td\ne'), 'a b c\td\ne');
  const long = 'x'.repeat(NOTIFICATION_MAX_CHARS * 2);
  const out = plainNotificationText(long);
  assert.equal(out.length, NOTIFICATION_MAX_CHARS);
  assert.ok(out.endsWith('…'));
});

/** Renders like a hover or tooltip (GFM: autolinks for bare URLs, www. and e-mail). */
function render(md: string): string {
  return marked.parse(md, { gfm: true, async: false });
}

const MARKDOWN_HOSTILE = [
  ...HOSTILE,
  'See https://evil.example/login for details',
  'www.evil.example/phish',
  'mail admin@evil.example now',
  '<https://evil.example>',
  '![tracker](https://evil.example/pixel.png)',
  '[ref]: https://evil.example\n\n[ref]',
  'http://localhost:8080/x',
  '**bold** _it_ `code` # heading',
];

test('every hostile Markdown sample renders a link or markup unescaped (the rule the check relies on)', () => {
  for (const s of MARKDOWN_HOSTILE.filter((x) => !x.startsWith('**'))) assert.match(render(s), /<a |<img /, s);
});

test('tooltip Markdown: escaped server text renders as the same text, with no link, image or markup', () => {
  for (const s of MARKDOWN_HOSTILE) {
    const html = render(escapeMarkdown(s));
    assert.doesNotMatch(html, /<a |<img |<strong|<em|<code|<h1/, `${s} -> ${html}`);
    const text = html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').trim();
    assert.equal(text.replace(/\s+/g, ' '), s.replace(/\s+/g, ' '), `the words survive: ${html}`);
  }
});

test('tooltip Markdown: theme icon syntax from the server is not an icon', () => {
  assert.ok(!escapeMarkdown('$(zap) boom').includes('$('));
});
