// Rule engine types: a rule reads one source file and reports findings with optional fixes.
export type Language = 'JavaScript' | 'TypeScript' | 'Python';
export type Urgency = 'critical' | 'high' | 'medium' | 'low';

export interface Classification {
  id: string;
  name: string;
  description: string;
}

export interface SourceFile {
  /** Archive-relative, `/`-separated. */
  path: string;
  language: Language;
  text: string;
  /** `text.split('\n')`: a CRLF file's lines keep their '\r', so joining with '\n' gives `text` back. */
  lines: string[];
  /** Same lines with string contents and comments blanked out (same lengths). */
  code: string[];
  /** The line ending the file uses; inserted lines end with it. */
  eol: '\n' | '\r\n';
}

/** Replace `deleteCount` lines starting at 0-based `index` with `insert`. */
export interface LineEdit {
  index: number;
  deleteCount: number;
  insert: string[];
}

export interface RawFinding {
  /** 1-based line of the finding. */
  line: number;
  /** 1-based column. */
  column: number;
  fix?: { edits: LineEdit[]; explanation: string };
  /** Why auto-triage judges this finding a false positive, if it does. */
  falsePositive?: string;
}

export interface Rule {
  id: string;
  languages: Language[];
  classification: Classification;
  /** The service's list it reports to: vulnerabilities go to security, the rest to code quality. */
  list: 'security' | 'quality';
  urgency: Urgency;
  check(file: SourceFile): RawFinding[];
}

export interface Finding {
  ruleId: string;
  list: 'security' | 'quality';
  classification: Classification;
  urgency: Urgency;
  path: string;
  language: Language;
  line: number;
  column: number;
  snippet: string;
  fix?: { diff: string; explanation: string };
  triage: { status: 'valid' | 'false_positive'; reasoning: string };
  /** Route handlers declared in the file (for reachability). */
  endpointCount: number;
}
