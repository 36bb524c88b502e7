/** The most written item (and partition) of every kind, from the request counter's per-key writes (bench/scale-hot-items.ts). */
import type { KeyWrites } from './request-counter';

export interface HotKind {
  /** `table pkPrefix/skPrefix` (a partition: `table pkPrefix`; an index copy ends `(gsiN)`). */
  kind: string;
  partition: boolean;
  /** Distinct keys of this kind written. */
  keys: number;
  hottest: KeyWrites;
  /** The hottest key's writes per 1,000 messages of the job = its writes/s at 1,000 msg/s. */
  writesPer1000Messages: number;
  unitsPer1000Messages: number;
}

/** The most written key of every kind, hottest (writes per message) first. */
export function hottestByKind(keys: readonly KeyWrites[], messages: number): HotKind[] {
  const byKind = new Map<string, { keys: number; hottest: KeyWrites }>();
  for (const key of keys) {
    const id = `${key.partition ? 'P' : 'I'} ${key.kind}`;
    const seen = byKind.get(id);
    if (!seen) byKind.set(id, { keys: 1, hottest: key });
    else {
      seen.keys += 1;
      if (key.writes > seen.hottest.writes || (key.writes === seen.hottest.writes && key.peakWritesPerSecond > seen.hottest.peakWritesPerSecond))
        seen.hottest = key;
    }
  }
  const perThousand = (value: number) => (value / Math.max(1, messages)) * 1000;
  return [...byKind.values()]
    .map(({ keys: count, hottest }) => ({
      kind: hottest.kind,
      partition: hottest.partition,
      keys: count,
      hottest,
      writesPer1000Messages: perThousand(hottest.writes),
      unitsPer1000Messages: perThousand(hottest.writeUnits),
    }))
    .sort((a, b) => b.writesPer1000Messages - a.writesPer1000Messages);
}
