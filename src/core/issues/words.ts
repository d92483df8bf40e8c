// The service's enumerations (status, SLA status, auto-triage and auto-fix statuses) in the
// words a person reads: the spec shows examples only, so known values get words and any
// other value is shown as it came (spaces for underscores), never hidden.

const SLA: Record<string, string> = {
  on_track: 'on track',
  at_risk: 'at risk',
  due_soon: 'due soon',
  breached: 'overdue',
  overdue: 'overdue',
  not_applicable: 'no SLA',
};

const STATUS: Record<string, string> = {
  open: 'open',
  fixed: 'fixed',
  closed: 'closed',
  resolved: 'resolved',
  ignored: 'ignored',
  accepted_risk: 'risk accepted',
  false_positive: 'marked false positive',
  in_progress: 'in progress',
};

const FIX: Record<string, string> = {
  fix_available: 'a fix is available',
  no_fix_available: 'no fix available',
  no_fix: 'no fix available',
  unsupported: 'no fix: not supported for this finding',
  gpt_error: 'no fix: it could not be generated',
  error: 'no fix: it could not be generated',
  plan: 'a fix is planned',
  planned: 'a fix is planned',
  pending: 'a fix is being prepared',
  in_progress: 'a fix is being prepared',
  fix_too_large: 'the suggested fix is too large to apply',
};

const TRIAGE: Record<string, string> = {
  valid: 'a real finding (not a false positive)',
  true_positive: 'a real finding (not a false positive)',
  false_positive: 'likely a false positive',
  falsepositive: 'likely a false positive',
  invalid: 'likely a false positive',
  'false positive': 'likely a false positive',
  pending: 'not judged yet',
  unknown: 'not judged',
};

function asWords(value: string, table: Record<string, string>): string {
  const key = value.trim().toLowerCase();
  return table[key] ?? key.replace(/_/g, ' ');
}

export const slaWords = (v: string): string => asWords(v, SLA);
export const statusWords = (v: string): string => asWords(v, STATUS);
export const fixStatusWords = (v: string): string => asWords(v, FIX);
export const triageWords = (v: string): string => asWords(v, TRIAGE);
