// Numbers as people read them: durations in the unit that fits, rates in k/M. Used by the CLI's
// lines, `compare`'s tables and the reports.

/** `ns` as "812.0 ns", "1.23 µs", "45.60 ms" (the reports' unit, kept stable for their tables). */
export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(1)} ns`;
}

/** A rate as "812/s", "81.2k/s", "1.23M/s". */
export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${significant(perSecond / 1e6)}M/s`;
  if (perSecond >= 1e3) return `${significant(perSecond / 1e3)}k/s`;
  return `${significant(perSecond)}/s`;
}

/** Three significant digits, no exponent ("812", "81.2", "8.12"). */
function significant(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** "2.31x faster" or "1.20x slower", from the time ratio other / subject. */
export function speedWords(subjectNs: number, otherNs: number): string {
  const ratio = otherNs / subjectNs;
  return ratio >= 1 ? `${ratio.toFixed(2)}x faster` : `${(1 / ratio).toFixed(2)}x slower`;
}
