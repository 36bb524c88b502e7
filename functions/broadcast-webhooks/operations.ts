/** The group's operations by manifest name (apart from the Lambda entry, so tests can run them on fakes). */
import { deleteWebhook, listWebhooks, redeliverWebhook, registerWebhook, testWebhook } from './webhooks.handler';

export const webhookOperations = { registerWebhook, listWebhooks, deleteWebhook, testWebhook, redeliverWebhook };
