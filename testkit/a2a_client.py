"""A foreign A2A client for the interop tests: the official Python SDK (a2a-sdk, from PyPI) drives one of our agents.

Usage: python3 a2a_client.py <agent base URL> <bearer key> <JSONRPC|HTTP+JSON> <stream|send> '<JSON list of texts>'

Each text is sent in turn; a text after a task that waits for input answers that task (its task id), any other
continues the conversation (the context id). One JSON line per message: the kinds of events the client received,
then the task as GetTask reads it (state, the status message's text, the artifact's text).
"""

import asyncio
import json
import sys
import uuid

import httpx
from a2a.client import ClientConfig, create_client
from a2a.types import a2a_pb2 as pb


def text_of(parts) -> str:
    return "\n".join(p.text for p in parts if p.HasField("text"))


async def main() -> None:
    base, key, binding, mode, texts = sys.argv[1:6]
    http = httpx.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
    config = ClientConfig(httpx_client=http, supported_protocol_bindings=[binding], streaming=mode == "stream")
    client = await create_client(base, client_config=config)
    context_id = task_id = None
    waiting = False
    for text in json.loads(texts):
        message = pb.Message(message_id=str(uuid.uuid4()), role=pb.ROLE_USER, parts=[pb.Part(text=text)])
        if context_id:
            message.context_id = context_id
        if waiting:
            message.task_id = task_id
        kinds = []
        async for event in client.send_message(pb.SendMessageRequest(message=message)):
            kind = event.WhichOneof("payload")
            kinds.append(kind)
            if kind == "task":
                task_id, context_id = event.task.id, event.task.context_id
        task = await client.get_task(pb.GetTaskRequest(id=task_id))
        waiting = task.status.state == pb.TASK_STATE_INPUT_REQUIRED
        print(
            json.dumps(
                {
                    "events": kinds,
                    "taskId": task.id,
                    "contextId": task.context_id,
                    "state": pb.TaskState.Name(task.status.state),
                    "status": text_of(task.status.message.parts),
                    "artifact": "\n".join(text_of(a.parts) for a in task.artifacts),
                }
            ),
            flush=True,
        )
    await http.aclose()


asyncio.run(main())
