import * as vscode from 'vscode';
import type { RequestLogEntry } from '../core/api';

export function createOutputLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Code Scanner', { log: true });
}

/**
 * One line per request: method, path, status and duration. The client passes only the
 * path (never headers), so the token cannot reach the log from here.
 */
export function requestLogger(log: vscode.LogOutputChannel): (e: RequestLogEntry) => void {
  return (e) => {
    const outcome = e.status !== undefined ? String(e.status) : `failed (${e.error ?? 'no response'})`;
    const line = `${e.method} ${e.path} ${outcome} ${Math.round(e.durationMs)} ms`;
    if (e.status !== undefined && e.status < 400) log.info(line);
    else log.warn(line);
  };
}
