/** The Meta webhook's per-POST prices (bench/cost.ts): the front door the contract chose, priced at 1 and 20 statuses per POST. */
import { webhookFrontDoor, webhookPostCost } from '../../../bench/cost';

const frontDoorUsd = (kind: Parameters<typeof webhookPostCost>[0], statusesPerPost: number) => webhookPostCost(kind, statusesPerPost).lines[0]!.usd;

it('prices the front door the runtime contract names for the webhooks surface: an HTTP API', () => {
  expect(webhookFrontDoor).toBe('http-api');
});

it('10,000 recipients x 3 statuses: 30,000 POSTs at one status each, 1,500 at twenty', () => {
  expect(webhookPostCost('http-api', 1).posts).toBe(30_000);
  expect(webhookPostCost('http-api', 20).posts).toBe(1_500);
});

it('front door per 10,000 recipients: REST $0.105 / $0.00525, HTTP API $0.030 / $0.0015, function URL nothing', () => {
  expect(frontDoorUsd('rest-api', 1)).toBeCloseTo(0.105, 6);
  expect(frontDoorUsd('rest-api', 20)).toBeCloseTo(0.00525, 6);
  expect(frontDoorUsd('http-api', 1)).toBeCloseTo(0.03, 6);
  expect(frontDoorUsd('http-api', 20)).toBeCloseTo(0.0015, 6);
  expect(frontDoorUsd('function-url', 1)).toBe(0);
});

it('the rest of the per-POST bill (Lambda requests and GB-s, SQS) is the same whatever the front door', () => {
  const others = (kind: Parameters<typeof webhookPostCost>[0]) => webhookPostCost(kind, 1).lines.slice(1);
  expect(others('http-api')).toEqual(others('rest-api'));
  expect(webhookPostCost('http-api', 1).totalUsd).toBeCloseTo(0.0524, 4);
  expect(webhookPostCost('rest-api', 1).totalUsd - webhookPostCost('http-api', 1).totalUsd).toBeCloseTo(0.075, 6);
});
