import { Option } from 'commander';

/** `--config`: the application config the command reads; `otherwise` names what it falls back to without one. */
export const configOption = (otherwise = '') =>
  new Option('--config <file>', `the application config (default: gatehouse.config.ts|.js|.mjs here${otherwise})`);

/** `--config` of a command that checks against the models the server serves: in a checkout without a config, the demo's (see adminApp). */
export const servedAppConfigOption = () => configOption(', else the demo in a checkout');

/** `--group`: the route group of a membership the command writes or reads (see membershipGroup). */
export const groupOption = (whose: string) => new Option('--group <name>', `${whose} route group (default: the config's default group with organizations)`);
