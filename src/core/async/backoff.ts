/**
 * Exponential backoff with jitter: attempt 1 waits about `baseMs`, each further attempt
 * twice as long, capped at `maxMs`. The random half spreads retries of many clients apart
 * so a recovering service is not hit by all of them at once.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs = 30_000, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
