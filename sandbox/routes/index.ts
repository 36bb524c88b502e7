/**
 * The Graph routing table: every route the sandbox serves, one module per capability. The
 * README's route table is checked against this list by the tests, so they cannot drift apart.
 */
import { administrationRoutes } from './administration';
import { analyticsRoutes } from './analytics';
import { automationRoutes } from './automation';
import { businessAccountRoutes } from './business-account';
import { businessProfileRoutes } from './business-profile';
import { downloadFlowAsset, FLOW_ASSET_PATH, flowRoutes } from './flows';
import { downloadMedia, MEDIA_DOWNLOAD_PATH, mediaRoutes } from './media';
import { messagingRoutes } from './messaging';
import { phoneNumberRoutes } from './phone-numbers';
import { downloadQrImage, QR_IMAGE_PATH, qrCodeRoutes } from './qr-codes';
import type { GraphDependencies, GraphOutcome, GraphRequest, GraphRoute } from './route-kit';
import { templateLibraryRoutes } from './template-library';
import { templateMigrationRoutes } from './template-migration';
import { templateRoutes } from './templates';

export const GRAPH_ROUTES: readonly GraphRoute[] = [
  ...phoneNumberRoutes,
  ...messagingRoutes,
  ...templateRoutes,
  ...templateMigrationRoutes,
  ...templateLibraryRoutes,
  ...mediaRoutes,
  ...businessProfileRoutes,
  ...analyticsRoutes,
  ...flowRoutes,
  ...qrCodeRoutes,
  ...automationRoutes,
  ...administrationRoutes,
  ...businessAccountRoutes,
];

/** A QR image is drawn asynchronously (the `qrcode` package), hence the promise. */
export type DownloadHandler = (request: GraphRequest, token: string | undefined, deps: GraphDependencies) => GraphOutcome | Promise<GraphOutcome>;

/**
 * URLs the sandbox hands out for bytes, outside the versioned Graph paths as Meta's CDN URLs
 * are. Media needs the owner's Bearer token; QR images and flow JSON are public signed URLs.
 */
export const DOWNLOAD_ROUTES: ReadonlyArray<[prefix: string, handler: DownloadHandler]> = [
  [MEDIA_DOWNLOAD_PATH, downloadMedia],
  [QR_IMAGE_PATH, downloadQrImage],
  [FLOW_ASSET_PATH, downloadFlowAsset],
];
