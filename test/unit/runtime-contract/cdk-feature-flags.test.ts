/**
 * Every feature flag of the installed aws-cdk-lib is set in cdk.json on purpose (`cdk synth` then
 * prints no "N feature flags are not configured"). They were set to their default values (`cdk
 * flags --unstable=flags --set --unconfigured --default`), so the templates did not change; a new
 * aws-cdk-lib with new flags fails this test until someone decides them.
 */
import { CURRENT_VERSION_EXPIRED_FLAGS, FLAGS } from 'aws-cdk-lib/cx-api';
import cdkJson from '../../../cdk.json';

describe('CDK feature flags', () => {
  it('are all configured in cdk.json', () => {
    const context = cdkJson.context as Record<string, unknown>;
    const unconfigured = Object.keys(FLAGS).filter((flag) => !(flag in context) && !CURRENT_VERSION_EXPIRED_FLAGS.includes(flag));
    expect(unconfigured).toEqual([]);
  });

  it('keep the strong cross-stack references the stateful stack relies on', () => {
    expect((cdkJson.context as Record<string, unknown>)['@aws-cdk/core:defaultCrossStackReferences']).toBe('strong');
  });
});
