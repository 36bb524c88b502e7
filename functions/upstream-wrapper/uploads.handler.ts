import { upstreamRouteOf } from '../../runtime-contract/upstream-routes';
import type { AuthenticatedCaller, HttpRequest } from '../../shared/http/http-operation';
import { downloadMedia as download, uploadFlowJson as uploadFlow, uploadMedia as upload, type UploadInput } from '../../shared/upstream/media-uploads';
import { wrapperOperation } from './pass-through.handler';

const uploadInput = (request: HttpRequest<AuthenticatedCaller>): UploadInput => ({
  organizationId: request.caller.organizationId,
  pathParameters: request.pathParameters,
  contentType: request.headers['content-type'],
  rawBody: request.rawBody,
});

/** POST /upstream/phone-numbers/{phoneNumberId}/media (multipart): Meta's `{ id }`. */
export const uploadMedia = wrapperOperation(async (request, { upstream }) => {
  const result = await upload(upstream, uploadInput(request));
  return { statusCode: result.status, body: result.body ?? {} };
});

/** POST /upstream/wabas/{wabaId}/flows/{flowId}/assets (multipart): Meta's `{ success, validation_errors }`. */
export const uploadFlowJson = wrapperOperation(async (request, { upstream }) => {
  const result = await uploadFlow(upstream, upstreamRouteOf('uploadFlowJson'), uploadInput(request));
  return { statusCode: result.status, body: result.body ?? {} };
});

/** GET /upstream/phone-numbers/{phoneNumberId}/media/{mediaId}/download: the file, with its Content-Type. */
export const downloadMedia = wrapperOperation(async (request, { upstream }) => {
  const file = await download(upstream, { organizationId: request.caller.organizationId, pathParameters: request.pathParameters });
  return {
    statusCode: 200,
    body: undefined,
    rawBody: file.data,
    headers: { 'Content-Type': file.contentType, ...(file.sha256 ? { 'X-Media-Sha256': file.sha256 } : {}) },
  };
});
