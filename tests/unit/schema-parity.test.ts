// The SQLite schema (server/db/schema.ts) and the PostgreSQL one (server/db/schema-pg.ts) describe the same
// tables: same names, columns, nullability, defaults, row types, primary keys, foreign keys and indexes.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { is, SQL, StringChunk, sql } from 'drizzle-orm';
import { Column } from 'drizzle-orm';
import * as pgCore from 'drizzle-orm/pg-core';
import * as sqliteCore from 'drizzle-orm/sqlite-core';
import * as sqliteSchema from '../../server/db/schema';
import * as pgSchema from '../../server/db/schema-pg';

/** What a column holds, in words both engines share. */
type Kind = 'text' | 'integer' | 'epoch-ms' | 'boolean' | 'real' | 'serial' | 'blob';

/**
 * The PostgreSQL column types each kind may take: an SQLite integer is a PostgreSQL integer or bigint; its
 * epoch-ms times must be bigint (they exceed 2^31); an auto-increment id is a serial or bigserial; an
 * integer boolean is a boolean; real is double precision or real; a blob is a bytea.
 */
const PG_TYPES: Record<Kind, string[]> = {
  text: ['text'],
  integer: ['integer', 'bigint'],
  'epoch-ms': ['bigint'],
  boolean: ['boolean'],
  real: ['double precision', 'real'],
  serial: ['serial', 'bigserial'],
  blob: ['bytea'],
};

interface ColumnShape {
  notNull: boolean;
  /** SQLite: its kind; PostgreSQL: its SQL type. */
  type: string;
  default: string | undefined;
  unique: boolean;
}
interface TableShape {
  columns: Map<string, ColumnShape>;
  primaryKey: string;
  indexes: Map<string, string>;
  foreignKeys: Set<string>;
  uniqueConstraints: Set<string>;
}

