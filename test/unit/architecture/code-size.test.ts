import { checkFiles, checkSource, describeOffence, lineCount, typeScriptFilesUnder, type SizeOffence } from './code-size';

/** The folders the size rule covers (the coding rules: files ≤ 350 lines, functions ≤ 80). */
const FOLDERS = ['shared', 'functions', 'local', 'lib', 'console'];

/**
 * Files allowed over the limits, each with its reason. Only pure data tables and generated files
 * belong here; code that grew too long is split by job instead.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  'shared/openapi/response-schemas.ts': 'a data table: the success answer (status, JSON Schema, example) of every operation, one entry each',
  'shared/sending/failure-reasons.ts': 'a data table: one row per Meta error code and platform reason code (retry class, text, action)',
};

const files = typeScriptFilesUnder(FOLDERS);
const offences = checkFiles(files);
const excused = (offence: SizeOffence) => offence.file in EXEMPT;

describe('code size', () => {
  test('covers every folder', () => {
    for (const folder of FOLDERS) expect(files.filter((file) => file.startsWith(`${folder}/`)).length).toBeGreaterThan(5);
  });

  test('no file over 350 lines and no function over 80 lines', () => {
    expect(offences.filter((offence) => !excused(offence)).map(describeOffence)).toEqual([]);
  });

  test('the exempt list names only existing files still over a limit, each with a reason', () => {
    for (const [file, reason] of Object.entries(EXEMPT)) {
      expect(reason.length).toBeGreaterThan(10);
      expect(offences.some((offence) => offence.file === file)).toBe(true);
    }
  });
});

describe('the checker', () => {
  const body = (lines: number) => Array.from({ length: lines - 2 }, (_, index) => `  const v${index} = ${index};`).join('\n');

  test('reports a long file and every kind of long function by name, line and count', () => {
    const source = [
      `export function declared() {\n${body(90)}\n}`,
      `export const arrow = () => {\n${body(81)}\n};`,
      `export const expression = function () {\n${body(85)}\n};`,
      `class Holder {\n  constructor() {\n${body(82)}\n  }\n  method() {\n${body(83)}\n  }\n  get value() {\n${body(84)}\n    return 1;\n  }\n}`,
      `setTimeout(() => {\n${body(86)}\n});`,
      `export function short() {\n${body(80)}\n}`,
    ].join('\n');
    const found = checkSource('synthetic.ts', source).map(describeOffence);
    expect(found).toEqual([
      `synthetic.ts: ${lineCount(source)} lines (file limit 350)`,
      'synthetic.ts: declared (line 1) has 90 lines (function limit 80)',
      'synthetic.ts: arrow (line 91) has 81 lines (function limit 80)',
      'synthetic.ts: expression (line 172) has 85 lines (function limit 80)',
      'synthetic.ts: constructor (line 258) has 82 lines (function limit 80)',
      'synthetic.ts: method (line 340) has 83 lines (function limit 80)',
      'synthetic.ts: get value (line 423) has 85 lines (function limit 80)',
      'synthetic.ts: <function passed to setTimeout> (line 509) has 86 lines (function limit 80)',
    ]);
    expect(lineCount(source)).toBeGreaterThan(350);
  });

  test('passes a file at the limits', () => {
    const atLimit = `export function f() {\n${body(80)}\n}\n${'// filler\n'.repeat(270)}`;
    expect(lineCount(atLimit)).toBe(350);
    expect(checkSource('fine.ts', atLimit)).toEqual([]);
  });
});
