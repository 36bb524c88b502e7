/** The group's operations by manifest name (apart from the Lambda entry, so tests can run them on fakes). */
import { getMe, invitePerson, listPeople, removePerson, setPersonRole } from './people.handler';

export const peopleOperations = { getMe, listPeople, invitePerson, setPersonRole, removePerson };
