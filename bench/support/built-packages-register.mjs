// Loaded with --import by a benchmark server that runs the builds of the checkout in
// BENCH_BUILT_ROOT (a file URL ending in a slash): see built-packages-hooks.mjs.
import { register } from 'node:module';
import process from 'node:process';

register('./built-packages-hooks.mjs', import.meta.url, { data: { root: process.env.BENCH_BUILT_ROOT } });
