/**
 * What the chunk worker reads and writes for the frequency cap (docs/CAMPAIGNS.md "Frequency caps"),
 * as one flat port so each call is retried like the worker's other store calls: the organization's
 * policy (the cached read), the contact book's pairs (one person across phone and BSUID), and the
 * per-person records.
 */
import type { ContactBook } from '../inbox/contact-book';
import type { ContactPolicyStore, FrequencyCapStore } from './ports';

export interface FrequencyCapPorts extends Pick<ContactPolicyStore, 'policyOf'>, Pick<ContactBook, 'pairsOf'>, FrequencyCapStore {}
