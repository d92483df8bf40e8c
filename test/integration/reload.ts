// A real window reload inside the suite (index.ts): a test of the first run asks for one and
// leaves what the second run needs to know; `*.reloaded.ts` tests read it after the reload.
import * as fs from 'fs';

/** Set by the launchers that can reload the window (the offline one); tests asking for a reload skip without it. */
export const RELOAD_FILE = process.env.CODE_SCANNER_TEST_RELOAD_FILE || undefined;

export interface ReloadState {
  /** Per asking test: what its check after the reload needs. */
  requests: Record<string, unknown>;
  /** The first run's counts, once it asked the window to reload. */
  firstRun?: { passed: number; failed: number };
}

export function readReload(): ReloadState | undefined {
  if (!RELOAD_FILE || !fs.existsSync(RELOAD_FILE)) return undefined;
  return JSON.parse(fs.readFileSync(RELOAD_FILE, 'utf8')) as ReloadState;
}

/** Asks for a reload once the first run is over; `data` is handed to the check after it. */
export function requestReload(name: string, data: unknown): void {
  if (!RELOAD_FILE) throw new Error('this launcher cannot reload the window (CODE_SCANNER_TEST_RELOAD_FILE is not set)');
  const state = readReload() ?? { requests: {} };
  state.requests[name] = data;
  fs.writeFileSync(RELOAD_FILE, JSON.stringify(state));
}

/** What a test of the first run left for its check after the reload. */
export function reloadRequest<T>(name: string): T | undefined {
  return readReload()?.requests[name] as T | undefined;
}
