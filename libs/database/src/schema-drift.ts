import { DataSource } from 'typeorm';

/**
 * The statements TypeORM would run to make the database match the entities (what
 * `migration:generate --check` looks at). Empty when the entities describe the migrated
 * schema exactly; anything else means an entity and a migration disagree.
 */
export async function schemaDrift(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((q) => q.query.replace(/\s+/g, ' ').trim());
}
