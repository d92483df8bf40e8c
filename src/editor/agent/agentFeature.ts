// AI agents reach the scanner here: the one implementation of the tools (agentTools.ts) for
// the editor's own agent (language model tools), for agents outside it through the MCP
// bridge (mcpChannel.ts), for VS Code's MCP support (a server definition that runs the same
// bridge with the editor's runtime), and Set Up AI Agent Access… for Claude Code, Cursor,
// Windsurf and other MCP clients. The person's consent and the API key stay in the editor.
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { CommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import { setUpAgentAccess } from './agentSetup';
import { AgentToolHost } from './agentTools';
import { lmToolsFeature, type AgentTools } from './lmTools';
import { McpChannel } from './mcpChannel';
import type { PushCheck } from '../push/pushCheck';

export function agentFeature(ctx: Ctx, push?: PushCheck): { tools: AgentTools; channel: McpChannel; commands: Pick<CommandHandlers, 'codeScanner.setUpAgentAccess'> } {
  const { extension, notifier, log, own } = ctx;
  const host = new AgentToolHost(ctx, push);
  const { tools } = lmToolsFeature(ctx, host);
  const channel = own(new McpChannel(extension, host, notifier, log));
  const started = channel.start().catch((e: unknown) => log.warn(`AI agents outside the editor cannot reach Code Scanner: the bridge's channel did not start (${errorMessage(e)}).`));
  // VS Code's own MCP support, where the editor has it: the same bridge, run by the editor.
  const lm = vscode.lm as typeof vscode.lm & { registerMcpServerDefinitionProvider?: typeof vscode.lm.registerMcpServerDefinitionProvider };
  if (typeof lm.registerMcpServerDefinitionProvider === 'function' && typeof vscode.McpStdioServerDefinition === 'function') {
    const version = String((extension.extension.packageJSON as { version?: unknown }).version ?? '0');
    own(lm.registerMcpServerDefinitionProvider('codeScanner.mcp', {
      provideMcpServerDefinitions: async () => {
        await started;
        if (!channel.address) return [];
        // The editor's runtime runs the bridge; it is told which window started it. No key.
        return [new vscode.McpStdioServerDefinition('Code Scanner', process.execPath, [channel.bridgePath], {
          ELECTRON_RUN_AS_NODE: '1', CODE_SCANNER_MCP_REGISTRY: channel.registry, CODE_SCANNER_MCP_WINDOW: channel.address,
        }, version)];
      },
    }));
  } else {
    log.info('This editor has no MCP server provider API; agents reach Code Scanner through Set Up AI Agent Access… instead.');
  }
  return {
    tools,
    channel,
    commands: {
      'codeScanner.setUpAgentAccess': (arg) => setUpAgentAccess(arg, { bridgePath: channel.bridgePath, notifier }),
    },
  };
}
