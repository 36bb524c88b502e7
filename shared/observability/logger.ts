import { Logger } from '@aws-lambda-powertools/logger';

/**
 * One structured JSON logger per process. Service name and level come from the Powertools
 * environment variables the CDK app sets (POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL).
 * Log facts (route, status, ids, counts), never request bodies, keys or tokens.
 */
export const logger = new Logger({ serviceName: 'whatsapp-broadcast-platform' });
