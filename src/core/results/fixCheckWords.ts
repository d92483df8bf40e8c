// What the check of an applied fix says, in the tree, the hover, the details page, the
// message after a scan and the agents' answers: one set of words.
import { oneLine } from '../text/untrusted';
import { l10n, plural } from '../text/l10n';
import type { FixCheck, FixCheckState } from './fixChecks';

type Check = Pick<FixCheck, 'path' | 'fixed' | 'state'>;

/** The state in a few words (a tree row's description). */
export function fixCheckStateText(state: FixCheckState): string {
  switch (state.kind) {
    case 'applied': return l10n.t('applied, not saved: checked once saved');
    case 'verifying': return l10n.t('checking with the service…');
    case 'verified': return l10n.t('Fix verified');
    case 'notRemoved': return l10n.t('Fix did not remove the finding');
    case 'introduced': return plural(state.issueIds.length, l10n.t('The fix introduced {0} new finding'), l10n.t('The fix introduced {0} new findings'));
    case 'unknown': return l10n.t('Not verified: {0}', oneLine(state.reason, 200).replace(/[.\s]+$/, ''));
  }
}

/** One sentence of what the check found for a fix. */
export function fixCheckSentence(c: Check): string {
  const what = oneLine(c.fixed.classificationName, 80);
  switch (c.state.kind) {
    case 'applied': return l10n.t('The fix for {0} in {1} is applied; it is checked with the service once the file is saved.', what, c.path);
    case 'verifying': return l10n.t('The fix for {0} in {1} is being checked with the service.', what, c.path);
    case 'verified': return l10n.t('Fix verified: the service no longer reports {0} in {1}.', what, c.path);
    case 'notRemoved': return l10n.t('The fix for {0} in {1} did not remove the finding: the service still reports it.', what, c.path);
    case 'introduced': return plural(c.state.issueIds.length, l10n.t('The fix for {1} in {2} introduced {0} new finding.'), l10n.t('The fix for {1} in {2} introduced {0} new findings.'), what, c.path);
    case 'unknown': return l10n.t('The fix for {0} in {1} could not be verified: {2}. The finding is kept as it was.', what, c.path, oneLine(c.state.reason, 300).replace(/[.\s]+$/, ''));
  }
}

/** The message after a scan judged fixes: each one said, several counted first. */
export function fixCheckSummary(checks: readonly Check[]): string {
  if (checks.length === 1) return fixCheckSentence(checks[0]!);
  const n = (kind: FixCheckState['kind']) => checks.filter((c) => c.state.kind === kind).length;
  const counts = [
    n('verified') && plural(n('verified'), l10n.t('{0} verified'), l10n.t('{0} verified')),
    n('notRemoved') && plural(n('notRemoved'), l10n.t('{0} did not remove its finding'), l10n.t('{0} did not remove their findings')),
    n('introduced') && plural(n('introduced'), l10n.t('{0} introduced new findings'), l10n.t('{0} introduced new findings')),
    n('unknown') && plural(n('unknown'), l10n.t('{0} could not be verified'), l10n.t('{0} could not be verified')),
  ].filter(Boolean);
  const worth = checks.filter((c) => c.state.kind !== 'verified').slice(0, 5).map(fixCheckSentence);
  return [plural(checks.length, l10n.t('{0} fix checked with the service: {1}.'), l10n.t('{0} fixes checked with the service: {1}.'), counts.join(', ')), ...worth].join(' ');
}

/** What a finding in view is to a fix: the fixed one reported again, or one the fix introduced. */
export function fixNoteText(role: 'again' | 'introduced', c: Check): string {
  const what = oneLine(c.fixed.classificationName, 60);
  return role === 'again' ? l10n.t('the fix applied for it did not remove it') : l10n.t('introduced by the fix for {0}', what);
}
