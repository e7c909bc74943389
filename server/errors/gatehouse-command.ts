/**
 * A `gatehouse` command as a message advises the reader to run it. Always through npx: a
 * project's install puts the CLI in its node_modules/.bin, which no shell has on its PATH, and
 * npx runs a global install too (it looks in the global bin folder when the project has none),
 * so one spelling works for every install without guessing which one printed the message.
 */
export const gatehouseCommand = (command: string): string => `npx gatehouse ${command}`;
