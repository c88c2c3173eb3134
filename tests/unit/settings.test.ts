// What nodes must share (CONTRACT §18): sharedSetting() writes a generated value once, however many
// callers ask at the same moment; on PostgreSQL a server started without JWT_SECRET takes its secret from
// there (SQLite keeps its generated secret as a file in the data folder, config.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { configure, config } from '../../server/config';
import { db, isPostgres } from '../../server/db';
import { appSettings } from '../../server/db/tables';
import { JWT_SECRET_SETTING } from '../../server/config';
import { sharedSetting } from '../../server/services/settings';
import supertest from 'supertest';
import { startServer } from '../../server/server';
import { PASSWORD, setupDb, setupServer } from '../helpers/context';

const rowsOf = (key: string) => db.select().from(appSettings).where(eq(appSettings.key, key));

describe('sharedSetting', () => {
  it('keeps the first value; callers at the same moment all get it', async () => {
    await setupDb();
    let made = 0;
    const values = await Promise.all(
      Array.from({ length: 8 }, () => sharedSetting('probe', () => `value-${++made}`)),
    );
    expect(new Set(values).size).toBe(1);
    expect(await rowsOf('probe')).toEqual([{ key: 'probe', value: values[0] }]);
    expect(await sharedSetting('probe', () => 'another')).toBe(values[0]);
  });
});

describe('the JWT secret of a server started without JWT_SECRET', () => {
  const given = config.jwtSecret;
  afterEach(() => void configure({ jwtSecret: given }));

  it(
    isPostgres ? 'is generated once into the database' : 'is not kept in the database (SQLite: a file)',
    async () => {
      if (!isPostgres) {
        const server = await setupServer();
        await server.close();
        await setupDb();
        expect(await rowsOf(JWT_SECRET_SETTING)).toEqual([]);
        return;
      }
      configure({ jwtSecret: '' });
      const first = await setupServer();
      const generated = config.jwtSecret;
      expect(generated).toMatch(/^[0-9a-f]{96}$/);
      await first.close();
      // Another node on the same database, started with no secret of its own, takes the one kept there.
      configure({ jwtSecret: '' });
      const second = await startServer({ port: 0, host: '127.0.0.1', print: () => {} });
      try {
        expect(config.jwtSecret).toBe(generated);
        expect(await rowsOf(JWT_SECRET_SETTING)).toEqual([{ key: JWT_SECRET_SETTING, value: generated }]);
        // Its tokens are signed with it: a login works end to end.
        const login = await supertest(second.http)
          .post('/api/auth/login')
          .send({ email: 'root@test.local', password: PASSWORD });
        expect(login.status).toBe(200);
        await supertest(second.http)
          .get('/api/dashboard/stats')
          .set('Authorization', `Bearer ${login.body.access_token}`)
          .expect(200);
      } finally {
        await second.close();
      }
    },
  );
});
