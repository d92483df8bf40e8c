// An AI agent's MCP configuration and Code Scanner's entry in it: where Claude Code, Cursor
// and Windsurf keep their user-wide MCP servers, the entry (the bridge, run by the editor's
// runtime; nothing secret), and the file with the entry added or taken out, the rest kept
// byte for byte (jsonc-parser's edits, as VS Code edits its own settings).
import * as path from 'node:path';
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type FormattingOptions, type ParseError } from 'jsonc-parser';
import { l10n } from '../text/l10n';

/** The entry's key in an agent's `mcpServers`. */
export const ENTRY_NAME = 'code-scanner';

export type AgentKind = 'claude' | 'cursor' | 'windsurf' | 'other';

interface AgentConfig { kind: AgentKind; label: string; file?: string }

/** Where each agent keeps its user-wide MCP servers (`home`: the user's home folder). */
export function agentConfigs(home: string): AgentConfig[] {
  return [
    { kind: 'claude', label: 'Claude Code', file: path.join(home, '.claude.json') },
    { kind: 'cursor', label: 'Cursor', file: path.join(home, '.cursor', 'mcp.json') },
    { kind: 'windsurf', label: 'Windsurf', file: path.join(home, '.codeium', 'windsurf', 'mcp_config.json') },
    { kind: 'other', label: l10n.t('Another MCP client') },
  ];
}

export interface McpEntry { type: 'stdio'; command: string; args: string[]; env?: Record<string, string> }

/**
 * The entry: Node from the PATH runs the bridge when there is one (its path survives editor
 * updates), else the editor's own runtime (an Electron editor's runs scripts as Node with
 * ELECTRON_RUN_AS_NODE; Node ignores it).
 */
export function mcpEntry(bridgePath: string, o: { nodeOnPath?: string; runtime?: string } = {}): McpEntry {
  if (o.nodeOnPath) return { type: 'stdio', command: o.nodeOnPath, args: [bridgePath] };
  return { type: 'stdio', command: o.runtime ?? process.execPath, args: [bridgePath], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

/** `node` as the PATH finds it (undefined: none), for an entry that outlives the editor's updates. */
export function nodeOnPath(pathVariable = process.env.PATH ?? '', exists: (p: string) => boolean): string | undefined {
  const names = process.platform === 'win32' ? ['node.exe'] : ['node'];
  for (const dir of pathVariable.split(path.delimiter).filter(Boolean)) {
    for (const n of names) if (path.isAbsolute(dir) && exists(path.join(dir, n))) return path.join(dir, n);
  }
  return undefined;
}

/** The file as a JSON object, comments and trailing commas allowed (Cursor's and VS Code's files have them); an error otherwise. */
function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) throw new Error(l10n.t('it is not valid JSON ({0} at offset {1})', printParseErrorCode(errors[0]!.error), errors[0]!.offset));
  return value;
}

/** The file's own indentation and line ends, so the lines the entry adds look like the rest. */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  return { insertSpaces: !indent?.startsWith('\t'), tabSize: indent && !indent.startsWith('\t') ? indent.length : 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/**
 * The file with the entry added (or replaced) or taken out: only the entry's text changes,
 * everything else (other servers, settings, comments, order, formatting) stays as it was.
 * A new entry goes first among the servers, so no neighbour's line is touched. An error when
 * the file is not a JSON object.
 */
export function withEntry(text: string | undefined, entry: McpEntry | undefined): string {
  const source = text?.trim() ? text : '{}\n';
  const parsed = parseJsonc(source);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(l10n.t('it does not hold a JSON object'));
  const servers = (parsed as Record<string, unknown>).mcpServers;
  if (servers !== undefined && (!servers || typeof servers !== 'object' || Array.isArray(servers))) throw new Error(l10n.t('its "mcpServers" is not a JSON object'));
  if (!entry) return servers && ENTRY_NAME in servers ? withoutEntry(source) : source;
  return applyEdits(source, modify(source, ['mcpServers', ENTRY_NAME], entry, { formattingOptions: formattingOf(source), getInsertionIndex: () => 0 }));
}

/**
 * The entry's property cut out with its comma and, when its lines hold nothing else, those
 * lines; comments around it stay. (jsonc-parser's own removal also takes the comments up to
 * the next property and reformats it.) Where only its removal can keep the file valid (the
 * entry last, after a comma with a comment behind it), that.
 */
function withoutEntry(source: string): string {
  const prop = findNodeAtLocation(parseTree(source, [], { allowTrailingComma: true })!, ['mcpServers', ENTRY_NAME])?.parent;
  if (!prop) return source;
  let start = prop.offset;
  let end = prop.offset + prop.length;
  const commaAfter = /^[ \t]*,/.exec(source.slice(end));
  const commaBefore = /,\s*$/.exec(source.slice(0, start));
  if (commaAfter) end += commaAfter[0].length;
  else if (commaBefore) start = commaBefore.index;
  else if ((prop.parent?.children?.length ?? 0) > 1) return applyEdits(source, modify(source, ['mcpServers', ENTRY_NAME], undefined, { formattingOptions: formattingOf(source) }));
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = /^[ \t]*(\r?\n)/.exec(source.slice(end));
  if (!source.slice(lineStart, start).trim() && lineEnd && !commaBefore?.[0].includes('\n')) {
    start = lineStart;
    end += lineEnd[0].length;
  }
  return source.slice(0, start) + source.slice(end);
}

/**
 * Where the bridge and the registry of windows live: one place per user, whichever editor
 * (VS Code, Insiders, Cursor, code-server) runs the extension, so one agent entry reaches
 * every window of each. Each editor's own storage made one entry per editor, and the agent
 * reached only the editor whose entry it had. `CODE_SCANNER_MCP_HOME` overrides.
 */
export function sharedMcpHome(env: NodeJS.ProcessEnv, home: string, platform: NodeJS.Platform): string {
  if (env.CODE_SCANNER_MCP_HOME) return env.CODE_SCANNER_MCP_HOME;
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'code-scanner', 'mcp');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'code-scanner', 'mcp');
  const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(state, 'code-scanner', 'mcp');
}

/**
 * Whether an extension of `ours` replaces the bridge another editor installed at `installed`:
 * the same or a newer version does; an older one leaves the newer bridge in place, so two
 * editors on two versions do not rewrite it at each start.
 */
export function replacesBridge(ours: string, installed: string | undefined): boolean {
  if (!installed) return true;
  const parts = (v: string) => v.trim().split(/[.+-]/).slice(0, 3).map((n) => Number.parseInt(n, 10) || 0);
  const [a, b] = [parts(ours), parts(installed)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** The entry the file holds under our name, if any (for telling ours from another's). */
export function entryIn(text: string | undefined): { command?: unknown; args?: unknown } | undefined {
  try {
    const c = text?.trim() ? parseJsonc(text) as { mcpServers?: Record<string, unknown> } : undefined;
    const e = c?.mcpServers && typeof c.mcpServers === 'object' ? c.mcpServers[ENTRY_NAME] : undefined;
    return e && typeof e === 'object' ? e as { command?: unknown; args?: unknown } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `found` runs the bridge at `bridgePath`: the entry is ours, as this editor would write it. */
export function runsBridge(found: { command?: unknown; args?: unknown } | undefined, bridgePath: string): boolean {
  return !!found && Array.isArray(found.args) && found.args[0] === bridgePath;
}
