/**
 * The size rule of the coding rules, measured with the TypeScript compiler API: a file's lines and
 * each function's lines (declarations, methods, arrow functions, function expressions,
 * constructors, get/set accessors), from the line of its first token to the line of its last.
 * A nested function counts in its own right and inside the function that holds it, as a reader
 * meets both.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { projectRoot } from './import-graph';

export const MAX_FILE_LINES = 350;
export const MAX_FUNCTION_LINES = 80;

export interface SizeOffence {
  file: string;
  /** Absent for a file over the limit; `name (line N)` for a function. */
  function?: string;
  lines: number;
}

/** Lines of a source text as an editor numbers them (a final newline ends the last line). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split(/\r\n|\r|\n/).length;
  return /(\r\n|\r|\n)$/.test(text) ? lines - 1 : lines;
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** A readable name: the declared one, else the variable, property or argument position holding it. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const prefix = ts.isGetAccessorDeclaration(node) ? 'get ' : ts.isSetAccessorDeclaration(node) ? 'set ' : '';
  if (node.name !== undefined && !ts.isComputedPropertyName(node.name)) return prefix + node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `<function passed to ${parent.expression.getText().slice(0, 40)}>`;
  return '<anonymous function>';
}

/**
 * Every offence of one source text: the file when over `maxFileLines`, each function over
 * `maxFunctionLines`.
 *
 * @example
 * checkSource('big.ts', source).map(({ function: fn, lines }) => `${fn ?? 'file'}: ${lines}`)
 */
export function checkSource(file: string, text: string, limits = { maxFileLines: MAX_FILE_LINES, maxFunctionLines: MAX_FUNCTION_LINES }): SizeOffence[] {
  const offences: SizeOffence[] = [];
  const fileLines = lineCount(text);
  if (fileLines > limits.maxFileLines) offences.push({ file, lines: fileLines });
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limits.maxFunctionLines) offences.push({ file, function: `${functionName(node)} (line ${first + 1})`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return offences;
}

/** Project-relative `.ts` files (not `.d.ts`) under the given project folders. */
export function typeScriptFilesUnder(folders: readonly string[]): string[] {
  const walk = (folder: string): string[] => {
    const absolute = join(projectRoot, folder);
    if (!existsSync(absolute) || !statSync(absolute).isDirectory()) return [];
    return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(projectRoot, join(projectRoot, path))] : [];
    });
  };
  return folders.flatMap(walk).sort();
}

/** The offences of project files, read from disk. */
export function checkFiles(files: readonly string[]): SizeOffence[] {
  return files.flatMap((file) => checkSource(file, readFileSync(join(projectRoot, file), 'utf8')));
}

/** One line per offence, for a failure message that names the file, the function and the count. */
export function describeOffence(offence: SizeOffence): string {
  return offence.function === undefined
    ? `${offence.file}: ${offence.lines} lines (file limit ${MAX_FILE_LINES})`
    : `${offence.file}: ${offence.function} has ${offence.lines} lines (function limit ${MAX_FUNCTION_LINES})`;
}
