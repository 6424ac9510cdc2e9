// The search attributes conversations keep (workflows/search-attributes.ts) must exist on the server before a
// workflow may set them: the worker registers the missing ones at start. Where it may not (a cloud namespace
// without operator rights, the time-skipping test server), conversations simply do without, and it says so.
import type { NativeConnection } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../workflows/search-attributes';

const KEYWORD = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

/** Dev server flags that register them at start (`temporal server start-dev`). */
export const DEV_SERVER_SEARCH_ATTRIBUTES = SEARCH_ATTRIBUTES.flatMap((key) => [
  '--search-attribute',
  `${key.name}=Keyword`,
]);

/** Registers the missing search attributes; true when all exist afterwards. */
export async function registerSearchAttributes(
  connection: NativeConnection,
  namespace: string,
  warn: (message: string) => void,
): Promise<boolean> {
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    // One of our names registered with another type would fail every upsert: do without rather than wedge.
    const clash = SEARCH_ATTRIBUTES.find(
      (key) => customAttributes?.[key.name] !== undefined && customAttributes[key.name] !== KEYWORD,
    );
    if (clash) throw new Error(`${clash.name} is registered with another type than Keyword`);
    const missing = SEARCH_ATTRIBUTES.filter((key) => !customAttributes?.[key.name]);
    if (missing.length) {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((key) => [key.name, KEYWORD])),
      });
    }
    return true;
  } catch (err) {
    warn(
      `conversations will not be searchable by goal, state or owner: registering their search attributes failed (${(err as Error).message})`,
    );
    return false;
  }
}
