import { displayLanguage, l10n } from './l10n';
// Times and durations in the words a person reads them in.

/** "14:02" for today, "24 Nov 14:02" before (the display language decides the form). */
export function clockTime(iso: string, now: Date): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return l10n.t('an unknown time');
  const time = t.toLocaleTimeString(displayLanguage(), { hour: '2-digit', minute: '2-digit' });
  const sameDay = t.toDateString() === now.toDateString();
  return sameDay ? time : `${t.toLocaleDateString(displayLanguage(), { day: 'numeric', month: 'short' })} ${time}`;
}

/** "40 s", "2 min", "1 h 5 min": how long something has run. */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return l10n.t('{0} s', s);
  const m = Math.floor(s / 60);
  if (m < 60) return l10n.t('{0} min', m);
  return m % 60 ? l10n.t('{0} h {1} min', Math.floor(m / 60), m % 60) : l10n.t('{0} h', Math.floor(m / 60));
}
