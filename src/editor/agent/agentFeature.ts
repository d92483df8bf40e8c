// AI agents reach the scanner here: the one implementation of the tools (agentTools.ts) for
// the editor's own agent (language model tools), for agents outside it through the MCP
// bridge (mcpChannel.ts), and Set Up AI Agent Access… for Claude Code, Cursor, Windsurf and
// other MCP clients. VS Code's own agent gets the tools once, as language model tools: an
// MCP server definition of the same bridge listed them a second time under another name. The person's consent and the API key stay in the editor.
import { errorMessage } from '../../core/errors';
import type { CommandHandlers } from '../commands/signatures';
import type { FeatureCtx } from '../controllers';
import { setUpAgentAccess } from './agentSetup';
import { AgentToolHost } from './agentTools';
import { lmToolsFeature, type AgentTools } from './lmTools';
import { McpChannel } from './mcpChannel';
import type { PushCheck } from '../push/pushCheck';

export function agentFeature(ctx: FeatureCtx, push?: PushCheck): { tools: AgentTools; host: AgentToolHost; channel: McpChannel; commands: Pick<CommandHandlers, 'codeScanner.setUpAgentAccess'> } {
  const { extension, notifier, log, own } = ctx;
  const host = new AgentToolHost(ctx, push);
  const { tools } = lmToolsFeature(ctx, host);
  const channel = own(new McpChannel(extension, host, notifier, log));
  void channel.start().catch((e: unknown) => log.warn(`AI agents outside the editor cannot reach Code Scanner: the bridge's channel did not start (${errorMessage(e)}).`));
  return {
    tools,
    host,
    channel,
    commands: {
      'codeScanner.setUpAgentAccess': (arg) => setUpAgentAccess(arg, { bridgePath: channel.bridgePath, notifier }),
    },
  };
}
