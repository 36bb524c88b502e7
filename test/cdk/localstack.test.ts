/**
 * `-c skipFirewall=true` (npm run deploy:localstack, for LocalStack without WAFv2) leaves out the
 * web ACLs, their associations and their request logs (one log group each) and nothing else;
 * without it every stage keeps its WAF.
 */
import { synthesizePlatform } from './support/platform';

const countsOf = (template: ReturnType<typeof synthesizePlatform>['api']) => {
  const counts = new Map<string, number>();
  for (const resource of Object.values(template.toJSON().Resources as Record<string, { Type: string }>))
    counts.set(resource.Type, (counts.get(resource.Type) ?? 0) + 1);
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
    // Each web ACL logs to a log group of its own (credentials redacted, docs/OPERATIONS.md "WAF").
    const wafLogGroups = protectedCounts.get('AWS::WAFv2::WebACL')!;
    expect(protectedCounts.get('AWS::WAFv2::LoggingConfiguration')).toBe(wafLogGroups);
    for (const [type, count] of protectedCounts) {
      if (type.startsWith('AWS::WAFv2::')) continue;
      expect([type, skippedCounts.get(type)]).toEqual([type, type === 'AWS::Logs::LogGroup' ? count - wafLogGroups : count]);
    }
    expect(skipped.platform.api.firewall).toBeUndefined();
  });
});
