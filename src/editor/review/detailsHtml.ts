// The page of the finding details view, as HTML. No `vscode` import: tested in plain Node.
// Every piece of server text is escaped; the policy allows no remote content and only the
// page's own nonce'd style and script.
import { FINDING_FACTS, capitalize, classificationUrl, serviceIdOf, urgencyLabel, currentLine, cweUrl, factsFor, fixStatusWords, isFixable, triageWords, type FindingFact, type StoredIssue } from '../../core/issues';
import { DISMISS_LABELS } from '../../core/results/dismissWords';
import type { Dismissal } from '../results/resultsStore';
import { displayLanguage, l10n } from '../../core/text/l10n';

export function esc(s: string | number | undefined | null): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function row(label: string, value: string | undefined): string {
  return value === undefined || value === '' ? '' : `<dt>${esc(label)}</dt><dd>${value}</dd>`;
}

/** A unified diff as lines classed added / removed / hunk header / context. */
function diffHtml(diff: string): string {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => {
    const cls = l.startsWith('+++') || l.startsWith('---') ? 'file' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx';
    const label = cls === 'add' ? l10n.t('added: ') : cls === 'del' ? l10n.t('removed: ') : '';
    return `<div class="${cls}"><span class="sr">${label}</span>${esc(l) || '&nbsp;'}</div>`;
  }).join('');
}

/** A fact's value as the page shows it: escaped; ids as code, times in the reader's locale. */
function factHtml(fact: FindingFact, words: string): string {
  if (fact.look === 'code') return `<code>${esc(words)}</code>`;
  if (fact.look === 'time' && !Number.isNaN(Date.parse(words))) return `<time datetime="${esc(words)}">${esc(new Date(words).toLocaleString(displayLanguage()))}</time>`;
  return esc(words);
}

