import { randomBase62 } from '@app/core';

/** A webhook delivery id (the `webhook-id` header of every attempt), e.g. msg_3kTMd92jf8AbQx0PzLw1Rv. */
export function newDeliveryId(): string {
  return `msg_${randomBase62(22)}`;
}
