import { Option } from 'commander';

/** `--config`: the application config the command reads, found as loadAppConfig finds it without one. */
export const configOption = () => new Option('--config <file>', 'the application config (default: gatehouse.config.ts|.js|.mjs here, else the demo in a checkout)');

/** `--group`: the route group of a membership the command writes or reads (see membershipGroup). */
export const groupOption = (whose: string) => new Option('--group <name>', `${whose} route group (default: the config's default group with organizations)`);
