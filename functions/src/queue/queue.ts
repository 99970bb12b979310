// The queue interfaces both apps send through: the crawl queue (one message per analysis, in its user's
// group, optionally delayed) and the report queue (accepted reports, sent before the request is answered).

export interface SendOptions {
  /**
   * The tenant the message belongs to (the analysis' user id). SQS fair queues (a standard queue whose
   * messages carry a MessageGroupId) keep a tenant with a backlog from delaying the others; the local queue
   * delivers round-robin by group.
   */
  group: string;
  delaySeconds?: number;
}

export interface MessageQueue<M extends object = object> {
  send(message: M, options: SendOptions): Promise<void>;
}

/** Sends a started analysis to the crawler (SQS in AWS, the in-process queue locally). */
export type AnalysisQueue = MessageQueue<{ analysisId: string }>;

/** Resolves only once every message is stored durably (SQS, or the local queue's file). */
export interface DurableQueue<M extends object = object> {
  sendAll(messages: readonly M[]): Promise<void>;
}
