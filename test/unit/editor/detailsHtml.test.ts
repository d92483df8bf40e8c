// The details page: every field of the spec's quality issue is on it, server text is inert,
// and the page allows nothing but its own nonce'd style and script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toStoredIssue } from '../../../src/core/issues';
import { detailsHtml } from '../../../src/editor/review/detailsHtml';
import { sampleIssue } from '../api/samples';

const render = (raw: Record<string, unknown>, extra: Parameters<typeof detailsHtml>[1] extends infer O ? Partial<O> : never = {}) => {
  const issue = { ...toStoredIssue(raw as never)!, inArchive: true };
  return detailsHtml(issue, { nonce: 'N0NCE', cspSource: 'vscode-resource:', ...extra });
};

test('every field of the spec is on the page', () => {
  const raw = sampleIssue();
  const html = render(raw);
  for (const value of [
    'Eval injection', 'CWE-95', 'https://cwe.mitre.org/data/definitions/95.html', 'Use of eval on dynamic input.',
    // Known values of the service's enumerations in words (the raw value only when unknown).
    'Critical', 'open', 'on track', 'reachable from 2 endpoints', 'Dev', 'dev@example.com', '2026-11-21T10:00:00.123456+00:00',
    'app.js', 'javascript', 'src/app.js', 'demo', 'main', 'abc123', '12',
    'A real finding (not a false positive)', 'Reachable from user input.', 'A fix is available', 'a1b2c3d4-0000-4000-8000-000000000001', 'Parse instead of eval.',
    'JSON.parse(x)', 'js-eval', raw.id,
  ]) {
    assert.ok(html.includes(value), `the page shows ${value}`);
  }
  assert.match(html, /<div class="add"><span class="sr">added: <\/span>\+JSON\.parse\(x\)<\/div>/, 'the diff is rendered line by line');
  assert.match(html, /<details><summary>Scanner metadata<\/summary>/, 'metadata is collapsed');
});

test('server text cannot inject markup or script', () => {
  const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>"\'&';
  const html = render({
    ...sampleIssue(),
    classification: { id: hostile, name: hostile, description: hostile },
    auto_triage: { false_positive_detection: { status: hostile, reasoning: hostile } },
    auto_fix_suggestion: { status: hostile, patch: { diff: `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${hostile}\n+${hostile}\n`, explanation: hostile } },
    assigned_to: { id: hostile, email: hostile, name: hostile },
    scanner_metadata: { note: hostile },
  });
  assert.ok(!html.includes('<img src=x'), 'no injected element');
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'only the page\'s own script');
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'shown as text');
});

test('the policy allows only the page\'s nonce for styles and scripts, nothing remote', () => {
  const html = render(sampleIssue());
  const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-N0NCE'/);
  assert.match(csp, /style-src 'nonce-N0NCE'/);
  assert.ok(!/https?:/.test(csp), 'no remote source');
  assert.match(html, /<script nonce="N0NCE">/);
});

test('a finding without a fix, not reachable, stale and dismissed says so', () => {
  const raw = { ...sampleIssue(), auto_fix_suggestion: { status: 'no_fix' }, reachability: { is_reachable: false, endpoint_count: 0 } };
  const issue = { ...toStoredIssue(raw as never)!, stale: true };
  const html = detailsHtml(issue, { nonce: 'n', cspSource: 's', dismissal: { reason: 'accepted-risk', at: '2026-11-23T10:00:00Z' } });
  assert.match(html, /No fix available\./);
  for (const raw of ['on_track', 'fix_available', 'no_fix', '(valid)']) assert.ok(!html.includes(raw), `no raw value ${raw}`);
  assert.match(html, /not reachable/);
  assert.match(html, /code changed since this scan/);
  assert.match(html, /Dismissed in this workspace as <strong>accepted risk<\/strong>/);
  assert.match(html, /<button data-action="apply" class="secondary" disabled aria-describedby="why-apply">/);
  assert.match(html, /<p id="why-apply" class="sr">There is no suggested fix to preview or apply\.<\/p>/, 'a disabled button says why');
  assert.match(html, /data-action="restore"/);
});

test('one primary action: Apply Fix where there is a fix, else Open; once fixed, no fix button that would do nothing', () => {
  const issue = toStoredIssue(sampleIssue() as never)!;
  const fixable = detailsHtml({ ...issue, inArchive: true }, { nonce: 'n', cspSource: 's' });
  assert.deepEqual([...fixable.matchAll(/<button data-action="(\w+)"(?! class="secondary")/g)].map((m) => m[1]), ['apply']);
  const noFix = detailsHtml({ ...issue, fix: undefined }, { nonce: 'n', cspSource: 's' });
  assert.deepEqual([...noFix.matchAll(/<button data-action="(\w+)"(?! class="secondary")/g)].map((m) => m[1]), ['open']);
  const fixed = detailsHtml({ ...issue, inArchive: true }, { nonce: 'n', cspSource: 's', fixed: true });
  assert.match(fixed, /Fixed: the suggested fix was applied/);
  assert.ok(!/data-action="(apply|preview|dismiss)"/.test(fixed), 'no Apply, Preview or Dismiss once fixed');
});

test('reachable with no endpoint count worth telling says just "reachable"', () => {
  const raw = { ...sampleIssue(), reachability: { is_reachable: true, endpoint_count: 0 } };
  const html = detailsHtml(toStoredIssue(raw as never)!, { nonce: 'n', cspSource: 's' });
  assert.match(html, />reachable</);
  assert.ok(!html.includes('from 0 endpoints'));
});

test('values the extension does not know are shown as they came, never hidden', () => {
  const raw = { ...sampleIssue(), sla_status: 'escalated_to_ciso', auto_fix_suggestion: { status: 'awaiting_review' } };
  const html = detailsHtml(toStoredIssue(raw as never)!, { nonce: 'n', cspSource: 's' });
  assert.match(html, /escalated to ciso/);
  assert.match(html, /Awaiting review/);
});

test('the finding\'s id in the page\'s script is a string that cannot end the script', () => {
  const html = render({ ...sampleIssue(), id: '"</script><script>alert(1)</script>' });
  const script = html.slice(html.indexOf('<script nonce="N0NCE">'), html.lastIndexOf('</script>'));
  assert.ok(!script.slice(1).includes('</script>') && !script.includes('<script>alert'), 'no closing tag inside the script');
  assert.match(script, /const finding = "\\"\\u003c\/script>\\u003cscript>alert\(1\)\\u003c\/script>";/);
});

test('focus comes back to the control that changed the finding, and the change is announced', () => {
  const html = render(sampleIssue());
  assert.match(html, /<div id="live" class="sr" role="status" aria-live="polite"><\/div>/);
  assert.match(html, /SWAP = \{ dismiss: 'restore', restore: 'dismiss' \}/);
  assert.match(html, /vscode\.setState\(\{ finding, action: b\.dataset\.action \}\)/);
});
