/** HTTP vocabulary shared by the route manifest and the upstream route table (pure types, imports nothing). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
