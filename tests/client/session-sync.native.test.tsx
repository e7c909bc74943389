// @vitest-environment jsdom
import '../../client/native.js';
import { nativePlatform } from './support/platforms.js';
import { describeInAppSync } from './support/session-sync.js';

describeInAppSync(nativePlatform());
