/**
 * The project's import graph, from tsconfig's `include` folders: every static import, `export … from`,
 * `import type` and literal `import()` between project files (npm packages are leaves). Type-only
 * edges count: a type cycle still couples the modules.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const projectRoot = resolve(__dirname, '../../..');

export interface ImportGraph {
  /** Project-relative file → project-relative files it imports. */
  edges: Map<string, string[]>;
  /** Project-relative file → module specifiers of packages it imports (e.g. `@aws-sdk/client-sqs`). */
  packages: Map<string, string[]>;
}

function includedFolders(): string[] {
  const { config } = ts.readConfigFile(join(projectRoot, 'tsconfig.json'), ts.sys.readFile) as { config: { include: string[] } };
  return config.include;
}

function sourceFilesUnder(folder: string): string[] {
  const absolute = join(projectRoot, folder);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isFile()) return [absolute];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFilesUnder(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [join(projectRoot, path)] : [];
  });
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

export function buildImportGraph(): ImportGraph {
  const edges = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const files = [...new Set(includedFolders().flatMap(sourceFilesUnder))];
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    const external = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      if (fileName.startsWith('.')) {
        const target = resolveRelative(file, fileName);
        if (target) targets.add(relative(projectRoot, target));
      } else {
        external.add(fileName);
      }
    }
    edges.set(relative(projectRoot, file), [...targets].sort());
    packages.set(relative(projectRoot, file), [...external].sort());
  }
  return { edges, packages };
}

/** Strongly connected components of more than one file (or a file importing itself): the import cycles, each sorted. */
export function findCycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];

  const visit = (node: string): void => {
    indexOf.set(node, index);
    lowLink.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, indexOf.get(next)!));
      }
    }
    if (lowLink.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One shortest loop through a component, for a readable failure message (a → b → a). */
export function loopThrough(component: string[], edges: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return component;
}

/** The graph between the modules of `shared/` (its folders): `shared/broadcast` → `shared/upstream` when any file of one imports the other. */
export function sharedModuleGraph(edges: Map<string, string[]>): Map<string, string[]> {
  const moduleOf = (file: string): string | undefined => /^(shared\/[^/]+)\//.exec(file)?.[1];
  const modules = new Map<string, Set<string>>();
  for (const [file, targets] of edges) {
    const from = moduleOf(file);
    if (!from) continue;
    if (!modules.has(from)) modules.set(from, new Set());
    for (const target of targets) {
      const to = moduleOf(target);
      if (to && to !== from) modules.get(from)!.add(to);
    }
  }
  return new Map([...modules].map(([module, targets]) => [module, [...targets].sort()]));
}
