// Keeping secrets (the API token, a new integration token) out of every message and log
// line, in the forms a server or a library might echo them: as sent, in another letter
// case, percent-encoded, or inside base64 (an echoed `Authorization: Basic …` header).

const MIN_SECRET_CHARS = 4;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Base64 text that can only come from the secret's bytes, whatever bytes came before it in
 * the encoded data: for each of the three alignments, the encoding minus the groups that
 * mix in neighbouring bytes.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>();
  for (let pad = 0; pad < 3; pad++) {
    for (const url of [false, true]) {
      let b = Buffer.concat([Buffer.alloc(pad), bytes]).toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
      b = b.slice(pad === 0 ? 0 : 4);
      b = b.slice(0, Math.max(0, b.length - 4));
      if (b.length >= 8) out.add(b);
    }
  }
  return [...out];
}

/** Every pattern that gives `secret` away. */
function patternsFor(secret: string): RegExp[] {
  const literal = new Set([encodeURIComponent(secret), secret]);
  const out = [...literal].map((s) => new RegExp(escapeRegExp(s), 'gi'));
  for (const core of base64Cores(secret)) out.push(new RegExp(escapeRegExp(core), 'g'));
  return out;
}

/** Replaces every occurrence of each secret (in every form above) with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const s of [...secrets].sort((x, y) => y.length - x.length)) {
    // Very short strings would mangle ordinary words; real tokens are long.
    if (s.length < MIN_SECRET_CHARS) continue;
    for (const re of patternsFor(s)) out = out.replace(re, '***');
  }
  return out;
}

/** The secrets currently in use, for redacting text that did not pass through the client. */
export class SecretRedactor {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    if (secret && secret.length >= MIN_SECRET_CHARS) this.secrets.add(secret);
  }

  delete(secret: string | undefined): void {
    if (secret) this.secrets.delete(secret);
  }

  apply(text: string): string {
    return this.secrets.size ? redactSecrets(text, [...this.secrets]) : text;
  }
}
