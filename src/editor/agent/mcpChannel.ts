// The editor's end of the MCP bridge: a local channel (core/agent/channel.ts) on which the
// bridge an agent started forwards tool calls to this window's tools. Only this user can
// reach it (a socket in an owner-only folder) and only with this session's secret, which is
// written, owner-only, to the window's entry in the registry the bridge reads. What needs
// the person's yes is asked here, in the editor (a fix's diff shown first), never by the agent.
import { promises as fsp, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LineReader, encode, newSecret, privateSocketDir, sameSecret, socketPath, type BridgeMessage, type WindowEntry } from '../../core/agent/channel';
import { replacesBridge, sharedMcpHome } from '../../core/agent/agentConfig';
import { errorMessage } from '../../core/errors';
import type { Notifier } from '../notifier';
import { DisposableObject } from '../disposable';
import type { AgentToolHost, Confirmation } from './agentTools';
import { oneLine } from '../../core/text/untrusted';
import { l10n } from '../../core/text/l10n';

/** How long the editor waits for the person to answer an agent's question. */
const ANSWER_WITHIN_MS = 5 * 60 * 1000;
/** A bridge that does not say hello with the secret this soon is let go. */
const HELLO_WITHIN_MS = 5000;
/** The bridge's program, kept where an agent's configuration can name it across extension updates. */
export const BRIDGE_FILE = 'code-scanner-mcp.js';

/** Where the bridge and the registry of windows live: one owner-only place per user, shared by every editor (agentConfig.ts). */
export function mcpHome(): string {
  return sharedMcpHome(process.env, os.homedir(), process.platform);
}

const WITHDRAWN = Symbol('withdrawn');

