import { Logger } from '@aws-lambda-powertools/logger';
import { maskLogValue } from './log-masking';

/**
 * One structured JSON logger per process. Service name and level come from the Powertools
 * environment variables the CDK app sets (POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL).
 * Log facts (route, status, ids, counts), never request bodies, keys or tokens; the replacer masks
 * phone numbers and secrets in every line anyway (log-masking.ts), so a slip cannot leak them.
 */
export const logger = new Logger({ serviceName: 'whatsapp-broadcast-platform', jsonReplacerFn: maskLogValue });
