export type SessionListener = (key: string, value: string | null) => void;

/** The channel that tells every reader of the session that a stored value changed. */
export interface SessionEvents {
  emit(key: string, value: string | null): void;
  subscribe(listener: SessionListener): () => void;
  dispose(): void;
}

export function createMemoryEvents(): SessionEvents {
  const listeners = new Set<SessionListener>();
  return {
    emit(key, value) {
      for (const listener of [...listeners]) listener(key, value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      listeners.clear();
    },
  };
}
