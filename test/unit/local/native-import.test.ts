import { importNativeEsm, loadedByJest } from '../../../local/native-import';

describe('importNativeEsm', () => {
  it('knows it runs inside jest, the one place that needs Node’s own loader', () => {
    expect(loadedByJest()).toBe(true);
  });

  it('loads an ESM-only package (fauxqs) under jest', async () => {
    const fauxqs = await importNativeEsm<typeof import('fauxqs')>('fauxqs');
    expect(typeof fauxqs.startFauxqs).toBe('function');
  });
});
