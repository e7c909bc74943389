import type { DataConfig } from '../server/index.js';
import { demoModels } from './demo-models.js';
import { demoPolicies } from './demo-policies.js';

/** The demo application (DESIGN.md 6) as the server's `data` option. */
export const demoData: DataConfig = { models: demoModels, policies: demoPolicies };
