import { sql } from 'kysely';
import { fixedStatement } from '../statements/fixed-statement.js';
import type { Executor } from './executor.js';
import type { RequestDeadline } from '../transactions/request-deadline.js';
import { runWithinDeadline } from '../transactions/request-read.js';

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  password_hash: string;
  permissions: string[];
  granted_permissions: string[];
  denied_permissions: string[];
}

const columns = ['id', 'name', 'email', 'password_hash', 'permissions', 'granted_permissions', 'denied_permissions'] as const;

// Emails are unique case-insensitively (users_email_key is on lower(email)).
export async function findUserByEmail(db: Executor, email: string, deadline?: RequestDeadline): Promise<UserRecord | undefined> {
  const [user] = await runWithinDeadline(db, db.selectFrom('users').select(columns).where(sql<string>`lower(email)`, '=', email.toLowerCase()).compile(), deadline);
  return user;
}

// Every request of a non-tenant route group reads its caller's permissions with it.
export const userById = fixedStatement((db: Executor, id: number) => db.selectFrom('users').select(columns).where('id', '=', id));

export async function findUserById(db: Executor, id: number, deadline?: RequestDeadline): Promise<UserRecord | undefined> {
  return (await runWithinDeadline<UserRecord>(db, userById(db, id), deadline))[0];
}

/** `permissions`: the user's own, which non-tenant route groups authorize with; default none. */
export async function createUser(db: Executor, user: { name: string; email: string; passwordHash: string; permissions?: readonly string[] }): Promise<UserRecord> {
  return db
    .insertInto('users')
    .values({ name: user.name, email: user.email, password_hash: user.passwordHash, permissions: [...(user.permissions ?? [])] })
    .returning(columns)
    .executeTakeFirstOrThrow();
}
