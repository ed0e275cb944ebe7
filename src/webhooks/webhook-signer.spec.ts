import { Webhook } from 'standardwebhooks';
import { activeSecrets, newSecret, ROTATION_OVERLAP_MS, signedHeaders } from './webhook-signer.js';

describe('the webhook signer', () => {
  it('signs so that the standardwebhooks package verifies', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ type: 'TURN', timestamp: new Date().toISOString(), data: {} });
    const headers = signedHeaders('msg_1', body, new Date(), [secret]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });

  it('signs with the previous secret too for 24 h after a rotation', () => {
    const keys = { secret: 'whsec_new', previousSecret: 'whsec_old', rotatedAt: new Date('2026-12-01T00:00:00Z') };
    expect(activeSecrets(keys, new Date(keys.rotatedAt.getTime() + ROTATION_OVERLAP_MS - 1))).toEqual(['whsec_new', 'whsec_old']);
    expect(activeSecrets(keys, new Date(keys.rotatedAt.getTime() + ROTATION_OVERLAP_MS))).toEqual(['whsec_new']);
    expect(activeSecrets({ ...keys, previousSecret: null, rotatedAt: null }, new Date())).toEqual(['whsec_new']);
  });
});
