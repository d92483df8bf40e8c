// Fix with Chat: the prompt handed to the editor's chat for one finding. Our own words say
// what to do; everything the service or the repository wrote (names, reasoning, the
// suggested diff, the file's current line) goes inside the untrusted-data envelope the
// agent tools use, so it cannot pose as instructions, and chat syntax in it is made inert
// (inertInChat). Bounded, so a huge diff or line cannot flood the chat: what is cut says so.
import { currentLine, normalizeUrgency, type StoredIssue } from '../issues';
import { untrustedEnvelope } from './toolText';

/** Longest prompt handed to the chat. */
export const MAX_CHAT_PROMPT_CHARS = 12_000;
/** Longest suggested diff inside it. */
const MAX_DIFF_CHARS = 6_000;
/** Longest text of any other field. */
const MAX_FIELD_CHARS = 1_500;
/** Lines of the file around the finding, as it is now. */
const CONTEXT_LINES = 6;

function cut(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined;
  return text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters left out]` : text;
}

/**
 * The chat input acts on `#name` (a file or a tool: `#file:…`, `#fetch`,
 * `#terminalLastCommand`), `@participant` and `/command` where they start the text or follow
 * whitespace (VS Code's chat request parser). A word joiner (U+2060: invisible, and not
 * whitespace) before each such sign leaves it text that the chat only shows.
 */
export function inertInChat(text: string): string {
  return text.replace(/(^|\s)([#@/])/gu, '$1\u2060$2');
}

export interface ChatPromptInput {
  issue: StoredIssue;
  /** The file's text as it is now (an open editor's, else the disk's); undefined when unreadable. */
  currentText?: string;
  /** Why Apply Fix refused, when it did (the code changed since the scan). */
  refusal?: string;
}

/** The lines around the finding, numbered, from the text as it is now. */
function excerpt(text: string, line: number): string {
  const lines = text.split(/\r\n|\r|\n/);
  const from = Math.max(1, line - CONTEXT_LINES);
  const to = Math.min(lines.length, line + CONTEXT_LINES);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`${n === line ? '>' : ' '}${String(n).padStart(5)}  ${(lines[n - 1] ?? '').slice(0, 400)}`);
  return out.join('\n');
}

export function chatFixPrompt(input: ChatPromptInput): string {
  const { issue } = input;
  const line = currentLine(issue);
  const ours = [
    // The path is the service's text too: it stays in the data, not in our sentence.
    'Fix one code scanning finding in this workspace.',
    'Its file and line (as the file is now), what the scanner said about it and its suggested fix are in the data below.',
    issue.fix
      ? 'Adapt the suggested fix to the code as it is now: the file may have changed since the scan, so do not apply the diff blindly. Change only what the fix needs, keep the behaviour otherwise, and explain the change.'
      : 'The scanner suggested no fix: propose the smallest change that removes the weakness, keep the behaviour otherwise, and explain it.',
    input.refusal ? 'Applying the suggested diff as it is was refused by the editor, because the code changed since the scan.' : '',
  ].filter(Boolean).join(' ');
  const data = {
    file: issue.path,
    line,
    urgency: normalizeUrgency(issue.urgency),
    classification: { id: issue.classificationId, name: cut(issue.classificationName, 200) },
    description: cut(issue.classificationDescription || undefined, MAX_FIELD_CHARS),
    triage: issue.triageStatus || issue.triageReasoning ? { status: issue.triageStatus, reasoning: cut(issue.triageReasoning, MAX_FIELD_CHARS) } : undefined,
    policies: issue.policies?.length ? issue.policies.slice(0, 10).map((p) => ({ name: p.name, guidance: cut(p.guidance, 400) })) : undefined,
    suggestedFix: issue.fix ? { explanation: cut(issue.fix.explanation, MAX_FIELD_CHARS), diff: cut(issue.fix.diff, MAX_DIFF_CHARS) } : undefined,
    codeNow: input.currentText === undefined ? undefined : excerpt(input.currentText, line),
    editorRefusal: cut(input.refusal, 400),
  };
  // The fields are capped, but escaping can grow text (each `<` becomes six characters):
  // smaller versions follow until one fits, the last with no text of the service's at all.
  const versions = [
    data,
    { ...data, codeNow: cut(data.codeNow, 1_000), description: cut(data.description, 300), suggestedFix: data.suggestedFix && { explanation: cut(issue.fix!.explanation, 300), diff: cut(issue.fix!.diff, 1_500) } },
    { file: data.file, line, urgency: data.urgency, classification: { id: cut(issue.classificationId, 100) }, leftOut: 'the rest was too long for a chat prompt: open the finding\'s details in the editor' },
  ];
  for (const v of versions) {
    const prompt = inertInChat(untrustedEnvelope(ours, v));
    if (prompt.length <= MAX_CHAT_PROMPT_CHARS) return prompt;
  }
  return inertInChat(untrustedEnvelope(ours, { file: cut(data.file, 500), line }));
}
