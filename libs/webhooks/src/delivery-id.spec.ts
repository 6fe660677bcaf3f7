import { newDeliveryId } from './delivery-id';

describe('webhook delivery ids', () => {
  it('are msg_ plus 22 base62 characters, unique in a large sample', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newDeliveryId()));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-Za-z]{22}$/);
  });
});
