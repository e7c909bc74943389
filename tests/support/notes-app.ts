// A small application's files, for tests that load an application through the CLI: a notes model
// whose policy lets only a note's author update it, and policy tests that pass only when the CLI
// honours that override (its policies then run on the CLI's own engine).

export const NOTE_POLICY = `class NotePolicy extends ResourcePolicy<{ author_id: number }> {
  override update(user: PolicyUser | null, note: { author_id: number }): boolean {
    return super.update(user, note) && note.author_id === user?.id;
  }
}`;

export const NOTE_POLICY_IMPORTS = "import { ResourcePolicy, type PolicyUser } from '@gatehouse/engine';";

/** The config's body below its imports, with `NotePolicy` in scope. */
export const NOTES_CONFIG = `const notes = defineModel({ slug: 'notes', tenantOwned: true, attributes: { organization_id: 'integer', title: 'string', author_id: 'integer' }, fillable: ['title'], authorColumn: 'author_id' });

export default defineConfig({ organizationRoles: { owner: ['*'], member: ['notes.*'] }, data: { models: [notes], policies: { NotePolicy } } });
`;

export const NOTES_POLICY_TESTS = `principals:
  author: { role: member, id: 1, organization: { id: 1, slug: acme } }
resources:
  own: { model: notes, attributes: { id: 1, organization_id: 1, author_id: 1 } }
  other: { model: notes, attributes: { id: 2, organization_id: 1, author_id: 2 } }
tests:
  - { principal: author, resource: own, actions: { update: allow } }
  - { principal: author, resource: other, actions: { update: deny, show: allow } }
`;

/** The application as two files: `note-policy.ts`, and the `gatehouse.config.ts` that imports it. */
export const NOTE_POLICY_FILE = `${NOTE_POLICY_IMPORTS}\n\nexport ${NOTE_POLICY}\n`;
export const NOTES_CONFIG_FILE = `import { defineConfig, defineModel } from '@gatehouse/server';\nimport { NotePolicy } from './note-policy.js';\n\n${NOTES_CONFIG}`;
