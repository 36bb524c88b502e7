/**
 * cdk-nag's AwsSolutions pack over every stack of the app: no finding that lib/nag-suppressions.ts
 * does not accept with a reason. The same synth runs aws-cdk-lib's built-in CloudFormation
 * validation, off in every other CDK test file (test/cdk/support/platform.ts): it finds nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { synthesizePlatform, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;
let stacks: Stack[];

beforeAll(() => {
  synth = synthesizePlatform(
    {},
    (app) => {
      // logIgnores: suppressed findings are reported as info, so the test can see the checks ran.
      Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true, logIgnores: true }));
      stacks = app.node.children.filter((child): child is Stack => child instanceof Stack);
    },
    { builtinValidation: true },
  );
});

const nagMessages = (stack: Stack, kind: 'findError' | 'findWarning' | 'findInfo') => {
  const annotations = Annotations.fromStack(stack);
  return annotations[kind]('*', Match.stringLikeRegexp('AwsSolutions-.*')).map((message) => `${message.id}: ${String(message.entry.data)}`);
};

describe('cdk-nag AwsSolutions', () => {
  it('checks every stack of the app', () => {
    expect(stacks.map((stack) => stack.stackName).sort()).toEqual(
      [synth.platform.api.stackName, synth.platform.stateful.stackName, synth.platform.operations.stackName].sort(),
    );
  });

  it('finds no unsuppressed error or warning in any stack', () => {
    const findings = stacks.flatMap((stack) => [...nagMessages(stack, 'findError'), ...nagMessages(stack, 'findWarning')]);
    // The findings themselves are the failure message.
    expect(findings).toEqual([]);
  });

  it('really ran: the accepted findings are reported as suppressed, each with its reason', () => {
    const suppressed = stacks.flatMap((stack) => nagMessages(stack, 'findInfo'));
    expect(suppressed.length).toBeGreaterThan(0);
    const rules = new Set(suppressed.map((message) => message.match(/AwsSolutions-[A-Z0-9]+/)?.[0]));
    // The WAF rule (APIG3) is met, not suppressed.
    expect(rules.has('AwsSolutions-APIG3')).toBe(false);
    expect(rules).toEqual(
      new Set([
        'AwsSolutions-L1',
        'AwsSolutions-IAM4',
        'AwsSolutions-IAM5',
        'AwsSolutions-APIG2',
        'AwsSolutions-APIG4',
        'AwsSolutions-COG4',
        'AwsSolutions-COG2',
        'AwsSolutions-COG8',
      ]),
    );
  });

  it("leaves nothing for aws-cdk-lib's built-in CloudFormation validation to report", () => {
    // The app's assembly is cached: this is the synth the templates above came from.
    const assembly = (synth.platform.api.node.root as App).synth();
    const reportFile = path.join(assembly.directory, 'validation-report.json');
    // Written only when the validation ran.
    expect(existsSync(reportFile)).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
      pluginReports: Array<{ pluginName: string; violations: Array<{ ruleName: string; description: string }> }>;
    };
    const violations = report.pluginReports.flatMap((plugin) =>
      plugin.violations.map((violation) => `${plugin.pluginName} ${violation.ruleName}: ${violation.description}`),
    );
    expect(violations).toEqual([]);
  });
});
