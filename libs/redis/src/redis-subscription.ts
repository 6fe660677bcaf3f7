import Redis from 'ioredis';

interface ChannelHandlers {
  /** The subscription is confirmed: on the first connection and after every reconnection. */
  live(): void;
  /** The subscription is lost (messages may be missed until `live` again). */
  down(reason: string): void;
  message(message: string): void;
}

export interface ChannelSubscription {
  /** Ends the subscription and its connection (shutdown). */
  close(): Promise<void>;
}

/**
 * A dedicated subscriber connection (a duplicate of `redis`) to one Redis pub/sub channel,
 * re-subscribed on every reconnection; `live` only once Redis has confirmed the
 * subscription, `down` whenever the connection closes. Used by the cross-instance
 * notifications: key-cache invalidation and site-audit job events.
 */
export function subscribeChannel(
  redis: Redis,
  channel: string,
  handlers: ChannelHandlers,
): ChannelSubscription {
  const sub = redis.duplicate({
    enableAutoPipelining: false,
    enableOfflineQueue: false,
    autoResubscribe: false,
    maxRetriesPerRequest: null,
    lazyConnect: false,
  });
  sub.on('ready', () => {
    sub.subscribe(channel).then(
      () => handlers.live(),
      (err: Error) => handlers.down(`subscribe failed: ${err.message}`),
    );
  });
  sub.on('close', () => handlers.down('connection closed'));
  sub.on('error', () => undefined); // reconnects by itself; 'close' reports it down
  sub.on('message', (from: string, message: string) => {
    if (from === channel) handlers.message(message);
  });
  return {
    close: async () => {
      await sub.quit().catch(() => sub.disconnect());
    },
  };
}
