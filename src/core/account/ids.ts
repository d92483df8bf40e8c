// Parsing of the ids a user types (or a test passes) for the account commands. Input
// boxes show these messages verbatim, so they say what is wrong and what is expected.

import { ok, fail, type Parsed } from './parsed';
import { l10n } from '../text/l10n';

export type { Parsed } from './parsed';

/** Ids are positive integers; a leading `#` (as ids are shown in lists) is accepted. */
function parsePositiveInt(token: string): number | undefined {
  const t = token.trim().replace(/^#/, '');
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export function parseTeamId(input: unknown): Parsed<number> {
  if (typeof input === 'number') {
    return Number.isSafeInteger(input) && input > 0 ? ok(input) : fail(l10n.t('{0} is not a team id: a team id is a positive whole number, e.g. 42.', input));
  }
  if (typeof input !== 'string' || input.trim() === '') return fail(l10n.t('Enter the id of the team, e.g. 42.'));
  const n = parsePositiveInt(input);
  return n === undefined ? fail(l10n.t('"{0}" is not a team id: a team id is a positive whole number, e.g. 42.', input.trim())) : ok(n);
}

/**
 * Member (user) ids separated by commas, spaces or semicolons; duplicates are dropped so
 * the request says each user once. An array of numbers or numeric strings is accepted too.
 */
export function parseMemberIds(input: unknown): Parsed<number[]> {
  let tokens: unknown[];
  if (Array.isArray(input)) tokens = input;
  else if (typeof input === 'string') tokens = input.split(/[\s,;]+/).filter((t) => t !== '');
  else return fail(l10n.t('Enter one or more user ids separated by commas, e.g. 7, 12.'));
  if (tokens.length === 0) return fail(l10n.t('Enter one or more user ids separated by commas, e.g. 7, 12.'));
  const ids: number[] = [];
  for (const token of tokens) {
    const n = typeof token === 'number' ? (Number.isSafeInteger(token) && token > 0 ? token : undefined)
      : typeof token === 'string' ? parsePositiveInt(token) : undefined;
    if (n === undefined) return fail(l10n.t('"{0}" is not a user id: user ids are positive whole numbers, separated by commas.', String(token).trim()));
    if (!ids.includes(n)) ids.push(n);
  }
  return ok(ids);
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An integration UUID in its usual 8-4-4-4-12 hex form; surrounding braces are tolerated. */
export function parseUuid(input: unknown, what = l10n.t('integration UUID')): Parsed<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail(l10n.t('Enter the {0}, e.g. 3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f.', what));
  const t = input.trim().replace(/^\{(.*)\}$/, '$1');
  return UUID_RE.test(t) ? ok(t) : fail(l10n.t('"{0}" is not a UUID: expected 32 hex digits in the form 8-4-4-4-12.', input.trim()));
}

/** Policy ids for the target-policies setting (numbers or numeric strings). */
export function parsePolicyIds(input: unknown): Parsed<number[]> {
  if (!Array.isArray(input)) return fail(l10n.t('Policy ids must be a list of positive whole numbers.'));
  const ids: number[] = [];
  for (const token of input) {
    const n = typeof token === 'number' ? (Number.isSafeInteger(token) && token > 0 ? token : undefined)
      : typeof token === 'string' ? parsePositiveInt(token) : undefined;
    if (n === undefined) return fail(l10n.t('"{0}" is not a policy id: policy ids are positive whole numbers.', String(token)));
    if (!ids.includes(n)) ids.push(n);
  }
  return ok(ids);
}
