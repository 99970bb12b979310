// The queue interfaces both apps send through: the crawl queue (one message per analysis, optionally
// delayed) and the report queue (accepted reports, sent before the request is answered).

export interface MessageQueue<M extends object = object> {
  send(message: M, delaySeconds?: number): Promise<void>;
}

/** Resolves only once every message is stored durably (SQS, or the local queue's file). */
export interface DurableQueue<M extends object = object> {
  sendAll(messages: readonly M[]): Promise<void>;
}
