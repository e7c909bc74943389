// Runs before every test file. vitest's jsdom environment replaces the global Uint8Array and
// ArrayBuffer with those of its window but leaves TextEncoder, crypto and Buffer to Node, so bytes
// they make fail `instanceof Uint8Array`, which no browser or Node process ever does. The service
// in the end-to-end suites (its token library checks exactly that) would answer 500. Buffer leads
// back to Node's constructors; in the node environment this changes nothing.
globalThis.Uint8Array = Object.getPrototypeOf(Buffer) as Uint8ArrayConstructor;
globalThis.ArrayBuffer = Buffer.alloc(0).buffer.constructor as ArrayBufferConstructor;
