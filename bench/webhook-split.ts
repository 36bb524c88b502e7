/**
 * The CPU the meta-webhook function spends on a 4 MiB signed batch: the whole intake
 * (`acceptMetaEvents`: signature over the raw body, split into queue messages, each encoded)
 * against an in-memory queue, so only this process's CPU is counted (process.cpuUsage: user +
 * system). Two shapes at the 4 MiB cap: inbound messages from distinct users with BSUID contacts
 * (the shape a splitter copying `contacts` could not queue) and statuses. Sizes the function's
 * memory (docs/PERFORMANCE.md "4j"): Lambda gives CPU in proportion to
 * memory, one full vCPU at 1,769 MB.
 *
 * `npm run bench -- --only=split` (about a minute on a loaded 2-core machine, mostly building the batches). Alone: `npx tsx bench/webhook-split.ts`.
 */
import { MAX_WEBHOOK_BODY_BYTES, acceptMetaEvents } from '../shared/meta-app/webhook-intake';
import { signWebhookBody } from '../shared/meta-app/webhook-signature';
import { largeInboundBatch } from '../test/support/large-inbound-batch';

export interface SplitShapeResult {
  shape: string;
  bodyBytes: number;
  parts: number;
  /** CPU per batch (ms), median / max of the measured runs. */
  cpuMedianMs: number;
  cpuMaxMs: number;
  /** Largest queue message written (bytes). */
  largestMessageBytes: number;
}

export interface SplitBenchResult {
  runs: number;
  shapes: SplitShapeResult[];
}

const appSecret = 'bench-split-secret';

function statusBatchOf(targetBytes: number): string {
  const status = (i: number) => ({
    id: `wamid.HBgLMTU1NTEyMzQ1NjcVAgARGBI${i.toString(16).padStart(12, '0')}`,
    status: 'delivered',
    timestamp: String(1_767_225_600 + i),
    recipient_id: `55119${String(i).padStart(8, '0')}`,
    recipient_user_id: `BR.a${String(i).padStart(8, '0')}k7Q2k7Q2k7Q`,
    biz_opaque_callback_data: `b1:pub_bench_split_job:${Math.floor(i / 1000)}:${i % 1000}`,
    pricing: { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' },
  });
  const count = Math.floor(targetBytes / (JSON.stringify(status(99_999)).length + 1));
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
    statuses: Array.from({ length: count }, (_, i) => status(i)),
  };
  return JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', changes: [{ field: 'messages', value }] }] });
}

async function measureShape(shape: string, raw: string, runs: number): Promise<SplitShapeResult> {
  const rawBody = Buffer.from(raw);
  if (rawBody.length > MAX_WEBHOOK_BODY_BYTES) throw new Error(`${shape}: ${rawBody.length} bytes is over the cap`);
  const signature = signWebhookBody(rawBody, appSecret);
  const metaApp = { load: async () => ({ appSecret, verifyToken: 'bench' }) };
  let largest = 0;
  let parts = 0;
  const metaEvents = {
    send: async (message: string) => {
      largest = Math.max(largest, Buffer.byteLength(message));
    },
  };
  const cpu: number[] = [];
  // Two unmeasured runs first (JIT), then `runs` measured ones.
  for (let run = -2; run < runs; run += 1) {
    const before = process.cpuUsage();
    parts = (await acceptMetaEvents({ metaApp, metaEvents }, { rawBody, signature, receivedAt: new Date() })).parts;
    const used = process.cpuUsage(before);
    if (run >= 0) cpu.push((used.user + used.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  return {
    shape,
    bodyBytes: rawBody.length,
    parts,
    cpuMedianMs: cpu[Math.floor(cpu.length / 2)]!,
    cpuMaxMs: cpu[cpu.length - 1]!,
    largestMessageBytes: largest,
  };
}

/**
 * @example const result = await benchWebhookSplit({ runs: 10 }); // result.shapes[0].cpuMedianMs
 */
export async function benchWebhookSplit(options: { runs?: number } = {}): Promise<SplitBenchResult> {
  const runs = options.runs ?? 5;
  const cap = MAX_WEBHOOK_BODY_BYTES - 1024;
  const inbound = JSON.stringify(largeInboundBatch({ messages: 2_500, targetBytes: cap - 4096 }));
  const inboundBsuidOnly = JSON.stringify(largeInboundBatch({ messages: 10_000, targetBytes: cap - 4096, withPhone: false }));
  return {
    runs,
    shapes: [
      await measureShape('2,500 inbound messages, 2,500 contacts (number + BSUID)', inbound, runs),
      await measureShape('10,000 inbound messages, 10,000 contacts (BSUID only)', inboundBsuidOnly, runs),
      await measureShape('statuses only (one change)', statusBatchOf(cap - 4096), runs),
    ],
  };
}

if (require.main === module) {
  void benchWebhookSplit().then((result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`));
}
