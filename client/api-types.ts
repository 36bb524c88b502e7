/**
 * Hand-written stand-in, in openapi-typescript's shape, for the operations the CLI uses, until the
 * OpenAPI document exists; `npm run client:generate` replaces this file.
 */
type Envelope<Data> = { status: boolean; status_code: number; message: string; data: Data };
type ErrorEnvelope = Envelope<{ error?: { code?: string; message?: string } } & Record<string, unknown>> & { retryAfterSeconds?: number };
type JobSummary = Record<string, unknown> & { sent: number; failed: number; unknown: number; pending: number; chunksDone: number; chunksTotal: number };
type ErrorResponses = {
  default: { headers: { [name: string]: unknown }; content: { 'application/json': ErrorEnvelope } };
};

export interface paths {
  '/broadcast/public/templates': {
    get: {
      parameters: { query: { phone_number: string } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': Envelope<Array<{ name: string; status: string; category: string; language: string; components: Array<{ type: string; text?: string }> }>> } };
      } & ErrorResponses;
    };
  };
  '/broadcast/public/send-template-broadcast': {
    post: {
      parameters: { header?: { 'Idempotency-Key'?: string } };
      requestBody: {
        content: {
          'application/json': {
            broadcastName: string;
            fromPhoneNumber: string;
            templateName: string;
            templateLanguage: string;
            templateType: string;
            templateId?: string;
            scheduledAt?: string;
            globalTemplateParams?: string[];
            data: Array<{ countryCode: string; toPhoneNumber: string; templateParams?: string[] }>;
          };
        };
      };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': Envelope<Record<string, never>> } };
        202: { headers: { [name: string]: unknown }; content: { 'application/json': Envelope<{ jobId: string; status: string; totalRecipients: number; chunkSize: number; totalChunks: number; scheduledAt?: string }> } };
      } & ErrorResponses;
    };
  };
  '/broadcast/public/status/{jobId}': {
    get: {
      parameters: { path: { jobId: string } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': Envelope<{ jobId: string; status: string; totalRecipients: number; totalChunks: number; summary: JobSummary }> } };
      } & ErrorResponses;
    };
  };
  '/broadcast/public/broadcasts/{jobId}/recipients': {
    get: {
      parameters: { path: { jobId: string }; query?: { status?: string; limit?: number; cursor?: string; format?: 'json' | 'csv' } };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'text/csv': string; 'application/json': Envelope<{ recipients: Array<Record<string, unknown>>; nextCursor: string | null }> } };
      } & ErrorResponses;
    };
  };
}
