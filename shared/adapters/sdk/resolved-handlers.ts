/**
 * SDK clients whose middleware stack is resolved once per command class instead of on every call
 * (docs/PERFORMANCE.md "SDK per-call cost"): base clients through the SDK's own `cacheMiddleware`
 * option (`withStackCacheReset`), the DynamoDB document client through `withResolvedHandlers`.
 *
 * Why here and not the SDK's own `cacheMiddleware: true`: lib-dynamodb 3.1162 refuses that option
 * (`DynamoDBDocumentClient`'s constructor throws when the base client's config has it), because its
 * commands' `resolveMiddleware` returns `async () => handler(this.clientCommand)`, a handler bound
 * to the first command's input. The handler underneath (`clientCommand.resolveMiddleware`) takes
 * its input as an argument like any base-client handler, and the document marshalling middleware
 * it contains reads the command's key nodes, which are the same for every instance of one class.
 * So this resolves that inner handler once per command class and calls it with each command's own
 * base command: the same middlewares in the same order, the same marshalling, without building and
 * sorting the stack (and the endpoint, serde and marshalling plugins) per call. The option was set
 * aside rather than the base client's config changed, so a `DynamoDBDocumentClient.from` of the same
 * base client elsewhere (the idempotency layer) still builds.
 *
 * A cached handler would not see a middleware added later (a store-fault classifier installed by an
 * adapter built after the first call, the bench's request counter attached mid-run), so every change
 * of the shared stack drops the cached handlers. Calls with per-call options (an abort signal) and
 * commands that are not lib-dynamodb's take the SDK's ordinary path.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { directCallPlan, type DirectCallPlan, type DirectDynamoDbCalls } from './direct-dynamodb-calls';

type Handler = (args: { input: object }) => Promise<{ output: unknown }>;

/** What this module uses of a lib-dynamodb command (protected members in its typings, public in its code). */
interface DocumentCommandShape {
  clientCommand: { input: object; resolveMiddleware(stack: unknown, config: unknown, options: undefined): Handler };
  middlewareStack: unknown;
  addMarshallingMiddleware(config: unknown): void;
}

const isDocumentCommand = (command: unknown): command is DocumentCommandShape =>
  typeof command === 'object' &&
  command !== null &&
  typeof (command as Partial<DocumentCommandShape>).addMarshallingMiddleware === 'function' &&
  typeof (command as Partial<DocumentCommandShape>).clientCommand?.resolveMiddleware === 'function';

const mutators = ['add', 'addRelativeTo', 'use', 'remove', 'removeByTag'] as const;
const installed = new WeakSet<object>();
/** Per middleware stack: the handlers resolved for it, by command class, and the clients whose own caches to drop with them. */
interface StackCache {
  handlers: Map<unknown, Handler>;
  clients: Set<{ handlers?: unknown }>;
  /** Whether calls may go direct on this stack as it is now (direct-dynamodb-calls.ts): null when not yet decided. */
  direct: DirectCallPlan | undefined | null;
}
const cachesByStack = new WeakMap<object, StackCache>();

function cacheOf(stack: object) {
  let cache = cachesByStack.get(stack);
  if (cache) return cache;
  cache = { handlers: new Map(), clients: new Set(), direct: null };
  cachesByStack.set(stack, cache);
  const drop = cache;
  const methods = stack as Record<string, unknown>;
  for (const name of mutators) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    methods[name] = function (this: unknown, ...args: unknown[]) {
      drop.handlers.clear();
      drop.direct = null;
      // The SDK's own per-client cache (only used with `cacheMiddleware`), for the same reason.
      for (const client of drop.clients) delete client.handlers;
      return (original as (...parameters: unknown[]) => unknown).apply(this, args);
    };
  }
  return cache;
}

/**
 * For a base client built with `cacheMiddleware: true`: a later change of its middleware stack (a
 * fault classifier, a tracer, a bench counter or a test's fault injection added after the first
 * call) drops the handlers the SDK cached, so the next call resolves the changed stack.
 * @example
 * const sqs = withStackCacheReset(new SQSClient({ region, cacheMiddleware: true }));
 */
export function withStackCacheReset<T extends { middlewareStack: unknown }>(client: T): T {
  cacheOf(client.middlewareStack as object).clients.add(client as unknown as { handlers?: unknown });
  return client;
}

/**
 * Makes `document.send(command)` reuse one resolved handler per command class; returns the same client.
 * With `direct`, the item operations it supports skip the handler while the stack holds only what
 * the SDK built and the store-fault classifier (direct-dynamodb-calls.ts): checked again after every
 * change of the stack, so a tracer, a test's fault or a bench's counter sees every call.
 * @example
 * const document = withResolvedHandlers(DynamoDBDocumentClient.from(base, translateConfig));
 * await document.send(new GetCommand({ TableName, Key })); // resolved once, then reused
 */
export function withResolvedHandlers<T extends DynamoDBDocumentClient>(document: T, direct?: DirectDynamoDbCalls): T {
  if (installed.has(document)) return document;
  installed.add(document);
  const cache = cacheOf(document.middlewareStack as object);
  cache.clients.add(document as unknown as { handlers?: unknown });
  const ordinarySend = document.send.bind(document) as (...args: unknown[]) => Promise<unknown>;
  const resolvedSend = (command: DocumentCommandShape): Promise<unknown> => {
    const type = (command as object).constructor;
    let handler = cache.handlers.get(type);
    if (!handler) {
      // What the command's own resolveMiddleware does, without binding the handler to this command.
      command.addMarshallingMiddleware(document.config);
      const stack = (document.middlewareStack as unknown as { concat(other: unknown): unknown }).concat(command.middlewareStack);
      handler = command.clientCommand.resolveMiddleware(stack, document.config, undefined);
      cache.handlers.set(type, handler);
    }
    return handler(command.clientCommand).then((result) => result.output);
  };
  const send = (command: unknown, ...rest: unknown[]): Promise<unknown> => {
    if (rest.length > 0 || !isDocumentCommand(command)) return ordinarySend(command, ...rest);
    if (direct?.supports(command)) {
      if (cache.direct === null) cache.direct = directCallPlan(document.middlewareStack as never);
      const plan = cache.direct;
      if (plan) return direct.ready().then((endpoint) => (endpoint ? direct.send(command, endpoint, plan) : resolvedSend(command)));
    }
    return resolvedSend(command);
  };
  Object.defineProperty(document, 'send', { value: send, configurable: true, writable: true });
  return document;
}
