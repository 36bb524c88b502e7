#!/usr/bin/env node
/**
 * CDK app: `npx cdk synth` (bundles every Lambda entry) or, while entries are missing or offline,
 * `npx cdk synth -c skipBundling=true` (placeholder code, see lib/constructs/service-function.ts).
 *
 * Context (all optional): stackNamePrefix, account, region (else CDK_DEFAULT_ACCOUNT/REGION),
 * skipBundling, logLevel, metricsNamespace, graphApiBaseUrl, graphApiVersion, upstreamTimeoutMs,
 * stageRateLimit, stageBurstLimit, environment, alarmEmail, wafApiRateLimit, wafWebhookRateLimit,
 * wafKeyGenerationRateLimit, scheduleMinLeadSeconds (docs/OPERATIONS.md), skipFirewall (LocalStack only, docs/TESTING.md).
 */
import { App } from 'aws-cdk-lib';
import { createPlatform } from '../lib/platform';
import { readSettings } from '../lib/settings';

const app = new App();
createPlatform(app, readSettings(app.node));
app.synth();
