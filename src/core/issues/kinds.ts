// The service keeps three lists of a scan's findings (decisions.md, "Every list the service
// keeps"): security (SAST), code quality and dependencies (SCA). An id is unique within its
// list only, so the editor keys a finding by (list, id): the key is the id a finding goes by
// everywhere in the editor (the model, dismissals, fixes, agents, export). Quality findings
// keep their service id as their key, so findings stored before the other lists were read
// load unchanged; the other lists' ids are prefixed, and a quality id that looks prefixed
// is prefixed itself, so no two findings of different lists can share a key.
import type { FindingList } from '../api/findingLists';
import { l10n } from '../text/l10n';

/** The list a finding came from (the client's FindingList). */
export type FindingKind = FindingList;

/** In the order the views list them: what can be exploited first. */
export const FINDING_KINDS: readonly FindingKind[] = ['security', 'quality', 'dependency'];

const PREFIXED = /^(security|quality|dependency):/;
const QUALITY_PREFIX = 'quality:';

/** The key of the finding `serviceId` of list `kind`. */
export function findingKey(kind: FindingKind, serviceId: string): string {
  if (kind === 'quality') return PREFIXED.test(serviceId) ? QUALITY_PREFIX + serviceId : serviceId;
  return `${kind}:${serviceId}`;
}

/** A finding's list: findings stored before the lists were told apart are quality findings. */
export function kindOf(issue: { kind?: FindingKind }): FindingKind {
  return issue.kind ?? 'quality';
}

/** The id the service gave the finding (the key without what findingKey added). */
export function serviceIdOf(issue: { id: string; kind?: FindingKind }): string {
  const kind = kindOf(issue);
  if (kind !== 'quality') return issue.id.slice(kind.length + 1);
  return issue.id.startsWith(QUALITY_PREFIX) ? issue.id.slice(QUALITY_PREFIX.length) : issue.id;
}

export function isFindingKind(v: unknown): v is FindingKind {
  return v === 'security' || v === 'quality' || v === 'dependency';
}

const LABEL: Record<FindingKind, () => string> = {
  security: () => l10n.t('Security'),
  quality: () => l10n.t('Code quality'),
  dependency: () => l10n.t('Dependency'),
};

/** The kind as a person reads it: "Security", "Code quality", "Dependency". */
export function kindLabel(kind: FindingKind): string {
  return LABEL[kind]();
}

const LIST_NAME: Record<FindingKind, () => string> = {
  security: () => l10n.t('security findings'),
  quality: () => l10n.t('code quality findings'),
  dependency: () => l10n.t('dependency findings'),
};

/** The list as a noun phrase: "the dependency findings could not be read". */
export function listName(kind: FindingKind): string {
  return LIST_NAME[kind]();
}
