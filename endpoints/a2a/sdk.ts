// The A2A SDK (@a2a-js/sdk), loaded in one place: the package is ESM with a CommonJS build, so its types are read as
// ESM and its code loaded as CommonJS (as testkit/promql.ts does). Our A2A server (api/a2a/) and our calls to remote
// A2A agents (endpoints/a2a/) take what they use from here.
import type * as Core from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type * as Errors from '@a2a-js/sdk/errors' with { 'resolution-mode': 'import' };
import type * as ServerExpress from '@a2a-js/sdk/server/express' with { 'resolution-mode': 'import' };
import type * as Server from '@a2a-js/sdk/server' with { 'resolution-mode': 'import' };
import type * as ClientSdk from '@a2a-js/sdk/client' with { 'resolution-mode': 'import' };

/* eslint-disable @typescript-eslint/no-require-imports */
export const a2a = require('@a2a-js/sdk') as typeof Core;
export const a2aErrors = require('@a2a-js/sdk/errors') as typeof Errors;
/** Loaded when the API mounts A2A (it brings express). */
export const a2aExpress = (): typeof ServerExpress => require('@a2a-js/sdk/server/express') as typeof ServerExpress;
export const a2aClient = (): typeof ClientSdk => require('@a2a-js/sdk/client') as typeof ClientSdk;
/* eslint-enable @typescript-eslint/no-require-imports */

export const { Role, TaskState } = a2a;
export type Role = Core.Role;
export type TaskState = Core.TaskState;
export type Task = Core.Task;
export type Message = Core.Message;
export type Part = Core.Part;
export type Artifact = Core.Artifact;
export type AgentCard = Core.AgentCard;
export type AgentSkill = Core.AgentSkill;
export type StreamResponse = Core.StreamResponse;
export type SendMessageRequest = Core.SendMessageRequest;
export type GetTaskRequest = Core.GetTaskRequest;
export type ListTasksRequest = Core.ListTasksRequest;
export type ListTasksResponse = Core.ListTasksResponse;
export type CancelTaskRequest = Core.CancelTaskRequest;
export type SubscribeToTaskRequest = Core.SubscribeToTaskRequest;
export type A2ARequestHandler = Server.A2ARequestHandler;
export type ServerCallContext = Server.ServerCallContext;
export type A2AClient = ClientSdk.Client;

/** A text part, with the fields the SDK's types require left empty. */
export function textPart(value: string): Core.Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' };
}

/** The words of a message: its text parts, one per line. */
export function textOf(message: Core.Message | undefined): string {
  return (message?.parts ?? []).flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');
}
