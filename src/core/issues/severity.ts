/** Severity in editor terms, independent of the vscode enum so it can be unit-tested. */
export type IssueSeverity = 'error' | 'warning' | 'information' | 'hint';

const BY_URGENCY: Record<string, IssueSeverity> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'information',
};

/** critical/high → error, medium → warning, low → information, anything else → warning. */
export function severityFromUrgency(urgency: string | null | undefined): IssueSeverity {
  return BY_URGENCY[(urgency ?? '').trim().toLowerCase()] ?? 'warning';
}

/** Most urgent first; unknown urgencies sort after low. */
export const URGENCY_ORDER = ['critical', 'high', 'medium', 'low'];

export function urgencyRank(urgency: string): number {
  const i = URGENCY_ORDER.indexOf(urgency.toLowerCase());
  return i === -1 ? URGENCY_ORDER.length : i;
}
