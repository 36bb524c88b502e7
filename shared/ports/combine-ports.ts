/**
 * Ports are narrow (one aggregate each: jobs, the ledger, organizations, credentials, …), but a use
 * case often takes several of them as one dependency (`broadcasts: JobStore & RecipientLedger`).
 * Each port has its own adapter; this builds the one object that answers all of their methods.
 */

/** `A | B` → `A & B`. */
type IntersectionOf<Union> = (Union extends unknown ? (part: Union) => void : never) extends (part: infer Intersection) => void ? Intersection : never;

/**
 * What `combinePorts(...parts)` answers: every method of every part. Class types with private
 * members of the same name intersect to `never`, which would accept anything; such parts must be
 * typed as the ports they implement, and this type says so instead of becoming `never`.
 */
export type CombinedPorts<Parts extends readonly object[]> = [IntersectionOf<Parts[number]>] extends [never]
  ? 'combinePorts: type each part as the port it implements'
  : IntersectionOf<Parts[number]>;

/**
 * One object answering the methods of every part (class instances or plain objects), each call
 * going to the part that has the method, bound to it, so a part's own state and helpers stay its
 * own. A method several parts have is answered by the last of them: a wrapper listed after the
 * parts it wraps (the tenancy read cache) takes over exactly the methods of its port.
 *
 * @example
 * const jobs: JobStore = new DynamoDbJobStore(document, table);
 * const progress: ChunkProgressStore = new DynamoDbChunkProgressStore(document, table);
 * const broadcasts = combinePorts(jobs, progress); // JobStore & ChunkProgressStore
 * await broadcasts.getJob('pub_1'); // DynamoDbJobStore's
 * await broadcasts.getJobProgress('pub_1'); // DynamoDbChunkProgressStore's
 */
export function combinePorts<const Parts extends readonly object[]>(...parts: Parts): CombinedPorts<Parts> {
  const combined: Record<string, unknown> = {};
  for (const part of parts) {
    const methods = part as Record<string, (...args: unknown[]) => unknown>;
    for (const name of methodNamesOf(part)) combined[name] = methods[name]!.bind(part);
  }
  return combined as CombinedPorts<Parts>;
}

/**
 * Names of the functions an object answers: its own and those of its prototypes (class methods),
 * each judged where it is first found, as a property read would find it. Accessors are skipped
 * (reading them could have effects), and so are Object.prototype's methods.
 */
function methodNamesOf(part: object): string[] {
  const seen = new Set<string>(['constructor']);
  const names: string[] = [];
  for (let level: object | null = part; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (typeof Object.getOwnPropertyDescriptor(level, name)?.value === 'function') names.push(name);
    }
  }
  return names;
}
