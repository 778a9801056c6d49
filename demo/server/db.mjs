// The shop's database: PGlite (PostgreSQL compiled to WebAssembly) in a folder on disk, no server to
// install or run. One process at a time opens a folder (the launcher locks it).
import { PGlite } from '@electric-sql/pglite';

/** @typedef {{ query(text: string, values?: unknown[]): Promise<{ rows: any[] }>, close(): Promise<void> }} Database */

/** Opens (or, the first time, creates) the database in this folder. @param {string} folder @returns {Promise<Database>} */
export async function openDatabase(folder) {
  const db = await PGlite.create(folder);
  return { query: (text, values) => db.query(text, values), close: () => db.close() };
}
