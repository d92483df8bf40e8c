// The MCP server an AI agent starts (stdio): only a bridge to the Code Scanner of a running
// VS Code window. It lists the tools itself (so an agent sees them with no editor open) and
// forwards each call over the window's local channel (core/agent/channel.ts). It holds no
// API key, reads no findings from disk and asks the person nothing: the editor does. With no
// editor, another user's, or a folder open in no window, each tool answers one sentence.
import * as net from 'node:net';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { LineReader, chooseWindow, encode, readRegistry, type EditorMessage, type WindowEntry } from '../core/agent/channel';
import { TOOL_DEFINITIONS } from '../core/agent/toolDefinitions';

/** A tool call waits this long for the editor; the person may be asked there first. */
const CALL_TIMEOUT_MS = 10 * 60 * 1000;
/** How often a waiting call tells the client it is still going (many time out after 60 s of silence). */
const PROGRESS_EVERY_MS = 15_000;

const registry = process.env.CODE_SCANNER_MCP_REGISTRY || path.join(__dirname, 'windows');

/** One call over the window's channel: hello with its secret, the call, its answer. */
function callWindow(w: WindowEntry, tool: string, input: unknown, agent: string, signal?: AbortSignal, onProgress?: (message: string) => void): Promise<{ text: string; isError?: boolean; unreachable?: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(w.socket);
    let done = false;
    let connected = false;
    const finish = (r: { text: string; isError?: boolean; unreachable?: boolean }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancelled);
      // Closed, the window withdraws a question still waiting for the person.
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ text: `The VS Code window (${w.name}) did not answer within ${CALL_TIMEOUT_MS / 60_000} minutes; nothing more is known.`, isError: true }), CALL_TIMEOUT_MS);
    const cancelled = () => finish({ text: 'The request was cancelled; the question in VS Code was withdrawn and nothing was done.', isError: true });
    if (signal?.aborted) return cancelled();
    signal?.addEventListener('abort', cancelled);
    const reader = new LineReader((m) => {
      const msg = m as EditorMessage | undefined;
      if (msg?.type === 'welcome') socket.write(encode({ type: 'call', id: 1, tool, input, agent }));
      else if (msg?.type === 'refused') finish({ text: `The VS Code window (${w.name}) refused this bridge: ${msg.why}`, isError: true });
      else if (msg?.type === 'result') finish({ text: msg.text, ...(msg.isError ? { isError: true } : {}) });
      else if (msg?.type === 'progress' && typeof msg.message === 'string') onProgress?.(msg.message.slice(0, 200));
    }, () => finish({ text: 'The editor\'s answer was too long to read.', isError: true }));
    socket.on('connect', () => { connected = true; socket.write(encode({ type: 'hello', secret: w.secret })); });
    socket.on('data', (d) => reader.push(d));
    // Never reached: an entry left by a window that is gone (nothing was sent; another may be tried).
    socket.on('error', () => finish({ text: `The VS Code window (${w.name}) could not be reached: it may have closed. Open the project in VS Code again, then ask again.`, isError: true, ...(connected ? {} : { unreachable: true }) }));
    socket.on('close', () => finish({ text: `The VS Code window (${w.name}) closed the connection before it answered.`, isError: true }));
  });
}

async function main(): Promise<void> {
  const server = new Server({ name: 'code-scanner', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOL_DEFINITIONS.map((d) => ({ name: d.name, title: d.title, description: d.modelDescription, inputSchema: d.inputSchema, annotations: { title: d.title, ...d.annotations } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = request.params.name;
    const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], ...(isError ? { isError: true } : {}) });
    if (!TOOL_DEFINITIONS.some((d) => d.name === tool)) return text(`There is no tool ${tool.slice(0, 100)} here.`, true);
    const input = (request.params.arguments ?? {}) as Record<string, unknown>;
    const found = await readRegistry(registry);
    if (found.unreadable) return text(found.unreadable, true);
    const agent = server.getClientVersion()?.name ?? 'an MCP client';
    // While the person is asked in VS Code, progress keeps a client that allows it from timing out.
    const token = extra._meta?.progressToken;
    let beats = 0;
    // The editor says what the call is doing once it is past the person's answer (a fix being checked).
    let doing = 'Waiting for the person to answer in VS Code';
    const send = () => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token!, progress: ++beats, message: doing } }).catch(() => undefined);
    const beat = token === undefined ? undefined : setInterval(send, PROGRESS_EVERY_MS);
    const onProgress = (message: string) => {
      doing = message;
      if (token !== undefined) send();
    };
    try {
      let pool = found.windows;
      for (;;) {
        const chosen = chooseWindow(pool, { folder: typeof input.folder === 'string' ? input.folder : undefined, cwd: process.cwd(), preferred: process.env.CODE_SCANNER_MCP_WINDOW });
        if ('refusal' in chosen) return text(chosen.refusal, true);
        // Chosen by the agent's working folder: the window acts on that folder, not on all of its own.
        const r = await callWindow(chosen.window, tool, 'folder' in chosen && chosen.folder && input.folder === undefined ? { ...input, folder: chosen.folder } : input, agent.slice(0, 80), extra.signal, onProgress);
        // A window that is gone: the next that fits, if any (its words if none does).
        const rest = r.unreachable ? pool.filter((w) => w !== chosen.window) : [];
        if (!r.unreachable || !rest.length) return text(r.text, !!r.isError);
        pool = rest;
      }
    } finally {
      clearInterval(beat);
    }
  });
  await server.connect(new StdioServerTransport());
}

void main();
