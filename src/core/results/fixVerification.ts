// What Apply Fix tells an agent of the service's check of the fix it applied: that checks are
// off, that one follows the save, or, asked to wait (verify: true), the outcome once there.
// Plain decisions over plain data; the editor waits and reads the rows.
import type { FixCheck, FixCheckState } from './fixChecks';
import { fixCheckSentence } from './fixCheckWords';
import { l10n } from '../text/l10n';

export interface VerificationAnswer { said: string; data: Record<string, unknown> }

/** Before any wait: the answer when there is nothing to wait for, else `wait`. */
export function verificationPlan(o: { followed: boolean; checksOn: boolean; saved: boolean; verify: boolean }): VerificationAnswer | 'wait' {
  if (!o.followed || !o.checksOn) return { said: l10n.t('Fixes are not checked with the service in this editor (setting codeScanner.verifyFixes); scan the file to see what the fix changed.'), data: { verification: 'off' } };
  if (!o.saved) return { said: l10n.t('Once the file is saved, the service checks the fix with a scan of the file.'), data: { verification: 'afterSave' } };
  if (!o.verify) return { said: l10n.t('The service now checks the fix with a scan of the file; call with verify: true to wait for its outcome.'), data: { verification: 'follows' } };
  return 'wait';
}

/**
 * After the wait: the check's state (undefined when the check was dropped, for instance by an
 * Undo meanwhile) said as the outcome. Still waiting is unknown for now, never a pass.
 */
export function verificationOutcome(check: Pick<FixCheck, 'path' | 'fixed'>, state: FixCheckState | undefined, newFindings: readonly unknown[], waitedSeconds: number): VerificationAnswer {
  const s: FixCheckState = state ?? { kind: 'unknown', at: new Date().toISOString(), reason: l10n.t('the check was taken back') };
  if (s.kind === 'verifying' || s.kind === 'applied') {
    return { said: l10n.t('The service had not finished checking the fix after {0} seconds; the outcome is unknown for now (List Findings shows the file\'s findings once the check ends).', waitedSeconds), data: { verification: 'unknown', reason: 'timeout' } };
  }
  return {
    said: l10n.t('The service checked the fix:'),
    data: {
      verification: s.kind,
      outcome: fixCheckSentence({ path: check.path, fixed: check.fixed, state: s }),
      ...(s.kind === 'notRemoved' ? { reportedAgainAs: s.issueId } : {}),
      ...(s.kind === 'introduced' ? { newFindings } : {}),
      ...(s.kind === 'unknown' ? { reason: s.reason } : {}),
    },
  };
}
