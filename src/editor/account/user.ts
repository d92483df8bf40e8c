// Who is signed in, as the editor keeps and shows them, and what Check Connection learns.
import type { VerifiedUser } from '../../core/api';
import type { Network } from '../../core/network';
import { l10n } from '../../core/text/l10n';

export interface SignedInUser {
  /** The service's user id, as text (for "assigned to me"). */
  id?: string;
  name: string;
  email: string;
  company?: string;
  /** The company's id, as text: results and target policies belong to one company. */
  companyId?: string;
}

export interface ConnectionProbe {
  url?: string;
  network: Network;
  ms?: number;
  /** The HTTP status of the answer, when there was one. */
  status?: number;
  error?: string;
  user?: SignedInUser;
  signedIn: boolean;
  tokenSent: boolean;
  warnings: string[];
  /** The service's web app version, in words (GET /api/version). */
  webApp?: string;
  /** Whether the service accepted the API key in each header alone. */
  keyHeaders?: Record<string, boolean>;
}

/** The service's answer to /verify, as the user the editor keeps (a missing field is not an error). */
export function toUser(u: VerifiedUser | undefined): SignedInUser | undefined {
  if (!u) return undefined;
  return {
    id: u.id === undefined ? undefined : String(u.id),
    name: u.name ?? u.email ?? (u.id !== undefined ? l10n.t('user #{0}', u.id) : l10n.t('unknown user')),
    email: u.email ?? '',
    company: u.company?.name,
    companyId: u.company?.id === undefined ? undefined : String(u.company.id),
  };
}

export function describeUser(u: SignedInUser | undefined): string {
  if (!u) return '';
  return `${u.name} <${u.email}>${u.company ? ` · ${u.company}` : ''}`;
}
