/** The group's operations by manifest name (apart from the Lambda entry, so tests can run them on fakes). */
import { createAudience, deleteAudience, getAudience, listAudiences } from './audiences.handler';
import { listMembers } from './list-members.handler';
import { removeMembers, upsertMembers } from './members.handler';

export const audienceOperations = { createAudience, listAudiences, getAudience, deleteAudience, upsertMembers, removeMembers, listMembers };