export class McpChannel extends DisposableObject {
  private server: net.Server | undefined;
  private readonly secret = newSecret();
  private entryFile: string | undefined;
  private socket: string | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** The questions agents wait on, shown in the status bar until each is answered or withdrawn. */
  private readonly waiting = new Map<symbol, { agent: string; question: string }>();
  private readonly waitingItem = vscode.window.createStatusBarItem('codeScanner.agentQuestion', vscode.StatusBarAlignment.Left, 48);

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: AgentToolHost,
    private readonly notifier: Notifier,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.own(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.writeEntry()));
    this.own({ dispose: () => this.close() });
    this.own(this.waitingItem);
    this.waitingItem.name = l10n.t('Code Scanner: an agent\'s question');
    this.waitingItem.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    // The question is a notification; this opens the list that keeps it once its toast has gone.
    this.waitingItem.command = { command: 'notifications.showList', title: l10n.t('Show the question') };
  }

  /** The status bar's words while an agent waits for the person (for tests). */
  get waitingText(): string | undefined {
    return this.waiting.size ? this.waitingItem.text : undefined;
  }

  private showWaiting(): void {
    const all = [...this.waiting.values()];
    if (!all.length) {
      this.waitingItem.hide();
      return;
    }
    const first = all[0]!;
    this.waitingItem.text = all.length === 1 ? l10n.t('$(question) {0} waits for your answer', oneLine(first.agent, 40).replace(/\$\(/g, '(')) : l10n.t('$(question) {0} agent questions wait for your answer', all.length);
    this.waitingItem.tooltip = all.map((w) => w.question).join('\n\n');
    this.waitingItem.accessibilityInformation = {
      label: all.length === 1 ? l10n.t('{0} waits for your answer: {1}', first.agent, first.question) : l10n.t('{0} agent questions wait for your answer', all.length),
      role: 'button',
    };
    this.waitingItem.show();
  }

  /** Where this window listens (for the editor's own MCP server definition). */
  get address(): string | undefined {
    return this.socket;
  }

  /** The bridge's program at its stable place; the registry's folder. */
  get bridgePath(): string {
    return path.join(mcpHome(), BRIDGE_FILE);
  }

  get registry(): string {
    return path.join(mcpHome(), 'windows');
  }

  /** Copies the bridge to its stable place and listens; the window is then in the registry. */
  async start(): Promise<void> {
    const home = mcpHome();
    await fsp.mkdir(this.registry, { recursive: true, mode: 0o700 });
    await fsp.chmod(home, 0o700).catch(() => undefined);
    await fsp.chmod(this.registry, 0o700).catch(() => undefined);
    await this.installBridge();
    const id = path.basename(newSecret().slice(0, 16));
    this.socket = socketPath(await privateSocketDir(), id);
    await fsp.rm(this.socket, { force: true }).catch(() => undefined);
    this.server = net.createServer((s) => this.accept(s));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.socket, () => resolve());
    });
    if (process.platform !== 'win32') await fsp.chmod(this.socket, 0o600).catch(() => undefined);
    this.entryFile = path.join(this.registry, `${id}.json`);
    await this.writeEntry();
    this.log.info(`AI agents reach this window's Code Scanner tools through its MCP bridge (${this.bridgePath}).`);
  }

  /** The bridge at its shared place: ours, unless another editor put a newer version there. */
  private async installBridge(): Promise<void> {
    const source = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'mcp-server.js').fsPath;
    const bytes = await fsp.readFile(source);
    const current = await fsp.readFile(this.bridgePath).catch(() => undefined);
    if (current?.equals(bytes)) return;
    const ours = String((this.context.extension.packageJSON as { version?: unknown }).version ?? '0');
    const versionFile = `${this.bridgePath}.version`;
    const installed = current ? await fsp.readFile(versionFile, 'utf8').catch(() => undefined) : undefined;
    if (current && !replacesBridge(ours, installed)) return;
    const temp = `${this.bridgePath}.${process.pid}.tmp`;
    await fsp.writeFile(temp, bytes, { mode: 0o600 });
    await fsp.rename(temp, this.bridgePath);
    await fsp.writeFile(`${versionFile}.${process.pid}.tmp`, ours, { mode: 0o600 }).then(() => fsp.rename(`${versionFile}.${process.pid}.tmp`, versionFile), () => undefined);
  }

  private async writeEntry(): Promise<void> {
    if (!this.entryFile || !this.socket) return;
    const entry: WindowEntry = {
      socket: this.socket,
      secret: this.secret,
      pid: process.pid,
      folders: (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
      name: vscode.workspace.name ?? l10n.t('a VS Code window'),
    };
    const temp = `${this.entryFile}.tmp`;
    try {
      await fsp.writeFile(temp, JSON.stringify(entry), { mode: 0o600 });
      await fsp.rename(temp, this.entryFile);
    } catch (e) {
      this.log.warn(`The MCP bridge cannot find this window: its entry could not be written (${errorMessage(e)}).`);
    }
  }

  private accept(s: net.Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => undefined);
    let welcomed = false;
    const hello = setTimeout(() => { if (!welcomed) s.destroy(); }, HELLO_WITHIN_MS);
    const reader = new LineReader((raw) => {
      const m = raw as BridgeMessage | undefined;
      if (!welcomed) {
        clearTimeout(hello);
        if (m?.type !== 'hello' || !sameSecret(m.secret, this.secret)) {
          s.end(encode({ type: 'refused', why: 'the secret of this editor session does not match' }));
          return;
        }
        welcomed = true;
        s.write(encode({ type: 'welcome' }));
        return;
      }
      if (m?.type !== 'call' || typeof m.tool !== 'string' || typeof m.id !== 'number') return;
      const input = m.input && typeof m.input === 'object' && !Array.isArray(m.input) ? (m.input as Record<string, unknown>) : {};
      const agent = typeof m.agent === 'string' && m.agent.trim() ? m.agent.slice(0, 80) : l10n.t('an MCP client');
      // The bridge closes the connection when its client gives up or cancels: the question is withdrawn.
      const withdrawn = new Promise<void>((resolve) => s.once('close', () => resolve()));
      const progress = (message: string) => { if (!s.destroyed) s.write(encode({ type: 'progress', id: m.id, message })); };
      void this.host.run({ tool: m.tool, input, agent, progress }, (c) => this.askInEditor(c, withdrawn, agent)).then(
        (r) => { if (!s.destroyed) s.write(encode({ type: 'result', id: m.id, text: r.text, ...(r.isError ? { isError: true } : {}) })); },
        (e: unknown) => { if (!s.destroyed) s.write(encode({ type: 'result', id: m.id, text: `The editor could not run the tool: ${errorMessage(e)}`, isError: true })); },
      );
    }, () => s.destroy());
    s.on('data', (d) => reader.push(d));
  }

  /**
   * The person answers in the editor: what would change is shown first, then one question.
   * An answer given after the agent stopped waiting does nothing: the request is withdrawn.
   */
  private async askInEditor(c: Confirmation, withdrawn: Promise<void>, agent: string): Promise<boolean | 'save' | { refused: string }> {
    if (c.show) await Promise.resolve(c.show()).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ANSWER_WITHIN_MS); });
    const gone = withdrawn.then(() => WITHDRAWN);
    const key = Symbol('question');
    this.waiting.set(key, { agent, question: c.question });
    this.showWaiting();
    try {
      // Outside the editor nobody saves for the agent: saving with the change is offered first.
      const choices = [...(c.alsoSave ? [c.alsoSave] : []), c.accept, l10n.t('Refuse')];
      const chosen = await Promise.race([this.notifier.warn(c.question, ...choices), unanswered, gone]);
      if (chosen === WITHDRAWN) {
        this.log.info(`${agent} stopped waiting for the person's answer; its request was withdrawn and nothing was done.`);
        void this.notifier.info(l10n.t('{0} stopped waiting for your answer, so its request was withdrawn: nothing was done, whatever you answer.', agent));
        return { refused: l10n.t('The request was withdrawn before the person answered; nothing was done.') };
      }
      return c.alsoSave && chosen === c.alsoSave ? 'save' : chosen === c.accept;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(key);
      this.showWaiting();
    }
  }

  private close(): void {
    for (const s of this.sockets) s.destroy();
    this.server?.close();
    this.server = undefined;
    // Synchronously: the window may be closing, with no event loop left for promises.
    if (this.entryFile) rmSync(this.entryFile, { force: true });
    if (this.socket && process.platform !== 'win32') rmSync(this.socket, { force: true });
  }
}
