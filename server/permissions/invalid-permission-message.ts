import { permissionFault } from '@gatehouse/engine';

/**
 * The one refusal of a malformed permission string, wherever a list of them is accepted (the
 * roles and members APIs, the CLI's lists, the config's organizationRoles and
 * organizationCreation.permission, policy test files): it names the fault, such as a condition on
 * a wildcard (`posts.*:own`), or the reason a well-formed one cannot be held where it stands.
 */
export const invalidPermissionMessage = (field: string, permission: unknown, fault = permissionFault(permission)): string =>
  `The ${field} field holds an invalid permission: ${JSON.stringify(permission)} (${fault}).`;
