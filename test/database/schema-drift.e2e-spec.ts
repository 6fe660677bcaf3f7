import { DataSource } from 'typeorm';
import { dataSourceOptions, schemaDrift } from '@app/database';

/** The entities are the description of the tables: they must match what the migrations built. */
describe('entities and migrations', () => {
  it('describe the same schema (TypeORM would change nothing)', async () => {
    const ds = new DataSource(dataSourceOptions(process.env.DATABASE_URL!, 1));
    await ds.initialize();
    try {
      expect(await schemaDrift(ds)).toEqual([]);
    } finally {
      await ds.destroy();
    }
  });
});
