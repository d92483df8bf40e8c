// Command arguments, parsed in one place. A command run from the palette gets nothing, from
// a menu or keybinding possibly a URI or a tree node, from automation a plain object; each
// parser returns the argument it understands, or undefined (then the command asks).
import type { GroupBy } from '../../core/issues';
import { isRecord } from '../../core/text/isRecord';

/** A finding, as menus, code actions and automation name it. */
export interface IssueRef { folderUri: string; issueId: string }

/** Knobs for automation and tests, passed as the scan commands' argument. */
export interface ScanOptions {
  pollIntervalMs?: number; maxPolls?: number; maxRetries?: number; retryBaseDelayMs?: number;
  /** From how many files a re-scan trusts the file watcher (PipelineContext.watchFromFiles). */
  watchFromFiles?: number;
  /** The first-scan question was answered by the caller (automation). */
  confirmed?: boolean;
}


/**
 * Only a plain object counts as an automation argument: commands run from a keybinding or
 * a menu may receive a URI or a tree node as their first argument.
 */
export function plainObjectArg<T extends object>(v: unknown): Partial<T> | undefined {
  if (!isRecord(v)) return undefined;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null ? (v as Partial<T>) : undefined;
}

export function issueRefArg(v: unknown): IssueRef | undefined {
  if (!isRecord(v) || typeof v.folderUri !== 'string' || typeof v.issueId !== 'string') return undefined;
  return { folderUri: v.folderUri, issueId: v.issueId };
}

export function scanOptionsArg(v: unknown): ScanOptions {
  if (!isRecord(v)) return {};
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);
  return { pollIntervalMs: num(v.pollIntervalMs), maxPolls: num(v.maxPolls), maxRetries: num(v.maxRetries), retryBaseDelayMs: num(v.retryBaseDelayMs), watchFromFiles: num(v.watchFromFiles), confirmed: v.confirmed === true };
}

/** `{ token }` from automation; people get the password box. */
export function tokenArg(v: unknown): string | undefined {
  return isRecord(v) && typeof v.token === 'string' ? v.token : undefined;
}

export function groupByArg(v: unknown): GroupBy | undefined {
  return v === 'file' || v === 'urgency' || v === 'classification' || v === 'policy' || v === 'kind' ? v : undefined;
}

export function stringArg(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function stringListArg(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : undefined;
}