/** The page for one finding. Exported for tests; `facts` is the table of a finding's facts. */
export function detailsHtml(issue: StoredIssue, o: { nonce: string; cspSource: string; folderName?: string; dismissal?: Dismissal; fixed?: boolean; checked?: { text: string; undo: boolean }; facts?: readonly FindingFact[] }): string {
  // Its CWE page, or its CVE record for a dependency finding.
  const cwe = classificationUrl(issue.classificationId);
  const linkTitle = cweUrl(issue.classificationId) ? l10n.t('Open the CWE page') : l10n.t('Open the CVE record');
  const fixable = isFixable(issue) && !o.fixed;
  const factRows = factsFor(issue, 'details', o.facts ?? FINDING_FACTS).map(({ fact, words }) => row(fact.label, factHtml(fact, words))).join('\n  ');
  // Numbers too: what a results file read back holds may have been edited by hand.
  const line = esc(String(currentLine(issue)));
  const scannedLine = esc(String(issue.line));
  // One primary action: applying the fix where there is one, else opening the code.
  const primary = fixable ? 'apply' : 'open';
  const noFixWhy = o.fixed ? undefined
    : !issue.fix ? l10n.t('There is no suggested fix to preview or apply.')
      : !fixable ? l10n.t('The fix cannot be applied here: the file was not among the files this scan uploaded.') : undefined;
  const button = (action: string, label: string, enabled = true) =>
    `<button data-action="${action}"${action === primary ? '' : ' class="secondary"'}${enabled ? '' : ` disabled aria-describedby="why-${action}"`}>${esc(label)}</button>`;
  return `<!DOCTYPE html>
<html lang="${esc(displayLanguage())}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${o.nonce}'; script-src 'nonce-${o.nonce}'; img-src ${o.cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${esc(issue.classificationName)}</title>
<style nonce="${o.nonce}">
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 20px 20px; line-height: 1.5; }
  h1 { font-size: 1.4em; margin: 16px 0 4px; }
  .sub { color: var(--vscode-descriptionForeground); margin-bottom: 12px; }
  .badge { display: inline-block; padding: 0 8px; border-radius: 10px; border: 1px solid var(--vscode-contrastBorder, transparent); background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); margin-right: 6px; }
  .urgency-critical, .urgency-high { background: var(--vscode-inputValidation-errorBackground, var(--vscode-badge-background)); color: var(--vscode-foreground); border-color: var(--vscode-inputValidation-errorBorder, transparent); }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 12px 0; }
  dt { color: var(--vscode-descriptionForeground); }
  dd { margin: 0; overflow-wrap: anywhere; }
  a { color: var(--vscode-textLink-foreground); }
  a:focus, button:focus, summary:focus, .diff:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  h1:focus { outline: none; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
  button { font: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent); padding: 4px 12px; cursor: pointer; }
  button:hover { background: var(--vscode-button-hoverBackground); }
  button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
  button.secondary:hover { background: var(--vscode-button-secondaryHoverBackground); }
  button:disabled { opacity: 0.5; cursor: default; }
  section { margin-top: 16px; }
  h2 { font-size: 1.1em; margin: 0 0 6px; }
  .diff { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); white-space: pre; overflow-x: auto; border: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); padding: 6px 0; }
  .diff div { padding: 0 8px; }
  .diff .add { background: var(--vscode-diffEditor-insertedLineBackground, var(--vscode-diffEditor-insertedTextBackground)); }
  .diff .del { background: var(--vscode-diffEditor-removedLineBackground, var(--vscode-diffEditor-removedTextBackground)); }
  /* High Contrast has no diff backgrounds: its own diff editor draws borders, so does this page. */
  body.vscode-high-contrast .diff .add, body.vscode-high-contrast-light .diff .add { border: 1px dashed var(--vscode-diffEditor-insertedTextBorder, var(--vscode-contrastActiveBorder)); }
  body.vscode-high-contrast .diff .del, body.vscode-high-contrast-light .diff .del { border: 1px dashed var(--vscode-diffEditor-removedTextBorder, var(--vscode-contrastBorder)); }
  .diff:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  .diff .hunk, .diff .file { color: var(--vscode-descriptionForeground); }
  pre.meta { font-family: var(--vscode-editor-font-family); white-space: pre-wrap; overflow-wrap: anywhere; }
  .note { border-left: 3px solid var(--vscode-notificationsInfoIcon-foreground, var(--vscode-focusBorder)); padding: 4px 10px; background: var(--vscode-textBlockQuote-background); }
  .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
</style>
</head>
<body>
<main aria-labelledby="title">
<h1 id="title" tabindex="-1">${esc(issue.classificationName)}</h1>
<div class="sub">
  <span class="badge urgency-${esc(String(issue.urgency).toLowerCase())}"><span class="sr">${esc(l10n.t('Urgency: '))}</span>${esc(urgencyLabel(issue.urgency))}</span>
  ${cwe ? `<a href="${cwe}" title="${esc(linkTitle)}">${esc(issue.classificationId)}</a>` : esc(issue.classificationId)}
  · ${esc(issue.path)}:${line}
</div>
${issue.stale ? l10n.t('<p class="note" role="note">The code changed since this scan, so this finding could not be placed in the file. Rescan to place it again.</p>') : ''}
${o.dismissal ? l10n.t('<p class="note" role="note">Dismissed in this workspace as <strong>{0}</strong> on {1}. The service has no operation for this, so the finding stays open there; Restore brings it back here.</p>', esc(DISMISS_LABELS[o.dismissal.reason]), esc(new Date(o.dismissal.at).toLocaleString(displayLanguage()))) : ''}
${o.checked ? `<p class="note" role="status">${esc(o.checked.text)}</p>` : o.fixed ? l10n.t('<p class="note" role="status">Fixed: the suggested fix was applied in the editor. If the change is taken back (Undo, closing the file without saving, Revert File), the finding comes back.</p>') : ''}
<div class="actions" role="group" aria-label="${esc(l10n.t('Actions'))}">
  ${button('open', l10n.t('Open in Editor'), !issue.stale)}
  ${o.checked?.undo ? button('undoFix', l10n.t('Undo Fix')) : ''}
  ${o.fixed ? '' : `${button('preview', l10n.t('Preview Fix'), fixable)}
  ${button('apply', l10n.t('Apply Fix'), fixable)}
  ${o.dismissal ? '' : button('chat', l10n.t('Fix with Chat'))}`}
  ${button('copy', l10n.t('Copy Details'))}
  ${o.fixed ? '' : o.dismissal ? button('restore', l10n.t('Restore')) : button('dismiss', l10n.t('Dismiss…'))}
</div>
${issue.stale ? l10n.t('<p id="why-open" class="sr">The code changed since the scan, so there is no line to open.</p>') : ''}
${noFixWhy ? l10n.t('<p id="why-preview" class="sr">{0}</p><p id="why-apply" class="sr">{1}</p>', esc(noFixWhy), esc(noFixWhy)) : ''}
${issue.classificationDescription ? l10n.t('<section aria-labelledby="h-desc"><h2 id="h-desc">Why it matters</h2><p>{0}</p></section>', esc(issue.classificationDescription)) : ''}
<section aria-labelledby="h-facts"><h2 id="h-facts">${esc(l10n.t('Finding'))}</h2>
<dl>
  ${row(l10n.t('Classification'), `${esc(issue.classificationName)} (${cwe ? `<a href="${cwe}">${esc(issue.classificationId)}</a>` : esc(issue.classificationId)})`)}
  ${row(l10n.t('File'), `${esc(o.folderName ? `${o.folderName}/` : '')}${esc(issue.path)}${issue.fileName && issue.fileName !== issue.path.split('/').pop() ? ` (${esc(issue.fileName)})` : ''}${issue.language ? ` · ${esc(issue.language)}` : ''}`)}
  ${row(l10n.t('Line'), `${line}${currentLine(issue) !== issue.line ? l10n.t(' (line {0} when scanned)', scannedLine) : ''}`)}
  ${factRows}
  ${row(l10n.t('Issue id'), `<code>${esc(serviceIdOf(issue))}</code>`)}
</dl></section>
<section aria-labelledby="h-triage"><h2 id="h-triage">${esc(l10n.t('Auto-triage'))}</h2>
<p>${issue.triageStatus ? (issue.falsePositive ? l10n.t('<strong>Likely a false positive.</strong>') : esc(l10n.t('{0}.', capitalize(triageWords(issue.triageStatus))))) : l10n.t('No verdict from the service.')}</p>
${issue.triageReasoning ? `<p>${esc(issue.triageReasoning)}</p>` : ''}
</section>
<section aria-labelledby="h-fix"><h2 id="h-fix">${esc(l10n.t('Auto-fix'))}</h2>
<p>${esc(l10n.t('{0}.', capitalize(fixStatusWords(issue.fixStatus ?? (issue.fix ? issue.fix.status || 'fix_available' : 'no_fix')))))}${issue.fixId ? l10n.t(' Suggestion <code>{0}</code>.', esc(issue.fixId)) : ''}</p>
${issue.fix ? l10n.t('{0}\n{1}\n<div class="diff" role="region" aria-label="{3}" tabindex="0">{2}</div>', issue.fix.explanation ? `<p>${esc(issue.fix.explanation)}</p>` : '', fixable || o.fixed ? '' : l10n.t('<p class="note" role="note">Not offered as a fix: the file was not among the files this scan uploaded.</p>'), diffHtml(issue.fix.diff), esc(l10n.t('Suggested change'))) : l10n.t('<p>The service suggests no change for this finding.</p>')}
</section>
${issue.scannerMetadata ? l10n.t('<section><details><summary>Scanner metadata</summary><pre class="meta">{0}</pre></details></section>', esc(issue.scannerMetadata)) : ''}
</main>
<div id="live" class="sr" role="status" aria-live="polite"></div>
<script nonce="${o.nonce}">
  const vscode = acquireVsCodeApi();
  const finding = ${JSON.stringify(String(issue.id)).replace(/</g, '\\u003c')};
  for (const b of document.querySelectorAll('button[data-action]')) {
    b.addEventListener('click', () => {
      // The page is drawn again when the action changes the finding: focus comes back here.
      vscode.setState({ finding, action: b.dataset.action });
      vscode.postMessage({ action: b.dataset.action });
    });
  }
  // After Dismiss the page has Restore where Dismiss was, and the other way round.
  const SWAP = { dismiss: 'restore', restore: 'dismiss' };
  const last = vscode.getState();
  vscode.setState(undefined);
  const again = last && last.finding === finding
    ? document.querySelector('button[data-action="' + (SWAP[last.action] || last.action) + '"]:not([disabled])')
    : null;
  if (again) {
    again.focus();
    // What changed, said once: the note the page now shows.
    const note = document.querySelector('.note');
    if (note && SWAP[last.action]) setTimeout(() => { document.getElementById('live').textContent = note.textContent; }, 100);
  } else {
    // A screen reader starts at the finding's title, not somewhere in the page.
    document.getElementById('title').focus();
  }
</script>
</body>
</html>`;
}

