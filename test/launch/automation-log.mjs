// The workbench forwards the extension host's console to window.codeAutomationLog(type,
// args) when it runs extension tests; these helpers turn those calls back into plain
// text and read the mocha summary line that test/integration/index.ts prints last.
import { format } from 'node:util';

/** Plain text of one forwarded console call (printf-style args applied, %c CSS dropped). */
export function formatAutomationLog(type, args) {
  const parts = Array.isArray(args) ? args : [args];
  if (parts.length === 0) return '';
  // mocha colours its check marks when it sees CI=true; logs read better without escapes.
  return format(...parts)
    .replace(/^\[Extension Host\]\s?/, '')
    // eslint-disable-next-line no-control-regex -- terminal colour codes
    .replace(/\x1b\[[0-9;]*m/g, '');
}

// The workbench's own start-up chatter, which arrives through the same channel as the
// suite's output. Shown with CODE_SCANNER_VERBOSE=1.
const NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket \(/,
  /^\[reconnection-grace-time\]/,
  /^Updating additional builtin extensions cache/,
  /^Ignoring fetching additional builtin extensions/,
  /^\[Service Worker\]/,
  /^\[AgentHost:/,
  /^\[AccountPolicyGate\]/,
  /^Timed out waiting for authentication provider 'github'/,
  // A language pack's translations of built-in extensions, looked up in a gallery there is none of offline.
  /^No extension gallery service configured\./,
  // The built-in chat, signed in to nothing, in the window whose chat has a test model.
  /^\[AgentHost\]/,
  /^\[ChatModelSelection\]/,
  /^Migrat(ing|ed) (global|workspace) extension storage from github\.copilot-chat/,
  /^Error while migrating workspace file storage from 'github\.copilot-chat'/,
  /^Unable to create file 'vscode-log:[^']*agentSessionsOutput\.log'/,
];

export function isWorkbenchNoise(text) {
  return NOISE.some((re) => re.test(text));
}

/** { passed, failed } from the last `MOCHA_RESULT passed=N failed=M` line, if any. */
export function parseMochaResult(lines) {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /MOCHA_RESULT passed=(\d+) failed=(\d+)/.exec(lines[i]);
    if (m) return { passed: Number(m[1]), failed: Number(m[2]) };
  }
  return undefined;
}
