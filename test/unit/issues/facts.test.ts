// One table of a finding's facts feeds every rendering: a fact added to the table shows in
// the tree's row (its description and accessible label), the Problems message, the details
// page, the hover, Copy Details, the agent tools and the SARIF export, and only where the
// table says. All without VS Code: the words are the core's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fullFinding } from '../../../src/core/agent/toolText';
import { toSarif } from '../../../src/core/export';
import { FINDING_FACTS, factData, factsFor, findingPlainText, findingRow, hoverFactsMarkdown, problemsMessage, type FindingFact, type Rendering, type StoredIssue } from '../../../src/core/issues';
import { detailsHtml } from '../../../src/editor/review/detailsHtml';

const issue: StoredIssue = {
  id: 'i-1', classificationId: 'CWE-89', classificationName: 'SQL Injection', classificationDescription: 'User input reaches a query.',
  urgency: 'high', status: 'on_hold', slaStatus: 'at_risk', path: 'src/find.js', line: 3, falsePositive: false, inArchive: true,
  reachable: true, endpointCount: 2, branch: 'main', gitSha: 'abc123', projectName: 'shop', createdAt: '2026-11-21T10:00:00Z',
};

function ticket(where: readonly Rendering[]): FindingFact {
  return { key: 'ticket', label: 'Ticket', words: () => 'JIRA-7 <b>', data: () => 'JIRA-7 <b>', in: where };
}

function renderings(facts: readonly FindingFact[]) {
  const row = findingRow(issue, { groupBy: 'file', facts });
  return {
    row: row.description,
    spoken: row.accessibleLabel,
    problems: problemsMessage(issue, facts),
    details: detailsHtml(issue, { nonce: 'N', cspSource: 'x', facts }),
    hover: hoverFactsMarkdown(issue, facts).join(' · '),
    clipboard: findingPlainText(issue, 'app', facts),
    agent: JSON.stringify(fullFinding({ finding: issue, folder: 'app', dismissed: false }, facts)),
    sarif: JSON.stringify(toSarif([{ folderUri: 'file:///w/app', name: 'app', findings: [{ issue }], readText: () => undefined, scanIds: [] }], { tool: { name: 'T', version: '1' }, facts }).runs[0]!.results![0]!.properties),
  };
}

test('a fact added to the table appears in every rendering, escaped where markup could be made of it', () => {
  const r = renderings([...FINDING_FACTS, ticket(['row', 'problems', 'details', 'hover', 'clipboard', 'agent', 'sarif'])]);
  assert.equal(r.row, 'SQL Injection · CWE-89 · Code quality · reachable · JIRA-7 <b>');
  assert.equal(r.spoken, 'High SQL Injection, CWE 89, src/find.js line 3, Code quality, reachable, JIRA-7 <b>');
  assert.equal(r.problems, 'Code quality · SQL Injection (High) — User input reaches a query. · Ticket: JIRA-7 <b>');
  assert.match(r.details, /<dt>Ticket<\/dt><dd>JIRA-7 &lt;b&gt;<\/dd>/);
  assert.ok(r.hover.endsWith('Ticket: JIRA\\-7 \\<b\\>'), r.hover);
  assert.match(r.clipboard, /^Ticket: JIRA-7 <b>$/m);
  assert.match(r.agent, /"ticket":"JIRA-7 <b>"/);
  assert.match(r.sarif, /"ticket":"JIRA-7 <b>"/);
});

test('a fact shows only where the table says', () => {
  const r = renderings([...FINDING_FACTS, ticket(['clipboard'])]);
  assert.match(r.clipboard, /Ticket: JIRA-7/);
  for (const where of ['row', 'spoken', 'problems', 'details', 'hover', 'agent', 'sarif'] as const) assert.ok(!r[where].includes('JIRA-7'), `not in ${where}`);
});

test('the table\'s words are the same everywhere people read them; machines get the service\'s values', () => {
  const r = renderings(FINDING_FACTS);
  for (const words of ['High', 'on hold', 'at risk', 'reachable from 2 endpoints']) {
    assert.ok(r.details.includes(words), `details: ${words}`);
    assert.ok(r.hover.includes(words), `hover: ${words}`);
    assert.ok(r.clipboard.includes(words), `clipboard: ${words}`);
  }
  assert.deepEqual(factData(issue, 'sarif'), { kind: 'quality', urgency: 'high', status: 'on_hold', slaStatus: 'at_risk', reachable: true, createdAt: '2026-11-21T10:00:00Z', project: 'shop', branch: 'main', commit: 'abc123' });
  assert.equal(factsFor({ ...issue, slaStatus: ' ' }, 'hover').some((f) => f.fact.key === 'slaStatus'), false, 'a blank value is no fact');
});

test('a row\'s marks are the table\'s, in its order; among what would block CI the policies it breaks; a local dismissal last', () => {
  const marked: StoredIssue = { ...issue, isNew: true, stale: true, falsePositive: true, policies: [{ id: 1, name: 'No SQL' }, { id: 2, name: 'Draft', unapproved: true }] };
  assert.equal(findingRow(marked, { groupBy: 'urgency', dismissed: 'accepted risk' }).description, 'SQL Injection · CWE-89 · Code quality · new · violates 2 policies · reachable · code changed since the scan · likely false positive · dismissed: accepted risk');
  assert.equal(findingRow(marked, { groupBy: 'classification', pushCheck: true }).description, 'SQL Injection · CWE-89 · Code quality · new · blocks CI: No SQL · reachable · code changed since the scan · likely false positive');
  assert.equal(findingRow(marked, { groupBy: 'urgency' }).label, 'find.js:3');
  assert.equal(findingRow(marked, { groupBy: 'file' }).label, 'High · line 3');
  assert.equal(problemsMessage(marked), 'Likely false positive: Code quality · SQL Injection (High) — User input reaches a query.');
  assert.equal(findingRow(marked, { groupBy: 'kind' }).description, 'SQL Injection · CWE-89 · new · violates 2 policies · reachable · code changed since the scan · likely false positive', 'grouped by kind, the group says it');
});
