import { APP_ROLE } from '../connection/database.js';
import {
  assertPassword,
  assertRoleName,
  createLoginRole,
  generatePassword,
  grantDatabaseConnect,
  grantGroupRole,
  inspectLoginRole,
  setLoginPassword,
  setLoginStatementTimeout,
} from './login-role.js';
import { inOwnerTransaction } from '../transactions/owner-transaction.js';

/**
 * The service login's own statement_timeout: a backstop for what runs outside a request's
 * transaction (sign-in, the decision log's and the mail queue's writers); a request's transaction
 * sets its own deadline (`requestTimeoutMs`), which wins.
 */
export const SERVICE_STATEMENT_TIMEOUT_MS = 60_000;

export interface AppLogin {
  created: boolean;
  /** Set when no password was given: shown to the operator once, stored nowhere. */
  generatedPassword: string | null;
}

/**
 * Creates (or gives a new password to) a LOGIN role for the service that holds gatehouse_app's
 * privileges and nothing else. A service connecting as the owner can leave gatehouse_app with
 * SET ROLE NONE; one connecting as this login has no other role to go to. It may connect to this
 * database only: roles are cluster-wide, CONNECT is not. Its sessions start with a
 * statement_timeout of SERVICE_STATEMENT_TIMEOUT_MS.
 */
export async function provisionAppLogin(ownerConnectionString: string, role: string, password?: string): Promise<AppLogin> {
  assertRoleName(role);
  if (password !== undefined) assertPassword(password);
  const chosen = password ?? generatePassword();
  const generatedPassword = password === undefined ? chosen : null;
  return inOwnerTransaction(ownerConnectionString, async (client) => {
    const exists = await inspectLoginRole(client, role, APP_ROLE);
    if (exists) {
      await setLoginPassword(client, role, chosen);
      await grantGroupRole(client, role, APP_ROLE);
    } else {
      await createLoginRole(client, role, chosen, APP_ROLE);
    }
    await grantDatabaseConnect(client, role);
    await setLoginStatementTimeout(client, role, SERVICE_STATEMENT_TIMEOUT_MS);
    return { created: !exists, generatedPassword };
  });
}

