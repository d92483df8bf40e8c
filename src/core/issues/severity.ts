/** Severity in editor terms, independent of the vscode enum so it can be unit-tested. */
export type IssueSeverity = 'error' | 'warning' | 'information' | 'hint';

/** Most urgent first; unknown urgencies sort after low. */
export const URGENCY_ORDER = ['critical', 'high', 'medium', 'low'] as const;

/** decisions.md: full words and the short codes mean the same, in any case. */
const BY_SPELLING: Record<string, (typeof URGENCY_ORDER)[number]> = {
  critical: 'critical', cr: 'critical', crit: 'critical',
  high: 'high', hi: 'high',
  medium: 'medium', me: 'medium', med: 'medium',
  low: 'low', lo: 'low',
};

/** The full word for a known urgency (`CR` → `critical`); any other value as sent (trimmed); `unknown` when missing. */
export function normalizeUrgency(raw: string | null | undefined): string {
  const t = (raw ?? '').trim();
  if (!t) return 'unknown';
  return BY_SPELLING[t.toLowerCase()] ?? t;
}

const BY_URGENCY: Record<string, IssueSeverity> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'information',
};

/** critical/high → error, medium → warning, low → information, anything else → warning. */
export function severityFromUrgency(urgency: string | null | undefined): IssueSeverity {
  return BY_URGENCY[normalizeUrgency(urgency)] ?? 'warning';
}

export function urgencyRank(urgency: string): number {
  const i = (URGENCY_ORDER as readonly string[]).indexOf(normalizeUrgency(urgency));
  return i === -1 ? URGENCY_ORDER.length : i;
}
