/** combinePorts: one object answering several ports, each method bound to the part that has it. */
import { combinePorts } from '../../../shared/ports/combine-ports';

interface Counter {
  increment(): number;
}
interface Reader {
  read(): string;
}

class CountingPart implements Counter {
  private count = 0;
  increment(): number {
    this.count += 1;
    return this.count;
  }
}

class ReadingPart implements Reader {
  constructor(private readonly text: string) {}
  read(): string {
    return this.helper();
  }
  private helper(): string {
    return this.text;
  }
  get computed(): string {
    throw new Error('an accessor is never read');
  }
}

describe('combinePorts', () => {
  test('answers every part’s methods (class methods and own functions), each bound to its part', () => {
    const counter: Counter = new CountingPart();
    const reader: Reader = new ReadingPart('hello');
    const own = { shout: (text: string) => text.toUpperCase() };
    const combined = combinePorts(counter, reader, own);
    expect([combined.increment(), combined.increment()]).toEqual([1, 2]);
    expect(counter.increment()).toBe(3);
    expect(combined.read()).toBe('hello');
    expect(combined.shout('a')).toBe('A');
  });

  test('a method several parts have is the last part’s; accessors are not read', () => {
    const inner: Reader = new ReadingPart('stored');
    const wrapper: Reader = { read: () => `cached ${inner.read()}` };
    expect(combinePorts(inner, wrapper).read()).toBe('cached stored');
    expect(combinePorts(wrapper, inner).read()).toBe('stored');
  });

  test('an object made from another (Object.create) answers its own overrides and the rest of its prototype', () => {
    const base: Reader & Counter = combinePorts(new ReadingPart('base') as Reader, new CountingPart() as Counter);
    const derived: Reader & Counter = Object.create(base);
    derived.read = () => 'derived';
    const combined = combinePorts(derived);
    expect(combined.read()).toBe('derived');
    expect(combined.increment()).toBe(1);
  });
});
