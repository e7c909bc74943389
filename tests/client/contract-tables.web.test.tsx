// @vitest-environment jsdom
import '../../client/index.js';
import { describeContractTables } from './support/contract-tables.js';
import { webPlatform } from './support/platforms.js';

describeContractTables(webPlatform);