function sqlText(value: SQL): string {
  return value.queryChunks
    .map((chunk) => {
      if (is(chunk, StringChunk)) return chunk.value.join('');
      if (is(chunk, Column)) return chunk.name;
      if (is(chunk, SQL)) return sqlText(chunk);
      return String(chunk);
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** SQLite writes booleans as 1/0, PostgreSQL as true/false: compared in the PostgreSQL form. */
const pgBooleans = (text: string) => text.replace(/=\s*1\b/g, '= true').replace(/=\s*0\b/g, '= false');

function defaultText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (is(value, SQL)) return pgBooleans(sqlText(value));
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  return String(value);
}

const indexColumnName = (c: unknown) => (is(c, SQL) ? sqlText(c) : (c as { name: string }).name);

function sqliteKind(column: sqliteCore.SQLiteColumn): Kind | string {
  const sqlType = column.getSQLType();
  if (column.columnType === 'SQLiteBoolean') return 'boolean';
  if (column.columnType === 'SQLiteTimestamp') return 'epoch-ms';
  if (sqlType === 'integer' && (column as { autoIncrement?: boolean }).autoIncrement) return 'serial';
  if (sqlType === 'integer' || sqlType === 'text' || sqlType === 'real' || sqlType === 'blob') return sqlType;
  return `sqlite ${sqlType}`;
}

type AnyTableConfig = {
  name: string;
  columns: Column[];
  indexes: { config: { name?: string; columns: unknown[]; unique: boolean; where?: SQL } }[];
  primaryKeys: { columns: Column[] }[];
  foreignKeys: {
    reference(): { columns: Column[]; foreignColumns: Column[]; foreignTable: object };
    onDelete?: string;
    onUpdate?: string;
  }[];
  uniqueConstraints: { name?: string; columns: Column[] }[];
};

function shape(config: AnyTableConfig, columnType: (c: Column) => string, where: (s: string) => string) {
  const table: TableShape = {
    columns: new Map(),
    primaryKey: '',
    indexes: new Map(),
    foreignKeys: new Set(),
    uniqueConstraints: new Set(),
  };
  const pk: string[] = [];
  for (const c of config.columns) {
    if (c.primary) pk.push(c.name);
    table.columns.set(c.name, {
      notNull: c.notNull,
      type: columnType(c),
      default: defaultText(c.default),
      unique: c.isUnique,
    });
  }
  for (const p of config.primaryKeys) pk.push(...p.columns.map((c) => c.name));
  table.primaryKey = pk.join(', ');
  for (const { config: ix } of config.indexes) {
    const cond = ix.where ? ` WHERE ${where(sqlText(ix.where))}` : '';
    table.indexes.set(
      ix.name ?? '(unnamed)',
      `${ix.unique ? 'unique ' : ''}(${ix.columns.map(indexColumnName).join(', ')})${cond}`,
    );
  }
  for (const fk of config.foreignKeys) {
    const ref = fk.reference();
    const target = (ref.foreignTable as { [k: symbol]: string })[Symbol.for('drizzle:Name')];
    table.foreignKeys.add(
      `(${ref.columns.map((c) => c.name).join(', ')}) → ${target}(${ref.foreignColumns.map((c) => c.name).join(', ')})` +
        ` on delete ${fk.onDelete ?? 'no action'} on update ${fk.onUpdate ?? 'no action'}`,
    );
  }
  for (const u of config.uniqueConstraints) {
    table.uniqueConstraints.add(`${u.name ?? ''}(${u.columns.map((c) => c.name).join(', ')})`);
  }
  return table;
}

function sqliteTables(mod: Record<string, unknown>): Map<string, TableShape> {
  const out = new Map<string, TableShape>();
  for (const value of Object.values(mod)) {
    if (!is(value, sqliteCore.SQLiteTable)) continue;
    const config = sqliteCore.getTableConfig(value) as unknown as AnyTableConfig;
    out.set(
      config.name,
      shape(config, (c) => sqliteKind(c as sqliteCore.SQLiteColumn), pgBooleans),
    );
  }
  return out;
}

function pgTables(mod: Record<string, unknown>): Map<string, TableShape> {
  const out = new Map<string, TableShape>();
  for (const value of Object.values(mod)) {
    if (!is(value, pgCore.PgTable)) continue;
    const config = pgCore.getTableConfig(value) as unknown as AnyTableConfig;
    out.set(
      config.name,
      shape(
        config,
        (c) => (c as pgCore.PgColumn).getSQLType(),
        (s) => s,
      ),
    );
  }
  return out;
}

function compareSets(where: string, what: string, a: Set<string>, b: Set<string>, out: string[]): void {
  for (const x of a) if (!b.has(x)) out.push(`${where}: ${what} ${x} only in SQLite`);
  for (const x of b) if (!a.has(x)) out.push(`${where}: ${what} ${x} only in PostgreSQL`);
}

/**
 * The differences between a SQLite schema module and a PostgreSQL one (every table each exports), as
 * readable lines; empty when they describe the same tables.
 */
function compareSchemas(sqliteModule: Record<string, unknown>, pgModule: Record<string, unknown>): string[] {
  const out: string[] = [];
  const a = sqliteTables(sqliteModule);
  const b = pgTables(pgModule);
  compareSets('schema', 'table', new Set(a.keys()), new Set(b.keys()), out);
  for (const [name, left] of a) {
    const right = b.get(name);
    if (!right) continue;
    compareSets(name, 'column', new Set(left.columns.keys()), new Set(right.columns.keys()), out);
    for (const [col, l] of left.columns) {
      const r = right.columns.get(col);
      if (!r) continue;
      const at = `${name}.${col}`;
      if (l.notNull !== r.notNull)
        out.push(`${at}: not null ${l.notNull} in SQLite, ${r.notNull} in PostgreSQL`);
      const allowed = PG_TYPES[l.type as Kind];
      if (!allowed?.includes(r.type)) out.push(`${at}: SQLite ${l.type} cannot be PostgreSQL ${r.type}`);
      if (l.default !== r.default)
        out.push(`${at}: default ${l.default} in SQLite, ${r.default} in PostgreSQL`);
      if (l.unique !== r.unique) out.push(`${at}: unique ${l.unique} in SQLite, ${r.unique} in PostgreSQL`);
    }
    if (left.primaryKey !== right.primaryKey) {
      out.push(`${name}: primary key (${left.primaryKey}) in SQLite, (${right.primaryKey}) in PostgreSQL`);
    }
    compareSets(name, 'index', new Set(left.indexes.keys()), new Set(right.indexes.keys()), out);
    for (const [ix, l] of left.indexes) {
      const r = right.indexes.get(ix);
      if (r !== undefined && r !== l) out.push(`${name}: index ${ix} is ${l} in SQLite, ${r} in PostgreSQL`);
    }
    compareSets(name, 'foreign key', left.foreignKeys, right.foreignKeys, out);
    compareSets(name, 'unique constraint', left.uniqueConstraints, right.uniqueConstraints, out);
  }
  return out;
}

/** The row types the services see, table by table, for one schema module. */
type Rows<S> = {
  [K in keyof S as S[K] extends { $inferSelect: unknown } ? K : never]: S[K] extends { $inferSelect: infer R }
    ? R
    : never;
};
type Inserts<S> = {
  [K in keyof S as S[K] extends { $inferInsert: unknown } ? K : never]: S[K] extends { $inferInsert: infer R }
    ? R
    : never;
};

describe('the SQLite and PostgreSQL schemas', () => {
  it('give the services the same row types (Dates for times, parsed JSON, booleans): checked by tsc', () => {
    expectTypeOf<Rows<typeof pgSchema>>().toEqualTypeOf<Rows<typeof sqliteSchema>>();
    expectTypeOf<Inserts<typeof pgSchema>>().toEqualTypeOf<Inserts<typeof sqliteSchema>>();
    // And at run time: a time column reads back a Date, task_types its array.
    const tasksCreatedAt = pgSchema.tasks.createdAt;
    expect(tasksCreatedAt.mapFromDriverValue('1764000000000')).toEqual(new Date(1764000000000));
    expect(tasksCreatedAt.mapToDriverValue(new Date(1764000000000))).toBe(1764000000000);
    expect(pgSchema.users.taskTypes.mapFromDriverValue('["swap"]')).toEqual(['swap']);
    expect(pgSchema.users.taskTypes.mapToDriverValue(['swap', 'semiremolque'])).toBe(
      '["swap","semiremolque"]',
    );
  });

  it('describe the same tables, columns, keys and indexes', () => {
    expect(compareSchemas(sqliteSchema, pgSchema)).toEqual([]);
    // Every table is compared (not two empty lists).
    expect(sqliteTables(sqliteSchema).size).toBe(26);
  });

  it('reports a table missing from one of them', () => {
    const { pushSubscriptions: _gone, ...pgWithout } = pgSchema;
    expect(compareSchemas(sqliteSchema, pgWithout)).toEqual([
      'schema: table push_subscriptions only in SQLite',
    ]);
  });

  // Small tables of each engine, one altered at a time.
  const sqliteT = {
    t: sqliteCore.sqliteTable(
      't',
      {
        id: sqliteCore.integer('id').primaryKey({ autoIncrement: true }),
        name: sqliteCore.text('name').notNull(),
        flag: sqliteCore.integer('flag', { mode: 'boolean' }).notNull().default(false),
        count: sqliteCore.integer('count').notNull().default(0),
        at: sqliteCore.integer('at', { mode: 'timestamp_ms' }),
        ratio: sqliteCore.real('ratio'),
      },
      (t) => [
        sqliteCore
          .uniqueIndex('t_name')
          .on(t.name)
          .where(sql`flag = 1`),
        sqliteCore.index('t_at').on(t.at, t.count),
      ],
    ),
  };
  type PgOverrides = {
    columns?: Record<string, pgCore.PgColumnBuilderBase>;
    indexes?: (t: Record<string, pgCore.AnyPgColumn>) => pgCore.PgTableExtraConfigValue[];
    name?: string;
  };
  const pgT = (o: PgOverrides = {}) => ({
    t: pgCore.pgTable(
      o.name ?? 't',
      {
        id: pgCore.bigserial('id', { mode: 'number' }).primaryKey(),
        name: pgCore.text('name').notNull(),
        flag: pgCore.boolean('flag').notNull().default(false),
        count: pgCore.integer('count').notNull().default(0),
        at: pgCore.bigint('at', { mode: 'number' }),
        ratio: pgCore.doublePrecision('ratio'),
        ...o.columns,
      },
      (t) =>
        o.indexes?.(t) ?? [
          pgCore
            .uniqueIndex('t_name')
            .on(t.name)
            .where(sql`flag = true`),
          pgCore.index('t_at').on(t.at, t.count),
        ],
    ),
  });

  it('finds no difference between two tables that match (booleans as 1 and as true)', () => {
    expect(compareSchemas(sqliteT, pgT())).toEqual([]);
  });

  it('reports every kind of difference', () => {
    expect(compareSchemas(sqliteT, pgT({ name: 'u' }))).toEqual([
      'schema: table t only in SQLite',
      'schema: table u only in PostgreSQL',
    ]);
    expect(compareSchemas(sqliteT, pgT({ columns: { extra: pgCore.text('extra') } }))).toEqual([
      't: column extra only in PostgreSQL',
    ]);
    expect(compareSchemas(sqliteT, pgT({ columns: { name: pgCore.text('name') } }))).toEqual([
      't.name: not null true in SQLite, false in PostgreSQL',
    ]);
    expect(compareSchemas(sqliteT, pgT({ columns: { at: pgCore.integer('at') } }))).toEqual([
      't.at: SQLite epoch-ms cannot be PostgreSQL integer',
    ]);
    expect(
      compareSchemas(sqliteT, pgT({ columns: { flag: pgCore.integer('flag').notNull().default(0) } })),
    ).toEqual([
      't.flag: SQLite boolean cannot be PostgreSQL integer',
      't.flag: default false in SQLite, 0 in PostgreSQL',
    ]);
    expect(
      compareSchemas(sqliteT, pgT({ columns: { count: pgCore.integer('count').notNull().default(1) } })),
    ).toEqual(['t.count: default 0 in SQLite, 1 in PostgreSQL']);
    expect(
      compareSchemas(sqliteT, pgT({ columns: { id: pgCore.bigint('id', { mode: 'number' }).primaryKey() } })),
    ).toEqual(['t.id: SQLite serial cannot be PostgreSQL bigint']);
    expect(
      compareSchemas(sqliteT, pgT({ columns: { id: pgCore.bigserial('id', { mode: 'number' }) } })),
    ).toEqual(['t: primary key (id) in SQLite, () in PostgreSQL']);
    expect(
      compareSchemas(
        sqliteT,
        pgT({
          indexes: (t) => [
            pgCore
              .index('t_name')
              .on(t.name)
              .where(sql`flag = true`),
            pgCore.index('t_at').on(t.at, t.count),
          ],
        }),
      ),
    ).toEqual([
      't: index t_name is unique (name) WHERE flag = true in SQLite, (name) WHERE flag = true in PostgreSQL',
    ]);
    expect(
      compareSchemas(
        sqliteT,
        pgT({
          indexes: (t) => [pgCore.uniqueIndex('t_name').on(t.name), pgCore.index('t_at').on(t.count, t.at)],
        }),
      ),
    ).toEqual([
      't: index t_name is unique (name) WHERE flag = true in SQLite, unique (name) in PostgreSQL',
      't: index t_at is (at, count) in SQLite, (count, at) in PostgreSQL',
    ]);
    expect(
      compareSchemas(
        sqliteT,
        pgT({
          indexes: (t) => [
            pgCore
              .uniqueIndex('t_name')
              .on(t.name)
              .where(sql`flag = true`),
          ],
        }),
      ),
    ).toEqual(['t: index t_at only in SQLite']);
  });
});
