// @vitest-environment jsdom
import '../../client/native.js';
import { describeContractTables } from './support/contract-tables.js';
import { nativePlatform } from './support/platforms.js';

describeContractTables(nativePlatform());
