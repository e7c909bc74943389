import * as client from '@gatehouse/client';
import * as nativeClient from '@gatehouse/client/native';
import * as engine from '@gatehouse/engine';
import * as wire from '@gatehouse/engine/wire';
import * as reexportedClient from 'gatehouse/client';
import * as reexportedNativeClient from 'gatehouse/client/native';
import * as reexportedEngine from 'gatehouse/engine';
import { describe, expect, it } from 'vitest';

// The single-package imports of old are the workspace packages themselves, not copies: an error
// class or a context from one must be the same object as from the other.
describe.each([
  ['gatehouse/engine', reexportedEngine, engine],
  ['gatehouse/client', reexportedClient, client],
  ['gatehouse/client/native', reexportedNativeClient, nativeClient],
])('%s', (_name, reexported, original) => {
  it('exports the very same bindings as its package', () => {
    expect(Object.keys(reexported).sort()).toEqual(Object.keys(original).sort());
    for (const [name, value] of Object.entries(original)) expect(reexported[name as keyof typeof reexported], name).toBe(value);
  });
});

describe('@gatehouse/engine/wire', () => {
  it('is the one home of the wire names, which the engine re-exports as they are', () => {
    expect(wire.WILDCARD).toBe('*');
    expect(wire.ABILITY_OPTIONS).toEqual({ anyAction: 'manage', anySubjectType: 'all' });
    expect(wire.STANDARD_ACTIONS).toEqual(['index', 'show', 'store', 'update', 'destroy', 'trashed', 'restore', 'forceDelete']);
    for (const [name, value] of Object.entries(wire)) expect(engine[name as keyof typeof engine], name).toBe(value);
  });
});
