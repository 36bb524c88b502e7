/**
 * Integration project: the test during which an answer contradicted the OpenAPI document fails
 * (answers received in beforeAll count for the first test; anything after the last test fails the file).
 */
import { takeViolations, type ConformanceViolation } from './openapi-conformance';

const report = (violations: ConformanceViolation[]): string =>
  `${violations.length} answer(s) contradict the OpenAPI document (shared/openapi/):\n${violations
    .map((violation) => `- ${violation.method} ${violation.url} → ${violation.status}: ${violation.problem}`)
    .join('\n')}`;

const failOnViolations = (): void => {
  const violations = takeViolations();
  if (violations.length > 0) throw new Error(report(violations));
};

afterEach(failOnViolations);
afterAll(failOnViolations);
