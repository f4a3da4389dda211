// A start against a PostgreSQL database that does not exist ends with one line naming it and the
// command that creates it (a busy port gets one line too), not a stack trace.
import { missingDatabaseLine } from '../../src/process/missing-database.js';

/** What `pg` rejects with when the database is missing (SQLSTATE 3D000, invalid_catalog_name). */
const missing = Object.assign(new Error('database "ledger_x" does not exist'), { code: '3D000' });

it('names the database and the createdb command for the server DATABASE_URL names, without its password', () => {
  expect(missingDatabaseLine(missing, 'postgres://app:secret@db.example:5433/ledger_x?sslmode=require')).toBe(
    'database "ledger_x" does not exist: create it with `createdb -h db.example -p 5433 -U app ledger_x` ' +
      '(or CREATE DATABASE in psql), or set DATABASE_URL to an existing database',
  );
});

it('takes the first host of a multi-host URL and leaves out what the URL does not name', () => {
  expect(
    missingDatabaseLine(missing, 'postgresql://h1,h2:5434/ledger_x?target_session_attrs=read-write'),
  ).toBe(
    'database "ledger_x" does not exist: create it with `createdb -h h1 -p 5432 ledger_x` ' +
      '(or CREATE DATABASE in psql), or set DATABASE_URL to an existing database',
  );
});

it('is null for any other error', () => {
  expect(missingDatabaseLine(new Error('connect ECONNREFUSED'), 'postgres://h/db')).toBeNull();
  expect(missingDatabaseLine(Object.assign(new Error('x'), { code: '28P01' }), 'postgres://h/db')).toBeNull();
  expect(missingDatabaseLine(missing, null)).toBeNull();
});
