import * as vscode from 'vscode';
import type { RequestLogEntry } from '../core/api';
import type { SecretRedactor } from '../core/text/redact';
import { l10n } from '../core/text/l10n';

const WRITERS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

/**
 * The "Code Scanner" log. Every line passes through `redactor` first: the client never
 * puts the token in its messages, but server text, git output and library errors are
 * not ours, and a log is what users paste into support tickets.
 */
export function createOutputLog(redactor: SecretRedactor): vscode.LogOutputChannel {
  const channel = vscode.window.createOutputChannel('Code Scanner', { log: true });
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return redactor.apply(v);
    if (v instanceof Error) return redactor.apply(v.stack ?? `${v.name}: ${v.message}`);
    return v;
  };
  return new Proxy(channel, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop === 'string' && WRITERS.has(prop) && typeof value === 'function') {
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(clean));
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * One line per request: method, path, status and duration. The client passes only the
 * path (never headers), so the token cannot reach the log from here.
 */
export function requestLogger(log: vscode.LogOutputChannel): (e: RequestLogEntry) => void {
  return (e) => {
    const outcome = e.status !== undefined ? String(e.status) : `failed (${e.error ?? l10n.t('no response')})`;
    const line = `${e.method} ${e.path} ${outcome} ${Math.round(e.durationMs)} ms`;
    if (e.status !== undefined && e.status < 400) log.info(line);
    else log.warn(line);
  };
}
