// AI agents reach the scanner here: the one implementation of the tools (agentTools.ts) for
// the editor's own agent (language model tools), for agents outside it through the MCP
// bridge (mcpChannel.ts), for VS Code's MCP support (a server definition that runs the same
// bridge with the editor's runtime), and Set Up AI Agent Access… for Claude Code, Cursor,
// Windsurf and other MCP clients. The person's consent and the API key stay in the editor.
import { errorMessage } from '../../core/errors';
import type { CommandHandlers } from '../commands/signatures';
import type { FeatureCtx } from '../controllers';
import { setUpAgentAccess } from './agentSetup';
import { AgentToolHost } from './agentTools';
import { lmToolsFeature, type AgentTools } from './lmTools';
import { McpChannel } from './mcpChannel';
import type { PushCheck } from '../push/pushCheck';
import { l10n } from '../../core/text/l10n';

export function agentFeature(ctx: FeatureCtx, push?: PushCheck): { tools: AgentTools; channel: McpChannel; commands: Pick<CommandHandlers, 'codeScanner.setUpAgentAccess'> } {
  const { extension, notifier, log, own } = ctx;
  const host = new AgentToolHost(ctx, push);
  const { tools } = lmToolsFeature(ctx, host);
  const channel = own(new McpChannel(extension, host, notifier, log));
  const started = channel.start().catch((e: unknown) => log.warn(`AI agents outside the editor cannot reach Code Scanner: the bridge's channel did not start (${errorMessage(e)}).`));
  // VS Code's own MCP support, where the editor has it (features.ts): the same bridge, run by the editor.
  const mcp = ctx.features.mcp;
  if (mcp) {
    const version = String((extension.extension.packageJSON as { version?: unknown }).version ?? '0');
    own(mcp.registerMcpServerDefinitionProvider('codeScanner.mcp', {
      provideMcpServerDefinitions: async () => {
        await started;
        if (!channel.address) return [];
        // The editor's runtime runs the bridge; it is told which window started it. No key.
        return [mcp.stdioServer(l10n.t('Code Scanner'), process.execPath, [channel.bridgePath], {
          ELECTRON_RUN_AS_NODE: '1', CODE_SCANNER_MCP_REGISTRY: channel.registry, CODE_SCANNER_MCP_WINDOW: channel.address,
        }, version)];
      },
    }));
  }
  return {
    tools,
    channel,
    commands: {
      'codeScanner.setUpAgentAccess': (arg) => setUpAgentAccess(arg, { bridgePath: channel.bridgePath, notifier }),
    },
  };
}
