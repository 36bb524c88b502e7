/**
 * Jest's order with the longest suites first, also in a fresh clone. Jest runs the suites it has
 * timings for longest first, but CI starts without them and jest then orders by file size; the
 * slowest suites are small files, so one of them could start last and run alone on one of the
 * workers at the end. These start first (longest first, from the fresh-clone run of 2026-12-04 07:20
 * with three workers); the rest keep jest's order. A missing entry only loses its place.
 */
const Sequencer = require('@jest/test-sequencer').default;

const SLOWEST = [
  'test/integration/outcomes/campaign-outcomes.test.ts',
  'test/integration/campaigns/campaign-controls.test.ts',
  'test/integration/delivery/template-events-and-pricing.test.ts',
  'test/integration/console/console-browser.test.ts',
  'test/integration/local/start-command.test.ts',
  'test/integration/broadcast/template-pause.test.ts',
  'test/integration/broadcast/delivery-faults.test.ts',
  'test/integration/campaigns/campaign-run.test.ts',
  'test/integration/send-rules/respect.test.ts',
  'test/cdk/nag.test.ts',
  'test/unit/scale/scale-simulation.test.ts',
  'test/cdk/bundling-and-settings.test.ts',
  'test/integration/console/console-people-browser.test.ts',
  'test/integration/send-rules/canary.test.ts',
  'test/integration/hardening/route-fuzz.test.ts',
];

class SlowSuitesFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = SLOWEST.findIndex((suffix) => test.path.replace(/\\/g, '/').endsWith(suffix));
      return index === -1 ? SLOWEST.length : index;
    };
    return super
      .sort(tests)
      .map((test, order) => ({ test, order }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.order - b.order)
      .map(({ test }) => test);
  }
}

module.exports = SlowSuitesFirstSequencer;
