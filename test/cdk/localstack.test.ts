/**
 * `-c skipFirewall=true` (npm run deploy:localstack, for LocalStack without WAFv2) leaves out the
 * web ACLs, their associations and their request logging (configurations and `aws-waf-logs-*`
 * groups) and nothing else; without it every stage keeps its WAF.
 */
import { synthesizePlatform } from './support/platform';

/** Resources by type; WAF's own log groups (`aws-waf-logs-*`, its request logs) count as WAF resources. */
const countsOf = (template: ReturnType<typeof synthesizePlatform>['api']) => {
  const counts = new Map<string, number>();
  for (const resource of Object.values(template.toJSON().Resources as Record<string, { Type: string; Properties?: { LogGroupName?: unknown } }>)) {
    const isWafLog = resource.Type === 'AWS::Logs::LogGroup' && String(resource.Properties?.LogGroupName ?? '').startsWith('aws-waf-logs-');
    const type = isWafLog ? 'AWS::WAFv2::(log group)' : resource.Type;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
};

describe('skipFirewall (LocalStack)', () => {
  it('omits only the WAF web ACLs, associations and request logs', () => {
    const protectedCounts = countsOf(synthesizePlatform().api);
    const skipped = synthesizePlatform({ skipFirewall: 'true' });
    const skippedCounts = countsOf(skipped.api);
    expect(protectedCounts.get('AWS::WAFv2::WebACL')).toBeGreaterThan(0);
    expect(protectedCounts.get('AWS::WAFv2::WebACLAssociation')).toBeGreaterThan(0);
    expect(skippedCounts.get('AWS::WAFv2::WebACL')).toBeUndefined();
    expect(skippedCounts.get('AWS::WAFv2::WebACLAssociation')).toBeUndefined();
    for (const [type, count] of protectedCounts) if (!type.startsWith('AWS::WAFv2::')) expect([type, skippedCounts.get(type)]).toEqual([type, count]);
    expect(skipped.platform.api.firewall).toBeUndefined();
  });
});
