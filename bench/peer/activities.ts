// The peer's one tool, as an activity: the balance CurrentPTO answers for the bench's employee.
export async function currentPto({ email }: { email: string }) {
  return { email, name: 'Ada Lovelace', hoursLeft: 104, daysLeft: 13 };
}
