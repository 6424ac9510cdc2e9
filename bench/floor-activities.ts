// The floor's one activity: it does nothing but return its input, so a round trip through it costs only what
// Temporal and the worker cost.
export function createFloorActivities() {
  return {
    async echo(text: string): Promise<string> {
      return text;
    },
  };
}

export type FloorActivities = ReturnType<typeof createFloorActivities>;
