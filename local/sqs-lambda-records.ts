/**
 * Lambda's side of an SQS event source: the `SQSRecord` it builds from a received message, and
 * its rules for a partial batch response (which messages stay on the queue).
 */
import type { Message, MessageAttributeValue } from '@aws-sdk/client-sqs';
import type { SQSMessageAttributes, SQSRecord } from 'aws-lambda';

/** A batch that fails as a whole: a timeout or an invalid partial batch response. */
export class BatchFailure extends Error {
  override name = 'BatchFailure';
}

const toLambdaAttributes = (attributes: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes => {
  const out: SQSMessageAttributes = {};
  if (!attributes) return out;
  for (const [name, value] of Object.entries(attributes)) {
    out[name] = {
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') } : {}),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
      dataType: value.DataType ?? 'String',
    };
  }
  return out;
};

/**
 * The record Lambda hands the function for a received message.
 *
 * @example
 * const event: SQSEvent = { Records: messages.map((message) => toRecord(message, queueArn, 'eu-west-1')) };
 */
export const toRecord = (message: Message, queueArn: string, awsRegion: string): SQSRecord => {
  const a = message.Attributes ?? {};
  const { ApproximateReceiveCount, SentTimestamp, SenderId, ApproximateFirstReceiveTimestamp, ...rest } = a as Record<string, string | undefined>;
  const attributes: SQSRecord['attributes'] = {
    ApproximateReceiveCount: ApproximateReceiveCount ?? '1',
    SentTimestamp: SentTimestamp ?? String(Date.now()),
    SenderId: SenderId ?? '000000000000',
    ApproximateFirstReceiveTimestamp: ApproximateFirstReceiveTimestamp ?? String(Date.now()),
  };
  for (const [name, value] of Object.entries(rest)) {
    if (value !== undefined) (attributes as unknown as Record<string, string>)[name] = value;
  }
  const record: SQSRecord = {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes,
    messageAttributes: toLambdaAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion,
  };
  if (message.MD5OfMessageAttributes) record.md5OfMessageAttributes = message.MD5OfMessageAttributes;
  return record;
};

/**
 * Message ids to keep (not delete) from a partial batch response, by Lambda's rules: a null or
 * empty response or failure list is a full success; a malformed response, or an item identifier
 * that is empty, null or not in the batch, fails the whole batch (throws `BatchFailure`).
 *
 * @example
 * failedIdsOf({ batchItemFailures: [{ itemIdentifier: 'm-2' }] }, new Set(['m-1', 'm-2'])); // Set { 'm-2' }
 */
export const failedIdsOf = (response: unknown, batchIds: ReadonlySet<string>): Set<string> => {
  if (response === undefined || response === null) return new Set();
  if (typeof response !== 'object' || Array.isArray(response)) {
    throw new BatchFailure('Invalid partial batch response: not an object');
  }
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) throw new BatchFailure('Invalid partial batch response: batchItemFailures is not a list');
  const failed = new Set<string>();
  for (const item of failures) {
    const id = typeof item === 'object' && item !== null ? (item as { itemIdentifier?: unknown }).itemIdentifier : undefined;
    if (typeof id !== 'string' || id === '') {
      throw new BatchFailure('Invalid partial batch response: missing or empty itemIdentifier');
    }
    if (!batchIds.has(id)) throw new BatchFailure(`Invalid partial batch response: unknown itemIdentifier ${id}`);
    failed.add(id);
  }
  return failed;
};
