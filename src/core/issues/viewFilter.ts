// What a view of the findings narrows to. These filters apply to the Quality Issues tree
// only: Problems, squiggles and every count keep all findings.
import type { StoredIssue } from './model';
import { normalizeUrgency } from './severity';
import { kindOf, listName, type FindingKind } from './kinds';
import { l10n, listWords } from '../text/l10n';

export interface ViewFilter {
  /** Part of a classification id or name, case-insensitive (as the service matches it). */
  classification?: string;
  /** Statuses to show; empty or undefined shows every status. */
  statuses?: readonly string[];
  /** Urgencies (full words) to show; empty or undefined shows every urgency. */
  urgencies?: readonly string[];
  reachableOnly?: boolean;
  /** Only findings not found before the latest full scan. */
  newOnly?: boolean;
  /** Only findings that violate one of the company's policies. */
  policyOnly?: boolean;
  /** Only findings assigned to this person (matched by id or e-mail). */
  assignedTo?: { id?: string; email?: string };
  /** The lists to show (security, code quality, dependencies); empty or undefined shows every list. */
  kinds?: readonly FindingKind[];
}

export function isViewFiltered(f: ViewFilter): boolean {
  return !!(f.classification || f.statuses?.length || f.urgencies?.length || f.reachableOnly || f.newOnly || f.policyOnly || f.assignedTo || f.kinds?.length);
}

function isAssignedTo(issue: StoredIssue, who: { id?: string; email?: string }): boolean {
  const a = issue.assignee;
  if (!a) return false;
  if (who.id && a.id && a.id === who.id) return true;
  return !!who.email && !!a.email && a.email.toLowerCase() === who.email.toLowerCase();
}

export function matchesView(issue: StoredIssue, f: ViewFilter): boolean {
  if (f.classification) {
    const needle = f.classification.toLowerCase();
    if (!issue.classificationId.toLowerCase().includes(needle) && !issue.classificationName.toLowerCase().includes(needle)) return false;
  }
  if (f.statuses?.length && !f.statuses.some((s) => s.toLowerCase() === issue.status)) return false;
  if (f.urgencies?.length && !f.urgencies.some((u) => normalizeUrgency(u) === normalizeUrgency(issue.urgency))) return false;
  if (f.reachableOnly && issue.reachable !== true) return false;
  if (f.newOnly && !issue.isNew) return false;
  if (f.policyOnly && !issue.policies?.length) return false;
  if (f.assignedTo && !isAssignedTo(issue, f.assignedTo)) return false;
  if (f.kinds?.length && !f.kinds.includes(kindOf(issue))) return false;
  return true;
}

/** One line naming the active filters, e.g. `urgency critical, high; reachable only`. */
export function describeViewFilter(f: ViewFilter): string {
  const parts: string[] = [];
  if (f.classification) parts.push(l10n.t('classification "{0}"', f.classification));
  if (f.statuses?.length) parts.push(l10n.t('status {0}', f.statuses.join(', ')));
  if (f.urgencies?.length) parts.push(l10n.t('urgency {0}', f.urgencies.join(', ')));
  if (f.reachableOnly) parts.push(l10n.t('reachable only'));
  if (f.newOnly) parts.push(l10n.t('new only'));
  if (f.policyOnly) parts.push(l10n.t('policy violations only'));
  if (f.assignedTo) parts.push(l10n.t('assigned to me'));
  if (f.kinds?.length) parts.push(l10n.t('only {0}', listWords(f.kinds.map(listName))));
  return parts.join('; ');
}
