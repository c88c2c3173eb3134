// The login and registration limits under concurrency (CONTRACT §4, §14): every attempt is counted
// the moment it arrives, so requests already in flight cannot slip past; one address's flood is
// bounded so that another address's login stays fast at the real bcrypt cost.
import { beforeAll, describe, expect, it } from 'vitest';
import bcrypt from 'bcrypt';
import { eq, like } from 'drizzle-orm';
import { LOGIN_IP_LIMIT, LOGIN_RATE_LIMIT, REGISTER_RATE_LIMIT } from '@shared/constants';
import { ERR } from '@shared/labels';
import { configure } from '../../server/config';
import { users } from '../../server/db/tables';
import { PASSWORD, db, makeUser, setupApp, tx } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeAll(async () => {
  // Each scenario speaks from its own address through a trusted proxy on loopback.
  configure({ trustProxy: 'loopback' });
  ({ api } = await setupApp());
});
const fromIp = (ip: string) => ({ 'X-Forwarded-For': ip });

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('concurrent guessing', () => {
  it(`100 parallel wrong passwords for one account: at most ${LOGIN_RATE_LIMIT.max} are checked, the rest 429`, async () => {
    await makeUser('admin', { email: 'objetivo@test.local' });
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api()
          .post('/api/auth/login')
          .set(fromIp('10.5.0.1'))
          // one of them is the right password: it must not get through once the limit is reached
          .send({ email: 'objetivo@test.local', password: i === 99 ? PASSWORD : `mala-${i}` })
          .then((r) => r.status),
      ),
    );
    expect(count(statuses, 401) + count(statuses, 200)).toBeLessThanOrEqual(LOGIN_RATE_LIMIT.max);
    expect(count(statuses, 429)).toBeGreaterThanOrEqual(100 - LOGIN_RATE_LIMIT.max);
    expect(count(statuses, 500)).toBe(0);
  });

  it(
    `300 parallel registrations from one address: at most ${REGISTER_RATE_LIMIT.max} accounts`,
    { timeout: 60_000 },
    async () => {
      const statuses = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          api()
            .post('/api/auth/register')
            .set(fromIp('10.5.0.2'))
            .send({ email: `alud${i}@test.local`, password: 'segura-123', name: `Alud ${i}` })
            .then((r) => r.status),
        ),
      );
      const created = (await db.select().from(users).where(like(users.email, 'alud%'))).length;
      expect(count(statuses, 201)).toBeLessThanOrEqual(REGISTER_RATE_LIMIT.max);
      expect(created).toBe(count(statuses, 201));
      expect(count(statuses, 201) + count(statuses, 429)).toBe(300);
    },
  );

  it(`at most ${LOGIN_IP_LIMIT.failures} failures per address whatever the emails`, async () => {
    const ip = '10.5.0.3';
    for (let i = 0; i < LOGIN_IP_LIMIT.failures; i++)
      await api()
        .post('/api/auth/login')
        .set(fromIp(ip))
        .send({ email: `nadie${i}@test.local`, password: 'x' })
        .expect(401);
    await makeUser('gestor', { email: 'legit@test.local' });
    const blocked = await api()
      .post('/api/auth/login')
      .set(fromIp(ip))
      .send({ email: 'legit@test.local', password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ detail: ERR.tooManyAttempts });
    await api()
      .post('/api/auth/login')
      .set(fromIp('10.5.0.4'))
      .send({ email: 'legit@test.local', password: PASSWORD })
      .expect(200);
  });
});

describe('a flood from one address', () => {
  it(
    "300 random-email logins leave another address's real login answering in under 1 s at BCRYPT_COST 12",
    { timeout: 120_000 },
    async () => {
      configure({ bcryptCost: 12 });
      const { user } = await makeUser('manager', { email: 'real@test.local' });
      const passwordHash = bcrypt.hashSync(PASSWORD, 12);
      await tx(() => db.update(users).set({ passwordHash }).where(eq(users.id, user.id)));
      // the unknown-email comparison hash is built once; build it before timing anything
      await api()
        .post('/api/auth/login')
        .set(fromIp('10.6.0.9'))
        .send({ email: 'calenta@test.local', password: 'x' });

      let answered = 0;
      const flood = Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          api()
            .post('/api/auth/login')
            .set(fromIp('10.6.0.1'))
            .send({ email: `aleatorio${i}-${Math.random()}@test.local`, password: 'adivina' })
            .then((r) => {
              answered += 1;
              return r.status;
            }),
        ),
      );
      // Past the burst of instant refusals: what is left of the flood is the bcrypt work its gate lets
      // through, seconds of it still to come.
      while (answered < 240) await new Promise((r) => setTimeout(r, 20));
      expect(answered).toBeLessThan(300);
      const started = performance.now();
      const real = await api()
        .post('/api/auth/login')
        .set(fromIp('10.6.0.2'))
        .send({ email: 'real@test.local', password: PASSWORD });
      const elapsed = performance.now() - started;
      const statuses = await flood;
      configure({ bcryptCost: 4 });

      expect(real.status).toBe(200);
      expect(elapsed).toBeLessThan(1000);
      // the flood was bounded: most of it refused at once, nothing else went wrong
      expect(count(statuses, 429)).toBeGreaterThan(150);
      expect(count(statuses, 401) + count(statuses, 429)).toBe(300);
    },
  );
});
