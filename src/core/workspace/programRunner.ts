import * as childProcess from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { l10n } from '../text/l10n';

/** How a program ended and what it printed. */
export interface ProgramResult {
  /** Exit code; null when it was killed (`signal`) or never started (`error`). */
  code: number | null;
  signal: string | null;
  /** Empty when the output went to `stdoutPath`. */
  stdout: Buffer;
  stderr: Buffer;
  /** Why it could not be started or its output not be kept (ENOENT, a too long output). */
  error?: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Standard output beyond this many bytes kills the program and fails the run. */
  maxBuffer: number;
  /** An existing, empty file of the caller's that receives standard output instead. */
  stdoutPath?: string;
}

interface Request extends RunOptions { id: number; file: string; args: string[]; niceness: number }

/**
 * The niceness of what the scan starts: ten below this process's own (the extension host's,
 * normally 0), so that it stays below however the editor itself was started.
 */
function lowered(): number {
  try {
    return Math.min(19, os.getPriority(0) + 10);
  } catch {
    return 10;
  }
}

interface Modules { childProcess: typeof childProcess; fs: typeof fs; os: typeof os }

/**
 * Runs one program to its end; the same code runs here and, as source text, in the helper
 * process (so it uses nothing from outside itself but its arguments).
 */
function runToEnd(req: Request, m: Modules, done: (r: ProgramResult) => void): void {
  const start = m.childProcess.spawn;
  const files = m.fs;
  let outFd: number | undefined;
  let finished = false;
  const finish = (r: ProgramResult) => {
    if (finished) return;
    finished = true;
    if (outFd !== undefined) {
      try {
        files.closeSync(outFd);
      } catch {
        // already closed
      }
    }
    done(r);
  };
  const none = Buffer.alloc(0);
  try {
    if (req.stdoutPath) outFd = files.openSync(req.stdoutPath, 'r+');
    const child = start(req.file, req.args, { cwd: req.cwd, env: req.env, stdio: ['ignore', outFd ?? 'pipe', 'pipe'], windowsHide: true });
    // A program the scan runs yields a core to the extension host (every extension's thread):
    // on two cores, git at the same priority kept it waiting. Ten below the host (lowered());
    // where the system refuses, or the program has already ended, it runs as it is.
    try {
      if (child.pid) m.os.setPriority(child.pid, req.niceness);
    } catch {
      // not allowed here, or gone
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let tooLong = false;
    child.stdout?.on('data', (d: Buffer) => {
      outBytes += d.length;
      if (outBytes > req.maxBuffer) {
        if (!tooLong) child.kill();
        tooLong = true;
      } else {
        out.push(d);
      }
    });
    // A message, not a listing: its first 64 KB say what went wrong.
    child.stderr?.on('data', (d: Buffer) => {
      if (errBytes < 65536) err.push(d);
      errBytes += d.length;
    });
    child.on('error', (e) => finish({ code: null, signal: null, stdout: none, stderr: Buffer.concat(err), error: e.message }));
    child.on('close', (code, signal) => finish({
      code, signal, stdout: tooLong ? none : Buffer.concat(out), stderr: Buffer.concat(err),
      // English: this function also runs in the helper process (its source is sent there), where no bundle is loaded.
      error: tooLong ? `it printed more than ${req.maxBuffer} bytes` : undefined,
    }));
  } catch (e) {
    finish({ code: null, signal: null, stdout: none, stderr: none, error: e instanceof Error ? e.message : String(e) });
  }
}

/** The helper's name in process lists (`ps`, `top`, a system monitor), in place of its source. */
export const HELPER_TITLE = 'code-scanner-git-helper';

// The helper: answers each request on its IPC channel with the run's result, and leaves
// when the channel closes (the extension host exited, or let it go when idle).
// `__name` is what a transpiler that keeps function names wraps them in (tsx in tests); here a no-op.
const HELPER_SOURCE = `'use strict';
var __name = (f) => f;
process.title = ${JSON.stringify(HELPER_TITLE)};
const modules = { childProcess: require('node:child_process'), fs: require('node:fs'), os: require('node:os') };
const runToEnd = ${runToEnd.toString()};
process.on('disconnect', () => process.exit(0));
process.on('message', (req) => runToEnd(req, modules, (r) => { if (process.connected) process.send({ id: req.id, result: r }); }));
process.send({ ready: true });
`;

const HERE: Modules = { childProcess, fs, os };

/** How long an unused helper stays, so a scan after a pause finds it ready. */
const HELPER_IDLE_MS = 10 * 60_000;

/**
 * Starts programs (git) from a small helper process on Linux. There libuv starts a program
 * with fork(), which copies the calling process's page tables first: the thread stops ~7 ms
 * per 100 MB resident, and an extension host is hundreds of MB (Node 24 on this machine:
 * 2.7 ms at 49 MB, 18.5 ms at 250 MB, 36 ms at 550 MB, per `git --version`). A scan asks
 * git 4-7 times, each time stopping the host's thread, every extension's included. The
 * helper is a Node process of its own (46-52 MB resident) that forks from its own small
 * size; this process pays one fork to start it and a message per run. Until it is ready, and
 * if it cannot start or dies, programs start here as before (a run the helper had not
 * answered starts again here: git's reads we run change nothing; one writing a file fails,
 * as its git may still be writing there).
 */
export class ProgramRunner {
  private child: ChildProcess | undefined;
  private ready = false;
  /** Set when the helper failed on its own: this process starts programs itself from then on. */
  private failed = false;
  private nextId = 1;
  private readonly pending = new Map<number, { req: Request; done: (r: ProgramResult) => void }>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly opts: { useHelper: boolean; execPath?: string; idleMs?: number } = { useHelper: process.platform === 'linux' }) {}

  run(file: string, args: string[], options: RunOptions): Promise<ProgramResult> {
    const req: Request = { id: this.nextId++, file, args, ...options, niceness: lowered() };
    return new Promise((resolve) => {
      const child = this.child;
      if (!child || !this.ready) {
        runToEnd(req, HERE, resolve);
        return;
      }
      // The idle timer lets the helper go only with nothing pending; the last answer arms it again.
      this.pending.set(req.id, { req, done: resolve });
      // Only a run under way keeps this process alive (a test, a benchmark child that ends).
      child.channel?.ref();
      child.send(req, (e) => {
        if (e) this.lost(child);
      });
    });
  }

  /** Whether runs go through the helper now (for tests). */
  get helperReady(): boolean {
    return this.ready;
  }

  /** Lets the helper go; runs after this start it again. */
  dispose(): void {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    this.ready = false;
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    for (const { req, done } of this.pending.values()) {
      // A git the helper started may still be writing that file: the caller asks again its own way.
      if (req.stdoutPath) done({ code: null, signal: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: l10n.t('the helper process ended') });
      else runToEnd(req, HERE, done);
    }
    this.pending.clear();
    if (child.connected) child.disconnect();
  }

  /**
   * Starts the helper, for the runs after it is ready. A scan asks for it once its git work
   * is done and its archive uploaded, while it waits for the service: started at a scan's
   * first git call, its start (a fork, then ~40 ms of a core for Node) competed with the
   * packaging (a fresh benchmark process packaging the small library: 243 ms instead of 207).
   * A save for scan on save asks for it too: its scan waits for a quiet moment first.
   */
  prepare(): void {
    if (!this.opts.useHelper || this.failed || this.child) return;
    let child: ChildProcess;
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
      // The host's own Node options (a debugger port, a preloaded module) are not the helper's.
      delete env.NODE_OPTIONS;
      child = childProcess.spawn(this.opts.execPath ?? process.execPath, ['-e', HELPER_SOURCE], {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced', env, windowsHide: true,
      });
    } catch {
      this.failed = true;
      return;
    }
    this.child = child;
    // Its programs inherit this, and it yields a core to the host as they do (runToEnd).
    try {
      if (child.pid) os.setPriority(child.pid, lowered());
    } catch {
      // not allowed here
    }
    child.unref();
    child.channel?.unref();
    child.on('message', (m: { ready?: boolean; id?: number; result?: ProgramResult }) => {
      if (m.ready) {
        this.ready = true;
        this.armIdle(child);
        return;
      }
      const p = m.id === undefined ? undefined : this.pending.get(m.id);
      if (!p || !m.result) return;
      this.pending.delete(m.id!);
      if (!this.pending.size) {
        child.channel?.unref();
        this.armIdle(child);
      }
      p.done(m.result);
    });
    child.on('error', () => this.lost(child));
    // Its channel closing is the first sign: the process handle is unref'd and its exit may never be heard.
    child.on('disconnect', () => this.lost(child));
    child.on('exit', () => this.lost(child));
  }

  private armIdle(child: ChildProcess): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.child === child && !this.pending.size) this.dispose();
    }, this.opts.idleMs ?? HELPER_IDLE_MS);
    this.idle.unref();
  }

  /** The helper went away without being let go: what it held runs here, and so does what follows. */
  private lost(child: ChildProcess): void {
    if (this.child !== child) return;
    this.failed = true;
    this.dispose();
    child.kill();
  }
}

let shared: ProgramRunner | undefined;

/** The runner every git call of this process goes through. */
export function programRunner(): ProgramRunner {
  return (shared ??= new ProgramRunner());
}

/** Lets the shared helper go (the extension's deactivation; its API, for tests). */
export function disposeProgramRunner(): void {
  shared?.dispose();
}
