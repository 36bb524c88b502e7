#!/usr/bin/env node
/**
 * CDK app: `npx cdk synth` (bundles every Lambda entry) or, while entries are missing or offline,
 * `npm run synth:unbundled` (-c skipBundling=true into cdk.out.unbundled: placeholder code, see
 * lib/constructs/service-function.ts and lib/unbundled-output.ts).
 *
 * Context (all optional): stackNamePrefix, account, region (else CDK_DEFAULT_ACCOUNT/REGION),
 * skipBundling, logLevel, metricsNamespace, graphApiBaseUrl, graphApiVersion, upstreamTimeoutMs,
 * stageRateLimit, stageBurstLimit, environment, alarmEmail, wafApiRateLimit, wafWebhookRateLimit,
 * wafKeyGenerationRateLimit, scheduleMinLeadSeconds (docs/OPERATIONS.md), skipFirewall (LocalStack only, docs/TESTING.md).
 */
import { App } from 'aws-cdk-lib';
import { createPlatform } from '../lib/platform';
import { readSettings } from '../lib/settings';
import { refuseUnbundledIntoDeployableOutput } from '../lib/unbundled-output';

const app = new App();
const settings = readSettings(app.node);
try {
  refuseUnbundledIntoDeployableOutput(settings.skipBundling, process.env.CDK_OUTDIR);
} catch (error) {
  // The reason and the command to run instead, without a stack trace around them.
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
createPlatform(app, settings);
app.synth();
