// How a ratio is printed beside its target: with as many decimals as it takes for the
// figure not to read as the target itself when the verdict says otherwise ("1.20x ... NOT
// met" was a median just over 1.2).

/** `ratio` with two decimals, or up to four when two would round it onto `target`. */
export function ratioAgainst(ratio: number, target: number): string {
  for (let decimals = 2; decimals < 4; decimals++) {
    const shown = ratio.toFixed(decimals);
    if ((Number(shown) <= target) === (ratio <= target)) return shown;
  }
  return ratio.toFixed(4);
}

/** Each round's ratio, two decimals, in the order the rounds ran. */
export function roundRatios(ours: readonly number[], reference: readonly number[]): string {
  return ours.map((x, i) => (x / reference[i]).toFixed(2)).join(', ');
}
