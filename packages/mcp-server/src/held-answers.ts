/**
 * What a session's tool calls hold for their answers (their large resmon answers' room,
 * backend/large-answers.ts), by request id, until the answer's frame has left stdout: the session
 * (protocol/sdk.ts) hands each one to the frame's write. An answer the session drops (its opening
 * replayed, a health call that holds nothing) keeps its entry until the session closes.
 */
type Id = string | number;

export function createHeldAnswers() {
  const held = new Map<Id, () => void>();
  let closed = false;
  return {
    /** A call has its outcome: what it holds waits for its frame, or is let go now when none will be written. */
    hold(id: Id, release: (() => void) | undefined, cancelled: boolean): void {
      if (release && (cancelled || closed)) release();
      else if (release) held.set(id, release);
    },
    /** The release for the frame answering `id` (undefined when it holds nothing). */
    take(id: Id | undefined): (() => void) | undefined {
      const release = id === undefined ? undefined : held.get(id);
      if (release) held.delete(id as Id);
      return release;
    },
    /** The session closed: no frame will be written for what is held. */
    letGoAll(): void {
      closed = true;
      for (const release of held.values()) release();
      held.clear();
    },
  };
}

export type HeldAnswers = ReturnType<typeof createHeldAnswers>;
