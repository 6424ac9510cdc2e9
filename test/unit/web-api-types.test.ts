// The web chat's types for the API's answers (web/api-types.ts: the browser imports only core/) against the API's own
// schemas (api/schemas.ts, from which its OpenAPI document is made), checked by the compiler: a field renamed, retyped
// or dropped on either side fails `npm run typecheck` and this file. The web may leave out fields it does not read.
// Where the schema is loose on purpose (a message, a question's fields: `{kind, …}` passed through), the web's closer
// type is held to the field's presence only.
import type { z } from 'zod';
import type * as Api from '../../api/schemas';
import type * as MemoryApi from '../../api/memory-routes';
import type * as ScheduleApi from '../../api/schedule-routes';
import type * as TriggerApi from '../../api/triggers/trigger-schemas';
import type * as Web from '../../web/api-types';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

/** Every field the web names is one the schema has; each but the `Loose` ones of the same type. */
type Agrees<W, S, Loose extends keyof W = never> =
  Same<Exclude<keyof W, keyof S>, never> extends true
    ? false extends {
        [K in Exclude<keyof W, Loose>]-?: K extends keyof S
          ? Same<Exclude<W[K], undefined>, Exclude<S[K], undefined>>
          : false;
      }[Exclude<keyof W, Loose>]
      ? false
      : true
    : false;

export type Checks = [
  Expect<Agrees<Web.Conversation, z.output<typeof Api.Conversation>, 'messages' | 'question'>>,
  Expect<Agrees<Web.ConversationSummary, z.output<typeof Api.ConversationSummary>>>,
  Expect<Agrees<Web.Started, z.output<typeof Api.Started>, 'greeting'>>,
  Expect<Agrees<Web.Schedule, z.output<typeof ScheduleApi.Summary>>>,
  Expect<Agrees<Web.ScheduleRequest, z.input<typeof ScheduleApi.CreateBody>>>,
  Expect<Agrees<Web.UnattendedRunRecord, z.output<typeof TriggerApi.UnattendedRunRecord>>>,
  Expect<Agrees<Web.TriggerList['triggers'][number], z.output<typeof TriggerApi.TriggerList>['triggers'][number]>>,
  Expect<Agrees<Web.Memory, z.output<typeof MemoryApi.MemorySchema>, 'source'>>,
  Expect<Agrees<Web.MemoryUse, z.output<typeof MemoryApi.MemoryUseSchema>>>,
];

describe("the web chat's API types", () => {
  it('agree with the API schemas: the compiler checks `Checks` when it compiles this file', () => {
    const summary: (keyof Web.ConversationSummary)[] = ['id', 'goal', 'state', 'owner', 'title', 'startedAt'];
    expect(summary).toHaveLength(6);
  });
});
