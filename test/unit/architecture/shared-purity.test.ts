import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildImportGraph, projectRoot } from './import-graph';

/** Domain code takes its ports as arguments: only adapters talk to AWS, only compositions read the environment. */
const graph = buildImportGraph();
const domainFiles = [...graph.edges.keys()].filter((file) => file.startsWith('shared/') && !file.startsWith('shared/adapters/'));
const stripComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe('shared/ outside adapters', () => {
  test('is found', () => {
    expect(domainFiles.length).toBeGreaterThan(50);
  });

  test('imports no AWS SDK package', () => {
    const offenders = domainFiles.flatMap((file) =>
      graph.packages
        .get(file)!
        .filter((name) => name.startsWith('@aws-sdk/'))
        .map((name) => `${file} imports ${name}`),
    );
    expect(offenders).toEqual([]);
  });

  test('reads no process.env', () => {
    const offenders = domainFiles.filter((file) =>
      /\bprocess\s*\.\s*env\b|\bprocess\s*\[\s*['"]env['"]\s*\]/.test(stripComments(readFileSync(join(projectRoot, file), 'utf8'))),
    );
    expect(offenders).toEqual([]);
  });

  test('the checks see an offender (the adapters import the SDK)', () => {
    expect(graph.packages.get('shared/adapters/sqs/sqs-outbound-queue.ts')).toContain('@aws-sdk/client-sqs');
  });
});
