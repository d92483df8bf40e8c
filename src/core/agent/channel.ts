// The local channel between the MCP bridge (a program an agent starts) and the editor that
// runs the tools: newline-delimited JSON over a Unix socket (a named pipe on Windows) that
// only this user can reach, opened with a secret of this editor session. The bridge holds
// no API key and reads no findings: it forwards a tool call and returns the editor's words.
// Each window says where it listens in a registry file of its own (owner-only).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Longest message either side reads: a tool's answer is bounded far below this. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export type BridgeMessage =
  | { type: 'hello'; secret: string }
  | { type: 'call'; id: number; tool: string; input: unknown; agent: string };

export type EditorMessage =
  | { type: 'welcome' }
  | { type: 'refused'; why: string }
  | { type: 'result'; id: number; text: string; isError?: boolean }
  /** What a call is doing while it takes long (the bridge passes it on as MCP progress). */
  | { type: 'progress'; id: number; message: string };

/** What a window writes for bridges to find it. */
export interface WindowEntry {
  /** Where the window listens. */
  socket: string;
  secret: string;
  /** The extension host's process, to tell a window that is gone from a live one. */
  pid: number;
  /** The workspace folders it has open (paths), for a tool to reach the window that has its folder. */
  folders: string[];
  /** The workspace's name, for messages. */
  name: string;
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares a secret without telling by timing how much of it matched. */
export function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Splits a stream of bytes into JSON messages, one a line; a line past the bound ends the stream. */
export class LineReader {
  private buffered = '';

  constructor(private readonly onMessage: (m: unknown) => void, private readonly onTooLong: () => void) {}

  push(chunk: Buffer | string): void {
    this.buffered += chunk.toString();
    for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      if (!line.trim()) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      this.onMessage(parsed);
    }
    if (this.buffered.length > MAX_MESSAGE_BYTES) {
      this.buffered = '';
      this.onTooLong();
    }
  }
}

export function encode(m: BridgeMessage | EditorMessage): string {
  return `${JSON.stringify(m)}\n`;
}

/**
 * A folder only this user can use for the window's socket (Unix sockets need a short path,
 * so not the extension's storage): created 0700, and refused when it is someone else's or
 * a link. On Windows the socket is a named pipe and needs no folder.
 */
export async function privateSocketDir(base = os.tmpdir()): Promise<string> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const dir = path.join(base, `code-scanner-${uid ?? 'user'}`);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await fsp.lstat(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new Error(`${dir} is not a folder of its own`);
  if (uid !== undefined && st.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((st.mode & 0o077) !== 0) await fsp.chmod(dir, 0o700);
  return dir;
}

/** Where a window listens: a socket in the private folder, or a named pipe on Windows. */
export function socketPath(dir: string, id: string): string {
  return process.platform === 'win32' ? `\\\\.\\pipe\\code-scanner-${id}` : path.join(dir, `${id}.sock`);
}

/** Whether the process of a window entry still runs (another user's process counts as running). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This user's id where the system has one (not on Windows, where the folder's ACL decides). */
const myUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/**
 * The windows the registry names that say they run, newest first (a window that started
 * later wins over an entry left by one that crashed, whose process id may have been reused),
 * and why none can be used when that is so. The folder must be this user's and writable by
 * no one else, and each entry a regular file of this user's: an entry planted by another
 * user would get the agent's calls, and what the person answers.
 */
export async function readRegistry(registry: string): Promise<{ windows: WindowEntry[]; unreadable?: string }> {
  const uid = myUid();
  let names: string[];
  try {
    const st = await fsp.stat(registry);
    if (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)) {
      return { windows: [], unreadable: `The Code Scanner registry of editor windows (${registry}) is not yours alone (another owner, or others may write in it); the bridge does not use it. Remove the folder and open VS Code again.` };
    }
    names = await fsp.readdir(registry);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return { windows: [], unreadable: 'The Code Scanner editor state on this machine belongs to another user; run the agent as the user who runs VS Code.' };
    return { windows: [] };
  }
  const found: { entry: WindowEntry; at: number }[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const file = path.join(registry, name);
      const st = await fsp.lstat(file);
      if (!st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
      const entry = parseEntry(JSON.parse(await fsp.readFile(file, 'utf8')));
      if (entry && processAlive(entry.pid)) found.push({ entry, at: st.mtimeMs });
    } catch {
      // One being written, or gone: not a window this bridge can use.
    }
  }
  return { windows: found.sort((a, b) => b.at - a.at).map((f) => f.entry) };
}

/** Reads a window entry; undefined when it is not one. */
export function parseEntry(raw: unknown): WindowEntry | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const e = raw as Record<string, unknown>;
  if (typeof e.socket !== 'string' || typeof e.secret !== 'string' || typeof e.pid !== 'number' || !Array.isArray(e.folders)) return undefined;
  return { socket: e.socket, secret: e.secret, pid: e.pid, folders: e.folders.filter((f): f is string => typeof f === 'string'), name: typeof e.name === 'string' ? e.name : 'a VS Code window' };
}

/** Whether `folder` (a path) is `candidate` or inside it. */
function within(folder: string, candidate: string): boolean {
  const rel = path.relative(candidate, folder);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Which window a tool call goes to: the one that has the named folder open (by path or
 * name), else the one whose folder holds the agent's working folder, else the only one
 * (or the one the bridge was started for). A sentence when none fits.
 */
export function chooseWindow(
  windows: readonly WindowEntry[], o: { folder?: string; cwd?: string; preferred?: string },
): { window: WindowEntry; folder?: string } | { refusal: string } {
  if (!windows.length) {
    return { refusal: 'No VS Code window with Code Scanner is running for you on this machine: open the project in VS Code with the Code Scanner extension, then ask again.' };
  }
  const names = (w: WindowEntry) => w.folders.map((f) => path.basename(f));
  if (o.folder?.trim()) {
    // A workspace folder's name, or an absolute path in one (not a path relative to the agent's).
    const wanted = o.folder.trim();
    const found = path.isAbsolute(wanted)
      ? windows.find((w) => w.folders.some((f) => within(path.resolve(wanted), f)))
      : windows.find((w) => names(w).includes(wanted));
    if (found) return { window: found };
    return { refusal: `The folder ${wanted} is not open in any VS Code window with Code Scanner (open: ${windows.flatMap(names).join(', ') || 'none'}). Open it in VS Code first.` };
  }
  // The agent's working folder: the window that has it, and that folder of the window's.
  for (const w of o.cwd ? windows : []) {
    const folder = w.folders.find((f) => within(o.cwd!, f));
    if (folder) return { window: w, folder };
  }
  const preferred = o.preferred ? windows.find((w) => w.socket === o.preferred) : undefined;
  if (preferred) return { window: preferred };
  // Never another project's window because it happens to be the only one.
  if (o.cwd) return { refusal: `The agent works in ${o.cwd}, which is not open in any VS Code window with Code Scanner (open: ${windows.flatMap(names).join(', ') || 'none'}). Open that folder in VS Code, or name an open one with the folder argument.` };
  if (windows.length === 1) return { window: windows[0]! };
  return { refusal: `Several VS Code windows with Code Scanner are open (${windows.map((w) => names(w).join(', ') || w.name).join('; ')}): name the folder to act on with the folder argument.` };
}
