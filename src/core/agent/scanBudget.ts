// How many scans agents may start: a few a minute, so a loop of an agent does not spend the
// person's request budget; one budget for this editor whoever asks. Not per agent: an agent
// names itself, and a new name each call would be a new budget.
import { l10n } from '../text/l10n';

export const AGENT_SCANS_PER_MINUTE = 3;
const MINUTE_MS = 60_000;

export class ScanBudget {
  private readonly started: number[] = [];

  constructor(private readonly perMinute = AGENT_SCANS_PER_MINUTE) {}

  /** A sentence when the budget is spent, with when the next scan may start; undefined when one may start now. */
  refusal(now = Date.now()): string | undefined {
    while (this.started.length && now - this.started[0]! > MINUTE_MS) this.started.shift();
    if (this.started.length < this.perMinute) return undefined;
    const wait = Math.ceil((MINUTE_MS - (now - this.started[0]!)) / 1000);
    return l10n.t('The limit of {0} agent scans a minute is reached: the next one can start in {1} s. Fix what the last scan found first, and scan again when you have changed something.', this.perMinute, wait);
  }

  /** A scan started. */
  spend(now = Date.now()): void {
    this.started.push(now);
  }
}
