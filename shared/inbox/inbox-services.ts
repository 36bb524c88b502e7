/**
 * The inbox use cases bound to their ports: what the v1-inbox handlers call. Built by
 * functions/composition.ts. Ports are read at call time, so lazy getters cost nothing until used.
 */
import { createContact, getContact, listContacts, type CreateContactInput, type Page, type PageRequest } from './contact-use-cases';
import {
  createConversation,
  getConversation,
  listConversations,
  setConversationStatus,
  type ConversationPorts,
  type CreateConversationInput,
} from './conversation-use-cases';
import type { ContactBook } from './contact-book';
import type { Contact, ContactFilter, Conversation, ConversationFilter, ConversationStatus } from './inbox-entities';
import { addOptOut, listOptOuts, removeOptOut, type OptOut, type OptOutRepository } from './opt-outs';

export interface InboxServices {
  createContact(input: CreateContactInput): Promise<Contact>;
  getContact(organizationId: string, contactId: string): Promise<Contact>;
  listContacts(input: { organizationId: string; filter: ContactFilter } & PageRequest): Promise<Page<Contact>>;
  createConversation(input: CreateConversationInput): Promise<{ conversation: Conversation; created: boolean }>;
  getConversation(organizationId: string, conversationId: string): Promise<Conversation>;
  listConversations(input: { organizationId: string; filter: ConversationFilter } & PageRequest): Promise<Page<Conversation>>;
  setConversationStatus(input: { organizationId: string; conversationId: string; status: ConversationStatus }): Promise<Conversation>;
  listOptOuts(input: { organizationId: string } & PageRequest): Promise<Page<OptOut>>;
  /** Source `api` unless an operator adds it (the admin CLI: `operator`). */
  addOptOut(input: { organizationId: string; phoneNumber: string; source?: 'api' | 'operator' }): Promise<{ optOut: OptOut; created: boolean }>;
  removeOptOut(organizationId: string, phoneNumber: string): Promise<void>;
}

export function bindInboxServices(ports: ConversationPorts & { optOuts: OptOutRepository; contactBook?: Pick<ContactBook, 'pairOf'> }): InboxServices {
  return {
    createContact: (input) => createContact(ports, input),
    getContact: (organizationId, contactId) => getContact(ports, organizationId, contactId),
    listContacts: (input) => listContacts(ports, input),
    createConversation: (input) => createConversation(ports, input),
    getConversation: (organizationId, conversationId) => getConversation(ports, organizationId, conversationId),
    listConversations: (input) => listConversations(ports, input),
    setConversationStatus: (input) => setConversationStatus(ports, input),
    listOptOuts: (input) => listOptOuts(ports, input),
    addOptOut: ({ source = 'api', ...input }) => addOptOut(ports, { ...input, source }),
    removeOptOut: (organizationId, phoneNumber) => removeOptOut(ports, organizationId, phoneNumber),
  };
}
