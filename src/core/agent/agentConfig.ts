// An AI agent's MCP configuration and Code Scanner's entry in it: where Claude Code, Cursor
// and Windsurf keep their user-wide MCP servers, the entry (the bridge, run by the editor's
// runtime; nothing secret), and the file's JSON with the entry added or taken out, the rest
// kept as it was.
import * as path from 'node:path';
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

/** The file's JSON with the entry added (or replaced), everything else kept; an error when the file is not a JSON object. */
export function withEntry(text: string | undefined, entry: McpEntry | undefined): string {
  const parsed: unknown = text?.trim() ? JSON.parse(text) : {};
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(l10n.t('it does not hold a JSON object'));
  const config = parsed as Record<string, unknown>;
  const servers = config.mcpServers && typeof config.mcpServers === 'object' && !Array.isArray(config.mcpServers) ? { ...(config.mcpServers as Record<string, unknown>) } : {};
  if (entry) servers[ENTRY_NAME] = entry;
  else delete servers[ENTRY_NAME];
  return `${JSON.stringify({ ...config, mcpServers: servers }, null, 2)}\n`;
}

/** Whether the file holds our entry. */
export function hasEntry(text: string | undefined): boolean {
  try {
    const c = text?.trim() ? JSON.parse(text) as { mcpServers?: Record<string, unknown> } : undefined;
    return !!c?.mcpServers && typeof c.mcpServers === 'object' && ENTRY_NAME in c.mcpServers;
  } catch {
    return false;
  }
}

