// The agent tools for the editor's own AI agent (Copilot agent mode, or any chat participant
// that uses tools): VS Code's language model tools over the one implementation
// (agentTools.ts). VS Code shows a call's confirmation before it runs (prepareInvocation);
// the call then carries out exactly what was shown there, or refuses.
import * as vscode from 'vscode';
import { TOOL_DEFINITIONS, TOOL_NAMES, type ToolName } from '../../core/agent/toolDefinitions';
import type { Ctx } from '../context';
import type { AgentToolHost } from './agentTools';
import { l10n } from '../../core/text/l10n';

export { TOOL_NAMES };

const text = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);

/** Who calls these tools, for the answers that mark what is new since that agent's previous scan. */
const EDITOR_AGENT = () => l10n.t('the editor\'s agent');

export type AgentTools = Record<ToolName, vscode.LanguageModelTool<object>>;

/**
 * Registers the tools where the editor has the API; returns them too, for the tests of what
 * their confirmations say (VS Code's test workbench answers confirmations by itself).
 */
export function lmToolsFeature({ own, features }: Pick<Ctx, 'own' | 'features'>, host: AgentToolHost): { tools: AgentTools } {
  /** Per tool and input: the digest of what its confirmation showed. */
  const shown = new Map<string, string>();
  const keyOf = (name: string, input: unknown) => `${name}\n${JSON.stringify(input ?? {})}`;
  const tools = Object.fromEntries(TOOL_DEFINITIONS.map((d) => {
    const tool: vscode.LanguageModelTool<object> = {
      async prepareInvocation(options) {
        const plan = await host.plan({ tool: d.name, input: (options.input ?? {}) as Record<string, unknown>, agent: EDITOR_AGENT() });
        if (!('confirmation' in plan)) return { invocationMessage: plan.invocationMessage ?? d.title.replace(/^Code Scanner: /, '') };
        shown.set(keyOf(d.name, options.input), plan.confirmation.digest);
        return { invocationMessage: plan.invocationMessage, confirmationMessages: { title: plan.confirmation.title, message: plan.confirmation.markdown } };
      },
      async invoke(options) {
        const key = keyOf(d.name, options.input);
        const r = await host.run({ tool: d.name, input: (options.input ?? {}) as Record<string, unknown>, agent: EDITOR_AGENT() }, async (c) => {
          // VS Code asked before this call: what is carried out must be what it showed.
          const ok = shown.get(key) === c.digest;
          shown.delete(key);
          return ok || { refused: l10n.t('Refused, nothing done: what would happen changed since it was shown for confirmation. Ask again to see it as it is now.') };
        });
        return text(r.text);
      },
    };
    return [d.name, tool];
  })) as AgentTools;
  // Where the editor has no such API (features.ts says so in the log), agents reach the tools through MCP only.
  const lm = features.lmTools;
  if (lm) for (const [name, tool] of Object.entries(tools)) own(lm.registerTool(name, tool));
  return { tools };
}
