/**
 * Rule as a test: every SendMessage and SendMessageBatch the SQS adapters make passes a
 * `MessageGroupId` (SQS fair queues: the message's tenant, shared/adapters/sqs/message-group.ts).
 * A SendMessageCommand names it in its own input; a SendMessageBatchCommand's entries are built in
 * the same function, which must set it. Every file that sends imports the one group rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { projectRoot } from './import-graph';

const SEND_COMMANDS = new Set(['SendMessageCommand', 'SendMessageBatchCommand']);
const ADAPTERS = 'shared/adapters/sqs';

const hasGroupProperty = (node: ts.Node): boolean => {
  let found = false;
  const visit = (child: ts.Node): void => {
    if (found) return;
    if (ts.isPropertyAssignment(child) && ts.isIdentifier(child.name) && child.name.text === 'MessageGroupId') found = true;
    else ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
};

const enclosingFunction = (node: ts.Node): ts.Node => {
  for (let current = node.parent; current; current = current.parent) if (ts.isFunctionLike(current)) return current;
  return node.getSourceFile();
};

/** The sends of one source file without a group, as `file:line Command`; also a sending file that does not import the rule. */
function sendsWithoutGroup(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const offences: string[] = [];
  let sends = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && SEND_COMMANDS.has(node.expression.text)) {
      sends += 1;
      const input = node.arguments?.[0];
      const scope = node.expression.text === 'SendMessageCommand' ? input : enclosingFunction(node);
      if (!scope || !hasGroupProperty(scope))
        offences.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.expression.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (sends > 0 && !/import\s*{[^}]*\bmessageGroupIdOf\b[^}]*}\s*from\s*'\.\/message-group'/.test(text))
    offences.push(`${file} does not import messageGroupIdOf from ./message-group`);
  return offences;
}

describe('SQS sends carry a MessageGroupId', () => {
  const files = readdirSync(join(projectRoot, ADAPTERS)).filter((name) => name.endsWith('.ts'));

  test('every SendMessage and SendMessageBatch in shared/adapters/sqs passes one', () => {
    const sending = files.filter((name) => /new SendMessage(Batch)?Command\(/.test(readFileSync(join(projectRoot, ADAPTERS, name), 'utf8')));
    expect(sending.sort()).toEqual(['sqs-customer-event-queue.ts', 'sqs-expansion-queue.ts', 'sqs-meta-events.ts', 'sqs-outbound-queue.ts']);
    expect(files.flatMap((name) => sendsWithoutGroup(`${ADAPTERS}/${name}`, readFileSync(join(projectRoot, ADAPTERS, name), 'utf8')))).toEqual([]);
  });

  test('no SQS send outside the adapters (bench and test code aside)', () => {
    const offenders: string[] = [];
    const walk = (folder: string): void => {
      for (const entry of readdirSync(join(projectRoot, folder), { withFileTypes: true })) {
        const path = `${folder}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else if (
          path.endsWith('.ts') &&
          !path.startsWith(`${ADAPTERS}/`) &&
          /new SendMessage(Batch)?Command\(/.test(readFileSync(join(projectRoot, path), 'utf8'))
        )
          offenders.push(path);
      }
    };
    for (const folder of ['shared', 'functions', 'local', 'scripts']) walk(folder);
    expect(offenders).toEqual([]);
  });

  test('the rule can fail: a send without a group, and a batch whose entries lack one, are reported', () => {
    const text = [
      "import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';",
      "import { messageGroupIdOf } from './message-group';",
      'export async function one(sqs: any) {',
      "  await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'b' }));",
      '}',
      'export async function many(sqs: any, bodies: string[]) {',
      '  const entries = bodies.map((body, i) => ({ Id: String(i), MessageBody: body }));',
      "  await sqs.send(new SendMessageBatchCommand({ QueueUrl: 'q', Entries: entries }));",
      '}',
      'export async function grouped(sqs: any) {',
      "  await sqs.send(new SendMessageCommand({ QueueUrl: 'q', MessageBody: 'b', MessageGroupId: messageGroupIdOf('org_1') }));",
      '}',
    ].join('\n');
    expect(sendsWithoutGroup('stray.ts', text)).toEqual(['stray.ts:4 SendMessageCommand', 'stray.ts:8 SendMessageBatchCommand']);
    const withoutImport =
      "import { SendMessageCommand } from '@aws-sdk/client-sqs';\nnew SendMessageCommand({ QueueUrl: 'q', MessageBody: 'b', MessageGroupId: 'org_1' });";
    expect(sendsWithoutGroup('stray.ts', withoutImport)).toEqual(['stray.ts does not import messageGroupIdOf from ./message-group']);
  });
});
