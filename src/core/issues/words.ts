import { l10n } from '../text/l10n';
import { normalizeUrgency } from './severity';
// The service's enumerations (status, SLA status, auto-triage and auto-fix statuses) in the
// words a person reads: the spec shows examples only, so known values get words and any
// other value is shown as it came (spaces for underscores), never hidden.

const SLA: Record<string, string> = {
  get on_track() { return l10n.t('on track'); },
  get at_risk() { return l10n.t('at risk'); },
  get due_soon() { return l10n.t('due soon'); },
  get breached() { return l10n.t('overdue'); },
  get overdue() { return l10n.t('overdue'); },
  get not_applicable() { return l10n.t('no SLA'); },
};

const STATUS: Record<string, string> = {
  get open() { return l10n.t('open'); },
  get fixed() { return l10n.t('fixed'); },
  get closed() { return l10n.t('closed'); },
  get resolved() { return l10n.t('resolved'); },
  get ignored() { return l10n.t('ignored'); },
  get accepted_risk() { return l10n.t('risk accepted'); },
  get false_positive() { return l10n.t('marked false positive'); },
  get in_progress() { return l10n.t('in progress'); },
};

const FIX: Record<string, string> = {
  get fix_available() { return l10n.t('a fix is available'); },
  get no_fix_available() { return l10n.t('no fix available'); },
  get no_fix() { return l10n.t('no fix available'); },
  get unsupported() { return l10n.t('no fix: not supported for this finding'); },
  get gpt_error() { return l10n.t('no fix: it could not be generated'); },
  get error() { return l10n.t('no fix: it could not be generated'); },
  get plan() { return l10n.t('a fix is planned'); },
  get planned() { return l10n.t('a fix is planned'); },
  get pending() { return l10n.t('a fix is being prepared'); },
  get in_progress() { return l10n.t('a fix is being prepared'); },
  get fix_too_large() { return l10n.t('the suggested fix is too large to apply'); },
};

const TRIAGE: Record<string, string> = {
  get valid() { return l10n.t('a real finding (not a false positive)'); },
  get true_positive() { return l10n.t('a real finding (not a false positive)'); },
  get false_positive() { return l10n.t('likely a false positive'); },
  get falsepositive() { return l10n.t('likely a false positive'); },
  get invalid() { return l10n.t('likely a false positive'); },
  get 'false positive'() { return l10n.t('likely a false positive'); },
  get pending() { return l10n.t('not judged yet'); },
  get unknown() { return l10n.t('not judged'); },
};

function asWords(value: string, table: Record<string, string>): string {
  const key = value.trim().toLowerCase();
  return table[key] ?? key.replace(/_/g, ' ');
}

export const slaWords = (v: string): string => asWords(v, SLA);
export const statusWords = (v: string): string => asWords(v, STATUS);
export const fixStatusWords = (v: string): string => asWords(v, FIX);
export const triageWords = (v: string): string => asWords(v, TRIAGE);

const URGENCY: Record<string, string> = {
  get critical() { return l10n.t('Critical'); },
  get high() { return l10n.t('High'); },
  get medium() { return l10n.t('Medium'); },
  get low() { return l10n.t('Low'); },
  get unknown() { return l10n.t('Unknown'); },
};

/** An urgency as a person reads it: a known one in their language, any other as the service sent it (capitalised). */
export function urgencyLabel(raw: string | null | undefined): string {
  const u = normalizeUrgency(raw);
  return Object.prototype.hasOwnProperty.call(URGENCY, u) ? URGENCY[u]! : u.charAt(0).toUpperCase() + u.slice(1);
}
